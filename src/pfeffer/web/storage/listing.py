"""The lists of tables the lobby and the history show, filtered and paged in the query itself
(issue 20 §1.8: limiting to the 50 newest tables before filtering dropped public tables behind
newer private ones) and private games kept to their seats (issue 20 §2).

A table is *public* when its host opened a seat to everyone (``seats.public``) or no seat is a
person's (computer players only: tests and demonstrations, nobody's private game); every other
table is private: it is in no list, and its record, replay and review are for its seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from pfeffer.web.storage.models import SeatRow, TableRow

Listed = list[tuple[TableRow, list[SeatRow]]]

# A seat the lobby offers: opened to everyone by the host and not yet taken.
_OPEN_SEAT = exists().where(
    SeatRow.table_id == TableRow.id, SeatRow.public.is_(True), SeatRow.claimed.is_(False)
)
# A public table: the host opened a seat to everyone (taken or not), or nobody sits at it.
_PUBLIC = exists().where(
    SeatRow.table_id == TableRow.id, SeatRow.public.is_(True)
) | ~exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind == "human")
MAX_TOKENS = 200  # seat links one request may name (a browser's own finished games)


class Listings:
    """The store's lists of tables (mixed into ``Store``, which supplies ``session``)."""

    def session(self) -> Session:  # pragma: no cover - Store's
        raise NotImplementedError

    def _listed(self, db: Session, query: Any) -> Listed:
        tables = list(db.scalars(query))
        ids = [t.id for t in tables]
        seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
        if ids:
            for s in db.scalars(
                select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)
            ):
                seats[s.table_id].append(s)
        return [(t, seats[t.id]) for t in tables]

    def open_tables(self, offset: int = 0, limit: int = 50) -> Listed:
        """Running tables with a seat opened to everyone and not yet taken, newest first."""
        query = (
            select(TableRow)
            .where(TableRow.status == "running", _OPEN_SEAT)
            .order_by(TableRow.created_at.desc(), TableRow.id)
            .offset(offset)
            .limit(limit)
        )
        with self.session() as db:
            return self._listed(db, query)

    def finished_public(self, offset: int = 0, limit: int = 50) -> Listed:
        """Finished public tables, the last to finish first."""
        query = (
            select(TableRow)
            .where(TableRow.status == "finished", _PUBLIC)
            .order_by(TableRow.finished_at.desc(), TableRow.id)
            .offset(offset)
            .limit(limit)
        )
        with self.session() as db:
            return self._listed(db, query)

    def finished_of_seats(self, tokens: Sequence[str]) -> Listed:
        """Finished tables where one of ``tokens`` is a human seat's link (a browser's own
        games), the last to finish first; at most :data:`MAX_TOKENS` tokens are looked at."""
        wanted = [t for t in tokens[:MAX_TOKENS] if isinstance(t, str) and t]
        if not wanted:
            return []
        mine = exists().where(
            SeatRow.table_id == TableRow.id, SeatRow.kind == "human", SeatRow.token.in_(wanted)
        )
        query = (
            select(TableRow)
            .where(TableRow.status == "finished", mine)
            .order_by(TableRow.finished_at.desc(), TableRow.id)
        )
        with self.session() as db:
            return self._listed(db, query)

    def list_tables(self, status: str, limit: int = 50) -> Listed:
        """Tables with ``status``, newest first (finished ones by end time), public or not
        (tests and scripts; the lobby and the history use the lists above)."""
        order = TableRow.finished_at.desc() if status == "finished" else TableRow.created_at.desc()
        with self.session() as db:
            return self._listed(
                db, select(TableRow).where(TableRow.status == status).order_by(order).limit(limit)
            )
