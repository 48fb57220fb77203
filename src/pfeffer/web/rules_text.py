"""The rules pages (``/rules/dice``, ``/rules/pepper``): the rules in short of each game, written
once in :mod:`pfeffer.dice.rules_text` and :mod:`pfeffer.pepper.rules_text` (the terminal prints
the same), by game. The house rules under each rule come from the games' RuleSpecs.
"""

from __future__ import annotations

from pfeffer.core.rules_text import Rule
from pfeffer.dice import rules_text as dice_text
from pfeffer.pepper import rules_text as pepper_text

__all__ = ["RULES", "RULES_INTRO", "Rule"]

RULES: dict[str, tuple[Rule, ...]] = {"dice": dice_text.RULES, "pepper": pepper_text.RULES}
"""The rules of each game in the order of docs/rules.md."""

RULES_INTRO: dict[str, str] = {"dice": dice_text.INTRO, "pepper": pepper_text.INTRO}
"""What each game is about, in two sentences."""
