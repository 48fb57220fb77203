"""The computer players of the live tables: one task per table, thinking off the event loop.

A strong computer player may think for a while; it does so in a worker thread
(``asyncio.to_thread``), so the event loop keeps serving every other table meanwhile. The table's
lock is held while its bot thinks, so that table stays still until the bot's action is applied.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable

from pfeffer.core.errors import ActionError
from pfeffer.web.games import bot_seed
from pfeffer.web.services.live import Live
from pfeffer.web.storage import SeatRow

log = logging.getLogger("pfeffer.web")


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


class BotRunner:
    """Moves the computer players of every table: ``apply`` commits an action for a seat (the
    caller holds the table's lock), ``broadcast`` sends every client its frame."""

    def __init__(
        self,
        delay: float,
        apply: Callable[[Live, int, str], None],
        broadcast: Callable[[Live], Awaitable[None]],
    ) -> None:
        self.delay = delay
        self._apply = apply
        self._broadcast = broadcast

    def kick(self, live: Live) -> None:
        """Make sure computer players move while it is their turn."""
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.create_task(self._run(live))

    async def _run(self, live: Live) -> None:
        while bot_to_move(live) is not None:
            await asyncio.sleep(self.delay)
            async with live.lock:
                row = bot_to_move(live)
                if row is None:
                    break
                # Off the event loop: a strong computer player may think for a while, and other
                # tables must not wait for it (the table's lock keeps this table still meanwhile).
                choice = await think(live, row)
                try:
                    self._apply(live, row.seat, choice)
                except ActionError:
                    log.exception("computer player chose an illegal action at table %s", live.id)
                    break
            await self._broadcast(live)

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
