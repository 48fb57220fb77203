"""The store for async code: every call runs in a worker thread, never on the event loop.

The server awaits these methods; a slow query or a database that is away holds up only the
request that needs it, never the event loop that serves every other table. Threads and the
engine's connection pool are sized together: on PostgreSQL as many threads as the pool has
connections (``POOL_SIZE + POOL_OVERFLOW``); on SQLite one thread, so writes keep the order they
had when they ran on the loop (SQLite takes one writer at a time anyway, and a score sheet's read
and write, which SQLite cannot lock as a row, never interleave with another's).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime as dt
import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from pfeffer.web.storage.repository import (
    POOL_OVERFLOW,
    POOL_SIZE,
    ActionRow,
    SeatRow,
    SeatSpec,
    SheetRow,
    Store,
    TableRow,
)

P = ParamSpec("P")
T = TypeVar("T")


class AsyncStore:
    """The methods of :class:`Store` as coroutines, run in a thread pool of their own."""

    def __init__(self, store: Store) -> None:
        self.sync = store
        self.threads = 1 if store.engine.dialect.name == "sqlite" else POOL_SIZE + POOL_OVERFLOW
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)`` in the store's threads (for work over ``self.sync``)."""
        if self._pool is None:  # made when first needed: an app may be started again
            self._pool = concurrent.futures.ThreadPoolExecutor(
                self.threads, thread_name_prefix="pfeffer-db"
            )
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))

    def close(self) -> None:
        """Stop the threads (the app is shutting down)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    # ------------------------------------------------------------------ tables

    async def create_table(
        self,
        game: str,
        rules: dict[str, Any],
        seed: int,
        seats: list[SeatSpec],
        rematch_of: str | None = None,
        *,
        hints: bool = False,
    ) -> tuple[TableRow, list[SeatRow]]:
        return await self.run(
            self.sync.create_table, game, rules, seed, seats, rematch_of, hints=hints
        )

    async def table(self, table_id: str) -> TableRow | None:
        return await self.run(self.sync.table, table_id)

    async def seats(self, table_id: str) -> list[SeatRow]:
        return await self.run(self.sync.seats, table_id)

    async def actions(self, table_id: str) -> list[ActionRow]:
        return await self.run(self.sync.actions, table_id)

    async def actions_since(self, table_id: str, seq: int) -> list[ActionRow]:
        return await self.run(self.sync.actions_since, table_id, seq)

    async def versions(self, table_ids: list[str]) -> dict[str, tuple[int, str]]:
        return await self.run(self.sync.versions, table_ids)

    async def load(self, table_id: str) -> tuple[TableRow, list[SeatRow], list[ActionRow]] | None:
        """A table with its seats and actions, read in one trip to the threads."""

        def read() -> tuple[TableRow, list[SeatRow], list[ActionRow]] | None:
            row = self.sync.table(table_id)
            if row is None:
                return None
            return row, self.sync.seats(table_id), self.sync.actions(table_id)

        return await self.run(read)

    async def append_actions(
        self,
        table_id: str,
        version: int,
        seat: int | None,
        actions: list[str],
        *,
        finished: bool = False,
        winners: list[int] | None = None,
        scores: list[int] | None = None,
        token: str | None = None,
    ) -> int:
        return await self.run(
            self.sync.append_actions,
            table_id,
            version,
            seat,
            actions,
            finished=finished,
            winners=winners,
            scores=scores,
            token=token,
        )

    async def claim_seat(self, table_id: str, seat: int) -> str | None:
        return await self.run(self.sync.claim_seat, table_id, seat)

    async def mark_claimed(self, table_id: str, seat: int) -> None:
        await self.run(self.sync.mark_claimed, table_id, seat)

    async def touch(self, table_id: str) -> None:
        await self.run(self.sync.touch, table_id)

    async def new_seat_token(self, table_id: str, seat: int) -> str | None:
        return await self.run(self.sync.new_seat_token, table_id, seat)

    async def set_public(self, table_id: str, seat: int, public: bool) -> bool:
        return await self.run(self.sync.set_public, table_id, seat, public)

    async def expire_tables(self, unused_for: dt.timedelta) -> list[str]:
        return await self.run(self.sync.expire_tables, unused_for)

    async def seat_by_token(self, token: str) -> SeatRow | None:
        return await self.run(self.sync.seat_by_token, token)

    async def list_tables(
        self, status: str, limit: int = 50
    ) -> list[tuple[TableRow, list[SeatRow]]]:
        return await self.run(self.sync.list_tables, status, limit)

    async def open_tables(self, offset: int, limit: int) -> list[tuple[TableRow, list[SeatRow]]]:
        return await self.run(self.sync.open_tables, offset, limit)

    async def finished_public(
        self, offset: int, limit: int
    ) -> list[tuple[TableRow, list[SeatRow]]]:
        return await self.run(self.sync.finished_public, offset, limit)

    async def finished_of_seats(self, tokens: list[str]) -> list[tuple[TableRow, list[SeatRow]]]:
        return await self.run(self.sync.finished_of_seats, tokens)

    async def running_table_ids(self) -> list[str]:
        return await self.run(self.sync.running_table_ids)

    # ------------------------------------------------------------------ sheets

    async def create_sheet(self, game: str, title: str, data: dict[str, Any]) -> SheetRow:
        return await self.run(self.sync.create_sheet, game, title, data)

    async def sheet(self, sheet_id: str) -> SheetRow | None:
        return await self.run(self.sync.sheet, sheet_id)
