"""Exact optimal play of Würfel-Pfeffer for two players (see docs/strategy.md).

>>> from pfeffer.dice import DiceRules
>>> from pfeffer.dice.solver.solve import solve_small
>>> s = solve_small()  # target 1000
>>> s.win_probability(0, 0) > 0.5
True
"""

from __future__ import annotations

from typing import Literal, overload

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver.advice import Advice, advise
from pfeffer.dice.solver.approx import ApproxStrategy
from pfeffer.dice.solver.solve import Progress, available_cores, solve_tables
from pfeffer.dice.solver.strategy import DiceStrategy
from pfeffer.dice.solver.three import ThreeStrategy

__all__ = ["Advice", "ApproxStrategy", "DiceStrategy", "Progress", "ThreeStrategy", "advise",
           "solve"]  # fmt: skip


@overload
def solve(rules: DiceRules | None = None, players: Literal[2] = 2, *,
          progress: Progress | None = None, cache: bool = True, threads: int | None = None,
          method: Literal["exact"] = "exact") -> DiceStrategy: ...  # fmt: skip
@overload
def solve(rules: DiceRules | None, players: Literal[3], *, progress: Progress | None = None,
          cache: bool = True, threads: int | None = None,
          method: Literal["exact"] = "exact") -> ThreeStrategy: ...  # fmt: skip
@overload
def solve(rules: DiceRules | None, players: int, *, progress: Progress | None = None,
          cache: bool = True, threads: int | None = None,
          method: Literal["approx"]) -> ApproxStrategy: ...  # fmt: skip
@overload
def solve(rules: DiceRules | None = None, players: int = 2, *,
          progress: Progress | None = None, cache: bool = True, threads: int | None = None,
          method: str = "exact") -> DiceStrategy | ThreeStrategy | ApproxStrategy: ...  # fmt: skip
def solve(
    rules: DiceRules | None = None,
    players: int = 2,
    *,
    progress: Progress | None = None,
    cache: bool = True,
    threads: int | None = None,
    method: str = "exact",
) -> DiceStrategy | ThreeStrategy | ApproxStrategy:
    """Optimal play under ``rules`` for ``players`` players, all playing optimally.

    With ``cache`` the table is read from (or written to) the user data folder, keyed by the
    rules; the default rules' table ships with the package. ``progress(stage, fraction)`` is
    called as the solve goes on; ``threads`` > 1 solves the states of a score sum side by side
    (the same table; ``None``: as many as the cores this process may use).

    ``players=3`` gives the exact three-player strategy (:class:`ThreeStrategy`, not cached) up
    to the target :data:`pfeffer.dice.solver.three.MAX_EXACT_TARGET` (larger targets: a
    ``ValueError`` naming the limit); ``method="approx"`` the approximation for 2 to 8 players
    (:class:`ApproxStrategy`: the two-player strategy against the strongest opponent).
    """
    rules = DiceRules() if rules is None else rules
    if method not in ("exact", "approx"):
        raise ValueError(f"no method {method!r} (choose 'exact' or 'approx')")
    if not 2 <= players <= 8:
        raise ValueError(f"Würfel-Pfeffer has 2 to 8 players, not {players}")
    if method == "approx":
        return ApproxStrategy(solve(rules, progress=progress, cache=cache, threads=threads))
    if players == 3:
        from pfeffer.dice.solver.three import solve_exact_three

        return solve_exact_three(rules, progress=progress)
    if players != 2:
        raise NotImplementedError(
            f"the exact solver handles two and three players; for {players} use method='approx'"
        )
    if cache:
        from pfeffer.dice.solver import cache as store

        found = store.load(rules)
        if found is not None:
            return found
    strategy = solve_tables(
        rules, progress=progress, threads=available_cores() if threads is None else threads
    )
    if cache:
        store.save(strategy)
    return strategy
