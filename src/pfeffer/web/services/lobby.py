"""What the lobby, the history and the pages read about tables (no live table, no engine move):
the tables with open seats, the finished games, a table's summary, the host's and a seat's
table, a replay step and a game's review. The routes call in; only this and the table service
(``services.tables``) read the store for them."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
from typing import Any

from pfeffer.web.adapters.games import adapter
from pfeffer.web.services import reviews
from pfeffer.web.services.errors import NoSuchTable, NotFinished
from pfeffer.web.services.serialize import history_entry, replay_step, table_summary
from pfeffer.web.storage.aio import AsyncStore
from pfeffer.web.storage.listing import MAX_TOKENS
from pfeffer.web.storage.repository import SeatRow, TableRow
from pfeffer.web.tokens import same_token, seat_with_token

PAGE = 50  # tables per page of the lobby and the history


@dataclasses.dataclass(frozen=True)
class Page:
    """One page of a list: its entries, its number (from 1), whether another follows."""

    items: list[dict[str, Any]]
    number: int
    more: bool


def share_key(t: TableRow) -> str:
    """The key the host hands on so that others may see a private game's record, replay and
    review: derived from the host's key (which it does not reveal), so nothing is stored."""
    mac = hmac.new(t.admin_token.encode(), b"pfeffer-share:" + t.id.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:18]).decode()


def is_public(seats: list[SeatRow]) -> bool:
    """Whether the table is public: the host opened a seat to everyone, or no seat is a
    person's (computer players only; storage/listing.py)."""
    return any(s.public for s in seats) or all(s.kind != "human" for s in seats)


def may_see(t: TableRow, seats: list[SeatRow], token: Any) -> bool:
    """Whether ``token`` opens the game's record, replay and review (see ``finished_table``)."""
    if is_public(seats):
        return True
    human = [s for s in seats if s.kind == "human"]
    keys = (seat_with_token(human, token) is not None, same_token(token, t.admin_token))
    return any(keys) or same_token(token, share_key(t))


class Lobby:
    """The read side of the tables, on the app's store (each call off the event loop)."""

    def __init__(self, db: AsyncStore) -> None:
        self.db = db

    async def open_tables(self, page: int = 1) -> Page:
        """Page ``page`` (from 1) of the running tables with a seat opened to everyone and not
        yet taken, newest first, as summaries (private tables are not listed)."""
        rows = await self.db.open_tables((page - 1) * PAGE, PAGE + 1)
        return Page([table_summary(t, s) for t, s in rows[:PAGE]], page, len(rows) > PAGE)

    async def finished(self, page: int = 1) -> Page:
        """Page ``page`` of the finished public games as summaries (``GET
        /api/tables?status=finished``)."""
        rows = await self.db.finished_public((page - 1) * PAGE, PAGE + 1)
        return Page([table_summary(t, s) for t, s in rows[:PAGE]], page, len(rows) > PAGE)

    async def history(self, page: int = 1) -> Page:
        """Page ``page`` of the finished public games as the history lists them (with the
        winners' names); private games are their seats' alone (:meth:`my_history`)."""
        rows = await self.db.finished_public((page - 1) * PAGE, PAGE + 1)
        return Page([history_entry(t, s) for t, s in rows[:PAGE]], page, len(rows) > PAGE)

    async def my_history(self, tokens: Any) -> list[dict[str, Any]]:
        """The finished games of the seats whose links ``tokens`` are (what one browser
        holds), public or private, each with the link that opens its replay and record."""
        if not isinstance(tokens, list):
            return []
        keys = [x for x in tokens if isinstance(x, str)][:MAX_TOKENS]
        out = []
        for t, seats in await self.db.finished_of_seats(keys):
            humans = [s for s in seats if s.kind == "human"]
            row = None
            for key in keys:  # each compared in constant time (web/tokens.py)
                row = row or seat_with_token(humans, key)
            if row is not None:
                out.append({**history_entry(t, seats), "token": row.token, "seat": row.seat})
        return out

    async def finished_table(self, table_id: str, token: Any) -> TableRow:
        """A finished table whose record, replay and review the holder of ``token`` may see:
        any finished public table; a private one only with a human seat's link, the host's
        key or the host's share key (``share_key``). NoSuchTable (also for a private table
        without a key: nobody learns it exists), NotFinished."""
        t = await self.db.table(table_id)
        if t is None:
            raise NoSuchTable(table_id)
        seats = await self.db.seats(table_id)
        if not may_see(t, seats, token):
            raise NoSuchTable(table_id)
        if t.status != "finished":
            raise NotFinished(table_id)
        return t

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

    async def _finished(
        self, table_id: str, token: Any
    ) -> tuple[TableRow, list[SeatRow], list[Any]]:
        t = await self.finished_table(table_id, token)
        return t, await self.db.seats(table_id), await self.db.actions(table_id)

    async def replay(self, table_id: str, step: int, token: Any = None) -> dict[str, Any]:
        """Step ``step`` of a finished game's replay (NoSuchTable, NotFinished; a private
        game needs ``token``, see ``finished_table``)."""
        t, seats, rows = await self._finished(table_id, token)
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

    async def review(self, table_id: str, token: Any = None) -> dict[str, Any]:
        """The review of a finished game (services/reviews.py; NoSuchTable, NotFinished; a
        private game needs ``token``)."""
        t, seats, rows = await self._finished(table_id, token)
        return await reviews.review_of(
            table_id,
            kind=t.game,
            rules=t.rules,
            names=[s.name for s in seats],
            seed=t.seed,
            actions=[a.action for a in rows],
        )
