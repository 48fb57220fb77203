"""The database engine of the server: made for SQLite or PostgreSQL (a pool whose connections
are checked only after lying idle) and migrated to the newest schema on every start."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import DisconnectionError

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


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
