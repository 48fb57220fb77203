"""The one way the package compiles numba kernels: :func:`jit`.

Every kernel is ``numba.njit`` in nopython mode, cached on disk next to its source
(``cache=True``) and releasing the GIL while it runs (``nogil=True``), typed for mypy (numba has
no type hints). Options: ``inline`` (inlined into its callers at numba's IR level: small helpers
of hot loops), ``parallel`` (``prange`` loops on threads) and ``slp`` (LLVM's SLP vectorizer on).

numba switches the superword-level (SLP) vectorizer off for every function since 0.57, after
miscompilations were reported (numba issues #8705, #8681, pull request #8852). Without it the
side-by-side lanes of float64 (:mod:`pfeffer.dice.solver.lanes`) stay scalar compares and
conditional moves; with it every four of them become one 256-bit compare, maximum and blend. So
it is switched on only while the kernels marked ``slp`` compile (and the functions they call
that are compiled with them), and every such kernel is checked against a scalar reference bit
for bit in the tests (tests/dice/test_solver_lanes.py). numba's on-disk cache does not key on
this setting; such a kernel always compiles through the wrapper, so its cache entries are always
the vectorized ones.

>>> from pfeffer.pepper.fast.kernel import popcount   # a function compiled by ``@jit``
>>> popcount(0b1011)
3
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast, overload

import numba
from numba.core import config as _config

F = TypeVar("F", bound=Callable[..., Any])
config: Any = _config


@overload
def jit(fn: F, /) -> F: ...
@overload
def jit(*, inline: bool = False, parallel: bool = False, slp: bool = False) -> Callable[[F], F]: ...
def jit(
    fn: F | None = None, /, *, inline: bool = False, parallel: bool = False, slp: bool = False
) -> F | Callable[[F], F]:
    """``fn`` compiled as every kernel of the package is (see the module text): ``@jit`` or
    ``@jit(inline=..., parallel=..., slp=...)``."""

    def compile_(f: F) -> F:
        d = numba.njit(cache=True, nogil=True, parallel=parallel,
                       inline="always" if inline else "never")(f)  # fmt: skip
        return cast(F, _slp_vectorized(d) if slp else d)

    return compile_ if fn is None else compile_(fn)


@contextlib.contextmanager
def _slp_on() -> Iterator[None]:
    """numba's SLP vectorizer on while the block runs (numba compiles under a global lock)."""
    old = config.SLP_VECTORIZE
    config.SLP_VECTORIZE = 1
    try:
        yield
    finally:
        config.SLP_VECTORIZE = old


def _slp_vectorized(dispatcher: Any) -> Any:
    """``dispatcher`` (an ``njit`` function) compiled with the SLP vectorizer: its ``compile``,
    which numba calls for every new signature, also when another kernel calls it, runs with the
    vectorizer on."""
    original = dispatcher.compile

    def compile(sig: Any) -> Any:
        with _slp_on():
            return original(sig)

    dispatcher.compile = compile
    return dispatcher
