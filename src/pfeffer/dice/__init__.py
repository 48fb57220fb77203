"""Würfel-Pfeffer, the dice game (docs/rules.md, D1–D14): a pure rules engine.

>>> from pfeffer.dice import DiceRules, DiceGame, keep_options, IllegalAction
>>> [o.points for o in keep_options([1, 5, 5])]
[200, 150, 100, 100, 50]
>>> g = DiceGame(players=["Anna", "Ben"], rules=DiceRules(), seed=7)
>>> g.current_player, g.scores, g.is_over
(0, [0, 0], False)
"""

from typing import TYPE_CHECKING

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
    "throw_distribution",
]


def __getattr__(name: str) -> object:
    """The batch simulator (:func:`pfeffer.dice.sim.simulate`), imported on first use: it
    brings numpy and numba, which playing a game does not need."""
    if name in ("simulate", "SimResult"):
        from pfeffer.dice import sim

        return getattr(sim, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
