"""The batch simulator of Würfel-Pfeffer: whole games in a compiled loop (docs/simulate.md).

``tables`` (the arrays of a rules object), ``policies`` (how a seat decides, compiled to
arrays), ``kernel`` (the numba game loop) and ``api`` (:func:`simulate`). Importing this package
does not import numba; the first :func:`simulate` does (and compiles the kernel once, cached on
disk).
"""

from pfeffer.dice.sim.api import SimGame, SimResult, SimTurn, game_seed, simulate, simulate_records

__all__ = ["SimGame", "SimResult", "SimTurn", "game_seed", "simulate", "simulate_records"]
