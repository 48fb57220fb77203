"""The dice strategy page's service: the rules of a table (or the defaults) and the page's data
for them (``adapters/strategy.py``), worked out once in a worker thread and kept for the rules
asked last."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any

from pfeffer.core.errors import RulesError
from pfeffer.web.adapters.strategy import default_rules, dice_rules, strategy_data
from pfeffer.web.services.errors import NoSuchTable
from pfeffer.web.services.lobby import Lobby

__all__ = ["data_for", "default_rules", "rules_of"]

_cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
KEEP = 16


async def rules_of(lobby: Lobby, table_id: str | None) -> tuple[dict[str, Any], str | None, int]:
    """The rules of dice table ``table_id`` (None: the default rules), its id and players;
    NoSuchTable for a table that is not a dice table."""
    if table_id is None:
        return default_rules(), None, 2
    t = await lobby.table(table_id)
    if t is None or t.game != "dice":
        raise NoSuchTable(table_id)
    try:
        rules = dice_rules(t.rules)
    except RulesError:  # pragma: no cover - a stored table's rules were checked when made
        raise NoSuchTable(table_id) from None
    return rules, t.id, len(await lobby.seats(table_id))


async def data_for(rules: dict[str, Any]) -> dict[str, Any] | None:
    """The page's data for ``rules`` (a worker thread works it out once; kept for the rules
    asked last), or None without a solved table."""
    key = json.dumps(rules, sort_keys=True)
    found = _cache.get(key)
    if found is None:
        computed = await asyncio.to_thread(strategy_data, rules)
        if computed is None:
            return None
        found = _cache[key] = computed
        while len(_cache) > KEEP:
            _cache.popitem(last=False)
    return found
