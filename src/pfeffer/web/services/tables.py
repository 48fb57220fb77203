"""The live tables of this process: loading them from the store, applying actions under each
table's lock (engine check, commit, then broadcast), the computer players and expiry.

Nothing here reads a request: the routes pass a table id, a seat and an action; clients are
anything with ``send_json`` (``live.Client``). Several processes may serve the same tables
(``services.sync``): an action is committed with a compare-and-set on the table's version, so of
two processes only one can take a version; the winner broadcasts it to its own clients and
publishes it on the fan-out (``services.bus``) for the clients of the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from pfeffer.core.rng import new_seed
from pfeffer.web.adapters.games import adapter, warm_up
from pfeffer.web.services import solves
from pfeffer.web.services.bots import BotRunner, bot_to_move
from pfeffer.web.services.bus import Bus, LocalBus
from pfeffer.web.services.chat import Chat, Speaker
from pfeffer.web.services.errors import (
    NoSuchSeat,
    NoSuchTable,
    NotAllowed,
    NotFinished,
    SeatRevoked,
    SeatTaken,
    StorageUnavailable,
    TableMoved,
    moved,
    revoked,
    unavailable,
)
from pfeffer.web.services.live import Client, Live, Outbox
from pfeffer.web.services.messages import (
    Act,
    ChatPosted,
    Expired,
    Presence,
    RematchMade,
    SeatsChanged,
    Who,
)
from pfeffer.web.services.seating import parse_seats
from pfeffer.web.services.sync import Sync
from pfeffer.web.storage.aio import AsyncStore
from pfeffer.web.storage.repository import (
    ConflictError,
    RematchTaken,
    SeatLinkChanged,
    SeatRow,
    SeatSpec,
    Store,
    TableRow,
)
from pfeffer.web.tokens import seat_with_token

__all__ = ["Client", "Hub", "Live", "StorageUnavailable", "TableMoved", "action_key"]

log = logging.getLogger("pfeffer.web")


def action_key(action: str | Sequence[str]) -> str:
    """How an action (or a list of actions taken as one step) is remembered as applied, to know
    the same request again (a double click, a resend after a reconnect)."""
    return action if isinstance(action, str) else "\n".join(action)


class Hub:
    """Every live table of this process, the store behind them and the computer players."""

    def __init__(
        self,
        store: Store | AsyncStore,
        bot_delay: float,
        bus: Bus | None = None,
        chat: Chat | None = None,
    ) -> None:
        self.db = store if isinstance(store, AsyncStore) else AsyncStore(store)
        self.store = self.db.sync
        self.bot_delay = bot_delay
        # Tables of computer players only are taken (tests; issue 20 §1.7: refused otherwise).
        self.computer_tables = False
        self.bus: Bus = bus if bus is not None else LocalBus()
        self.lives: dict[str, Live] = {}
        self._loading: dict[str, asyncio.Future[Live | None]] = {}
        self.bots = BotRunner(self)
        # The tables' chats (web/services/chat.py), in memory; the app's counts its messages
        # with the app's rate limiter.
        self.chats = chat if chat is not None else Chat()
        self.sync = Sync(self)

    # ------------------------------------------------------------------ tables in memory

    async def get(self, table_id: str, fresh: bool = False) -> Live | None:
        """The live table, loaded from the database (by replaying its actions) if needed.
        ``fresh``: where other processes serve the table too, first catch up with the
        database (a request must not answer with a version another process moved past)."""
        live = self.lives.get(table_id)
        if live is not None:
            if fresh and self.bus.shared:
                await self.sync.catch_up(live)
            return live
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Live | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            loaded = await self.db.load(table_id)
            live = None
            if loaded is not None and loaded[0].status != "expired":
                live = self.lives.get(table_id) or Live.load(*loaded)
                self.lives[table_id] = live
                if self.bus.shared:
                    self.bus.publish(table_id, Who())  # who is at this table elsewhere?
            future.set_result(live)
            return live
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        finally:
            del self._loading[table_id]

    # ------------------------------------------------------------------ the tables' API

    async def create(
        self,
        kind: str,
        rules_in: Any,
        seats_in: Any,
        lang: str = "en",
        *,
        hints: bool = False,
        seed: int | None = None,
    ) -> tuple[TableRow, list[SeatRow]]:
        """A new table of ``kind`` (one of ``ADAPTERS``): the house rules and seats checked by
        the engine (a ValueError or TypeError, worded in ``lang`` where it is the seating's,
        when it refuses them), stored, held and its computer players started. ``hints``: the
        players may ask the advisor; ``seed``: the game's seed (tests only; the routes pass
        one only where the app allows it), else a new random one."""
        ad = adapter(kind)
        rules = ad.parse_rules(rules_in if isinstance(rules_in, dict) else {})
        seats = parse_seats(kind, seats_in, lang, computer_only=self.computer_tables)
        ad.table(rules, [s.name for s in seats], 0)  # the engine checks the set-up
        row, seat_rows = await self.db.create_table(
            kind, rules, new_seed() if seed is None else seed, seats, hints=hints
        )
        self.kick_bots(self.created(row, seat_rows))
        # Hints or an optimal player want the rules' solved table: solved in the background.
        await solves.table_created(kind, rules, hints, [s.bot for s in seats])
        return row, seat_rows

    async def claim(self, table_id: str, seat: int) -> str:
        """Claim a public seat of a running table; its new token. NoSuchTable, NotAllowed (an
        invited seat: its link goes only from the host to the friend), SeatTaken."""
        t = await self.db.table(table_id)
        if t is None or t.status != "running":
            raise NoSuchTable(table_id)
        row = next((s for s in await self.db.seats(table_id) if s.seat == seat), None)
        if row is None or row.kind != "human" or not row.public:
            raise NotAllowed(seat)
        token = await self.db.claim_seat(table_id, seat)
        if token is None:
            raise SeatTaken(seat)
        return token

    async def new_link(self, table_id: str, seat: int) -> str:
        """Revoke the seat's link (its windows close, here and on the other processes) and
        issue a new one (the caller checked the host's token); NoSuchSeat."""
        token = await self.db.new_seat_token(table_id, seat)
        if token is None:
            raise NoSuchSeat(seat)
        live = self.lives.get(table_id)
        if live is not None:
            await self.seats_changed(live, seat)
        else:
            self.bus.publish(table_id, SeatsChanged(revoked=seat))
        return token

    async def set_public(self, table_id: str, seat: int, public: bool) -> None:
        """Open a human seat to the public or make it private again (the caller checked the
        host's token); NoSuchSeat."""
        if not await self.db.set_public(table_id, seat, public):
            raise NoSuchSeat(seat)

    async def rematch_for(self, table_id: str, token: Any) -> tuple[str, str]:
        """The rematch of a finished table asked for by the player holding ``token``: the new
        table's id and that player's token there (claimed). NoSuchTable, NotAllowed (not a
        player), NotFinished."""
        live = await self.get(table_id, fresh=True)
        if live is None:
            raise NoSuchTable(table_id)
        row = await self.seat_for(live, token)
        if row is None:
            raise NotAllowed(table_id)
        if live.status != "finished":
            raise NotFinished(table_id)
        rematch = await self.rematch(live)  # one rematch, whichever process is asked first
        new_row = (await self.db.seats(rematch))[row.seat]
        await self.db.mark_claimed(rematch, row.seat)
        return rematch, new_row.token

    async def seat_for(self, live: Live, token: object) -> SeatRow | None:
        """The human seat whose link ``token`` is, as the database has the seats now (another
        process may have revoked the link while the fan-out was away); this copy's seats are
        read again where they are behind (its windows of a revoked link close)."""
        fresh = await self.db.seats(live.id)
        row = seat_with_token(fresh, token)
        if row is not None and row.kind != "human":
            row = None
        stale = not live.holds(row.seat, token) if row is not None else None
        if stale is None:  # no seat's link: was it one in this copy?
            stale = seat_with_token(live.seats, token) is not None
        if stale:
            await self.seats_changed(live, None)
        return row

    async def seat_opened(self, table_id: str, seat: SeatRow) -> None:
        """A seat's link was opened: the seat is claimed from now on (a public seat is no
        longer offered), else the table's use is noted (it does not expire)."""
        if not seat.claimed:
            await self.db.mark_claimed(table_id, seat.seat)
            seat.claimed = True
        else:
            await self.db.touch(table_id)

    def created(self, row: TableRow, seats: list[SeatRow]) -> Live:
        """A table this process has just stored (no action yet, nobody else knows its id):
        held at once, without reading back what was just written."""
        live = self.lives.get(row.id)
        if live is None:
            live = self.lives[row.id] = Live.load(row, seats, [])
        return live

    # The one caller from outside is tests/web/test_cluster.py (it compares a table as stored).
    _build = staticmethod(Live.load)

    def forget(self, table_ids: list[str]) -> None:
        """Drop expired tables from memory."""
        for table_id in table_ids:
            live = self.lives.pop(table_id, None)
            if live is not None:
                self.bots.cancel(live)
        self.chats.forget(table_ids)

    async def expire(self, unused_for: dt.timedelta) -> None:
        """Expire running tables unused for ``unused_for`` (in the store) and forget them,
        here and on the other processes."""
        expired = await self.db.expire_tables(unused_for)
        self.forget(expired)
        for table_id in expired:
            self.bus.publish(table_id, Expired())

    # ------------------------------------------------------------------ actions

    async def act(
        self, live: Live, seat: int, action: str | Sequence[str], token: str | None
    ) -> None:
        """Apply ``action`` for ``seat``, whose link ``token`` the sender holds (a list: each
        in turn, all or none, as one step: "keep 15" then "roll"): engine check, commit, then
        broadcast.

        Raises an ActionError (nothing changed) when the engine refuses it: NotYourTurn,
        IllegalAction, InvalidAction; :class:`TableMoved` when another process took the
        table's next version first; :class:`StorageUnavailable` when the database is away;
        :class:`SeatRevoked` when ``token`` is no longer the seat's link (checked here and by
        the database in the commit itself; the seats are then read again everywhere).
        """
        try:
            async with live.lock:
                if not live.holds(seat, token):
                    raise revoked()
                await self.apply_locked(live, seat, action, human=True, token=token)
        except SeatRevoked:
            with contextlib.suppress(SQLAlchemyError):  # its windows close, here and elsewhere
                await self.seats_changed(live, None)
            raise
        self.kick_bots(live)

    async def apply_locked(
        self,
        live: Live,
        seat: int,
        action: str | Sequence[str],
        human: bool = False,
        token: str | None = None,
    ) -> None:
        """Check, commit, broadcast and publish one action (or a list of actions, as one
        step); the caller holds ``live.lock``. ``token``: a human's seat link, which the
        commit checks is still the seat's (:class:`SeatRevoked` if not)."""
        steps = [action] if isinstance(action, str) else list(action)
        before = len(live.game.actions)
        table = live.table
        for step in steps:
            table = table.after(step, seat)  # raises ActionError; live.table is untouched
        game = table.game
        new = game.actions[before:]
        over = game.is_over
        old = live.version
        try:
            version = await self.db.append_actions(
                live.id,
                old,
                seat,
                new,
                finished=over,
                winners=list(game.winners) if over else None,
                scores=list(game.scores) if over else None,
                token=token,
            )
        except SeatLinkChanged:
            raise revoked() from None
        except ConflictError:
            # Another process wrote to this table: read what it wrote, then refuse this one.
            with contextlib.suppress(SQLAlchemyError):
                await self.sync.resync_locked(live)
            raise moved() from None
        except SQLAlchemyError as exc:
            # Nothing is applied here. Had the commit gone through after all (the answer lost
            # on the way), the check against the database brings this copy up to date.
            log.warning("table %s: database error, action refused: %s", live.id, exc)
            self.sync.suspect(live)
            raise unavailable() from None
        # What the actor chose, as chosen ("deal", a bid, a card now on the table): public;
        # of several actions taken as one step, the last.
        applied = (seat, action_key(action), old, version) if human else None
        live.advance(table, version, {"seat": seat, "action": steps[-1]}, applied)
        await self.broadcast(live)
        self.bus.publish(
            live.id,
            Act(
                start=old,
                end=version,
                actions=new,
                seat=seat,
                last=live.last,
                applied=live.applied if human else None,
                status=live.status,
            ),
        )
        if bot_to_move(live) is not None:
            self.bus.note_work(live.id)

    async def broadcast(self, live: Live, extra: dict[str, Any] | None = None) -> None:
        """Send every client of the table on this process its own frame (or ``extra``). A
        seat's frame is written once (``Live.frame_text``) and the same text goes to each of
        its clients; a client that takes only data (``send_json``) gets it as data."""
        for ws, seat in list(live.conns.items()):
            try:
                if extra is not None:
                    await ws.send_json(extra)
                elif isinstance(ws, Outbox):
                    await ws.send_text(live.frame_text(seat))
                else:
                    await ws.send_json(live.frame(seat))
            except Exception:  # a client that went away
                live.conns.pop(ws, None)

    # ------------------------------------------------------------------ who is at the table

    async def joined(
        self, live: Live, ws: Client, seat: int | None, token: str | None = None
    ) -> Live:
        """A client connected: everybody sees it online (on every process). Returns the table
        the client is at from now on: ``live``, or the copy that replaced it in memory.
        ``token``: the link a seat's client opened it with (it is closed once the link is
        no longer the seat's).

        Between ``get`` and this call the connection awaits the database (the seat's claim), and
        a table nobody is at may be let go meanwhile (:meth:`release_if_idle`, when its computer
        player's task ends): a client joined to that copy would move a table no computer player
        ever moves again (a CI hang). So the copy is held again, or the one loaded since used."""
        current = self.lives.get(live.id)
        held_again = current is None
        if current is None:
            self.lives[live.id] = current = live
        current.conns[ws] = seat  # before any await: the table cannot be let go from here on
        if seat is not None and token is not None:
            current.keys[ws] = token
        if held_again and self.bus.shared:
            # While nobody held it here, this process took no note of the other processes' moves.
            with contextlib.suppress(SQLAlchemyError):
                await self.sync.catch_up(current)
        await self.presence_changed(current)
        self.kick_bots(current)  # a table whose computer players' process died moves on here
        return current

    async def left(self, live: Live, ws: Client) -> None:
        """A client went away."""
        live.conns.pop(ws, None)
        live.keys.pop(ws, None)
        await self.presence_changed(live)
        self.release_if_idle(live)

    def release_if_idle(self, live: Live) -> None:
        """Let go of a table nobody is at and no computer player moves at (it is read from
        the database again when somebody comes): a long-running server does not keep every
        table it ever served in memory. Its chat stays (web/services/chat.py bounds that)."""
        busy = live.bot_task is not None and not live.bot_task.done()
        idle = not live.conns and not busy and not live.lock.locked()
        if idle and bot_to_move(live) is None and self.lives.get(live.id) is live:
            del self.lives[live.id]

    async def presence_changed(self, live: Live) -> None:
        await self.broadcast(live)
        self.bus.publish(live.id, Presence(seats=live.presence()))

    def speaker(self, live: Live, seat: int | None) -> Speaker:
        """The table chat as ``seat`` (None: a spectator, who reads only) speaks in it."""
        return self.chats.speaker(live.id, seat)

    def chat_history(self, live: Live) -> dict[str, Any] | None:
        """The ``chat_history`` frame for a client that (re)connects; None where nobody wrote."""
        history = self.chats.history(live.id)
        return history if history["messages"] else None

    async def say(self, live: Live, speaker: Speaker, data: dict[str, Any]) -> None:
        """A chat message (ChatRefused if it is refused) to the table on every process."""
        frame = await speaker.say(data, live.names)
        await self.broadcast(live, frame)
        self.bus.publish(live.id, ChatPosted(message=frame["message"]))

    async def rematch(self, live: Live) -> str:
        """The rematch of a finished table: made once, whichever process is asked first (a
        compare-and-set on the old table), announced to its clients on every process."""
        created = False
        async with live.lock:
            if live.rematch_id is None:
                t = await self.db.table(live.id)
                assert t is not None
                try:
                    new_table, _ = await self.db.create_table(
                        live.kind,
                        t.rules,
                        new_seed(),
                        [SeatSpec(s.name, s.kind, s.bot, s.public) for s in live.seats],
                        rematch_of=live.id,
                        hints=t.hints,  # a rematch keeps the host's choice
                    )
                    live.rematch_id = new_table.id
                    created = True
                except RematchTaken as taken:
                    # Another process made it: its announcement finds rematch_id set here
                    # (services/sync.py), so this process tells its own clients.
                    live.rematch_id = taken.table_id
                    await self.broadcast(live, {"type": "rematch", "table": live.rematch_id})
        if created:
            new_live = await self.get(live.rematch_id)
            assert new_live is not None
            self.kick_bots(new_live)
            await self.broadcast(live, {"type": "rematch", "table": live.rematch_id})
            self.bus.publish(live.id, RematchMade(table=live.rematch_id))
        return live.rematch_id

    async def seats_changed(self, live: Live, seat: int | None) -> None:
        """A seat's link was revoked or a seat changed: read the seats again, here and on the
        other processes; windows whose link is no longer their seat's close everywhere.
        (``revoked`` in the message names the seat; each process reads all seats anyway.)"""
        await self.sync.reload_seats(live)
        self.bus.publish(live.id, SeatsChanged(revoked=seat))

    # ------------------------------------------------------------------ computer players

    def kick_bots(self, live: Live) -> None:
        """Make sure computer players move while it is their turn."""
        if bot_to_move(live) is not None:
            self.bots.kick(live)

    # ------------------------------------------------------------------ start and stop

    async def start(self) -> None:
        """Join the other processes (if any), then resume the computer players."""
        # The engines' lookup tables are built before the first player waits for them.
        await asyncio.to_thread(warm_up)
        await self.bus.start(self.sync.deliver, self.sync.reconnected)
        self.sync.start()
        await self.resume()

    async def resume(self) -> None:
        """After a start: load running tables where a computer player is to move."""
        for table_id in await self.db.running_table_ids():
            try:
                live = await self.get(table_id)
            except Exception:
                log.exception("table %s does not load", table_id)
                continue
            if live is not None and bot_to_move(live) is not None:
                self.kick_bots(live)

    async def stop(self) -> None:
        """Cancel the computer players' tasks and leave the other processes."""
        await self.sync.stop()
        await self.bots.stop(self.lives.values())
        await self.bus.stop()
