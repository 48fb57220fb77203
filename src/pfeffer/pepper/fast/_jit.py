"""A typed ``numba.njit(cache=True)`` for the kernels (numba itself has no type hints).

>>> from pfeffer.pepper.fast.kernel import popcount   # a function compiled by ``jit``
>>> popcount(0b1011)
3
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """Compile ``fn`` in nopython mode, caching the machine code next to the source."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


__all__ = ["jit"]
