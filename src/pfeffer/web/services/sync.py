"""Keeping this process's copies of the tables in step with the other processes and the database.

Every accepted action is published with the table's version before and after it (``act``). A
process applies such a message only when it continues exactly where its copy stands: an old one
(its own, or one it already read from the database) is dropped, one after a gap (a message lost
while Redis was away, or overtaken by a quicker one) makes it read the missing actions from the
database instead, and it broadcasts one frame per version either way, so each client gets every
version once, in order. The database holds the truth; the fan-out only saves reading it.
A table the periodic check finds behind the database is read again only when the missing move
has not come as a message ``GRACE`` seconds later (it was most often on its way).

Besides: presence (which seats are open in a window on some process), the chat, rematches, seat
links revoked, expired tables; heartbeats (a process not heard from for ``PEER_TIMEOUT`` has
died: its clients are no longer shown online); every ``CHECK_EVERY`` seconds the versions of the
tables with clients here are compared with the database (what no message brought is read), and
tables whose computer players lost their process are taken over (``Bus.orphans``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from sqlalchemy.exc import SQLAlchemyError

from pfeffer.web.adapters.games import chosen_action
from pfeffer.web.services.bots import bot_to_move
from pfeffer.web.services.bus import Bus
from pfeffer.web.services.chat import Chat
from pfeffer.web.services.live import Live
from pfeffer.web.services.messages import (
    Act,
    Beat,
    BusMessage,
    Bye,
    ChatPosted,
    Expired,
    Presence,
    RematchMade,
    SeatsChanged,
    Who,
)
from pfeffer.web.storage.aio import AsyncStore

log = logging.getLogger("pfeffer.web")

BEAT = 1.0  # seconds between heartbeats
PEER_TIMEOUT = 4.0  # a process silent this long is gone
CHECK_EVERY = 2.0  # seconds between comparing the tables with the database
GRACE = 0.5  # seconds a move seen in the database may take to arrive as a message


class SyncHost(Protocol):
    """What :class:`Sync` needs of the table service (``services.tables.Hub``), which holds it:
    named here so that this module does not import the one that imports it."""

    db: AsyncStore
    bus: Bus
    lives: dict[str, Live]
    chats: Chat

    async def get(self, table_id: str, fresh: bool = False) -> Live | None: ...
    async def broadcast(self, live: Live, extra: dict[str, Any] | None = None) -> None: ...
    def forget(self, table_ids: list[str]) -> None: ...
    def kick_bots(self, live: Live) -> None: ...


class Sync:
    """The table service's side that faces the other processes (see the module doc)."""

    def __init__(self, hub: SyncHost) -> None:
        self.hub = hub
        self.peers: dict[str, float] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.Task[None] | None = None
        self._suspects: set[str] = set()
        self.resyncs = 0  # how often a table was read again from the database (tests, metrics)

    def start(self) -> None:
        if self.hub.bus.shared:
            self._loop = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._loop is not None:
            self.hub.bus.publish(None, Bye())
            self._loop.cancel()
        tasks = [*self._tasks, *([self._loop] if self._loop else [])]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=2)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ messages

    async def deliver(self, table_id: str | None, msg: BusMessage) -> None:
        """One message of another process (the bus calls this in the order they came)."""
        node = msg.node
        self.peers[node] = time.monotonic()
        if table_id is None:
            if isinstance(msg, Bye):
                await self._peer_gone(node)
            elif isinstance(msg, Who):
                self._publish_presence()
            return
        live = self.hub.lives.get(table_id)
        if live is None:
            return  # a table this process does not hold: it reads it when it needs it
        if isinstance(msg, Act):
            # Through the table's lock (a computer player may be thinking here); tasks take
            # the lock in the order they were made, which is the order of the messages.
            self._spawn(self._remote_act(live, msg))
        elif isinstance(msg, Presence):
            counts = {s: n for s, n in msg.seats.items() if n > 0}
            if counts:
                live.remote[node] = counts
            else:
                live.remote.pop(node, None)
            await self.hub.broadcast(live)
        elif isinstance(msg, Who):
            if live.conns:
                self.hub.bus.publish(table_id, Presence(seats=live.presence()))
        elif isinstance(msg, ChatPosted):
            self.hub.chats.room(table_id).receive(msg.message)
            await self.hub.broadcast(live, {"type": "chat", "message": msg.message})
        elif isinstance(msg, RematchMade):
            if live.rematch_id is None:
                live.rematch_id = msg.table
                await self.hub.broadcast(live, {"type": "rematch", "table": live.rematch_id})
        elif isinstance(msg, SeatsChanged):  # whichever seat: reload_seats reads them all
            self._spawn(self.reload_seats(live))
        elif isinstance(msg, Expired):
            self.hub.forget([table_id])

    async def _remote_act(self, live: Live, msg: Act) -> None:
        async with live.lock:
            if self.hub.lives.get(live.id) is not live:
                return
            start, end = msg.start, msg.end
            if end <= live.version:
                return  # already here
            if start != live.version:
                await self._resync_quietly(live)  # a message is missing: read the database
                return
            try:
                table = live.table.replay(msg.actions)
            except Exception:
                log.exception(
                    "table %s: a published action does not apply (%s at %d on %s)",
                    live.id,
                    msg,
                    live.version,
                    self.hub.bus.node,
                )
                await self._resync_quietly(live, whole=True)
                return
            live.advance(table, end, msg.last, msg.applied)
            await self.hub.broadcast(live)

    async def _resync_quietly(self, live: Live, whole: bool = False) -> None:
        try:
            await self.resync_locked(live, whole)
        except SQLAlchemyError as exc:
            log.warning("table %s: cannot read the database (%s); retrying", live.id, exc)
            self.suspect(live)
        except Exception:
            if whole:
                log.exception("table %s does not load", live.id)
                return
            log.exception("table %s: its copy went wrong; reading it whole", live.id)
            await self._resync_quietly(live, whole=True)

    # ------------------------------------------------------------------ the database

    async def resync_locked(self, live: Live, whole: bool = False) -> None:
        """Bring ``live`` up to the database (the caller holds its lock): apply the actions it
        misses one by one, broadcasting a frame for each version; ``whole``: replay the table
        from its first action (its copy went wrong)."""
        self.resyncs += 1
        db = self.hub.db
        if whole:
            loaded = await db.load(live.id)
            if loaded is None or loaded[0].status == "expired":
                self.hub.forget([live.id])
                return
            fresh = Live.load(*loaded)
            live.seats, live.rematch_id = fresh.seats, fresh.rematch_id
            live.advance(fresh.table, fresh.version, fresh.last)
            await self.hub.broadcast(live)
            return
        row = await db.table(live.id)
        if row is None or row.status == "expired":
            self.hub.forget([live.id])
            return
        rows = await db.actions_since(live.id, live.version)
        for action in rows:
            if action.seq != live.version:
                await self.resync_locked(live, whole=True)
                return
            last = {"seat": action.seat, "action": chosen_action(action.action)}
            live.advance(live.table.replay([action.action]), live.version + 1, last)
            await self.hub.broadcast(live)
        if row.rematch_id and live.rematch_id is None:
            live.rematch_id = row.rematch_id
            await self.hub.broadcast(live, {"type": "rematch", "table": live.rematch_id})

    async def catch_up(self, live: Live) -> None:
        """Read what the database has beyond this copy (one small query when nothing is)."""
        versions = await self.hub.db.versions([live.id])
        version = versions.get(live.id, (live.version, live.status))[0]
        if version != live.version:
            async with live.lock:
                await self.resync_locked(live)

    def suspect(self, live: Live) -> None:
        """The database failed during a write: check the table until the database answers
        (had the commit gone through, this copy reads it)."""
        if live.id in self._suspects:
            return
        self._suspects.add(live.id)

        async def retry() -> None:
            delay = 0.2
            try:
                while self.hub.lives.get(live.id) is live:
                    try:
                        await self.catch_up(live)
                        return
                    except SQLAlchemyError:
                        await asyncio.sleep(delay)
                        delay = min(delay * 2, 2.0)
            finally:
                self._suspects.discard(live.id)

        self._spawn(retry())

    async def reload_seats(self, live: Live) -> None:
        """Read the table's seats again; close this process's windows whose link is no longer
        their seat's (whichever seat was revoked, whenever: after an outage of the fan-out
        the message naming it may be lost)."""
        seats = await self.hub.db.seats(live.id)
        async with live.lock:
            live.seats = seats
        await live.close_stale()
        await self.hub.broadcast(live)

    # ------------------------------------------------------------------ the other processes

    def _publish_presence(self) -> None:
        for live in list(self.hub.lives.values()):
            if live.conns:
                self.hub.bus.publish(live.id, Presence(seats=live.presence()))

    async def _peer_gone(self, node: str) -> None:
        self.peers.pop(node, None)
        for live in list(self.hub.lives.values()):
            if live.remote.pop(node, None) is not None:
                await self.hub.broadcast(live)

    async def reconnected(self) -> None:
        """The fan-out is back after an outage: messages may be lost both ways."""
        self._publish_presence()
        self.hub.bus.publish(None, Who())
        await self.check_versions(every=True)
        for live in list(self.hub.lives.values()):
            if live.conns:
                self._spawn(self.reload_seats(live))

    async def check_versions(self, every: bool = False) -> None:
        """Compare the tables held here (``every``) or those with clients or computer players
        here with the database; read what they miss."""
        lives = [
            lv
            for lv in self.hub.lives.values()
            if every or lv.conns or (lv.bot_task is not None and not lv.bot_task.done())
        ]
        if not lives:
            return
        versions = await self.hub.db.versions([lv.id for lv in lives])
        for live in lives:
            version, status = versions.get(live.id, (live.version, "expired"))
            if status == "expired":
                self.hub.forget([live.id])
            elif version > live.version and not every:
                # Most often the message of that move is on its way (the other process
                # commits, then publishes): read the database only if it has not come soon.
                self._spawn(self._repair_later(live, version))
            elif version != live.version and not live.lock.locked():
                async with live.lock:
                    await self._resync_quietly(live)

    async def _repair_later(self, live: Live, version: int) -> None:
        """Read the table from the database if its copy is still short of ``version`` (seen
        in the database) ``GRACE`` seconds later: no message brought that move."""
        await asyncio.sleep(GRACE)
        if live.version >= version or self.hub.lives.get(live.id) is not live:
            return
        async with live.lock:
            if live.version < version:
                await self._resync_quietly(live)

    async def _sweep(self) -> None:
        """Take over computer players whose process died (their lease lapsed)."""
        for table_id in await self.hub.bus.orphans():
            live = await self.hub.get(table_id, fresh=True)
            if live is not None and bot_to_move(live) is not None:
                self.hub.kick_bots(live)
            else:
                await self.hub.bus.release(table_id)  # nothing to do there: drop the note

    async def _run(self) -> None:
        last_check = 0.0
        while True:
            await asyncio.sleep(BEAT)
            self.hub.bus.publish(None, Beat())
            now = time.monotonic()
            for node, seen in list(self.peers.items()):
                if now - seen > PEER_TIMEOUT:
                    await self._peer_gone(node)
            try:
                await self._sweep()
                if now - last_check >= CHECK_EVERY:
                    last_check = now
                    await self.check_versions()
            except Exception as exc:  # the database or Redis away: next round
                log.warning("cluster upkeep failed: %s", exc)
