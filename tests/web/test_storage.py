"""Storage on SQLite and on a real PostgreSQL server (issue 4 items 1, 5, 9).

PostgreSQL runs when PFEFFER_TEST_POSTGRES_URL is set (``.ci/run`` sets it); each test works in a
schema of its own, so parallel test workers do not meet.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import OperationalError

from pfeffer.web.server import create_app
from pfeffer.web.storage.repository import (
    ConflictError,
    SeatLinkChanged,
    SeatSpec,
    Store,
    make_engine,
    migrate,
)
from tests.web.conftest import POSTGRES_ENV


def _pg_url() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 's.db'}"
        return
    base = _pg_url()
    if base is None:
        pytest.skip(
            f"PostgreSQL tests need {POSTGRES_ENV} (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test)"
        )
    schema = "t_" + secrets.token_hex(6)
    admin = create_engine(base)
    try:
        with admin.begin() as c:
            c.execute(text(f"CREATE SCHEMA {schema}"))
    except OperationalError as exc:
        pytest.skip(f"PostgreSQL at {POSTGRES_ENV} is not reachable: {exc.orig}")
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def test_a_move_is_stored_only_while_the_movers_link_is_the_seats(url: str) -> None:
    """Issue 20 §1.2: the commit itself compares the link the mover holds with the seat's
    link (PostgreSQL: in the one statement of a move; a game's last move: the plain path)."""
    engine = make_engine(url)
    migrate(engine)
    store = Store(engine)
    table, seats = store.create_table(
        "dice", {"target": 500}, 5, [SeatSpec("Ann", "human"), SeatSpec("Bo", "human")]
    )
    old = seats[0].token
    assert store.append_actions(table.id, 0, 0, ["roll 115234"], token=old) == 1
    new = store.new_seat_token(table.id, 0)
    assert new is not None
    for finished in (False, True):
        with pytest.raises(SeatLinkChanged):
            store.append_actions(table.id, 1, 0, ["bank"], token=old, finished=finished)
        with pytest.raises(SeatLinkChanged):  # another seat's link is not this seat's
            store.append_actions(table.id, 1, 0, ["bank"], token=seats[1].token)
    with pytest.raises(ConflictError):  # the right link at a wrong version: a plain conflict
        store.append_actions(table.id, 0, 0, ["bank"], token=new)
    assert [a.action for a in store.actions(table.id)] == ["roll 115234"]
    assert store.append_actions(table.id, 1, 0, ["keep 11"], token=new) == 2
    engine.dispose()


def test_migrations_create_schema_and_are_idempotent(url: str) -> None:
    engine = make_engine(url)
    migrate(engine)
    migrate(engine)  # a second start changes nothing
    names = set(inspect(engine).get_table_names())
    assert {"game_tables", "seats", "actions", "sheets", "alembic_version"} <= names
    engine.dispose()


def test_store_round_trip_and_compare_and_set(url: str) -> None:
    engine = make_engine(url)
    migrate(engine)
    store = Store(engine)
    table, seats = store.create_table(
        "dice",
        {"target": 500},
        2**62 + 5,
        [SeatSpec("Anna", "human", public=True), SeatSpec("Bot", "bot", "random")],
    )
    assert store.table(table.id) is not None and store.table(table.id).seed == 2**62 + 5  # type: ignore[union-attr]
    assert len({s.token for s in seats}) == 2
    assert store.append_actions(table.id, 0, 0, ["roll 115234"]) == 1
    with pytest.raises(ConflictError):
        store.append_actions(table.id, 0, 0, ["roll 666666"])  # a second writer at version 0
    assert [a.action for a in store.actions(table.id)] == ["roll 115234"]
    # Several actions of one move (PostgreSQL: one statement for the version and the actions).
    assert store.append_actions(table.id, 1, None, ["keep 11", "roll 2345"]) == 3
    with pytest.raises(ConflictError):
        store.append_actions(table.id, 1, 0, ["keep 1"])
    assert [(a.seq, a.seat, a.action) for a in store.actions(table.id)] == [
        (0, 0, "roll 115234"),
        (1, None, "keep 11"),
        (2, None, "roll 2345"),
    ]
    assert store.table(table.id).version == 3  # type: ignore[union-attr]
    assert store.claim_seat(table.id, 0) == seats[0].token
    assert store.claim_seat(table.id, 0) is None
    assert store.claim_seat(table.id, 1) is None  # a computer seat
    private, private_seats = store.create_table("dice", {}, 1, [SeatSpec("Friend", "human")] * 2)
    assert store.claim_seat(private.id, 0) is None  # an invited seat is never handed out
    new = store.new_seat_token(private.id, 0)
    assert (
        new
        and new != private_seats[0].token
        and store.seat_by_token(private_seats[0].token) is None
    )
    assert store.seat_by_token(seats[1].token).seat == 1  # type: ignore[union-attr]
    store.append_actions(table.id, 3, 0, ["keep 11"], finished=True, winners=[0], scores=[9, 1])
    ((done, done_seats),) = store.list_tables("finished")
    assert done.winners == [0] and [s.name for s in done_seats] == ["Anna", "Bot"]
    sheet = store.create_sheet("pepper", "t", {"hands": []})
    store.save_sheet(sheet.id, {"hands": [1]})
    assert store.sheet(sheet.id).data == {"hands": [1]}  # type: ignore[union-attr]
    # A sheet's entries and their client ids change in one transaction (locked on PostgreSQL).
    row = store.change_sheet(sheet.id, lambda game, data, ids: ({"hands": [1, 2]}, [*ids, "e1"]))
    assert row is not None and row.data == {"hands": [1, 2]} and row.entry_ids == ["e1"]
    assert store.change_sheet(sheet.id, lambda game, data, ids: None).entry_ids == ["e1"]  # type: ignore[union-attr]
    with pytest.raises(ValueError):  # a refused change writes nothing
        store.change_sheet(sheet.id, lambda game, data, ids: (_ for _ in ()).throw(ValueError()))
    assert store.sheet(sheet.id).data == {"hands": [1, 2]}  # type: ignore[union-attr]
    assert store.change_sheet("nosuch", lambda game, data, ids: ({}, [])) is None
    engine.dispose()


def test_app_plays_on_the_database(url: str) -> None:
    with TestClient(create_app(url, bot_delay=0, computer_tables=True)) as client:
        r = client.post(
            "/api/tables",
            json={"game": "pepper", "rules": {"target": 3}, "seats": [{"kind": "bot"}] * 3},
        )
        tid = r.json()["id"]
        for _ in range(200):
            if client.get(f"/api/tables/{tid}").json()["status"] == "finished":
                break
            import time

            time.sleep(0.02)
        assert client.get(f"/api/tables/{tid}").json()["status"] == "finished"
        assert client.get(f"/api/tables/{tid}/record").json()["game"] == "pepper"


def test_a_pooled_connection_is_checked_only_after_lying_idle() -> None:
    """``ping_when_idle``: a connection used a moment ago is not checked again (no extra round
    trip per move); one that lay idle is, and one that broke meanwhile (its server process
    ended) is replaced by a new one before anybody uses it."""
    base = _pg_url()
    if base is None:
        pytest.skip(f"needs {POSTGRES_ENV}")
    engine = make_engine(base)
    pings: list[int] = []
    real_ping = engine.dialect.do_ping

    def counted(dbapi_conn: Any) -> bool:
        pings.append(1)
        return real_ping(dbapi_conn)

    engine.dialect.do_ping = counted  # type: ignore[method-assign,assignment]
    try:
        with engine.connect() as c:
            pid = c.execute(text("SELECT pg_backend_pid()")).scalar_one()
        for _ in range(5):
            with engine.connect() as c:
                assert c.execute(text("SELECT pg_backend_pid()")).scalar_one() == pid
        assert pings == []  # new, then back in use at once: never checked
        killer = create_engine(base)  # the server ends the pooled connection's process
        with killer.begin() as k:
            assert k.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar_one()
        killer.dispose()
        for rec in engine.pool._pool.queue:  # type: ignore[attr-defined]
            rec.info["pfeffer_used"] -= 60  # as if idle for a minute
        with engine.connect() as c:
            assert c.execute(text("SELECT pg_backend_pid()")).scalar_one() != pid
        assert pings  # checked, found broken, replaced
    finally:
        engine.dispose()
