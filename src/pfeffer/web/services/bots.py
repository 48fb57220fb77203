"""The computer players of the live tables: one task per table, thinking off the event loop.

A strong computer player may think for a while; it does so in a worker thread
(``asyncio.to_thread``), so the event loop keeps serving every other table meanwhile. The table's
lock is held while its bot thinks, so that table stays still until the bot's action is applied.

Where several processes serve the tables, a table's computer players move only in the process
holding the table's lease (``Bus.hold``: taken before each move, renewed while thinking, given
back when a human is to act). A process that dies holding it stops renewing it; the lease lapses
and another process takes the table over. Should two processes ever both move (one stalled past
its lease), the compare-and-set on the table's version keeps all but one move out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from typing import Protocol

from pfeffer.core.errors import ActionError
from pfeffer.web.adapters.games import bot_seed
from pfeffer.web.services.bus import Bus
from pfeffer.web.services.errors import StorageUnavailable, TableMoved
from pfeffer.web.services.live import Live
from pfeffer.web.storage.repository import SeatRow

log = logging.getLogger("pfeffer.web")

RETRY = 0.5  # seconds between attempts on a lease another process holds, or a database away


def bot_to_move(live: Live) -> SeatRow | None:
    """The seat of the computer player whose turn it is at a running table, if any."""
    seat = live.game.current_player
    if seat is None or live.status != "running":
        return None
    row = live.seats[seat]
    return row if row.kind == "bot" else None


async def think(live: Live, row: SeatRow) -> str:
    """The bot's choice, computed in a worker thread (other tables do not wait for it)."""
    return await asyncio.to_thread(live.table.bot_action, row.seat, row.bot, bot_seed())


class BotHost(Protocol):
    """What :class:`BotRunner` needs of the table service (``services.tables.Hub``), which
    holds it: named here so that this module does not import the one that imports it."""

    bot_delay: float
    bus: Bus
    lives: dict[str, Live]

    async def apply_locked(
        self, live: Live, seat: int, action: str, human: bool = False
    ) -> None: ...
    def release_if_idle(self, live: Live) -> None: ...


class BotRunner:
    """Moves the computer players of every table through the table service ``hub``."""

    def __init__(self, hub: BotHost) -> None:
        self.hub = hub
        self.moves = 0  # computer players' moves this process made (tests, metrics)

    @property
    def delay(self) -> float:
        return self.hub.bot_delay

    def kick(self, live: Live) -> None:
        """Make sure computer players move while it is their turn."""
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.create_task(self._run(live))

    async def _run(self, live: Live) -> None:
        idle = False  # the loop ended because no computer player was to move
        try:
            idle = await self._moves(live)
        finally:
            with contextlib.suppress(Exception):
                await asyncio.shield(self.hub.bus.release(live.id))
            if idle and bot_to_move(live) is not None and self.hub.lives.get(live.id) is live:
                # A human moved while the lease was being given back: their ``kick`` found
                # this task still running and started none, so this task starts the next.
                live.bot_task = asyncio.create_task(self._run(live))
            elif not live.conns and bot_to_move(live) is None:
                live.bot_task = None
                self.hub.release_if_idle(live)

    async def _moves(self, live: Live) -> bool:
        """Move the table's computer players while it is their turn; ``True`` when it ended
        because none was to move (``False``: an illegal choice, or the table left memory)."""
        bus = self.hub.bus
        while bot_to_move(live) is not None and self.hub.lives.get(live.id) is live:
            await asyncio.sleep(self.delay)
            if not await bus.hold(live.id):
                await asyncio.sleep(RETRY)  # another process moves them; it may die
                continue
            async with live.lock:
                row = bot_to_move(live)
                if row is None:
                    return True
                # Off the event loop: a strong computer player may think for a while, and
                # other tables must not wait for it (the lock keeps this table still).
                choice = await think(live, row)
                try:
                    await self.hub.apply_locked(live, row.seat, choice)
                    self.moves += 1
                    continue
                except TableMoved:
                    continue  # another process moved first; the table was read again
                except StorageUnavailable:
                    pass  # the database is away: try again shortly (outside the lock)
                except ActionError:
                    log.exception("computer player chose an illegal action at %s", live.id)
                    return False
            await asyncio.sleep(RETRY)
        return bot_to_move(live) is None

    @staticmethod
    def cancel(live: Live) -> None:
        """Stop the table's computer players (the table expired)."""
        if live.bot_task is not None:
            live.bot_task.cancel()

    @staticmethod
    async def stop(lives: Iterable[Live]) -> None:
        """Cancel the computer players' tasks and wait until they ended."""
        tasks = [lv.bot_task for lv in lives if lv.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
