"""The live tables of this process: loading them from the store, applying actions under each
table's lock (engine check, commit, then broadcast), the computer players and expiry.

Nothing here reads a request: the routes pass a table id, a seat and an action; clients are
anything with ``send_json`` (``live.Client``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import Any

from pfeffer.core.errors import IllegalAction
from pfeffer.web.chat import Chat
from pfeffer.web.games import adapter
from pfeffer.web.services.bots import BotRunner, bot_to_move
from pfeffer.web.services.live import Client, Live
from pfeffer.web.storage import ConflictError, SeatRow, Store, TableRow

__all__ = ["Client", "Hub", "Live"]

log = logging.getLogger("pfeffer.web")


class Hub:
    """Every live table of this process, the store behind them and the computer players."""

    def __init__(self, store: Store, bot_delay: float) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.lives: dict[str, Live] = {}
        self._load_lock = asyncio.Lock()
        self.bots = BotRunner(bot_delay, self._apply_locked, self.broadcast)
        self.chats = Chat()  # the tables' chats (web/chat.py), in memory

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
            if live is not None:
                self.bots.cancel(live)

    def expire(self, unused_for: dt.timedelta) -> None:
        """Expire running tables unused for ``unused_for`` (in the store) and forget them."""
        expired = self.store.expire_tables(unused_for)
        self.forget(expired)
        self.chats.forget(expired)

    def _load(self, row: TableRow) -> Live:
        seats = self.store.seats(row.id)
        actions = [a.action for a in self.store.actions(row.id)]
        table = adapter(row.game).table(row.rules, [s.name for s in seats], row.seed, actions)
        return Live(
            row.id, row.game, table, seats, row.version, row.status, row.rematch_id, row.hints
        )

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
        self.bots.kick(live)

    def _bot_seat(self, live: Live) -> SeatRow | None:
        return bot_to_move(live)

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
        await self.bots.stop(self.lives.values())
