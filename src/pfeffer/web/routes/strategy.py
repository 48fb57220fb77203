"""The strategy page of Würfel-Pfeffer (``/strategy/dice``, ``?table=<id>`` for a table's rules)
and its data (``/api/strategy/dice``): when to bank by own and opponent score per number of dice
left, and who is ahead (a win-probability map), from the solved table of the rules
(:func:`pfeffer.dice.strategy_data.page_data`). The page draws the data as SVG
(``static/strategy.js``); rules without a solved table get a sentence, never a solve. A table
of more than two players gets the two-player charts with a plain note that they are an
approximation there."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from pfeffer.web.i18n import translations
from pfeffer.web.render import lang_of, render
from pfeffer.web.routes.deps import LobbyDep
from pfeffer.web.services.catalog import CHOICE_LABELS, adapter
from pfeffer.web.services.errors import NoSuchTable
from pfeffer.web.services.lobby import Lobby
from pfeffer.web.services.strategy import data_for, default_rules
from pfeffer.web.services.strategy import rules_of as _rules_of

router = APIRouter()
NO_STRATEGY = "No strategy for these rules yet: their table is not solved on this server."
APPROX = (
    "An approximation for %(n)s players: the two-player strategy, read with your own total "
    "against the highest total of the others."
)


async def rules_of(lobby: Lobby, table_id: str | None) -> tuple[dict[str, Any], str | None, int]:
    """The rules of dice table ``table_id`` (None: the default rules), its id and players;
    404 for a table that is not a dice table."""
    try:
        return await _rules_of(lobby, table_id)
    except NoSuchTable:
        raise HTTPException(404, "no such table") from None


@router.get("/api/strategy/dice")
async def api_strategy(
    request: Request, lobby: LobbyDep, table: str | None = None
) -> dict[str, Any]:
    rules, table_id, players = await rules_of(lobby, table)
    gt = translations(lang_of(request)).gettext
    # More than two players: the documented approximation (the two-player table against the
    # strongest opponent, docs/strategy.md "More players"), said so.
    base: dict[str, Any] = {"table": table_id, "rules": rules, "players": players,
                            "approximation": players > 2}  # fmt: skip
    data = await data_for(rules)
    if data is None:
        return {**base, "available": False, "message": gt(NO_STRATEGY)}
    if players > 2:
        base["note"] = gt(APPROX) % {"n": players}
    return {**base, "available": True, **data}


@router.get("/strategy/dice", response_class=HTMLResponse)
async def page_strategy(
    request: Request, lobby: LobbyDep, table: str | None = None
) -> HTMLResponse:
    rules, table_id, players = await rules_of(lobby, table)
    defaults = default_rules()
    # The rules off their defaults, in the new-table form's labels and order.
    changed = [(s, rules[s.name]) for s in adapter("dice").rule_specs()
               if s.name in rules and defaults.get(s.name) != rules[s.name]]  # fmt: skip
    return render(
        request,
        "strategy.html",
        kind="dice",
        table_id=table_id,
        changed=changed,
        choice_labels=CHOICE_LABELS,
        players=players,
    )
