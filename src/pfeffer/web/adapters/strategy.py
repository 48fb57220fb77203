"""The dice strategy page's engine side: the rules of a table as Würfel-Pfeffer reads them and
the page's data from the solved table of those rules
(:func:`pfeffer.dice.strategy_data.page_data`); the service (``services/strategy.py``) and the
route deal only in the rules' dictionaries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.strategy_data import page_data
from pfeffer.web.adapters.advisor import dice_strategy


def default_rules() -> dict[str, Any]:
    """Würfel-Pfeffer's default rules as a dictionary."""
    return DiceRules().to_dict()


def dice_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    """Stored rules read as Würfel-Pfeffer reads them (every rule, defaults filled in);
    RulesError if they are not dice rules."""
    return DiceRules.from_dict(dict(rules)).to_dict()


def strategy_data(rules: Mapping[str, Any]) -> dict[str, Any] | None:
    """The strategy page's data for ``rules``, or None without a solved table (never solves;
    seconds of work: call it in a worker thread)."""
    strategy = dice_strategy(DiceRules.from_dict(dict(rules)))
    return None if strategy is None else page_data(strategy)
