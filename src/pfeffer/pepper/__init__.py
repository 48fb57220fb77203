"""Karten-Pfeffer / Pepper, the Iowa trick-taking card game (docs/rules.md P1–P11) as a pure engine.

>>> from pfeffer.pepper import PepperGame, trick_winner
>>> trick_winner(["AS", "9S", "JD", "KS"], trump="H")
2
>>> g = PepperGame(players=4, seed=1, dealer=0)
>>> g.apply("deal"); len(g.hand(0)), g.current_player
(6, 1)
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
from pfeffer.pepper.action import PepperAction
from pfeffer.pepper.cards import CARD_PRETTY, CARD_STR, parse_card, trick_winner
from pfeffer.pepper.game import HandResult, PepperGame, PepperView, Phase, Trick
from pfeffer.pepper.rules import (
    PepperRules,
    bid_ladder,
    cards_per_hand,
    score_hand,
    side_of,
    sides,
    winners_of,
)
from pfeffer.pepper.solver import double_dummy, double_dummy_from

__all__ = [
    "CARD_PRETTY",
    "CARD_STR",
    "ActionError",
    "HandResult",
    "IllegalAction",
    "InvalidAction",
    "NotYourTurn",
    "PepperAction",
    "PepperGame",
    "PepperRules",
    "PepperView",
    "Phase",
    "RecordError",
    "RulesError",
    "SetupError",
    "Trick",
    "bid_ladder",
    "cards_per_hand",
    "double_dummy",
    "double_dummy_from",
    "parse_card",
    "score_hand",
    "side_of",
    "sides",
    "trick_winner",
    "winners_of",
]
