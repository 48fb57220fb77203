"""Pieces shared by both games: the game protocol, errors, the seeded chance stream, the bot
interface, records."""

from pfeffer.core.bots import Bot
from pfeffer.core.errors import (
    ActionError,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    RecordError,
    RulesError,
    SetupError,
)
from pfeffer.core.game import Game, GameView
from pfeffer.core.rng import ChanceStream, new_seed

__all__ = [
    "ActionError",
    "Bot",
    "ChanceStream",
    "Game",
    "GameView",
    "IllegalAction",
    "InvalidAction",
    "NotYourTurn",
    "RecordError",
    "RulesError",
    "SetupError",
    "new_seed",
]
