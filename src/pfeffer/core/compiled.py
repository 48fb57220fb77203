"""Compiling chosen numba kernels with LLVM's SLP vectorizer.

numba switches the superword-level (SLP) vectorizer off for every function since 0.57, after
miscompilations were reported (numba issues #8705, #8681, pull request #8852). Without it the
side-by-side lanes of float64 (:mod:`pfeffer.dice.solver.lanes`) stay scalar compares and
conditional moves; with it every four of them become one 256-bit compare, maximum and blend. So
it is switched on only while the kernels named here compile (and the functions they call that are
compiled with them), and every such kernel is checked against a scalar reference bit for bit in
the tests (tests/dice/test_solver_lanes.py).

numba's on-disk cache does not key on this setting; a kernel always compiles through the
wrapper, so its cache entries are always the vectorized ones.

>>> from numba import njit
>>> @slp_vectorized
... @njit
... def total(a):
...     return a[0] + a[1]
>>> import numpy as np
>>> float(total(np.array([1.0, 2.0])))
3.0
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, TypeVar

from numba.core import config as _config

D = TypeVar("D")
config: Any = _config


@contextlib.contextmanager
def _slp_on() -> Iterator[None]:
    """numba's SLP vectorizer on while the block runs (numba compiles under a global lock)."""
    old = config.SLP_VECTORIZE
    config.SLP_VECTORIZE = 1
    try:
        yield
    finally:
        config.SLP_VECTORIZE = old


def slp_vectorized(dispatcher: D) -> D:
    """``dispatcher`` (an ``njit`` function) compiled with the SLP vectorizer: its ``compile``,
    which numba calls for every new signature, also when another kernel calls it, runs with the
    vectorizer on."""
    d: Any = dispatcher
    original = d.compile

    def compile(sig: Any) -> Any:
        with _slp_on():
            return original(sig)

    d.compile = compile
    return dispatcher
