"""Storage of tables, seats, accepted actions and score sheets (SQLAlchemy 2, SQLite or PostgreSQL).

Every write commits before it returns, so a caller that broadcasts after a write never announces
something the database does not hold.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Engine,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

from pfeffer.web.storage.models import ActionRow, SeatRow, SheetRow, TableRow, utcnow

__all__ = [
    "ActionRow",
    "ConflictError",
    "RematchTaken",
    "SeatRow",
    "SeatSpec",
    "SheetRow",
    "Store",
    "TableRow",
    "make_engine",
    "migrate",
    "new_token",
]

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


class ConflictError(RuntimeError):
    """A write lost a race: the table moved on since the state the write was based on."""


ID_BYTES = 16  # table and sheet ids: 128 random bits (ids of 9 bytes, made before, still work)


class RematchTaken(ConflictError):
    """Another process created the rematch first: ``table_id`` is the rematch that stands."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"the rematch is table {table_id}")
        self.table_id = table_id


def new_token(nbytes: int = 24) -> str:
    """An unguessable URL-safe token (seat tokens, admin keys, sheet ids)."""
    return secrets.token_urlsafe(nbytes)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys on and a busy timeout."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    # A pool of connections, each checked before use once it lay idle (a server that
    # restarted is reconnected); a request waits at most POOL_TIMEOUT for a connection and a
    # connection attempt at most CONNECT_TIMEOUT, so a database that is away answers a move
    # with an error, not a hang.
    engine = create_engine(
        url,
        pool_size=POOL_SIZE,
        max_overflow=POOL_OVERFLOW,
        pool_timeout=POOL_TIMEOUT,
        connect_args={"connect_timeout": CONNECT_TIMEOUT},
    )
    ping_when_idle(engine)
    return engine


PING_IDLE = 1.0
"""Seconds a pooled connection may lie idle and still be used without a check first."""


def ping_when_idle(engine: Engine, idle: float = PING_IDLE) -> None:
    """Check a connection from the pool before use (the dialect's ping, as ``pool_pre_ping``
    does) only when it lay idle for more than ``idle`` seconds. Under load every connection
    is back in use within milliseconds: a check before each would be one more round trip to
    the database per move (the work of a move was half again as much with it). A connection
    in use a moment ago that broke since (the database restarted that instant) fails its
    statement instead: that call is refused as the database being away (``unavailable``,
    nothing applied), and SQLAlchemy then drops every connection of the pool made before it,
    so the next call reconnects."""

    @event.listens_for(engine, "connect")
    @event.listens_for(engine, "checkin")
    def _used(_dbapi_conn: Any, record: Any) -> None:  # made or given back just now
        record.info["pfeffer_used"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _check(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        used = record.info.get("pfeffer_used")
        if used is not None and time.monotonic() - used <= idle:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
        except Exception as exc:  # the pool drops it and takes (or makes) another
            raise DisconnectionError(str(exc)) from exc


POOL_SIZE = 8
POOL_OVERFLOW = 8
POOL_TIMEOUT = 5.0
CONNECT_TIMEOUT = 3
MIGRATION_LOCK = 0x70666566  # the PostgreSQL advisory lock that serialises migrations


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest Alembic revision (run on every server start). On
    PostgreSQL an advisory lock makes processes that start together migrate one after another."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


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
# ... and its actions.
_INSERT_ACTION = insert(ActionRow.metadata.tables[ActionRow.__tablename__])
# A move that does not end the game, on PostgreSQL: both in one statement (the actions are
# inserted only where the compare-and-set took the row), run as it is in autocommit: one
# round trip, where BEGIN, UPDATE, INSERT and COMMIT took four.
_MOVE_PG = (
    f"WITH advanced AS (UPDATE {_TABLES.name}"
    " SET version = %(b_new)s::INTEGER, last_active = %(b_now)s::TIMESTAMP WITHOUT TIME ZONE"
    " WHERE id = %(b_id)s::VARCHAR AND version = %(b_version)s::INTEGER RETURNING id)"
    f" INSERT INTO {ActionRow.__tablename__} (table_id, seq, seat, action, created_at)"
    " SELECT advanced.id, a.seq, %(seat)s::INTEGER, a.action,"
    " %(b_now)s::TIMESTAMP WITHOUT TIME ZONE"
    " FROM advanced, unnest(%(seqs)s::INTEGER[], %(actions)s::TEXT[]) AS a(seq, action)"
)


class Store:
    """Repository functions over one engine. Each method runs in its own committed transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._session = sessionmaker(engine, expire_on_commit=False)
        # A move that does not end the game, on PostgreSQL: one statement on the driver's
        # connection (``_append_driver``).
        self._driver_sql: str | None = _MOVE_PG if engine.dialect.name == "postgresql" else None

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
    ) -> int:
        """Store the actions that follow ``version`` and commit; returns the new version.

        Raises :class:`ConflictError` (and stores nothing) if the table is no longer at
        ``version``: the compare-and-set keeps two writers from both appending.
        """
        new_version = version + len(actions)
        now = utcnow()
        params: dict[str, Any] = {"b_id": table_id, "b_version": version, "b_new": new_version}
        params["b_now"] = now
        if finished:
            params.update(b_winners=winners, b_scores=scores)
        rows = [
            {"table_id": table_id, "seq": version + i, "seat": seat, "action": a, "created_at": now}
            for i, a in enumerate(actions)
        ]
        if not finished and rows and self._driver_sql is not None:
            return self._append_driver(table_id, version, params, rows)
        # Prepared Core statements on a connection, no session: this runs for every move.
        with self.engine.begin() as conn:
            res = conn.execute(_FINISH if finished else _ADVANCE, params)
            if res.rowcount != 1:
                raise ConflictError(f"table {table_id} is not at version {version}")
            if rows:
                conn.execute(_INSERT_ACTION, rows[0] if len(rows) == 1 else rows)
        return new_version

    def _append_driver(
        self, table_id: str, version: int, params: dict[str, Any], rows: list[dict[str, Any]]
    ) -> int:
        """``append_actions`` of a move that does not end the game, on PostgreSQL: the
        compare-and-set and the actions in one statement (``_MOVE_PG``), run in autocommit on
        the pool's driver connection, without SQLAlchemy's execution layer: one round trip to
        the database (and one wait in this thread) per move instead of four. Errors come out
        as SQLAlchemy's (``unavailable`` for the caller), and a connection found broken is
        dropped, as SQLAlchemy does."""
        assert self._driver_sql is not None
        statement = self._driver_sql
        args = {
            **params,
            "seat": rows[0]["seat"],
            "seqs": [r["seq"] for r in rows],
            "actions": [r["action"] for r in rows],
        }
        dbapi = self.engine.dialect.loaded_dbapi
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
                if cur.rowcount != len(rows):
                    raise ConflictError(f"table {table_id} is not at version {version}")
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

    def list_tables(self, status: str, limit: int = 50) -> list[tuple[TableRow, list[SeatRow]]]:
        """Tables with ``status``, newest first (finished ones by end time), with their seats."""
        order = TableRow.finished_at.desc() if status == "finished" else TableRow.created_at.desc()
        with self.session() as db:
            tables = list(
                db.scalars(
                    select(TableRow).where(TableRow.status == status).order_by(order).limit(limit)
                )
            )
            ids = [t.id for t in tables]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            if ids:
                for s in db.scalars(
                    select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)
                ):
                    seats[s.table_id].append(s)
            return [(t, seats[t.id]) for t in tables]

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
