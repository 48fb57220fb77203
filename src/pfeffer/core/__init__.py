"""Pieces shared by both games: errors, the seeded chance stream, the bot interface, records."""

from pfeffer.core.bots import Bot
from pfeffer.core.errors import IllegalAction, RecordError
from pfeffer.core.rng import ChanceStream, new_seed

__all__ = ["Bot", "ChanceStream", "IllegalAction", "RecordError", "new_seed"]
