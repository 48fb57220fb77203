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

from pfeffer.core.errors import RulesError
from pfeffer.core.rulespec import parse_form
from pfeffer.web.i18n import translations
from pfeffer.web.render import lang_of, render
from pfeffer.web.routes.deps import LobbyDep
from pfeffer.web.services import solves
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


# The solve of a table's (or the new-table form's) rules, in words (issue 21 §1).
SOLVING = "Strategy for these rules: %(percent)s%%, about %(time)s."
WAITING = "Strategy for these rules: waiting for another solve, then about %(time)s."
READY = "Strategy for these rules: ready."
TOO_LONG = (
    "No strategy for these rules on this server: solving them would take about %(time)s here, "
    "more than the hour allowed. Hints, review and the optimal computer player need their "
    "table solved elsewhere ('pfeffer dice solve')."
)
IDLE_FORM = "Strategy for these rules: solved when the table is created, about %(time)s."
IDLE_TABLE = "No strategy for these rules yet: their table is not solved on this server."
HEURISTIC = (
    "The optimal computer player plays as the heuristic player until the strategy for these "
    "rules is ready, and optimally from its next turn on."
)


def duration(seconds: float, ngettext: Any) -> str:
    """``40 seconds``, ``1 minute``, ``9 hours`` in the page's language (rounded up to ten
    seconds below a minute and a half)."""
    if seconds < 90:
        n = max(10, 10 * -int(-seconds // 10))
        return str(ngettext("%(n)s second", "%(n)s seconds", n) % {"n": n})
    if seconds < 90 * 60:
        n = round(seconds / 60)
        return str(ngettext("%(n)s minute", "%(n)s minutes", n) % {"n": n})
    n = round(seconds / 3600)
    return str(ngettext("%(n)s hour", "%(n)s hours", n) % {"n": n})


def status_text(state: dict[str, Any], lang: str, *, form: bool) -> str:
    """The sentence of a solve's ``state`` in ``lang``."""
    t = translations(lang)
    time = duration(float(state.get("seconds", 0.0)), t.ngettext)
    if state["state"] == "ready":
        return t.gettext(READY)
    if state["state"] == "solving":
        percent = int(100 * float(state.get("fraction", 0.0)))
        return t.gettext(SOLVING) % {"percent": percent, "time": time}
    if state["state"] == "waiting":
        return t.gettext(WAITING) % {"time": time}
    if state["state"] == "too_long":
        return t.gettext(TOO_LONG) % {"time": time}
    return t.gettext(IDLE_FORM) % {"time": time} if form else t.gettext(IDLE_TABLE)


@router.get("/api/strategy/dice/status")
async def api_solve_status(
    request: Request, lobby: LobbyDep, table: str | None = None
) -> dict[str, Any]:
    """Where the solve of a table's rules (``?table=<id>``) or of the new-table form's (its
    fields as the query: ``?target=3000&pfeffer=on…``) stands: ``state`` (ready, solving,
    waiting, too_long, idle), ``fraction``, ``seconds`` left and the sentence to show
    (``message``); a table's also whether an optimal computer player plays as the heuristic
    until then (``heuristic``). A table that wants its table and has no solve under way (a
    server restarted mid-solve) starts one here."""
    lang = lang_of(request)
    heuristic = wants = False
    if table is not None:
        rules, _, _ = await rules_of(lobby, table)
        seats = await lobby.seats(table)
        bots = [s.bot for s in seats if s.kind == "bot"]
        t = await lobby.table(table)
        wants = solves.needs_table("dice", bool(t is not None and t.hints), bots)
        state = await solves.state_of(rules)
        if state["state"] == "idle" and wants and await solves.start(rules):
            state = await solves.state_of(rules)
        heuristic = solves.OPTIMAL_BOT in bots and state["state"] != "ready"
    else:
        try:
            rules = parse_form(adapter("dice").rule_specs(), request.query_params)
        except RulesError as exc:
            raise HTTPException(400, str(exc)) from None
        state = await solves.state_of(rules)
    out = {**state, "message": status_text(state, lang, form=table is None)}
    if table is not None:
        out["wants"] = wants  # hints or an optimal player: the table shows the solve
    out.pop("refusal", None)  # English, for the terminal and the log
    if heuristic:
        out["heuristic"] = translations(lang).gettext(HEURISTIC)
    return out


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
