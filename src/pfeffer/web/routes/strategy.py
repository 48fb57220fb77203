"""The strategy page of Würfel-Pfeffer (``/strategy/dice``, ``?table=<id>`` for a table's rules)
and its data (``/api/strategy/dice``): when to bank by own and opponent score per number of dice
left, and who is ahead (a win-probability map), from the solved table of the rules
(:func:`pfeffer.dice.strategy_data.page_data`). The page draws the data as SVG
(``static/strategy.js``); rules without a solved table get a sentence, never a solve."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from pfeffer.core.errors import RulesError
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.strategy_data import page_data
from pfeffer.web.adapters.advisor import dice_strategy
from pfeffer.web.i18n import translations
from pfeffer.web.render import lang_of, render
from pfeffer.web.routes.deps import StoreDep
from pfeffer.web.storage.aio import AsyncStore

router = APIRouter()
NO_STRATEGY = "No strategy for these rules yet: their table is not solved on this server."
TWO_PLAYERS = "The strategy is solved for two players so far."
_cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
KEEP = 16


async def rules_of(store: AsyncStore, table_id: str | None) -> tuple[DiceRules, str | None, int]:
    """The rules of dice table ``table_id`` (None: the default rules), its id and players;
    404 for a table that is not a dice table."""
    if table_id is None:
        return DiceRules(), None, 2
    t = await store.table(table_id)
    if t is None or t.game != "dice":
        raise HTTPException(404, "no such table")
    try:
        rules = DiceRules.from_dict(t.rules)
    except RulesError:  # pragma: no cover - a stored table's rules were checked when made
        raise HTTPException(404, "no such table") from None
    return rules, t.id, len(await store.seats(table_id))


def _compute(rules: DiceRules) -> dict[str, Any] | None:
    strategy = dice_strategy(rules)
    return None if strategy is None else page_data(strategy)


async def data_for(rules: DiceRules) -> dict[str, Any] | None:
    """The page's data for ``rules`` (a worker thread works it out once; kept for the rules
    asked last), or None without a solved table."""
    key = json.dumps(rules.to_dict(), sort_keys=True)
    found = _cache.get(key)
    if found is None:
        computed = await asyncio.to_thread(_compute, rules)
        if computed is None:
            return None
        found = _cache[key] = computed
        while len(_cache) > KEEP:
            _cache.popitem(last=False)
    return found


@router.get("/api/strategy/dice")
async def api_strategy(
    request: Request, store: StoreDep, table: str | None = None
) -> dict[str, Any]:
    rules, table_id, players = await rules_of(store, table)
    gt = translations(lang_of(request)).gettext
    base: dict[str, Any] = {"table": table_id, "rules": rules.to_dict()}
    if players != 2:
        return {**base, "available": False, "message": gt(TWO_PLAYERS)}
    data = await data_for(rules)
    if data is None:
        return {**base, "available": False, "message": gt(NO_STRATEGY)}
    return {**base, "available": True, **data}


@router.get("/strategy/dice", response_class=HTMLResponse)
async def page_strategy(
    request: Request, store: StoreDep, table: str | None = None
) -> HTMLResponse:
    rules, table_id, players = await rules_of(store, table)
    defaults = DiceRules().to_dict()
    changed = {k: v for k, v in rules.to_dict().items() if defaults.get(k) != v}
    return render(
        request,
        "strategy.html",
        kind="dice",
        table_id=table_id,
        changed=changed,
        players=players,
    )
