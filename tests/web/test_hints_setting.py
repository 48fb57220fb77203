"""Hints are a table setting the host decides (issue 10 §4, issue 11 §6): the new-table form's
checkbox (off by default), ``"hints"`` in ``POST /api/tables``, on for "Play now against the
computer", kept by a rematch, stored (migration 0004, SQLite and PostgreSQL) and shown in the
table's info, the summary and every frame."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import text

from pfeffer.web.server import create_app
from pfeffer.web.storage.repository import MIGRATIONS, Store, make_engine, migrate
from tests.web.conftest import form_data
from tests.web.test_storage import url  # noqa: F401 - the SQLite / PostgreSQL fixture

TWO = [{"name": "Anna", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def frame(client: TestClient, tid: str, token: str) -> dict[str, object]:
    with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
        msg: dict[str, object] = ws.receive_json()
    return msg


@pytest.mark.parametrize("hints", [True, False, None])
def test_api_stores_the_setting(client: TestClient, hints: bool | None) -> None:
    body: dict[str, object] = {"game": "dice", "seats": TWO}
    if hints is not None:
        body["hints"] = hints
    t = client.post("/api/tables", json=body).json()
    want = bool(hints)
    assert client.get(f"/api/tables/{t['id']}").json()["hints"] is want
    assert frame(client, t["id"], t["seats"][0]["token"])["hints"] is want
    host = client.get(f"/table/{t['id']}/{t['host_token']}").text
    assert ("Hints are on" in host) is want and ("Hints are off" in host) is not want


@pytest.mark.parametrize("bad", ["yes", 1, None, [True]])
def test_api_refuses_a_setting_that_is_not_a_boolean(client: TestClient, bad: object) -> None:
    r = client.post("/api/tables", json={"game": "dice", "seats": TWO, "hints": bad})
    assert r.status_code == 400 and "hints" in r.json()["detail"]  # null too: nothing guessed
    de = client.post(
        "/api/tables",
        json={"game": "dice", "seats": TWO, "hints": "ja"},
        headers={"accept-language": "de"},
    )
    assert de.json()["detail"] == "hints ist true oder false"


def test_the_form_has_the_checkbox_off_and_stores_it(client: TestClient) -> None:
    for game in ("dice", "pepper"):
        page = client.get(f"/new/{game}").text
        box = page[page.index('name="hints"') - 40 : page.index('name="hints"') + 40]
        assert 'type="checkbox"' in box and "checked" not in box
    form = {"players": "2", "seat0_kind": "human", "seat1_kind": "human"}
    for ticked in (False, True):
        data = {**form, **({"hints": "on"} if ticked else {})}
        r = client.post("/new/dice", data=form_data(client, data), follow_redirects=False)
        assert r.status_code == 303
        tid = r.headers["location"].split("/")[2]
        assert client.get(f"/api/tables/{tid}").json()["hints"] is ticked


def test_play_now_has_hints_and_a_rematch_keeps_the_setting(client: TestClient) -> None:
    r = client.post("/play-now/dice", data=form_data(client), follow_redirects=False)
    _, _, tid, _token = r.headers["location"].split("/")
    assert client.get(f"/api/tables/{tid}").json()["hints"] is True
    for hints in (True, False):
        seats = [TWO[0], {"kind": "bot"}]
        body = {"game": "dice", "rules": {"target": 500}, "seats": seats, "hints": hints}
        t = client.post("/api/tables", json=body).json()
        tid = t["id"]
        token = t["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
            for _ in range(2000):  # Anna always banks or rolls the first choice
                msg = ws.receive_json()
                if msg["type"] != "state" or msg["status"] == "finished":
                    if msg.get("status") == "finished":
                        break
                    continue
                if msg["legal"]:
                    ws.send_json({"type": "action", "action": msg["legal"][-1]})
        deadline = time.monotonic() + 20
        while client.get(f"/api/tables/{tid}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        new = client.post(f"/api/tables/{tid}/rematch", json={"token": token}).json()
        assert client.get(f"/api/tables/{new['table']}").json()["hints"] is hints


def test_migration_0004_keeps_the_tables_there_were(url: str) -> None:  # noqa: F811
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO game_tables (id, game, rules, seed, status, version, admin_token, "
                "created_at) VALUES ('old', 'dice', :rules, 7, 'running', 0, 'k', "
                "'2026-01-01 00:00:00')"
            ),
            {"rules": json.dumps({"target": 1000})},
        )
    migrate(engine)  # what the server does on start
    migrate(engine)  # and again: nothing changes
    store = Store(engine)
    old = store.table("old")
    assert old is not None and old.hints is False
    new, _ = store.create_table("dice", {}, 1, [], hints=True)
    assert store.table(new.id).hints is True  # type: ignore[union-attr]
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")  # the way back works too
        command.upgrade(cfg, "head")
    engine.dispose()


def test_the_column_is_in_the_model(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    migrate(engine)
    with engine.connect() as conn:
        cols = [r[1] for r in conn.execute(text("PRAGMA table_info(game_tables)"))]
    assert "hints" in cols
    engine.dispose()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'x.db'}", bot_delay=0)) as c:
        t = c.post("/api/tables", json={"game": "pepper", "seats": [TWO[0]] * 2, "hints": True})
        assert t.status_code == 201
