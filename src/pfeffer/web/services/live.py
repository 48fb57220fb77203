"""One table held in memory: the engine's game with its adapter, its seats and its clients."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import json
import logging
from typing import Any, Protocol
from urllib.parse import quote

import orjson

from pfeffer.core.game import Game
from pfeffer.web.adapters.games import Table, adapter, chosen_action
from pfeffer.web.i18n import translate_error
from pfeffer.web.services.errors import revoked
from pfeffer.web.services.lobby import is_public
from pfeffer.web.storage.repository import ActionRow, SeatRow, TableRow
from pfeffer.web.tokens import same_token, seat_with_token

log = logging.getLogger("pfeffer.web")

SPECTATORS = -1  # the key of the spectators in a presence count
OUTBOX_LIMIT = 500  # frames queued for one client; a client this far behind is dropped


class Client(Protocol):
    """A connected client (a WebSocket): it is sent JSON frames and can be closed."""

    async def send_json(self, data: Any) -> None:
        """Send one JSON message."""

    async def close(self, code: int = 1000) -> None:
        """Close the connection."""


class Socket(Client, Protocol):
    """What an :class:`Outbox` writes to (a Starlette ``WebSocket``): a client that also
    takes text as it is."""

    async def send_text(self, data: str) -> None:
        """Send one text message."""


class ClientGone(ConnectionError):
    """The client went away or fell too far behind."""


class Outbox:
    """A WebSocket behind a queue: ``send_json`` only queues the frame and a task of its own
    writes the frames out in order. So a table's broadcast never waits for a slow phone (the
    table's lock is held while it broadcasts, so that every client gets every version, in
    order), and replies to one client keep their order among the broadcasts."""

    def __init__(self, ws: Socket, limit: int = OUTBOX_LIMIT) -> None:
        self.ws = ws
        self.limit = limit
        self.lang = "en"  # the page's language (for what the server tells it unasked)
        self._queue: collections.deque[tuple[str, Any]] = collections.deque()
        self._ready = asyncio.Event()
        self.gone = False
        self._task = asyncio.create_task(self._pump())

    async def send_json(self, data: Any) -> None:
        self._put("send", data)

    async def send_text(self, text: str) -> None:
        """Queue a message already written as JSON text (a frame built once for every client
        of its seat, :meth:`Live.frame_text`); it goes out exactly as ``send_json`` would
        write the data it was made from."""
        self._put("text", text)

    def _put(self, what: str, data: Any) -> None:
        if self.gone:
            raise ClientGone("the client went away")
        if len(self._queue) >= self.limit:  # it reconnects and gets the whole state then
            self.gone = True
            self._queue.clear()
            self._queue.append(("close", 1013))
            self._ready.set()
            raise ClientGone("the client fell behind")
        self._queue.append((what, data))
        self._ready.set()

    async def close(self, code: int = 1000) -> None:
        """Close after the frames already queued."""
        if not self.gone:
            self.gone = True
            self._queue.append(("close", code))
            self._ready.set()

    async def _pump(self) -> None:
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self._queue:
                what, data = self._queue.popleft()
                try:
                    if what == "close":
                        await self.ws.close(code=data)
                        return
                    if what == "text":
                        await self.ws.send_text(data)
                    else:
                        await self.ws.send_json(data)
                except Exception as exc:
                    # A frame that cannot be written (the client went away, or a text that
                    # cannot be encoded) ends the connection: logged and closed, never left
                    # half alive with frames piling up unseen. The client reconnects and gets
                    # the whole state.
                    self.gone = True
                    self._queue.clear()
                    log.warning("closed a WebSocket whose send failed: %s", type(exc).__name__)
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=1011)
                    return

    async def finish(self) -> None:
        """Stop writing (the connection ended)."""
        self.gone = True
        self._task.cancel()
        with contextlib.suppress(BaseException):
            await self._task


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
    hints: bool = False  # the players may ask the advisor (the host's choice)
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    conns: dict[Client, int | None] = dataclasses.field(default_factory=dict)
    # The seat link each seated connection was opened with: checked again whenever the seats
    # are read (a revoked link's windows close) and with every action it sends.
    keys: dict[Client, str] = dataclasses.field(default_factory=dict)
    last: dict[str, Any] | None = None
    # The last action a human seat had applied: (seat, action, version before, version after).
    applied: tuple[int, str, int, int] | None = None
    bot_task: asyncio.Task[None] | None = None
    # Clients of this table on other processes: process → {seat (SPECTATORS): connections}.
    remote: dict[str, dict[int, int]] = dataclasses.field(default_factory=dict)
    # The last frame written per seat (None: spectators), with what it was made from.
    _texts: dict[int | None, tuple[tuple[Any, ...], str]] = dataclasses.field(
        default_factory=dict, repr=False
    )

    @classmethod
    def load(cls, row: TableRow, seats: list[SeatRow], actions: list[ActionRow]) -> Live:
        """The table as the store holds it: its game replayed from its actions."""
        names = [s.name for s in seats]
        table = adapter(row.game).table(row.rules, names, row.seed, [a.action for a in actions])
        # The version is the number of actions (each takes one): counted from the actions
        # read, not taken from the table's row, which another process may have moved past
        # between the two reads.
        status = "finished" if table.game.is_over else row.status
        live = cls(row.id, row.game, table, seats, len(actions), status, row.rematch_id, row.hints)
        if actions:  # the last action as its player chose it, for a client that comes now
            live.last = {"seat": actions[-1].seat, "action": chosen_action(actions[-1].action)}
        return live

    def advance(
        self,
        table: Table,
        version: int,
        last: dict[str, Any] | None,
        applied: tuple[int, str, int, int] | None = None,
    ) -> None:
        """The one way a table moves on, on the process that took the action and on every other
        one alike: ``table`` is a copy with the new actions applied (``Table.after`` or
        ``Table.replay``; the old one was never changed, so a refused or failed step leaves
        nothing half done), ``version`` the number of actions it now holds, ``last`` the action
        as its player chose it (public), ``applied`` a human's action for the double-click check
        (kept when None). The status follows from the game."""
        self.table = table
        self.version = version
        self.status = "finished" if table.game.is_over else "running"
        self.last = last
        if applied is not None:
            self.applied = applied

    def holds(self, seat: int, token: object) -> bool:
        """Whether ``token`` is the link of ``seat`` as this copy of the seats has it."""
        row = next((s for s in self.seats if s.seat == seat), None)
        return row is not None and row.kind == "human" and same_token(token, row.token)

    async def close_stale(self) -> None:
        """Close this process's windows whose seat link is no longer their seat's (revoked,
        here or on another process), each told why in the language its page asked for."""
        for ws, s in list(self.conns.items()):
            if s is not None and not self.holds(s, self.keys.get(ws)):
                self.conns.pop(ws, None)
                self.keys.pop(ws, None)
                told = translate_error(revoked(), getattr(ws, "lang", "en"))
                with contextlib.suppress(Exception):
                    await send_error(ws, "bad_token", told)
                    await ws.close(code=4403)

    @property
    def game(self) -> Game[object]:
        """The engine's game."""
        return self.table.game

    @property
    def names(self) -> list[str]:
        """Player names in seat order."""
        return [s.name for s in self.seats]

    def presence(self) -> dict[int, int]:
        """This process's connections to the table by seat (spectators: ``SPECTATORS``)."""
        counts: dict[int, int] = {}
        for seat in self.conns.values():
            key = SPECTATORS if seat is None else seat
            counts[key] = counts.get(key, 0) + 1
        return counts

    def opened(self, seat: int) -> int:
        """In how many windows the seat is open, on every process."""
        here = sum(1 for s in self.conns.values() if s == seat)
        return here + sum(c.get(seat, 0) for c in self.remote.values())

    def online(self) -> set[int]:
        """The seats open somewhere (on any process)."""
        seats = {s for s in self.conns.values() if s is not None}
        for counts in self.remote.values():
            seats.update(s for s, n in counts.items() if n > 0 and s != SPECTATORS)
        return seats

    def frame(self, seat: int | None) -> dict[str, Any]:
        """The state frame for one seat (or a spectator), built from the engine's view."""
        return state_frame(self, seat)

    def frame_text(self, seat: int | None) -> str:
        """:meth:`frame` written as the JSON text ``send_json`` sends (:func:`frame_json`),
        built once for as long as nothing it is made from changed: the game (its table and
        version), the status, the last action, the rematch, the seats, who is online and
        whether the viewer's seat is open elsewhere. So every client of a seat, and a
        broadcast that only tells who is online when nobody came or went, gets the same text
        without the view being built and written again (``tests/web/test_frame_text.py``
        compares it with the frame built the plain way)."""
        key = (
            self.version,
            id(self.table),
            self.status,
            self.last,
            self.rematch_id,
            self.hints,
            id(self.seats),
            frozenset(self.online()),
            seat is not None and self.opened(seat) > 1,
        )
        cached = self._texts.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        text = frame_json(state_frame(self, seat))
        self._texts[seat] = (key, text)
        return text


def seats_differ(old: list[SeatRow], new: list[SeatRow]) -> bool:
    """Whether a seat's link (or the seats) changed between two reads of a table's seats."""
    if len(old) != len(new):
        return True
    return any(seat_with_token(new, s.token) is None for s in old)


def state_frame(live: Live, seat: int | None) -> dict[str, Any]:
    """The state frame for one seat (or a spectator), built from the engine's view (the shape
    is protocol version 1, docs/web.md)."""
    online = live.online()  # on every process of the site
    return {
        "type": "state",
        "table": live.id,
        "game": live.kind,
        "version": live.version,
        "status": live.status,
        "seat": seat,
        "seats": [
            {"name": s.name, "kind": s.kind, "bot": s.bot, "online": s.seat in online}
            for s in live.seats
        ],
        "view": live.table.view(seat),
        "legal": live.table.legal_actions(seat),
        "last": live.last,
        "rematch": live.rematch_id,
        "hints": live.hints,  # the hint button is there (the host allowed hints)
        # The viewer's seat is open in another window or on another device too.
        "elsewhere": seat is not None and live.opened(seat) > 1,
        "links": finished_links(live, seat),
    }


def finished_links(live: Live, seat: int | None) -> dict[str, str] | None:
    """The game-over banner's links for ``seat``: None while the game runs, and for a
    spectator of a private game (its record, replay and review are for its seats); a seat of a
    private game gets them with its own link's key (which its window holds anyway)."""
    if live.status != "finished":
        return None
    if is_public(live.seats):
        return game_links(live.id)
    if seat is None:
        return None
    return game_links(live.id, live.seats[seat].token)


def game_links(table_id: str, key: str | None = None) -> dict[str, str]:
    """Where a finished game is looked at again (the game-over banner's buttons): its review
    (on the replay page), its replay and its record; ``key`` opens a private game's.

    >>> game_links("t1", "k")["record"]
    '/api/tables/t1/record?token=k'
    """
    q = "" if key is None else f"?token={quote(key, safe='')}"
    return {
        "review": f"/replay/{table_id}{q}#review",
        "replay": f"/replay/{table_id}{q}",
        "record": f"/api/tables/{table_id}/record{q}",
    }


async def send_error(ws: Client, code: str, message: str) -> None:
    """An error reply of the WebSocket protocol."""
    await ws.send_json({"type": "error", "code": code, "message": message})


def frame_json(frame: dict[str, Any]) -> str:
    """A frame as the JSON text Starlette's ``send_json`` writes (``json.dumps``, compact, UTF-8
    as is), written by orjson, many times quicker (most of a broadcast's cost was here).

    orjson writes the very same text for everything a frame holds but floats, which it writes
    in exponent form its own way (``1e-7``, not ``1e-07``). A frame's only floats are the dice
    statistics (``view.dice_stats``; ``tests/web/test_frame_text.py`` checks that over whole
    games): those are written by ``json`` and put in as they are (``orjson.Fragment``). What
    orjson refuses (a key that is not a string, an integer beyond 64 bits) is written by
    ``json``."""
    out: dict[str, Any] = frame
    view = frame.get("view")
    if isinstance(view, dict) and "dice_stats" in view:
        stats = orjson.Fragment(_plain_json(view["dice_stats"]))
        out = {**frame, "view": {**view, "dice_stats": stats}}
    try:
        return orjson.dumps(out).decode()
    except TypeError:  # orjson.JSONEncodeError
        return _plain_json(frame)


def _plain_json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
