"""Würfel-Pfeffer, the dice game (docs/rules.md, D1–D14): a pure rules engine.

>>> from pfeffer.dice import DiceRules, DiceGame, keep_options, IllegalAction
>>> [o.points for o in keep_options([1, 5, 5])]
[200, 150, 100, 100, 50]
>>> g = DiceGame(players=["Anna", "Ben"], rules=DiceRules(), seed=7)
>>> g.current_player, g.scores, g.is_over
(0, [0, 0], False)
"""

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
    "Throw",
    "Turn",
    "keep_options",
    "score",
    "throw_distribution",
]
