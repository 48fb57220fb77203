"""The JSON API of tables (``/api/tables...``, ``/api/history``): create, list, state, claim a
public seat, the host's seat links, rematch, record, replay."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response

from pfeffer.core.errors import RulesError
from pfeffer.web.i18n import translate_error, translations
from pfeffer.web.render import lang_of
from pfeffer.web.routes.deps import (
    HubDep,
    LobbyDep,
    SettingsDep,
    create_table,
    host_table,
    new_link,
    set_public,
)
from pfeffer.web.schemas.rest import (
    HistoryEntry,
    HostKey,
    MyGame,
    MyGamesIn,
    NewTable,
    Rematch,
    RematchIn,
    SeatClaimed,
    SeatLink,
    SeatPublic,
    SeatPublicIn,
    TableCreated,
    TableSummary,
)
from pfeffer.web.services import newtable
from pfeffer.web.services.catalog import ADAPTERS
from pfeffer.web.services.errors import NoSuchTable, NotAllowed, NotFinished, SeatTaken
from pfeffer.web.services.lobby import Page
from pfeffer.web.services.serialize import created_table

router = APIRouter()


@router.post(
    "/api/tables",
    status_code=201,
    response_model=TableCreated,
    response_model_exclude_unset=True,
)
async def api_create(
    request: Request, body: NewTable, hub: HubDep, settings: SettingsDep
) -> dict[str, Any]:
    rules_in: dict[str, Any] | None = body.rules
    seats_in: list[dict[str, Any]] | None = body.seats_data()
    try:  # a preset (web/services/newtable.py)
        rules_in, seats_in = newtable.with_preset(body.game, body.preset, rules_in, seats_in)
    except RulesError as exc:
        raise HTTPException(400, translate_error(exc, lang_of(request))) from None
    seed = body.seed
    if seed is not None:
        if not settings.allow_seed:
            raise HTTPException(400, "this server does not take a seed for a table")
        if not 0 <= seed < 2**63:
            raise HTTPException(400, "seed is a whole number from 0 to 2^63 - 1")
    table, seats = await create_table(
        hub, body.game, rules_in, seats_in, lang_of(request), hints=body.hints, seed=seed
    )
    return created_table(table, seats)


def paged(page: Page, path: str, response: Response) -> list[dict[str, Any]]:
    """A page of a list as the API answers it: the entries (a JSON list, as before pages) and
    the neighbouring pages in a ``Link`` header (``rel="next"``, ``rel="prev"``)."""
    links = []
    sep = "&" if "?" in path else "?"
    if page.more:
        links.append(f'<{path}{sep}page={page.number + 1}>; rel="next"')
    if page.number > 1:
        links.append(f'<{path}{sep}page={page.number - 1}>; rel="prev"')
    if links:
        response.headers["Link"] = ", ".join(links)
    return page.items


PageNo = Annotated[int, Query(ge=1, le=100_000)]


@router.get("/api/tables", response_model=list[TableSummary])
async def api_lobby(
    lobby: LobbyDep, response: Response, status: str = "running", page: PageNo = 1
) -> list[dict[str, Any]]:
    if status not in ("running", "finished"):
        raise HTTPException(400, "status is 'running' or 'finished'")
    if status == "running":  # private tables are not listed: only open public seats
        return paged(await lobby.open_tables(page), "/api/tables", response)
    return paged(await lobby.finished(page), "/api/tables?status=finished", response)


@router.get("/api/tables/{table_id}", response_model=TableSummary)
async def api_table(table_id: str, lobby: LobbyDep) -> dict[str, Any]:
    summary = await lobby.summary(table_id)
    if summary is None:
        raise HTTPException(404, "no such table")
    return summary


@router.get("/api/tables/{table_id}/state")
async def api_state(hub: HubDep, table_id: str, token: str | None = None) -> dict[str, Any]:
    live = await hub.get(table_id, fresh=True)  # any process answers as the database has it
    if live is None:
        raise HTTPException(404, "no such table")
    seat = None
    if token is not None:
        row = await hub.seat_for(live, token)
        if row is None:
            raise HTTPException(403, "this is not a seat token of this table")
        seat = row.seat
    return live.frame(seat)


@router.post("/api/tables/{table_id}/claim/{seat}", response_model=SeatClaimed)
async def api_claim(table_id: str, seat: int, hub: HubDep) -> dict[str, Any]:
    try:
        token = await hub.claim(table_id, seat)
    except NoSuchTable:
        raise HTTPException(404, "no such table") from None
    except NotAllowed:  # an invited seat: its link goes only from the host to the friend
        raise HTTPException(403, "this seat is not open to the public") from None
    except SeatTaken:
        raise HTTPException(409, "this seat is taken") from None
    return {"token": token, "url": f"/play/{table_id}/{token}"}


@router.post("/api/tables/{table_id}/seats/{seat}/link", response_model=SeatLink)
async def api_new_link(
    table_id: str, seat: int, body: HostKey, hub: HubDep, lobby: LobbyDep
) -> dict[str, Any]:
    await host_table(lobby, table_id, body.host_token)
    token = await new_link(hub, table_id, seat)
    return {"seat": seat, "token": token, "url": f"/play/{table_id}/{token}"}


@router.post("/api/tables/{table_id}/seats/{seat}/public", response_model=SeatPublic)
async def api_public(
    table_id: str, seat: int, body: SeatPublicIn, hub: HubDep, lobby: LobbyDep
) -> dict[str, Any]:
    await host_table(lobby, table_id, body.host_token)
    await set_public(hub, table_id, seat, body.public)
    return {"seat": seat, "public": body.public}


@router.post("/api/tables/{table_id}/rematch", response_model=Rematch)
async def api_rematch(table_id: str, hub: HubDep, body: RematchIn | None = None) -> dict[str, Any]:
    token = body.token if body is not None else None
    try:  # one rematch, whichever process is asked first
        rematch, new_token = await hub.rematch_for(table_id, token)
    except NoSuchTable:
        raise HTTPException(404, "no such table") from None
    except NotAllowed:
        raise HTTPException(403, "only a player of this table can ask for a rematch") from None
    except NotFinished:
        raise HTTPException(409, "the game is still running") from None
    return {"table": rematch, "url": f"/play/{rematch}/{new_token}"}


@router.get("/api/tables/{table_id}/record")
async def api_record(
    hub: HubDep, lobby: LobbyDep, table_id: str, token: str | None = None
) -> Response:
    try:  # a private game's record is for its seats (and whom the host shares it with)
        await lobby.finished_table(table_id, token)
    except NoSuchTable:
        raise HTTPException(404, "no such table") from None
    except NotFinished:
        raise HTTPException(409, "the record is available when the game is over") from None
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
async def api_replay(
    table_id: str, lobby: LobbyDep, step: int = 0, token: str | None = None
) -> dict[str, Any]:
    try:
        return await lobby.replay(table_id, step, token)
    except NoSuchTable:
        raise HTTPException(404, "no such table") from None
    except NotFinished:
        raise HTTPException(409, "replays are available when the game is over") from None


@router.get("/api/tables/{table_id}/review")
async def api_review(
    request: Request, table_id: str, lobby: LobbyDep, token: str | None = None
) -> dict[str, Any]:
    """The review of a finished game (web/adapters/review.py): dice decisions with the win %
    each cost, Pepper hands against their double-dummy result; worked out once, then kept."""
    try:
        data = await lobby.review(table_id, token)
    except NoSuchTable:
        raise HTTPException(404, "no such table") from None
    except NotFinished:
        raise HTTPException(409, "replays are available when the game is over") from None
    words = translations(lang_of(request)).gettext  # the texts are the adapter's msgids
    if data.get("message"):  # why there is none, in the reader's language
        data = {**data, "message": words(data["message"])}
    if data.get("note"):  # what the review is (more than two players: an approximation)
        data = {**data, "note": words(data["note"]) % data.get("note_params", {})}
    return data


@router.get("/api/history", response_model=list[HistoryEntry])
async def api_history(
    lobby: LobbyDep, response: Response, page: PageNo = 1
) -> list[dict[str, Any]]:
    """The finished public games, a page at a time (private games: ``/api/history/mine``)."""
    return paged(await lobby.history(page), "/api/history", response)


@router.post("/api/history/mine", response_model=list[MyGame])
async def api_my_history(body: MyGamesIn, lobby: LobbyDep) -> list[dict[str, Any]]:
    """The finished games, private ones too, of the seats whose links the body names
    (``{"tokens": [...]}``: what one browser holds), each with its seat's ``token``."""
    return await lobby.my_history(body.tokens)


@router.get("/api/presets/{kind}")
async def api_presets(kind: str) -> list[dict[str, Any]]:
    """The game's presets with the full rules a table created with each one plays."""
    if kind not in ADAPTERS:
        raise HTTPException(404, "no such game")
    return newtable.presets_json(kind)
