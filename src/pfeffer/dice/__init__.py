"""Würfel-Pfeffer, the dice game (docs/rules.md, D1–D14): a pure rules engine.

>>> from pfeffer.dice import DiceRules, DiceGame, keep_options, IllegalAction
>>> [o.points for o in keep_options([1, 5, 5])]
[200, 150, 100, 100, 50]
>>> g = DiceGame(players=["Anna", "Ben"], rules=DiceRules(), seed=7)
>>> g.current_player, g.scores, g.is_over
(0, [0, 0], False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, overload

from pfeffer.core.errors import (
    ActionError,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    RecordError,
    RulesError,
    SetupError,
)
from pfeffer.dice.game import DiceAction, DiceGame, DiceView, PfefferMode, Phase, Throw, Turn
from pfeffer.dice.probability import throw_distribution
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import KeepOption, keep_options, score

if TYPE_CHECKING:
    from pfeffer.dice.sim import SimResult, simulate
    from pfeffer.dice.solver import ApproxStrategy, DiceStrategy, Progress, ThreeStrategy


@overload
def solve(rules: DiceRules | None = None, players: Literal[2] = 2, *,
          progress: Progress | None = None, cache: bool = True,
          method: Literal["exact"] = "exact") -> DiceStrategy: ...  # fmt: skip
@overload
def solve(rules: DiceRules | None = None, players: int = 2, *,
          progress: Progress | None = None, cache: bool = True,
          method: str = "exact") -> DiceStrategy | ThreeStrategy | ApproxStrategy: ...  # fmt: skip
def solve(
    rules: DiceRules | None = None,
    players: int = 2,
    *,
    progress: Progress | None = None,
    cache: bool = True,
    method: str = "exact",
) -> DiceStrategy | ThreeStrategy | ApproxStrategy:
    """Optimal play under ``rules`` (see :func:`pfeffer.dice.solver.solve`; imported on first use,
    since the solver compiles its kernels with numba): ``players=3`` the exact three-player
    strategy (small targets), ``method="approx"`` the approximation for 3 to 8 players."""
    from pfeffer.dice.solver import solve as _solve

    return _solve(rules, players, progress=progress, cache=cache, method=method)


__all__ = [
    "ActionError",
    "DiceAction",
    "DiceGame",
    "DiceRules",
    "DiceView",
    "IllegalAction",
    "InvalidAction",
    "KeepOption",
    "NotYourTurn",
    "PfefferMode",
    "Phase",
    "RecordError",
    "RulesError",
    "SetupError",
    "SimResult",
    "Throw",
    "Turn",
    "keep_options",
    "score",
    "simulate",
    "solve",
    "throw_distribution",
]


def __getattr__(name: str) -> object:
    """The batch simulator (:func:`pfeffer.dice.sim.simulate`), imported on first use: it
    brings numpy and numba, which playing a game does not need."""
    if name in ("simulate", "SimResult"):
        from pfeffer.dice import sim

        return getattr(sim, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
