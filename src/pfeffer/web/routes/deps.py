"""What the routes share: the store, the live tables (``Hub``) and the settings of the app (as
FastAPI dependencies), the request's JSON body, and the steps both the API and the pages take
(creating a table, checking the host's token, issuing a seat's new link)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from starlette.requests import HTTPConnection

from pfeffer.core.errors import TranslatableError
from pfeffer.core.rng import new_seed
from pfeffer.core.text import find_unsafe
from pfeffer.web.adapters.games import ADAPTERS, adapter
from pfeffer.web.i18n import translate_error
from pfeffer.web.render import lang_of
from pfeffer.web.services.seating import parse_seats
from pfeffer.web.services.tables import Hub
from pfeffer.web.storage.aio import AsyncStore
from pfeffer.web.storage.repository import SeatRow, TableRow
from pfeffer.web.tokens import same_token

TABLE_TTL = dt.timedelta(days=7)  # a running table without an action or a visit expires


@dataclasses.dataclass(frozen=True)
class Settings:
    """What ``create_app`` was told: when unused tables expire, the address phones use."""

    table_ttl: dt.timedelta = TABLE_TTL
    lan_url: str | None = None


def store_of(conn: HTTPConnection) -> AsyncStore:
    """The app's store, whose calls run off the event loop."""
    store: AsyncStore = conn.app.state.db
    return store


def hub_of(conn: HTTPConnection) -> Hub:
    """The app's live tables."""
    hub: Hub = conn.app.state.hub
    return hub


def settings_of(conn: HTTPConnection) -> Settings:
    """The app's settings."""
    settings: Settings = conn.app.state.settings
    return settings


StoreDep = Annotated[AsyncStore, Depends(store_of)]
HubDep = Annotated[Hub, Depends(hub_of)]
SettingsDep = Annotated[Settings, Depends(settings_of)]


async def json_body(request: Request) -> Any:
    """The request's JSON body; 400 if it is not JSON, or if any of its strings cannot be kept
    as text (a lone surrogate, NUL, a control or direction character: pfeffer.core.text), so
    that no such string reaches the store, a log line or another process."""
    try:
        body = await request.json()
    except (ValueError, RecursionError):
        raise HTTPException(400, "send a JSON object") from None
    where = find_unsafe(body)
    if where is not None:
        exc = TranslatableError.format(
            "{where}: a character that cannot be kept as text (a control or direction character,"
            " or a damaged one); remove it.",
            where=where,
        )
        raise HTTPException(400, translate_error(exc, lang_of(request)))
    return body


async def json_object(request: Request) -> dict[str, Any]:
    """The request's JSON body (checked by :func:`json_body`), which must be an object; 400
    otherwise."""
    body = await json_body(request)
    if not isinstance(body, dict):
        raise HTTPException(400, "send a JSON object")
    return body


async def create_table(
    store: AsyncStore,
    kind: str,
    rules_in: Any,
    seats_in: Any,
    lang: str = "en",
    *,
    hints: bool = False,
) -> tuple[TableRow, list[SeatRow]]:
    """A new table of ``kind``: the house rules and seats checked by the engine, then stored
    (``hints``: the players may ask the advisor)."""
    if not isinstance(kind, str) or kind not in ADAPTERS:
        raise HTTPException(400, "game must be 'dice' or 'pepper'")
    ad = adapter(kind)
    try:
        rules = ad.parse_rules(rules_in if isinstance(rules_in, dict) else {})
        seats = parse_seats(kind, seats_in, lang)
        ad.table(rules, [s.name for s in seats], 0)  # the engine checks the set-up
    except (ValueError, TypeError) as exc:
        raise HTTPException(400, translate_error(exc, lang)) from None
    return await store.create_table(kind, rules, new_seed(), seats, hints=hints)


async def host_table(store: AsyncStore, table_id: str, host_token: Any) -> TableRow:
    """The table whose host holds ``host_token``; 404 for anyone else."""
    t = await store.table(table_id)
    if t is None or not same_token(host_token, t.admin_token):
        raise HTTPException(404, "no such table")
    return t


async def new_link(request: Request, table_id: str, seat: int) -> str:
    """Revoke the seat's link (its windows are closed) and issue a new one."""
    store = store_of(request)
    token = await store.new_seat_token(table_id, seat)
    if token is None:
        raise HTTPException(404, "there is no such human seat")
    hub = hub_of(request)
    live = hub.lives.get(table_id)
    if live is not None:
        await hub.seats_changed(live, seat)  # its windows close here and on the other processes
    else:
        hub.bus.publish(table_id, {"k": "seats", "revoked": seat})
    return token
