"""The games this server offers, as the routes ask about them: the kinds (``ADAPTERS``) and each
one's rule specs, presets, seat limits and computer players (``adapter(kind)``). Only their
descriptions are read through here; a game is played through the table service."""

from __future__ import annotations

from pfeffer.web.adapters.games import ADAPTERS, GameKind, adapter

__all__ = ["ADAPTERS", "CHOICE_LABELS", "GameKind", "adapter"]

#: What a choice of a house rule is called (msgids; the value sent is the choice itself, as the
#: API and docs/rules.md name it): one source for the new-table form, the rules page and the
#: strategy page.
CHOICE_LABELS = {
    "double": "Double",
    "add": "Add once more",
    "fixed": "Fixed values",
    "forbidden": "Not allowed",
    "allowed": "Allowed",
    "none": "Nothing extra",
    "stake": "The stake as a bonus",
    "shared": "Shared win",
    "playoff": "Play-off",
    "last_must_bid": "Last player must bid",
    "redeal": "Deal again",
}
