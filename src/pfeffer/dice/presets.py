"""Presets of Würfel-Pfeffer: house rules and seats to start a table with in one choice.

- ``family``: "Our family's rules": the rules as written (docs/rules.md, D1–D14), you and one
  computer player (the new-table form lets you add more).
- ``farkle``: "Classic Farkle": the commonly printed Farkle scoring, as far as the house rules
  express it: target 10,000 with a final round; 500 to get on the board, then any total may be
  banked (``min_bank=500``, ``min_bank_opening_only``); single 1 = 100, single 5 = 50, three of a
  kind 100 × the face (three 1s = 1,000); four, five and six of a kind fixed at 1,000, 2,000 and
  3,000 for any face; straight 1,500; three pairs 1,500, four of a kind with a pair counting as
  three pairs; after "hot dice" (all six scored) the player may bank or throw again; no Pfeffer
  and no Auto-Pfeffer. Not expressible and left out: the 1,000-point penalty some tables charge
  for three busts in a row, and scores for two triplets or a four of a kind with a pair of their
  own.
- ``short``: "Short game": the rules as written to 5,000 instead of 10,000.

>>> [p.key for p in DICE_PRESETS]
['family', 'farkle', 'short']
>>> from pfeffer.dice.rules import DiceRules
>>> DiceRules(**FARKLE.rules).pfeffer, DiceRules(**FARKLE.rules).extra_dice
(False, 'fixed')
"""

from __future__ import annotations

from pfeffer.core.presets import Preset

FAMILY = Preset(
    "family",
    "Our family's rules",
    "Würfel-Pfeffer as written: 10,000 points, 350 to bank, Pfeffer and Auto-Pfeffer.",
    {},
    ("human", "bot"),
)

FARKLE = Preset(
    "farkle",
    "Classic Farkle",
    "10,000 points, 500 to get on the board, four to six of a kind 1,000/2,000/3,000, "
    "free choice after hot dice, no Pfeffer.",
    {
        "target": 10_000,
        "min_bank": 500,
        "min_bank_opening_only": True,
        "single_one": 100,
        "single_five": 50,
        "triples": {1: 1000, 2: 200, 3: 300, 4: 400, 5: 500, 6: 600},
        "extra_dice": "fixed",
        "fixed_four": 1000,
        "fixed_five": 2000,
        "fixed_six": 3000,
        "straight": 1500,
        "three_pairs": 1500,
        "four_and_pair_is_three_pairs": True,
        "hot_dice_must_roll": False,
        "pfeffer": False,
        "auto_pfeffer": False,
        "final_round": True,
        "tie": "shared",
    },
    ("human", "bot"),
)

SHORT = Preset(
    "short",
    "Short game",
    "Our family's rules, but the game ends at 5,000 points.",
    {"target": 5000},
    ("human", "bot"),
)

DICE_PRESETS: tuple[Preset, ...] = (FAMILY, FARKLE, SHORT)
"""The presets of the new-table form, the first being the default."""

PLAY_NOW = FAMILY
"""The table "Play now against the computer" starts: you and computer players."""
