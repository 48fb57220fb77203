"""Exact optimal play of Würfel-Pfeffer for two players (see docs/strategy.md).

>>> from pfeffer.dice import DiceRules
>>> from pfeffer.dice.solver.strategy import solve_small
>>> s = solve_small()  # target 1000
>>> s.win_probability(0, 0) > 0.5
True
"""

from __future__ import annotations

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver.advice import Advice, advise
from pfeffer.dice.solver.solve import Progress, solve_tables
from pfeffer.dice.solver.strategy import DiceStrategy

__all__ = ["Advice", "DiceStrategy", "Progress", "advise", "solve"]


def solve(
    rules: DiceRules | None = None,
    players: int = 2,
    *,
    progress: Progress | None = None,
    cache: bool = True,
    threads: int = 1,
) -> DiceStrategy:
    """Optimal play under ``rules`` for ``players`` (two) players, both playing optimally.

    With ``cache`` the table is read from (or written to) the user data folder, keyed by the
    rules; the default rules' table ships with the package. ``progress(stage, fraction)`` is
    called as the solve goes on; ``threads`` > 1 solves the states of a score sum side by side
    (the same table).
    """
    rules = DiceRules() if rules is None else rules
    if players != 2:
        raise NotImplementedError("the solver handles two players so far")
    if cache:
        from pfeffer.dice.solver import cache as store

        found = store.load(rules)
        if found is not None:
            return found
    strategy = solve_tables(rules, progress=progress, threads=threads)
    if cache:
        store.save(strategy)
    return strategy
