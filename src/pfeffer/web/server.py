"""The web server: lobby, tables, live play over WebSockets, score sheets, history and replays.

``create_app(db_url, bot_delay=...)`` builds the FastAPI app. Game logic lives in the engines; this
module only routes: it checks who holds a seat, asks the table (a game with its adapter,
``games.py``) to apply an action for that seat, commits the accepted action to the database and only
then sends every connected client a frame built from ``view(seat)`` (spectators: ``view(None)``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketState

from pfeffer.core.errors import (
    ActionError,
    IllegalAction,
    NotYourTurn,
    RulesError,
    TranslatableError,
)
from pfeffer.core.game import Game
from pfeffer.core.rng import new_seed
from pfeffer.core.rulespec import parse_form, shown
from pfeffer.web import sheets
from pfeffer.web.device import device_seats, device_url
from pfeffer.web.games import ADAPTERS, Table, adapter, bot_seed
from pfeffer.web.i18n import (
    LANGUAGE_NAMES,
    LANGUAGES,
    pick_language,
    translate_error,
    translations,
)
from pfeffer.web.invite import qr_svg
from pfeffer.web.pepper_table import CARD_NAMES
from pfeffer.web.rules_text import RULES, RULES_INTRO
from pfeffer.web.storage import (
    ConflictError,
    SeatRow,
    SeatSpec,
    Store,
    TableRow,
    make_engine,
    migrate,
)

log = logging.getLogger("pfeffer.web")

HERE = Path(__file__).resolve().parent
MAX_MESSAGE = 2048  # characters; a real message is far below this
MAX_ACTION = 64
MAX_NAME = 40
TABLE_TTL = dt.timedelta(days=7)  # a running table without an action or a visit expires


# --------------------------------------------------------------------------- live tables


@dataclasses.dataclass
class Live:
    """A table held in memory: the engine's game (with its adapter) and the clients connected."""

    id: str
    kind: str
    table: Table
    seats: list[SeatRow]
    version: int
    status: str
    rematch_id: str | None
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    conns: dict[WebSocket, int | None] = dataclasses.field(default_factory=dict)
    last: dict[str, Any] | None = None
    # The last action a human seat had applied: (seat, action, version before, version after).
    applied: tuple[int, str, int, int] | None = None
    bot_task: asyncio.Task[None] | None = None

    @property
    def game(self) -> Game[object]:
        """The engine's game."""
        return self.table.game

    @property
    def names(self) -> list[str]:
        """Player names in seat order."""
        return [s.name for s in self.seats]

    def frame(self, seat: int | None) -> dict[str, Any]:
        """The state frame for one seat (or a spectator), built from the engine's view."""
        online = {s for s in self.conns.values() if s is not None}
        opened = sum(1 for s in self.conns.values() if s is not None and s == seat)
        return {
            "type": "state",
            "table": self.id,
            "game": self.kind,
            "version": self.version,
            "status": self.status,
            "seat": seat,
            "seats": [
                {"name": s.name, "kind": s.kind, "bot": s.bot, "online": s.seat in online}
                for s in self.seats
            ],
            "view": self.table.view(seat),
            "legal": self.table.legal_actions(seat),
            "last": self.last,
            "rematch": self.rematch_id,
            # The viewer's seat is open in another window or on another device too.
            "elsewhere": opened > 1,
        }


class Hub:
    """Every live table of this process, the store behind them and the computer players."""

    def __init__(self, store: Store, bot_delay: float) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.lives: dict[str, Live] = {}
        self._load_lock = asyncio.Lock()

    async def get(self, table_id: str) -> Live | None:
        """The live table, loaded from the database (by replaying its actions) if needed."""
        live = self.lives.get(table_id)
        if live is not None:
            return live
        async with self._load_lock:
            live = self.lives.get(table_id)
            if live is not None:
                return live
            row = self.store.table(table_id)
            if row is None or row.status == "expired":
                return None
            live = self._load(row)
            self.lives[table_id] = live
            return live

    def forget(self, table_ids: list[str]) -> None:
        """Drop expired tables from memory."""
        for table_id in table_ids:
            live = self.lives.pop(table_id, None)
            if live is not None and live.bot_task is not None:
                live.bot_task.cancel()

    def _load(self, row: TableRow) -> Live:
        seats = self.store.seats(row.id)
        actions = [a.action for a in self.store.actions(row.id)]
        table = adapter(row.game).table(row.rules, [s.name for s in seats], row.seed, actions)
        return Live(row.id, row.game, table, seats, row.version, row.status, row.rematch_id)

    async def act(self, live: Live, seat: int, action: str) -> None:
        """Apply ``action`` for ``seat``: engine check, commit, then broadcast.

        Raises an ActionError (nothing changed) when the engine refuses it: NotYourTurn,
        IllegalAction, InvalidAction.
        """
        async with live.lock:
            before = live.version
            self._apply_locked(live, seat, action)
            live.applied = (seat, action, before, live.version)
        await self.broadcast(live)
        self.kick_bots(live)

    def _apply_locked(self, live: Live, seat: int, action: str) -> None:
        before = len(live.game.actions)
        table = live.table.after(action, seat)  # raises ActionError; live.table is untouched
        game = table.game
        new = game.actions[before:]
        over = game.is_over
        try:
            version = self.store.append_actions(
                live.id,
                live.version,
                seat,
                new,
                finished=over,
                winners=list(game.winners) if over else None,
                scores=list(game.scores) if over else None,
            )
        except ConflictError:
            # Another process wrote to this table: drop our copy; the next access reloads it.
            self.lives.pop(live.id, None)
            raise IllegalAction("The table changed meanwhile; please try again.") from None
        live.table = table
        live.version = version
        live.status = "finished" if over else "running"
        # What the actor chose, as chosen ("deal", a bid, a card now on the table): public.
        live.last = {"seat": seat, "action": action}

    async def broadcast(self, live: Live, extra: dict[str, Any] | None = None) -> None:
        """Send every client of the table its own frame (or ``extra``)."""
        for ws, seat in list(live.conns.items()):
            msg = extra if extra is not None else live.frame(seat)
            try:
                await ws.send_json(msg)
            except Exception:  # a client that went away
                live.conns.pop(ws, None)

    def kick_bots(self, live: Live) -> None:
        """Make sure computer players move while it is their turn."""
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.create_task(self._run_bots(live))

    def _bot_seat(self, live: Live) -> SeatRow | None:
        seat = live.game.current_player
        if seat is None or live.status != "running":
            return None
        row = live.seats[seat]
        return row if row.kind == "bot" else None

    async def _run_bots(self, live: Live) -> None:
        while self._bot_seat(live) is not None:
            await asyncio.sleep(self.bot_delay)
            async with live.lock:
                row = self._bot_seat(live)
                if row is None:
                    break
                # Off the event loop: a strong computer player may think for a while, and other
                # tables must not wait for it (the table's lock keeps this table still meanwhile).
                choice = await asyncio.to_thread(
                    live.table.bot_action, row.seat, row.bot, bot_seed()
                )
                try:
                    self._apply_locked(live, row.seat, choice)
                except ActionError:
                    log.exception("computer player chose an illegal action at table %s", live.id)
                    break
            await self.broadcast(live)

    async def resume(self) -> None:
        """After a start: load running tables where a computer player is to move."""
        for table_id in self.store.running_table_ids():
            try:
                live = await self.get(table_id)
            except Exception:
                log.exception("table %s does not load", table_id)
                continue
            if live is not None and self._bot_seat(live) is not None:
                self.kick_bots(live)

    async def stop(self) -> None:
        """Cancel the computer players' tasks."""
        tasks = [lv.bot_task for lv in self.lives.values() if lv.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t


# --------------------------------------------------------------------------- helpers


def _clean_name(value: Any, default: str) -> str:
    name = str(value or "").strip()[:MAX_NAME]
    return name or default


def _lang(request: Request) -> str:
    q = request.query_params.get("lang")
    if q in LANGUAGES:
        return q
    c = request.cookies.get("lang")
    if c in LANGUAGES:
        return c
    return pick_language(request.headers.get("accept-language"))


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
GAME_NAMES = {"dice": "Würfel-Pfeffer", "pepper": "Pepper"}
# What the new-table form shows for each choice of a house rule (msgids; the value sent is the
# choice itself, as the API and docs/rules.md name it).
CHOICE_LABELS = {
    "double": "Double",
    "add": "Add once more",
    "fixed": "Fixed values",
    "forbidden": "Not allowed",
    "allowed": "Allowed",
    "none": "Nothing extra",
    "stake": "The stake as a bonus",
    "shared": "Shared win",
    "playoff": "Play-off",
    "last_must_bid": "Last player must bid",
    "redeal": "Deal again",
}


def _seat_count_error(kind: str) -> TranslatableError:
    ad = adapter(kind)
    return TranslatableError.format(
        "{game}: {low} to {high} seats",
        game=GAME_NAMES[kind],
        low=ad.min_players,
        high=ad.max_players,
    )


def _parse_seats(kind: str, raw: Any, lang: str = "en") -> list[SeatSpec]:
    ad = adapter(kind)
    if not isinstance(raw, list) or not ad.min_players <= len(raw) <= ad.max_players:
        raise _seat_count_error(kind)
    out = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict):
            raise TranslatableError("each seat is an object")
        seat_kind = s.get("kind", "human")
        if seat_kind not in ("human", "bot"):
            raise TranslatableError.format(
                "{kind} is not a kind of seat: a seat is 'human' or 'bot'.",
                kind=shown(seat_kind),
            )
        kinds = [b.key for b in ad.bot_kinds()]  # the game's bot registry, the default first
        bot = s.get("bot", kinds[0]) if seat_kind == "bot" else None
        if bot is not None and bot not in kinds:
            raise TranslatableError.format("computer players: {kinds}", kinds=", ".join(kinds))
        gt = translations(lang).gettext  # a seat without a name is named in the host's language
        default = (gt("Bot %(n)s") if seat_kind == "bot" else gt("Player %(n)s")) % {"n": i + 1}
        public = seat_kind == "human" and s.get("public") is True
        out.append(SeatSpec(_clean_name(s.get("name"), default), seat_kind, bot, public))
    return out


def _table_summary(t: TableRow, seats: list[SeatRow]) -> dict[str, Any]:
    labels = {b.key: b.label for b in adapter(t.game).bot_kinds()}
    return {
        "id": t.id,
        "game": t.game,
        "status": t.status,
        "created": t.created_at.isoformat() + "Z",
        "finished": t.finished_at.isoformat() + "Z" if t.finished_at else None,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot,
                "bot_label": labels.get(s.bot, s.bot) if s.bot else None,
                # Offered in the lobby: a human seat the host opened to the public, not taken.
                "free": s.kind == "human" and s.public and not s.claimed,
            }
            for s in seats
        ],
        "winners": t.winners,
        "scores": t.scores,
    }


def _winner_names(t: TableRow, seats: list[SeatRow]) -> list[str]:
    """Names of the winning sides (teams as "Ann & Cy"), as the game names its sides."""
    sides = adapter(t.game).side_names([s.name for s in seats])
    return [sides[w] for w in t.winners or []]


# --------------------------------------------------------------------------- the app


def _is_page(path: str) -> bool:
    """Whether ``path`` is one of the HTML pages (errors there are pages, not JSON)."""
    return not path.startswith(("/api/", "/static/", "/ws/"))


def _form_seats(kind: str, form: Any) -> list[dict[str, Any]]:
    """The seats of the new-table form; TranslatableError for a count out of range or a kind of
    seat the game does not have (nothing is quietly changed)."""
    ad = adapter(kind)
    raw = str(form.get("players", "")).strip()
    n = int(raw) if raw.isdigit() and len(raw) < 3 else 0
    if not ad.min_players <= n <= ad.max_players:
        raise _seat_count_error(kind)
    bot_keys = {b.key for b in ad.bot_kinds()}
    seats = []
    for i in range(n):
        who = str(form.get(f"seat{i}_kind", "human"))
        if who in ("human", "public"):
            seat: dict[str, Any] = {"kind": "human", "public": who == "public"}
        elif who in bot_keys:
            seat = {"kind": "bot", "bot": who}
        else:
            raise TranslatableError.format(
                "{kind} is not a kind of seat: a seat is 'human' or 'bot'.", kind=shown(who)
            )
        seat["name"] = str(form.get(f"seat{i}_name", ""))
        seats.append(seat)
    return seats


async def _json_object(request: Request) -> dict[str, Any]:
    """The request's JSON body, which must be an object; 400 otherwise."""
    try:
        body = await request.json()
    except ValueError:
        raise HTTPException(400, "send a JSON object") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "send a JSON object")
    return body


def create_app(
    db_url: str,
    bot_delay: float = 0.8,
    table_ttl: dt.timedelta = TABLE_TTL,
    lan_url: str | None = None,
) -> FastAPI:
    """The web app on the database at ``db_url`` (migrated on start); running tables unused
    for ``table_ttl`` expire. ``lan_url`` (``http://192.168.1.5:8000``) is the address phones
    on the network use: the host page's links and QR codes use it when the host opened the
    page as localhost."""
    engine = make_engine(db_url)
    migrate(engine)
    store = Store(engine)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(store, bot_delay)
        app.state.hub = hub
        store.expire_tables(table_ttl)
        await hub.resume()
        yield
        await hub.stop()
        engine.dispose()

    app = FastAPI(title="Pfeffer", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.store = store
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """HTTP errors in the request's language: the English details written in this module
        (``HTTPException(404, "no such table")``) are msgids of the catalogue; details that are
        translated already (``translate_error``) have no entry and stay as they are."""
        if isinstance(exc.detail, str):
            detail = translations(_lang(request)).gettext(exc.detail)
            exc = StarletteHTTPException(exc.status_code, detail, exc.headers)
        if _is_page(request.url.path):
            # A page (a bad link, a forged invite): an HTML page in the user's language with a
            # way back, not the API's JSON.
            return render(
                request,
                "error.html",
                status_code=exc.status_code,
                detail=exc.detail,
                status=exc.status_code,
                more=getattr(request.state, "error_link", None),
            )
        return await http_exception_handler(request, exc)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    def render(request: Request, template: str, status_code: int = 200, **ctx: Any) -> HTMLResponse:
        lang = _lang(request)
        t = translations(lang)
        page = env.get_template(template).render(
            _=t.gettext,
            ngettext=t.ngettext,
            lang=lang,
            languages=LANGUAGE_NAMES,
            js_strings=js_strings(t.gettext),
            path=request.url.path,
            **ctx,
        )
        resp = HTMLResponse(page, status_code=status_code)
        if request.query_params.get("lang") in LANGUAGES:
            resp.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
        return resp

    # ----------------------------------------------------------------- REST: tables

    def create_table(
        kind: str, rules_in: Any, seats_in: Any, lang: str = "en"
    ) -> tuple[TableRow, list[SeatRow]]:
        if kind not in ADAPTERS:
            raise HTTPException(400, "game must be 'dice' or 'pepper'")
        ad = adapter(kind)
        try:
            rules = ad.parse_rules(rules_in if isinstance(rules_in, dict) else {})
            seats = _parse_seats(kind, seats_in, lang)
            ad.table(rules, [s.name for s in seats], 0)  # the engine checks the set-up
        except (ValueError, TypeError) as exc:
            raise HTTPException(400, translate_error(exc, lang)) from None
        return store.create_table(kind, rules, new_seed(), seats)

    @app.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        body = await _json_object(request)
        table, seats = create_table(
            body.get("game", ""), body.get("rules"), body.get("seats"), _lang(request)
        )
        await hub_of(request).get(table.id)
        hub_live = hub_of(request).lives[table.id]
        hub_of(request).kick_bots(hub_live)
        return JSONResponse(
            {
                "id": table.id,
                "admin_token": table.admin_token,
                "host_token": table.admin_token,  # revokes and reissues links, opens seats
                "host_url": f"/table/{table.id}/{table.admin_token}",
                "spectator_url": f"/watch/{table.id}",
                "seats": [
                    {
                        "seat": s.seat,
                        "name": s.name,
                        "kind": s.kind,
                        **(
                            {
                                "token": s.token,
                                "url": f"/play/{table.id}/{s.token}",
                                "public": s.public,
                            }
                            if s.kind == "human"
                            else {}
                        ),
                    }
                    for s in seats
                ],
            },
            status_code=201,
        )

    @app.get("/api/tables")
    async def api_lobby(status: str = "running") -> list[dict[str, Any]]:
        if status not in ("running", "finished"):
            raise HTTPException(400, "status is 'running' or 'finished'")
        tables = store.list_tables(status)
        if status == "running":  # private tables are not listed: only open public seats
            tables = [(t, s) for t, s in tables if any(x.public and not x.claimed for x in s)]
        return [_table_summary(t, s) for t, s in tables]

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str) -> dict[str, Any]:
        t = store.table(table_id)
        if t is None:
            raise HTTPException(404, "no such table")
        return _table_summary(t, store.seats(table_id))

    @app.get("/api/tables/{table_id}/state")
    async def api_state(
        request: Request, table_id: str, token: str | None = None
    ) -> dict[str, Any]:
        live = await hub_of(request).get(table_id)
        if live is None:
            raise HTTPException(404, "no such table")
        seat = None
        if token is not None:
            row = next((s for s in live.seats if s.token == token), None)
            if row is None:
                raise HTTPException(403, "this is not a seat token of this table")
            seat = row.seat
        return live.frame(seat)

    @app.post("/api/tables/{table_id}/claim/{seat}")
    async def api_claim(table_id: str, seat: int) -> dict[str, Any]:
        t = store.table(table_id)
        if t is None or t.status != "running":
            raise HTTPException(404, "no such table")
        row = next((s for s in store.seats(table_id) if s.seat == seat), None)
        if row is None or row.kind != "human" or not row.public:
            # An invited seat: its link goes only from the host to the friend.
            raise HTTPException(403, "this seat is not open to the public")
        token = store.claim_seat(table_id, seat)
        if token is None:
            raise HTTPException(409, "this seat is taken")
        return {"token": token, "url": f"/play/{table_id}/{token}"}

    # ----------------------------------------------------------------- the host

    def host_table(table_id: str, host_token: Any) -> TableRow:
        t = store.table(table_id)
        if t is None or not isinstance(host_token, str) or host_token != t.admin_token:
            raise HTTPException(404, "no such table")
        return t

    async def new_link(request: Request, table_id: str, seat: int) -> str:
        """Revoke the seat's link (its windows are closed) and issue a new one."""
        token = store.new_seat_token(table_id, seat)
        if token is None:
            raise HTTPException(404, "there is no such human seat")
        live = hub_of(request).lives.get(table_id)
        if live is not None:
            async with live.lock:
                live.seats = store.seats(table_id)
            for ws, s in list(live.conns.items()):
                if s == seat:
                    live.conns.pop(ws, None)
                    gt = translations(_lang(request)).gettext
                    with contextlib.suppress(Exception):
                        await _error(ws, "bad_token", gt("This link is not valid for this table."))
                        await ws.close(code=4403)
            await hub_of(request).broadcast(live)
        return token

    @app.post("/api/tables/{table_id}/seats/{seat}/link")
    async def api_new_link(request: Request, table_id: str, seat: int) -> dict[str, Any]:
        body = await _json_object(request)
        host_table(table_id, body.get("host_token"))
        token = await new_link(request, table_id, seat)
        return {"seat": seat, "token": token, "url": f"/play/{table_id}/{token}"}

    @app.post("/api/tables/{table_id}/seats/{seat}/public")
    async def api_public(request: Request, table_id: str, seat: int) -> dict[str, Any]:
        body = await _json_object(request)
        host_table(table_id, body.get("host_token"))
        public = body.get("public")
        if not isinstance(public, bool):
            raise HTTPException(400, "public is true or false")
        if not store.set_public(table_id, seat, public):
            raise HTTPException(404, "there is no such human seat")
        return {"seat": seat, "public": public}

    @app.post("/api/tables/{table_id}/rematch")
    async def api_rematch(request: Request, table_id: str) -> dict[str, Any]:
        try:
            body = await request.json()
        except ValueError:
            body = {}
        token = body.get("token") if isinstance(body, dict) else None
        hub = hub_of(request)
        live = await hub.get(table_id)
        if live is None:
            raise HTTPException(404, "no such table")
        row = next((s for s in live.seats if s.token == token), None)
        if row is None:
            raise HTTPException(403, "only a player of this table can ask for a rematch")
        if live.status != "finished":
            raise HTTPException(409, "the game is still running")
        async with live.lock:
            if live.rematch_id is None:
                t = store.table(table_id)
                assert t is not None
                new_table, _ = store.create_table(
                    live.kind,
                    t.rules,
                    new_seed(),
                    [SeatSpec(s.name, s.kind, s.bot, s.public) for s in live.seats],
                    rematch_of=table_id,
                )
                live.rematch_id = new_table.id
                new_live = await hub.get(new_table.id)
                assert new_live is not None
                hub.kick_bots(new_live)
                created = True
            else:
                created = False
        if created:
            await hub.broadcast(live, {"type": "rematch", "table": live.rematch_id})
        assert live.rematch_id is not None
        new_row = store.seats(live.rematch_id)[row.seat]
        store.mark_claimed(live.rematch_id, row.seat)
        return {"table": live.rematch_id, "url": f"/play/{live.rematch_id}/{new_row.token}"}

    @app.get("/api/tables/{table_id}/record")
    async def api_record(request: Request, table_id: str) -> Response:
        live = await hub_of(request).get(table_id)
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

    @app.get("/api/tables/{table_id}/replay")
    async def api_replay(request: Request, table_id: str, step: int = 0) -> dict[str, Any]:
        t = store.table(table_id)
        if t is None:
            raise HTTPException(404, "no such table")
        if t.status != "finished":
            raise HTTPException(409, "replays are available when the game is over")
        seats = store.seats(table_id)
        rows = store.actions(table_id)
        actions = [a.action for a in rows]
        step = max(0, min(step, len(actions)))
        table = adapter(t.game).table(t.rules, [s.name for s in seats], t.seed, actions[:step])
        view = table.reveal()  # the game is over: every hand may be shown
        return {
            "step": step,
            "steps": len(actions),
            "action": actions[step - 1] if step else None,
            "seat": rows[step - 1].seat if step else None,  # who took that action
            "names": [s.name for s in seats],
            "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in seats],
            "game": t.game,
            "view": view,
        }

    @app.get("/api/history")
    async def api_history() -> list[dict[str, Any]]:
        return [
            {**_table_summary(t, s), "winner_names": _winner_names(t, s)}
            for t, s in store.list_tables("finished")
        ]

    # ----------------------------------------------------------------- REST: sheets

    @app.post("/api/sheets")
    async def api_sheet_new(request: Request) -> JSONResponse:
        body = await _json_object(request)
        try:
            kind, title, data = sheets.new_sheet(body)
        except ValueError as exc:
            raise HTTPException(400, translate_error(exc, _lang(request))) from None
        row = store.create_sheet(kind, title, data)
        return JSONResponse({"id": row.id, "url": f"/sheet/{row.id}"}, status_code=201)

    @app.get("/api/sheets/{sheet_id}")
    async def api_sheet(sheet_id: str) -> dict[str, Any]:
        row = store.sheet(sheet_id)
        if row is None:
            raise HTTPException(404, "no such sheet")
        return sheets.present(row.game, row.title, row.data)

    @app.post("/api/sheets/{sheet_id}/entries")
    async def api_sheet_entry(request: Request, sheet_id: str) -> dict[str, Any]:
        row = store.sheet(sheet_id)
        if row is None:
            raise HTTPException(404, "no such sheet")
        try:
            body = await request.json()
        except ValueError:
            raise HTTPException(400, "send a JSON object") from None
        try:
            data = sheets.add_entry(row.game, row.data, body)
        except ValueError as exc:
            raise HTTPException(400, translate_error(exc, _lang(request))) from None
        store.save_sheet(sheet_id, data)
        return sheets.present(row.game, row.title, data)

    @app.post("/api/sheets/{sheet_id}/undo")
    async def api_sheet_undo(sheet_id: str) -> dict[str, Any]:
        row = store.sheet(sheet_id)
        if row is None:
            raise HTTPException(404, "no such sheet")
        data = sheets.undo(row.game, row.data)
        store.save_sheet(sheet_id, data)
        return sheets.present(row.game, row.title, data)

    # ----------------------------------------------------------------- WebSocket

    @app.websocket("/ws/{table_id}")
    async def ws_table(
        ws: WebSocket, table_id: str, token: str | None = None, lang: str = "en"
    ) -> None:
        lang = lang if lang in LANGUAGES else "en"  # the page's language (play.js sends it)
        gt = translations(lang).gettext
        hub = hub_of(ws)
        await ws.accept()
        live = await hub.get(table_id)
        if live is None:
            await ws.send_json(
                {"type": "error", "code": "no_table", "message": gt("There is no such table.")}
            )
            await ws.close(code=4404)
            return
        seat: int | None = None
        if token:
            row = next((s for s in live.seats if s.token == token), None)
            if row is None:
                await ws.send_json(
                    {
                        "type": "error",
                        "code": "bad_token",
                        "message": gt("This link is not valid for this table."),
                    }
                )
                await ws.close(code=4403)
                return
            seat = row.seat
            if not row.claimed:
                store.mark_claimed(live.id, seat)
                row.claimed = True
            else:
                store.touch(live.id)
        live.conns[ws] = seat
        await hub.broadcast(live)
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    await _error(ws, "malformed", gt("Send JSON text messages."))
                    continue
                if len(text) > MAX_MESSAGE:
                    await _error(ws, "too_large", gt("That message is too long."))
                    continue
                try:
                    data = json.loads(text)
                except (ValueError, RecursionError):  # deep nesting: RecursionError
                    await _error(ws, "malformed", gt("That message is not valid JSON."))
                    continue
                if not isinstance(data, dict) or data.get("type") not in ("action", "sync", "ping"):
                    await _error(ws, "malformed", gt("Unknown message type."))
                    continue
                if data["type"] == "ping":
                    await ws.send_json({"type": "pong"})
                    continue
                if data["type"] == "sync":
                    await ws.send_json(live.frame(seat))
                    continue
                action = data.get("action")
                if not isinstance(action, str) or not action or len(action) > MAX_ACTION:
                    await _error(ws, "malformed", gt("An action must be a short text."))
                    continue
                if seat is None:
                    await _error(ws, "spectator", gt("Spectators cannot play."))
                    continue
                if live.status != "running":
                    await _error(ws, "over", gt("The game is over."))
                    continue
                expected = data.get("version")
                if live.applied is not None and live.applied[:3] == (seat, action, expected):
                    # The same action again from the same state (a double click, a resend after
                    # a reconnect): it was applied once; answer with the state, not an error.
                    await ws.send_json(live.frame(seat))
                    continue
                if expected is not None and expected != live.version:
                    await _error(ws, "stale", gt("The table moved on; here is the current state."))
                    await ws.send_json(live.frame(seat))
                    continue
                try:
                    await hub.act(live, seat, action)
                except NotYourTurn as exc:  # the engine checks the seat
                    await _error(ws, "not_your_turn", translate_error(exc, lang))
                except ActionError as exc:
                    await _error(ws, "illegal", translate_error(exc, lang))
        except WebSocketDisconnect:
            pass
        finally:
            live.conns.pop(ws, None)
            if ws.client_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close()
            await hub.broadcast(live)

    # ----------------------------------------------------------------- pages

    @app.get("/", response_class=HTMLResponse)
    async def page_lobby(request: Request) -> HTMLResponse:
        hub_of(request).forget(store.expire_tables(table_ttl))
        tables = [
            _table_summary(t, s)
            for t, s in store.list_tables("running")
            if any(x.kind == "human" and x.public and not x.claimed for x in s)
        ]
        return render(request, "lobby.html", tables=tables)

    def new_table_form(request: Request, kind: str, error: Any) -> HTMLResponse:
        """The form for a new table of ``kind`` (house rules, seats), with an error if any."""
        ad = adapter(kind)
        return render(
            request,
            "new.html",
            kind=kind,
            options=ad.rule_specs(),
            choice_labels=CHOICE_LABELS,
            bots=ad.bot_kinds(),
            max_players=ad.max_players,
            min_players=ad.min_players,
            error=error,
            status_code=200 if error is None else 400,
        )

    @app.get("/new/{kind}", response_class=HTMLResponse)
    async def page_new(request: Request, kind: str) -> HTMLResponse:
        if kind not in ADAPTERS:
            raise HTTPException(404, "no such game")
        return new_table_form(request, kind, error=None)

    @app.post("/new/{kind}")
    async def page_new_post(request: Request, kind: str) -> Response:
        if kind not in ADAPTERS:
            raise HTTPException(404, "no such game")
        ad = adapter(kind)
        form = await request.form()
        try:
            rules = parse_form(ad.rule_specs(), form)
        except RulesError as exc:
            return new_table_form(request, kind, error=translate_error(exc, _lang(request)))
        try:
            seats_in = _form_seats(kind, form)
            table, _ = create_table(kind, rules, seats_in, _lang(request))
        except TranslatableError as exc:
            return new_table_form(request, kind, error=translate_error(exc, _lang(request)))
        except HTTPException as exc:
            return new_table_form(request, kind, error=exc.detail)
        hub = hub_of(request)
        live = await hub.get(table.id)
        assert live is not None
        hub.kick_bots(live)
        return RedirectResponse(f"/table/{table.id}/{table.admin_token}", status_code=303)

    @app.get("/table/{table_id}/{admin_token}", response_class=HTMLResponse)
    async def page_admin(request: Request, table_id: str, admin_token: str) -> HTMLResponse:
        t = host_table(table_id, admin_token)
        base = str(request.base_url).rstrip("/")
        if lan_url and request.url.hostname in LOOPBACK_NAMES:
            base = lan_url.rstrip("/")  # localhost means nothing on a phone
        labels = {b.key: b.label for b in adapter(t.game).bot_kinds()}
        seats = store.seats(table_id)
        links = {s.seat: f"{base}/play/{table_id}/{s.token}" for s in seats if s.kind == "human"}
        return render(
            request,
            "admin.html",
            table=t,
            seats=seats,
            base=base,
            links=links,
            qr={seat: qr_svg(url) for seat, url in links.items()},
            bot_labels=labels,
            device_url=device_url(table_id, admin_token),  # pepper-table
        )

    @app.get("/rules/{kind}", response_class=HTMLResponse)
    async def page_rules(request: Request, kind: str) -> HTMLResponse:
        if kind not in RULES:
            raise HTTPException(404, "no such page")
        specs = adapter(kind).rule_specs()
        return render(
            request,
            "rules.html",
            kind=kind,
            game_name=GAME_NAMES[kind],
            intro=RULES_INTRO[kind],
            rules=RULES[kind],
            house={r.id: [s for s in specs if s.rule == r.id] for r in RULES[kind]},
            choice_labels=CHOICE_LABELS,
        )

    @app.post("/table/{table_id}/{admin_token}/seat/{seat}/{what}")
    async def page_host_seat(
        request: Request, table_id: str, admin_token: str, seat: int, what: str
    ) -> Response:
        host_table(table_id, admin_token)
        if what == "link":
            await new_link(request, table_id, seat)
        elif what in ("public", "private"):
            if not store.set_public(table_id, seat, what == "public"):
                raise HTTPException(404, "there is no such human seat")
        else:
            raise HTTPException(404, "no such page")
        return RedirectResponse(f"/table/{table_id}/{admin_token}#seat{seat}", status_code=303)

    @app.get("/play/{table_id}/{token}", response_class=HTMLResponse)
    async def page_play(request: Request, table_id: str, token: str) -> HTMLResponse:
        row = store.seat_by_token(token)
        if row is None or row.table_id != table_id or row.kind != "human":
            raise HTTPException(404, "this link is not valid")
        t = store.table(table_id)
        assert t is not None
        if t.status == "expired":
            raise HTTPException(410, "this table expired: nobody played at it for a week")
        return render(request, "play.html", table=t, token=token, seat=row.seat)

    @app.get("/watch/{table_id}", response_class=HTMLResponse)
    async def page_watch(request: Request, table_id: str) -> HTMLResponse:
        t = store.table(table_id)
        if t is None:
            raise HTTPException(404, "no such table")
        if t.status == "expired":
            raise HTTPException(410, "this table expired: nobody played at it for a week")
        return render(request, "play.html", table=t, token="", seat=None)

    @app.get("/history", response_class=HTMLResponse)
    async def page_history(request: Request) -> HTMLResponse:
        games = [
            {**_table_summary(t, s), "winner_names": _winner_names(t, s)}
            for t, s in store.list_tables("finished")
        ]
        return render(request, "history.html", games=games)

    @app.get("/replay/{table_id}", response_class=HTMLResponse)
    async def page_replay(request: Request, table_id: str) -> HTMLResponse:
        t = store.table(table_id)
        if t is None:
            raise HTTPException(404, "no such table")
        if t.status != "finished":
            request.state.error_link = (f"/watch/{table_id}", "Watch this game")
            raise HTTPException(409, "replays are available when the game is over")
        return render(request, "replay.html", table=t)

    @app.get("/sheets", response_class=HTMLResponse)
    async def page_sheets(request: Request) -> HTMLResponse:
        return render(request, "sheets.html", error=None)

    @app.post("/sheets")
    async def page_sheets_post(request: Request) -> Response:
        form = await request.form()
        kind = str(form.get("game", "dice"))
        names = [str(form.get(f"name{i}", "")).strip() for i in range(8)]
        names = [n[:MAX_NAME] for n in names if n]
        try:
            k, title, data = sheets.new_sheet(
                {"game": kind, "title": str(form.get("title", ""))[:80], "players": names}
            )
        except ValueError as exc:
            return render(
                request, "sheets.html", status_code=400, error=translate_error(exc, _lang(request))
            )
        row = store.create_sheet(k, title, data)
        return RedirectResponse(f"/sheet/{row.id}", status_code=303)

    @app.get("/sheet/{sheet_id}", response_class=HTMLResponse)
    async def page_sheet(request: Request, sheet_id: str) -> HTMLResponse:
        row = store.sheet(sheet_id)
        if row is None:
            raise HTTPException(404, "no such sheet")
        return render(request, "sheet.html", sheet=row)

    # ----------------------------------------------------------------- pepper-table: one device

    @app.get("/device/{table_id}/{host_token}", response_class=HTMLResponse)
    async def page_device(request: Request, table_id: str, host_token: str) -> HTMLResponse:
        """Every human seat of the table in this browser (pfeffer.web.device)."""
        t = host_table(table_id, host_token)
        if t.status == "expired":
            raise HTTPException(410, "this table expired: nobody played at it for a week")
        seats = device_seats(store.seats(table_id))
        host = f"/table/{table_id}/{host_token}"
        return render(request, "device.html", table=t, device_seats=seats, host_url=host)

    return app


async def _error(ws: WebSocket, code: str, message: str) -> None:
    await ws.send_json({"type": "error", "code": code, "message": message})


def js_strings(_: Callable[[str], str]) -> dict[str, str]:
    """Every string the browser scripts show, translated (the scripts never hold UI text)."""
    return {
        "your_turn": _("Your turn"),
        "turn_of": _("%(name)s's turn"),
        "roll": _("Roll"),
        "roll_n": _("Roll %(n)s dice"),
        "bank": _("Bank %(points)s"),
        "pfeffer": _("Pfeffer!"),
        "call_pfeffer": _("Call Pfeffer! (stake %(stake)s)"),
        "pfeffer_terms": _("Pfeffer: bank at least %(need)s; a bust costs %(penalty)s"),
        "bust_costs": _("A bust costs %(points)s"),
        "turn_total": _("Turn total"),
        "to_bank": _("Minimum to bank"),
        "keep": _("Set aside"),
        "bust": _("Bust"),
        "penalty": _("penalty"),
        "auto_pfeffer": _("Auto-Pfeffer: your predecessor scored nothing"),
        "pfeffer_on": _("Pfeffer is on: stake %(stake)s"),
        "final_round": _("Final round!"),
        "winner": _("Winner"),
        "winners": _("Winners"),
        "game_over": _("Game over"),
        "round": _("Round"),
        "total": _("Σ"),
        "deal": _("Deal"),
        "pass": _("Pass"),
        "bid": _("Bid"),  # a noun: the score pad's column, the sheet's field
        "bid_button": _("Bid %(bid)s"),  # a verb: the auction's buttons
        "small": _("Small Pepper"),
        "big": _("Big Pepper"),
        "trump": _("Trump"),
        "no_trump": _("No trump"),
        "choose_trump": _("Choose trump"),
        "auction": _("Auction"),
        "last_trick": _("Last trick"),
        "current_trick": _("Trick"),
        "tricks": _("Tricks"),
        "tricks_needed": _("The contract needs %(need)s of %(total)s tricks"),
        "partner": _("partner"),
        "dealer": _("Dealer"),
        "bidder": _("Bidder"),
        "hand": _("Hand"),
        "made": _("made"),
        "set": _("set"),
        "team": _("Team"),
        "you": _("you"),
        "bot": _("computer"),
        "online": _("online"),
        "offline": _("offline"),
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost, reconnecting…"),
        "rematch": _("Rematch"),
        "spectator": _("You are watching."),
        "waiting": _("Waiting for %(name)s…"),
        "thrown": _("Thrown"),
        "kept": _("Set aside"),
        "download": _("Download record"),
        "step": _("Step"),
        "start": _("Start"),
        "back": _("Back"),
        "forward": _("Forward"),
        "end": _("End"),
        "points": _("Points"),
        "score": _("Score"),
        "your_hand": _("Your hand"),
        "called_pfeffer": _("%(name)s calls Pfeffer!"),
        "lost_penalty": _("%(name)s busts and loses %(points)s"),
        "banked": _("%(name)s banks %(points)s"),
        "busted": _("%(name)s busts"),
        "add": _("Add"),
        "all_passed": _("Everyone passed"),
        "undo": _("Undo last entry"),
        "print": _("Print"),
        "error": _("Error"),
        "did_throw": _("%(name)s threw %(dice)s"),
        "did_keep": _("%(name)s sets aside %(dice)s"),
        "did_void": _("%(name)s declares the throw void"),
        "did_deal": _("%(name)s deals"),
        "did_pass": _("%(name)s passes"),
        "did_bid": _("%(name)s bids %(bid)s"),
        "did_trump": _("%(name)s names trump: %(trump)s"),
        "did_play": _("%(name)s plays %(card)s"),
        "copied": _("Copied"),
        "copy_by_hand": _("Copying did not work: the link is selected, copy it by hand."),
        "share_title": _("Your seat at the Pfeffer table"),
        # pepper-table: the card table, the bids' terms, card names, the one-device page
        "rank_J": _("J"),  # the ranks as printed on a card's corner
        "rank_Q": _("Q"),
        "rank_K": _("K"),
        "rank_A": _("A"),
        "suit_C": _("Clubs"),
        "suit_D": _("Diamonds"),
        "suit_H": _("Hearts"),
        "suit_S": _("Spades"),
        **{f"card_{code}": _(name) for code, name in CARD_NAMES.items()},
        "bower_right": _("%(card)s, right bower: the highest trump"),
        "bower_left": _("%(card)s, left bower: a trump, second only to the right bower"),
        "not_playable": _("%(card)s, cannot be played now"),
        "card_by": _("%(name)s: %(card)s"),
        "cards_in_hand": _("Cards in hand: %(n)s"),
        "card_table": _("Card table"),
        "dealer_chip": _("D"),  # the dealer button's letter
        "contract": _("Contract"),
        "bid_need": _("Take at least %(need)s of %(total)s tricks."),
        "bid_need_team": _("Take at least %(need)s of %(total)s tricks with your partner."),
        "bid_all": _("Take all %(total)s tricks."),
        "bid_all_team": _("Take all %(total)s tricks with your partner."),
        "bid_stakes": _("Made: %(low)s to %(high)s · set: %(set)s"),
        "bid_stakes_fixed": _("Made: %(made)s · set: %(set)s"),
        "pass_meaning": _("Out of the auction for this hand."),
        "must_bid": _("Everyone else passed: you must bid."),
        "choose_trump_for": _("You won the auction with %(bid)s: choose trump."),
        "keys_hint": _("Keys 1 to %(n)s play your playable cards from the left."),
        "pass_to": _("Pass the device to %(name)s"),
        "pass_hidden": _("The cards stay hidden until %(name)s takes the device."),
        "i_am": _("I am %(name)s"),
        "device_seat": _("%(name)s is playing on this device"),
    }
