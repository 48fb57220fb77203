"""Presets of Pepper: house rules and seats to start a table with in one choice.

- ``family``: "Our family's rules": the rules as written (docs/rules.md, P1–P11) with four
  players in two teams: you, and computer players as partner and opponents.
- ``two``: "Two-player Pepper": the rules as written for two (8 cards each, a dead hand of 8,
  a failed bid costs 8): you against one computer player.
- ``three``: "Three-player Pepper": the rules as written for three, each for themselves.
- ``short``: "Short game": four players, the first side to 15 points instead of 30.

>>> [(p.key, len(p.seats)) for p in PEPPER_PRESETS]
[('family', 4), ('two', 2), ('three', 3), ('short', 4)]
"""

from __future__ import annotations

from pfeffer.core.presets import Preset

FAMILY = Preset(
    "family",
    "Our family's rules",
    "Pepper as written: four players in two teams, 30 points to win.",
    {},
    ("human", "bot", "bot", "bot"),
)

TWO = Preset(
    "two",
    "Two-player Pepper",
    "You against one opponent: 8 cards each, a third hand stays face down.",
    {},
    ("human", "bot"),
)

THREE = Preset(
    "three",
    "Three-player Pepper",
    "Three players, each for themselves, 8 cards each.",
    {},
    ("human", "bot", "bot"),
)

SHORT = Preset(
    "short",
    "Short game",
    "Four players in two teams; the first side to 15 points wins.",
    {"target": 15},
    ("human", "bot", "bot", "bot"),
)

PEPPER_PRESETS: tuple[Preset, ...] = (FAMILY, TWO, THREE, SHORT)
"""The presets of the new-table form, the first being the default."""

PLAY_NOW = FAMILY
"""The table "Play now against the computer" starts: you and three computer players."""
