"""Storage of tables, seats, accepted actions and score sheets (SQLAlchemy 2, SQLite or PostgreSQL).

Every write commits before it returns, so a caller that broadcasts after a write never announces
something the database does not hold.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, bindparam, exists, func, insert, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

# The engine and the migrations (storage/engine.py), named here as before.
from pfeffer.web.storage.engine import (
    CONNECT_TIMEOUT,
    MIGRATION_LOCK,
    MIGRATIONS,
    PING_IDLE,
    POOL_OVERFLOW,
    POOL_SIZE,
    POOL_TIMEOUT,
    make_engine,
    migrate,
    ping_when_idle,
)
from pfeffer.web.storage.listing import Listings
from pfeffer.web.storage.models import ActionRow, SeatRow, SheetRow, TableRow, utcnow

__all__ = [
    "CONNECT_TIMEOUT",
    "MIGRATIONS",
    "MIGRATION_LOCK",
    "PING_IDLE",
    "POOL_OVERFLOW",
    "POOL_SIZE",
    "POOL_TIMEOUT",
    "ActionRow",
    "ConflictError",
    "RematchTaken",
    "SeatLinkChanged",
    "SeatRow",
    "SeatSpec",
    "SheetRow",
    "Store",
    "TableRow",
    "make_engine",
    "migrate",
    "new_token",
    "ping_when_idle",
]


class ConflictError(RuntimeError):
    """A write lost a race: the table moved on since the state the write was based on."""


ID_BYTES = 16  # table and sheet ids: 128 random bits (ids of 9 bytes, made before, still work)


class SeatLinkChanged(RuntimeError):
    """An action was sent with a seat link the host has since revoked: nothing was stored."""


class RematchTaken(ConflictError):
    """Another process created the rematch first: ``table_id`` is the rematch that stands."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"the rematch is table {table_id}")
        self.table_id = table_id


def new_token(nbytes: int = 24) -> str:
    """An unguessable URL-safe token (seat tokens, admin keys, sheet ids)."""
    return secrets.token_urlsafe(nbytes)


@dataclasses.dataclass(frozen=True)
class SeatSpec:
    """A seat as asked for when creating a table."""

    name: str
    kind: str  # "human" or "bot"
    bot: str | None = None
    public: bool = False  # a human seat the lobby offers to anybody


_TABLES = TableRow.metadata.tables[TableRow.__tablename__]
# A move: the compare-and-set of the table's version (and, for the last move, the result) ...
_ADVANCE = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("b_id"), _TABLES.c.version == bindparam("b_version"))
    .values(version=bindparam("b_new"), last_active=bindparam("b_now"))
)
_FINISH = _ADVANCE.values(
    status="finished",
    finished_at=bindparam("b_now"),
    winners=bindparam("b_winners", type_=_TABLES.c.winners.type),
    scores=bindparam("b_scores", type_=_TABLES.c.scores.type),
)
# A human's move also needs the seat's link to be the one the mover holds, checked in the same
# statement: a link the host revoked on another process (whose message never came) moves nothing.
_SEATS = SeatRow.metadata.tables[SeatRow.__tablename__]
_HOLDS_SEAT = exists().where(
    _SEATS.c.table_id == bindparam("b_id"),
    _SEATS.c.seat == bindparam("b_seat"),
    _SEATS.c.token == bindparam("b_token"),
)
_ADVANCE_SEAT = _ADVANCE.where(_HOLDS_SEAT)
_FINISH_SEAT = _FINISH.where(_HOLDS_SEAT)
# ... and its actions.
_INSERT_ACTION = insert(ActionRow.metadata.tables[ActionRow.__tablename__])
# A move that does not end the game, on PostgreSQL: both in one statement (the actions are
# inserted only where the compare-and-set took the row), run as it is in autocommit: one
# round trip, where BEGIN, UPDATE, INSERT and COMMIT took four.
_MOVE_PG = (
    f"WITH advanced AS (UPDATE {_TABLES.name}"
    " SET version = %(b_new)s::INTEGER, last_active = %(b_now)s::TIMESTAMP WITHOUT TIME ZONE"
    " WHERE id = %(b_id)s::VARCHAR AND version = %(b_version)s::INTEGER{seat} RETURNING id)"
    f" INSERT INTO {ActionRow.__tablename__} (table_id, seq, seat, action, created_at)"
    " SELECT advanced.id, a.seq, %(seat)s::INTEGER, a.action,"
    " %(b_now)s::TIMESTAMP WITHOUT TIME ZONE"
    " FROM advanced, unnest(%(seqs)s::INTEGER[], %(actions)s::TEXT[]) AS a(seq, action)"
)
_MOVE_PG_SEAT = _MOVE_PG.format(
    seat=f" AND EXISTS (SELECT 1 FROM {_SEATS.name} WHERE table_id = %(b_id)s::VARCHAR"
    " AND seat = %(seat)s::INTEGER AND token = %(b_token)s::VARCHAR)"
)
_MOVE_PG = _MOVE_PG.format(seat="")


class Store(Listings):
    """Repository functions over one engine. Each method runs in its own committed transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._session = sessionmaker(engine, expire_on_commit=False)
        # A move that does not end the game, on PostgreSQL: one statement on the driver's
        # connection (``_append_driver``).
        self._driver = engine.dialect.name == "postgresql"

    def session(self) -> Session:
        """A new session (callers use it as a context manager)."""
        return self._session()

    # ------------------------------------------------------------------ tables

    def create_table(
        self,
        game: str,
        rules: dict[str, Any],
        seed: int,
        seats: list[SeatSpec],
        rematch_of: str | None = None,
        *,
        hints: bool = False,
    ) -> tuple[TableRow, list[SeatRow]]:
        """A new running table with its seats (each with a fresh token); committed. ``hints``:
        the players may ask the advisor.

        A rematch (``rematch_of``) is a compare-and-set on the old table: when another process
        made its rematch first, nothing is stored and :class:`RematchTaken` names that table."""
        table = TableRow(
            id=new_token(ID_BYTES),
            game=game,
            rules=rules,
            seed=seed,
            status="running",
            version=0,
            admin_token=new_token(),
            created_at=utcnow(),
            last_active=utcnow(),
            rematch_of=rematch_of,
            hints=hints,
        )
        rows = [
            SeatRow(
                table_id=table.id,
                seat=i,
                name=s.name,
                kind=s.kind,
                bot=s.bot,
                token=new_token(),
                claimed=s.kind == "bot",
                public=s.kind == "human" and s.public,
            )
            for i, s in enumerate(seats)
        ]
        with self.session() as db, db.begin():
            db.add(table)
            db.flush()
            db.add_all(rows)
            if rematch_of is not None:
                res = db.execute(
                    update(TableRow)
                    .where(TableRow.id == rematch_of, TableRow.rematch_id.is_(None))
                    .values(rematch_id=table.id)
                )
                if res.rowcount != 1:  # type: ignore[attr-defined]
                    taken = db.scalar(select(TableRow.rematch_id).where(TableRow.id == rematch_of))
                    raise RematchTaken(taken or "")  # rolls the new table back
        return table, rows

    def table(self, table_id: str) -> TableRow | None:
        """The table row, or None."""
        with self.session() as db:
            return db.get(TableRow, table_id)

    def seats(self, table_id: str) -> list[SeatRow]:
        """The seats of a table in seat order."""
        with self.session() as db:
            return list(
                db.scalars(
                    select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
                )
            )

    def actions(self, table_id: str) -> list[ActionRow]:
        """Every accepted action of a table, in order."""
        with self.session() as db:
            return list(
                db.scalars(
                    select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
                )
            )

    def actions_since(self, table_id: str, seq: int) -> list[ActionRow]:
        """The accepted actions of a table from number ``seq`` on (a resync), in order."""
        with self.session() as db:
            return list(
                db.scalars(
                    select(ActionRow)
                    .where(ActionRow.table_id == table_id, ActionRow.seq >= seq)
                    .order_by(ActionRow.seq)
                )
            )

    def versions(self, table_ids: list[str]) -> dict[str, tuple[int, str]]:
        """The version and status of each of the tables (those that exist)."""
        out: dict[str, tuple[int, str]] = {}
        with self.session() as db:
            for i in range(0, len(table_ids), 500):
                chunk = table_ids[i : i + 500]
                for tid, version, status in db.execute(
                    select(TableRow.id, TableRow.version, TableRow.status).where(
                        TableRow.id.in_(chunk)
                    )
                ):
                    out[tid] = (version, status)
        return out

    def append_actions(
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
        """Store the actions that follow ``version`` and commit; returns the new version.
        ``token``: the seat link the mover holds (a human's move); the move is stored only
        while it is still the seat's link.

        Raises :class:`ConflictError` (and stores nothing) if the table is no longer at
        ``version``: the compare-and-set keeps two writers from both appending;
        :class:`SeatLinkChanged` (nothing stored) if ``token`` is no longer the seat's link.
        """
        new_version = version + len(actions)
        now = utcnow()
        params: dict[str, Any] = {"b_id": table_id, "b_version": version, "b_new": new_version}
        params["b_now"] = now
        if finished:
            params.update(b_winners=winners, b_scores=scores)
        if token is not None:
            params.update(b_seat=seat, b_token=token)
        rows = [
            {"table_id": table_id, "seq": version + i, "seat": seat, "action": a, "created_at": now}
            for i, a in enumerate(actions)
        ]
        if not finished and rows and self._driver:
            return self._append_driver(table_id, version, params, rows)
        if token is None:
            statement = _FINISH if finished else _ADVANCE
        else:
            statement = _FINISH_SEAT if finished else _ADVANCE_SEAT
        # Prepared Core statements on a connection, no session: this runs for every move.
        with self.engine.begin() as conn:
            took = conn.execute(statement, params).rowcount == 1
            if took and rows:
                conn.execute(_INSERT_ACTION, rows[0] if len(rows) == 1 else rows)
        if not took:
            self._refused(table_id, version, seat, token)
        return new_version

    def _refused(self, table_id: str, version: int, seat: int | None, token: str | None) -> None:
        """Why a move's compare-and-set took no row (the rare path: one more query)."""
        if token is not None and seat is not None and not self.holds_seat(table_id, seat, token):
            raise SeatLinkChanged(f"the link of seat {seat} of table {table_id} was revoked")
        raise ConflictError(f"table {table_id} is not at version {version}")

    def holds_seat(self, table_id: str, seat: int, token: str) -> bool:
        """Whether ``token`` is the seat's link now (compared by the database)."""
        with self.engine.connect() as conn:
            return bool(
                conn.scalar(
                    select(func.count())
                    .select_from(_SEATS)
                    .where(
                        _SEATS.c.table_id == table_id,
                        _SEATS.c.seat == seat,
                        _SEATS.c.token == token,
                    )
                )
            )

    def _append_driver(
        self, table_id: str, version: int, params: dict[str, Any], rows: list[dict[str, Any]]
    ) -> int:
        """``append_actions`` of a move that does not end the game, on PostgreSQL: the
        compare-and-set and the actions in one statement (``_MOVE_PG``), run in autocommit on
        the pool's driver connection, without SQLAlchemy's execution layer: one round trip to
        the database (and one wait in this thread) per move instead of four. Errors come out
        as SQLAlchemy's (``unavailable`` for the caller), and a connection found broken is
        dropped, as SQLAlchemy does."""
        statement = _MOVE_PG if "b_token" not in params else _MOVE_PG_SEAT
        args = {
            **params,
            "seat": rows[0]["seat"],
            "seqs": [r["seq"] for r in rows],
            "actions": [r["action"] for r in rows],
        }
        dbapi = self.engine.dialect.loaded_dbapi
        refused = False
        raw = None
        conn = None
        try:
            raw = self.engine.raw_connection()
            conn = raw.dbapi_connection
            assert conn is not None
            if conn.info.transaction_status != conn.info.transaction_status.IDLE:
                conn.rollback()  # never so from the pool; autocommit is set only when idle
            conn.autocommit = True  # one statement, atomic by itself: no BEGIN, no COMMIT
            cur = raw.cursor()
            try:
                cur.execute(statement, args)
                refused = cur.rowcount != len(rows)
            finally:
                cur.close()
        except dbapi.Error as exc:
            broken = raw is not None and self.engine.dialect.is_disconnect(
                exc, raw.dbapi_connection, None
            )
            if raw is not None and broken:
                raw.invalidate(exc)
            raise DBAPIError.instance(
                statement, args, exc, dbapi.Error, connection_invalidated=broken
            ) from exc
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.autocommit = False  # as the pool hands it out
            if raw is not None:
                raw.close()  # back to the pool (a dropped one is let go)
        if refused:
            self._refused(table_id, version, rows[0]["seat"], params.get("b_token"))
        return version + len(rows)

    def claim_seat(self, table_id: str, seat: int) -> str | None:
        """Take a free seat the host opened to the public (from the lobby); its token, or None
        if it is taken, private (an invited friend's) or not human. Only the first taker gets
        the link."""
        with self.session() as db, db.begin():
            res = db.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.public.is_(True),
                    SeatRow.claimed.is_(False),
                )
                .values(claimed=True)
            )
            if res.rowcount != 1:  # type: ignore[attr-defined]
                return None
            row = db.get(SeatRow, (table_id, seat))
            return row.token if row else None

    def mark_claimed(self, table_id: str, seat: int) -> None:
        """Note that the holder of a seat's invite link has opened it."""
        with self.session() as db, db.begin():
            db.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(claimed=True)
            )
        self.touch(table_id)

    def touch(self, table_id: str) -> None:
        """Note that the table is in use now (it does not expire)."""
        with self.session() as db, db.begin():
            db.execute(update(TableRow).where(TableRow.id == table_id).values(last_active=utcnow()))

    def new_seat_token(self, table_id: str, seat: int) -> str | None:
        """Revoke a human seat's link and issue a new one (the seat is free again until the new
        link is opened); the new token, or None if there is no such human seat."""
        token = new_token()
        with self.session() as db, db.begin():
            res = db.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "human")
                .values(token=token, claimed=False)
            )
            if res.rowcount != 1:  # type: ignore[attr-defined]
                return None
        return token

    def set_public(self, table_id: str, seat: int, public: bool) -> bool:
        """Open a human seat to the public (the lobby offers it) or make it private again."""
        with self.session() as db, db.begin():
            res = db.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "human")
                .values(public=public)
            )
            return bool(res.rowcount == 1)  # type: ignore[attr-defined]

    def expire_tables(self, unused_for: dt.timedelta) -> list[str]:
        """Mark running tables unused for ``unused_for`` (no action, no seat link opened) as
        expired; their ids."""
        cutoff = utcnow() - unused_for
        last = func.coalesce(TableRow.last_active, TableRow.created_at)
        with self.session() as db, db.begin():
            ids = list(
                db.scalars(select(TableRow.id).where(TableRow.status == "running", last < cutoff))
            )
            if ids:
                db.execute(update(TableRow).where(TableRow.id.in_(ids)).values(status="expired"))
        return ids

    def seat_by_token(self, token: str) -> SeatRow | None:
        """The seat a token belongs to, or None."""
        with self.session() as db:
            return db.scalars(select(SeatRow).where(SeatRow.token == token)).first()

    def running_table_ids(self) -> list[str]:
        """Ids of every running table (to resume computer players after a restart)."""
        with self.session() as db:
            return list(db.scalars(select(TableRow.id).where(TableRow.status == "running")))

    def count_tables(self) -> int:
        """How many tables exist (for tests and the lobby)."""
        with self.session() as db:
            return int(db.scalar(select(func.count()).select_from(TableRow)) or 0)

    # ------------------------------------------------------------------ sheets

    def create_sheet(self, game: str, title: str, data: dict[str, Any]) -> SheetRow:
        """A new score sheet; committed."""
        row = SheetRow(
            id=new_token(ID_BYTES),
            game=game,
            title=title,
            data=data,
            created_at=utcnow(),
            updated_at=utcnow(),
        )
        with self.session() as db, db.begin():
            db.add(row)
        return row

    def sheet(self, sheet_id: str) -> SheetRow | None:
        """A sheet, or None."""
        with self.session() as db:
            return db.get(SheetRow, sheet_id)

    def save_sheet(self, sheet_id: str, data: dict[str, Any]) -> None:
        """Replace a sheet's data; committed."""
        with self.session() as db, db.begin():
            db.execute(
                update(SheetRow)
                .where(SheetRow.id == sheet_id)
                .values(data=data, updated_at=utcnow())
            )

    def change_sheet(
        self,
        sheet_id: str,
        change: Callable[[str, dict[str, Any], list[str]], tuple[dict[str, Any], list[str]] | None],
    ) -> SheetRow | None:
        """Read a sheet, let ``change(game, data, entry_ids)`` work out its new data and entry ids
        (None: nothing to write) and write them, all in one transaction; the row as it is
        afterwards, or None if there is no such sheet. On PostgreSQL the row is locked
        (``SELECT ... FOR UPDATE``), so two writers of one sheet take turns instead of one
        overwriting the other's entry; an exception in ``change`` rolls back and passes on."""
        with self.session() as db, db.begin():
            row = db.scalars(
                select(SheetRow).where(SheetRow.id == sheet_id).with_for_update()
            ).one_or_none()
            if row is None:
                return None
            result = change(row.game, dict(row.data), list(row.entry_ids or []))
            if result is not None:
                row.data, row.entry_ids = result
                row.updated_at = utcnow()
            return row
