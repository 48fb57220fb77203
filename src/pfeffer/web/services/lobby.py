"""What the lobby, the history and the pages read about tables (no live table, no engine move):
the tables with open seats, the finished games, a table's summary, the host's and a seat's
table, a replay step and a game's review. The routes call in; only this and the table service
(``services.tables``) read the store for them."""

from __future__ import annotations

from typing import Any

from pfeffer.web.adapters.games import adapter
from pfeffer.web.services import reviews
from pfeffer.web.services.errors import NoSuchTable, NotFinished
from pfeffer.web.services.serialize import history_entry, replay_step, table_summary
from pfeffer.web.storage.aio import AsyncStore
from pfeffer.web.storage.repository import SeatRow, TableRow
from pfeffer.web.tokens import same_token, seat_with_token


class Lobby:
    """The read side of the tables, on the app's store (each call off the event loop)."""

    def __init__(self, db: AsyncStore) -> None:
        self.db = db

    async def open_tables(self, humans_only: bool = False) -> list[dict[str, Any]]:
        """The running tables with a public seat nobody took (private tables are not listed),
        as summaries; ``humans_only``: count only human seats (the home page)."""
        return [
            table_summary(t, s)
            for t, s in await self.db.list_tables("running")
            if any(x.public and not x.claimed and (x.kind == "human" or not humans_only) for x in s)
        ]

    async def finished(self) -> list[dict[str, Any]]:
        """The finished games as summaries (``GET /api/tables?status=finished``)."""
        return [table_summary(t, s) for t, s in await self.db.list_tables("finished")]

    async def history(self) -> list[dict[str, Any]]:
        """The finished games as the history lists them (with the winners' names)."""
        return [history_entry(t, s) for t, s in await self.db.list_tables("finished")]

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        """One table as ``GET /api/tables/{id}`` shows it; None if there is none."""
        t = await self.db.table(table_id)
        return None if t is None else table_summary(t, await self.db.seats(table_id))

    async def table(self, table_id: str) -> TableRow | None:
        """The table's row (its game, status, rules), or None."""
        return await self.db.table(table_id)

    async def seats(self, table_id: str) -> list[SeatRow]:
        """The table's seats in order."""
        return await self.db.seats(table_id)

    async def host_table(self, table_id: str, host_token: Any) -> TableRow | None:
        """The table whose host holds ``host_token``; None for anyone else (compared in
        constant time, web/tokens.py)."""
        t = await self.db.table(table_id)
        return t if t is not None and same_token(host_token, t.admin_token) else None

    async def seat_table(self, table_id: str, token: str) -> tuple[TableRow, SeatRow] | None:
        """The table and the human seat whose link holds ``token``, or None."""
        row = seat_with_token(await self.db.seats(table_id), token)
        if row is None or row.kind != "human":
            return None
        t = await self.db.table(table_id)
        return None if t is None else (t, row)

    async def _finished(self, table_id: str) -> tuple[TableRow, list[SeatRow], list[Any]]:
        t = await self.db.table(table_id)
        if t is None:
            raise NoSuchTable(table_id)
        if t.status != "finished":
            raise NotFinished(table_id)
        return t, await self.db.seats(table_id), await self.db.actions(table_id)

    async def replay(self, table_id: str, step: int) -> dict[str, Any]:
        """Step ``step`` of a finished game's replay (NoSuchTable, NotFinished)."""
        t, seats, rows = await self._finished(table_id)
        actions = [a.action for a in rows]
        step = max(0, min(step, len(actions)))
        game = adapter(t.game)
        names = [s.name for s in seats]
        table = game.table(t.rules, names, t.seed, actions[:step])
        # The log events the step's action added, for the line under the board: the count
        # before it.
        before = game.table(t.rules, names, t.seed, actions[: step - 1]).reveal() if step else None
        return replay_step(
            t,
            seats,
            table,
            step=step,
            actions=actions,
            acted_by=[a.seat for a in rows],
            log_before=before["log_count"] if before else 0,
        )

    async def review(self, table_id: str) -> dict[str, Any]:
        """The review of a finished game (services/reviews.py; NoSuchTable, NotFinished)."""
        t, seats, rows = await self._finished(table_id)
        return await reviews.review_of(
            table_id,
            kind=t.game,
            rules=t.rules,
            names=[s.name for s in seats],
            seed=t.seed,
            actions=[a.action for a in rows],
        )
