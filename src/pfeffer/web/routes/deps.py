"""What the routes share: the services (the live tables ``Hub``, the ``Lobby``, the ``Sheets``)
and the settings of the app as FastAPI dependencies, the request's JSON body, and the steps both
the API and the pages take (creating a table, checking the host's token, issuing a seat's new
link), each a service call with its refusals turned into HTTP answers. A route calls services,
never the store or the fan-out."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.requests import HTTPConnection

from pfeffer.web.i18n import translate_error
from pfeffer.web.render import http_error, is_page, lang_of
from pfeffer.web.schemas.rest import refusal
from pfeffer.web.services.catalog import ADAPTERS
from pfeffer.web.services.errors import NoSuchSeat
from pfeffer.web.services.lobby import Lobby
from pfeffer.web.services.sheets import Sheets
from pfeffer.web.services.tables import Hub
from pfeffer.web.services.training import Trainer
from pfeffer.web.site import Site

TABLE_TTL = dt.timedelta(days=7)  # a running table without an action or a visit expires


@dataclasses.dataclass(frozen=True)
class Settings:
    """What ``create_app`` was told: when unused tables expire, where the server is served."""

    table_ttl: dt.timedelta = TABLE_TTL
    site: Site = dataclasses.field(default_factory=Site)
    # POST /api/tables may name the game's seed (tests only: a known first throw; never in
    # production, where a player could then know every throw in advance).
    allow_seed: bool = False


def hub_of(conn: HTTPConnection) -> Hub:
    """The app's live tables."""
    hub: Hub = conn.app.state.hub
    return hub


def lobby_of(conn: HTTPConnection) -> Lobby:
    """What the pages and the API read about tables."""
    lobby: Lobby = conn.app.state.lobby
    return lobby


def sheets_of(conn: HTTPConnection) -> Sheets:
    """The score sheets."""
    sheets: Sheets = conn.app.state.sheets
    return sheets


def trainer_of(conn: HTTPConnection) -> Trainer:
    """The puzzle trainer (issue 23)."""
    found: Trainer = conn.app.state.trainer
    return found


def settings_of(conn: HTTPConnection) -> Settings:
    """The app's settings."""
    settings: Settings = conn.app.state.settings
    return settings


HubDep = Annotated[Hub, Depends(hub_of)]
LobbyDep = Annotated[Lobby, Depends(lobby_of)]
SheetsDep = Annotated[Sheets, Depends(sheets_of)]
SettingsDep = Annotated[Settings, Depends(settings_of)]
TrainerDep = Annotated[Trainer, Depends(trainer_of)]


async def invalid_request(request: Request, exc: Exception) -> Response:
    """A request whose body, path or query does not fit its route's models
    (``schemas.rest``): 400 naming the field, ``{"detail": "seats.0.public: true or false.",
    "field": "seats.0.public"}``, in the request's language (a page: the error page)."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    refused = refusal(errors)
    if is_page(request.url.path):
        return await http_error(
            request, HTTPException(400, translate_error(refused, lang_of(request)))
        )
    detail = translate_error(refused, lang_of(request))
    return JSONResponse({"detail": detail, "field": refused.field}, status_code=400)


async def create_table(
    hub: Hub,
    kind: Any,
    rules_in: Any,
    seats_in: Any,
    lang: str = "en",
    *,
    hints: bool = False,
    seed: int | None = None,
) -> tuple[Any, list[Any]]:
    """A new table of ``kind`` (the table service checks its house rules and seats with the
    engine, stores it and starts its computer players); 400 with the engine's reason."""
    if not isinstance(kind, str) or kind not in ADAPTERS:
        raise HTTPException(400, "game must be 'dice' or 'pepper'")
    try:
        return await hub.create(kind, rules_in, seats_in, lang, hints=hints, seed=seed)
    except (ValueError, TypeError) as exc:
        raise HTTPException(400, translate_error(exc, lang)) from None


async def host_table(lobby: Lobby, table_id: str, host_token: Any) -> Any:
    """The table whose host holds ``host_token``; 404 for anyone else."""
    t = await lobby.host_table(table_id, host_token)
    if t is None:
        raise HTTPException(404, "no such table")
    return t


async def new_link(hub: Hub, table_id: str, seat: int) -> str:
    """Revoke the seat's link (its windows are closed) and issue a new one."""
    try:
        return await hub.new_link(table_id, seat)
    except NoSuchSeat:
        raise HTTPException(404, "there is no such human seat") from None


async def set_public(hub: Hub, table_id: str, seat: int, public: bool) -> None:
    """Open a human seat to the public or make it private."""
    try:
        await hub.set_public(table_id, seat, public)
    except NoSuchSeat:
        raise HTTPException(404, "there is no such human seat") from None
