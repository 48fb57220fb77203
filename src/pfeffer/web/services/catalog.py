"""The games this server offers, as the routes ask about them: the kinds (``ADAPTERS``) and each
one's rule specs, presets, seat limits and computer players (``adapter(kind)``). Only their
descriptions are read through here; a game is played through the table service."""

from __future__ import annotations

from pfeffer.web.adapters.games import ADAPTERS, GameKind, adapter

__all__ = ["ADAPTERS", "GameKind", "adapter"]
