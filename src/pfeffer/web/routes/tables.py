"""The JSON API of tables (``/api/tables...``, ``/api/history``): create, list, state, claim a
public seat, the host's seat links, rematch, record, replay."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response

from pfeffer.core.errors import RulesError
from pfeffer.web.adapters.games import ADAPTERS, adapter
from pfeffer.web.i18n import translate_error, translations
from pfeffer.web.render import lang_of
from pfeffer.web.routes.deps import (
    HubDep,
    StoreDep,
    create_table,
    host_table,
    json_body,
    json_object,
    new_link,
)
from pfeffer.web.services import newtable, reviews
from pfeffer.web.services.serialize import created_table, history_entry, replay_step, table_summary
from pfeffer.web.tokens import seat_with_token

router = APIRouter()


@router.post("/api/tables")
async def api_create(request: Request, store: StoreDep, hub: HubDep) -> JSONResponse:
    body = await json_object(request)
    rules_in, seats_in = body.get("rules"), body.get("seats")
    game = body.get("game")
    if isinstance(game, str) and game in ADAPTERS:  # a preset (web/services/newtable.py)
        try:
            rules_in, seats_in = newtable.with_preset(game, body.get("preset"), rules_in, seats_in)
        except RulesError as exc:
            raise HTTPException(400, translate_error(exc, lang_of(request))) from None
    hints = body.get("hints", False)
    if not isinstance(hints, bool):
        raise HTTPException(400, "hints is true or false")
    table, seats = await create_table(
        store, body.get("game", ""), rules_in, seats_in, lang_of(request), hints=hints
    )
    hub.kick_bots(hub.created(table, seats))
    return JSONResponse(created_table(table, seats), status_code=201)


@router.get("/api/tables")
async def api_lobby(store: StoreDep, status: str = "running") -> list[dict[str, Any]]:
    if status not in ("running", "finished"):
        raise HTTPException(400, "status is 'running' or 'finished'")
    tables = await store.list_tables(status)
    if status == "running":  # private tables are not listed: only open public seats
        tables = [(t, s) for t, s in tables if any(x.public and not x.claimed for x in s)]
    return [table_summary(t, s) for t, s in tables]


@router.get("/api/tables/{table_id}")
async def api_table(table_id: str, store: StoreDep) -> dict[str, Any]:
    t = await store.table(table_id)
    if t is None:
        raise HTTPException(404, "no such table")
    return table_summary(t, await store.seats(table_id))


@router.get("/api/tables/{table_id}/state")
async def api_state(hub: HubDep, table_id: str, token: str | None = None) -> dict[str, Any]:
    live = await hub.get(table_id, fresh=True)  # any process answers as the database has it
    if live is None:
        raise HTTPException(404, "no such table")
    seat = None
    if token is not None:
        row = seat_with_token(live.seats, token)
        if row is None:
            raise HTTPException(403, "this is not a seat token of this table")
        seat = row.seat
    return live.frame(seat)


@router.post("/api/tables/{table_id}/claim/{seat}")
async def api_claim(table_id: str, seat: int, store: StoreDep) -> dict[str, Any]:
    t = await store.table(table_id)
    if t is None or t.status != "running":
        raise HTTPException(404, "no such table")
    row = next((s for s in await store.seats(table_id) if s.seat == seat), None)
    if row is None or row.kind != "human" or not row.public:
        # An invited seat: its link goes only from the host to the friend.
        raise HTTPException(403, "this seat is not open to the public")
    token = await store.claim_seat(table_id, seat)
    if token is None:
        raise HTTPException(409, "this seat is taken")
    return {"token": token, "url": f"/play/{table_id}/{token}"}


@router.post("/api/tables/{table_id}/seats/{seat}/link")
async def api_new_link(
    request: Request, table_id: str, seat: int, store: StoreDep
) -> dict[str, Any]:
    body = await json_object(request)
    await host_table(store, table_id, body.get("host_token"))
    token = await new_link(request, table_id, seat)
    return {"seat": seat, "token": token, "url": f"/play/{table_id}/{token}"}


@router.post("/api/tables/{table_id}/seats/{seat}/public")
async def api_public(request: Request, table_id: str, seat: int, store: StoreDep) -> dict[str, Any]:
    body = await json_object(request)
    await host_table(store, table_id, body.get("host_token"))
    public = body.get("public")
    if not isinstance(public, bool):
        raise HTTPException(400, "public is true or false")
    if not await store.set_public(table_id, seat, public):
        raise HTTPException(404, "there is no such human seat")
    return {"seat": seat, "public": public}


@router.post("/api/tables/{table_id}/rematch")
async def api_rematch(
    request: Request, table_id: str, store: StoreDep, hub: HubDep
) -> dict[str, Any]:
    body = await json_body(request) if await request.body() else {}
    token = body.get("token") if isinstance(body, dict) else None
    live = await hub.get(table_id, fresh=True)
    if live is None:
        raise HTTPException(404, "no such table")
    row = seat_with_token(live.seats, token)
    if row is None:
        raise HTTPException(403, "only a player of this table can ask for a rematch")
    if live.status != "finished":
        raise HTTPException(409, "the game is still running")
    rematch = await hub.rematch(live)  # one rematch, whichever process is asked first
    new_row = (await store.seats(rematch))[row.seat]
    await store.mark_claimed(rematch, row.seat)
    return {"table": rematch, "url": f"/play/{rematch}/{new_row.token}"}


@router.get("/api/tables/{table_id}/record")
async def api_record(hub: HubDep, table_id: str) -> Response:
    live = await hub.get(table_id, fresh=True)
    if live is None:
        raise HTTPException(404, "no such table")
    if live.status != "finished":
        raise HTTPException(409, "the record is available when the game is over")
    rec = live.game.to_record()
    return Response(
        json.dumps(rec, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{live.kind}-{table_id}.json"'},
    )


@router.get("/api/tables/{table_id}/replay")
async def api_replay(table_id: str, store: StoreDep, step: int = 0) -> dict[str, Any]:
    t = await store.table(table_id)
    if t is None:
        raise HTTPException(404, "no such table")
    if t.status != "finished":
        raise HTTPException(409, "replays are available when the game is over")
    seats = await store.seats(table_id)
    rows = await store.actions(table_id)
    actions = [a.action for a in rows]
    step = max(0, min(step, len(actions)))
    game = adapter(t.game)
    names = [s.name for s in seats]
    table = game.table(t.rules, names, t.seed, actions[:step])
    # The log events the step's action added, for the line under the board: the count before it.
    before = game.table(t.rules, names, t.seed, actions[: step - 1]).reveal() if step else None
    return replay_step(
        t,
        seats,
        table,
        step=step,
        actions=actions,
        acted_by=[a.seat for a in rows],
        log_before=before["log_count"] if before else 0,
    )


@router.get("/api/tables/{table_id}/review")
async def api_review(request: Request, table_id: str, store: StoreDep) -> dict[str, Any]:
    """The review of a finished game (web/adapters/review.py): dice decisions with the win %
    each cost, Pepper hands against their double-dummy result; worked out once, then kept."""
    t = await store.table(table_id)
    if t is None:
        raise HTTPException(404, "no such table")
    if t.status != "finished":
        raise HTTPException(409, "replays are available when the game is over")
    seats = await store.seats(table_id)
    actions = [a.action for a in await store.actions(table_id)]
    names = [s.name for s in seats]
    data = await reviews.review_of(
        table_id, kind=t.game, rules=t.rules, names=names, seed=t.seed, actions=actions
    )
    if data.get("message"):  # why there is none, in the reader's language
        data = {**data, "message": translations(lang_of(request)).gettext(data["message"])}
    return data


@router.get("/api/history")
async def api_history(store: StoreDep) -> list[dict[str, Any]]:
    return [history_entry(t, s) for t, s in await store.list_tables("finished")]


@router.get("/api/presets/{kind}")
async def api_presets(kind: str) -> list[dict[str, Any]]:
    """The game's presets with the full rules a table created with each one plays."""
    if kind not in ADAPTERS:
        raise HTTPException(404, "no such game")
    return newtable.presets_json(kind)
