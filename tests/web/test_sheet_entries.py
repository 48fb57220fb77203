"""Score-sheet entries with client ids (issue 8 §5): an entry sent again with an id the sheet has
is acknowledged and not applied twice; entries arrive in the order they are sent; two writers
of one sheet do not overwrite each other; the migration keeps the sheets there were."""

from __future__ import annotations

import concurrent.futures
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from pfeffer.core.errors import IllegalAction
from pfeffer.dice.sheet import DiceSheet
from pfeffer.pepper.sheet import PepperSheet
from pfeffer.web.adapters import sheets
from pfeffer.web.server import create_app
from pfeffer.web.storage.repository import MIGRATIONS, Store, make_engine, migrate
from tests.web.conftest import ServerProcess

PLAYERS = ["Oma", "Opa", "Kind"]
PEPPER_PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def new_sheet(client: TestClient, game: str, players: list[str]) -> str:
    sid: str = client.post("/api/sheets", json={"game": game, "players": players}).json()["id"]
    return sid


def post(client: TestClient, sid: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/sheets/{sid}/entries", json=body)


def dice_rows(client: TestClient, sid: str) -> Any:
    return client.get(f"/api/sheets/{sid}").json()["view"]["sheet_rows"]


def test_an_entry_sent_twice_counts_once(client: TestClient) -> None:
    sid = new_sheet(client, "dice", PLAYERS)
    first = post(client, sid, {"points": 450, "entry_id": "a1b2c3d4e5"})
    assert first.status_code == 200
    assert first.json()["applied"] is True and first.json()["entry_id"] == "a1b2c3d4e5"
    again = post(client, sid, {"points": 450, "entry_id": "a1b2c3d4e5"})
    assert again.status_code == 200 and again.json()["applied"] is False
    # The answer to the repeat is the sheet as it is: one turn, Oma's 450, Opa to enter next.
    assert again.json()["view"] == first.json()["view"]
    assert again.json()["view"]["scores"] == [450, 0, 0]
    assert again.json()["view"]["current_player"] == 1
    # Another id is another entry, even with the same points.
    other = post(client, sid, {"points": 450, "entry_id": "f6e5d4c3b2"}).json()
    assert other["applied"] is True and other["view"]["scores"] == [450, 450, 0]


def test_the_repeat_of_an_entry_with_different_contents_is_still_the_first(
    client: TestClient,
) -> None:
    sid = new_sheet(client, "dice", PLAYERS)
    post(client, sid, {"points": 450, "entry_id": "same-id-01"})
    # An id the sheet has is that entry: whatever the repeat says, it is not applied.
    r = post(client, sid, {"bust": True, "entry_id": "same-id-01"}).json()
    assert r["applied"] is False and r["view"]["scores"] == [450, 0, 0]


def test_an_undone_entry_that_arrives_again_stays_undone(client: TestClient) -> None:
    sid = new_sheet(client, "dice", PLAYERS)
    post(client, sid, {"points": 400, "entry_id": "undo-me-01"})
    assert client.post(f"/api/sheets/{sid}/undo").json()["view"]["scores"] == [0, 0, 0]
    r = post(client, sid, {"points": 400, "entry_id": "undo-me-01"}).json()
    assert r["applied"] is False and r["view"]["scores"] == [0, 0, 0]


def test_entries_without_an_id_work_as_before(client: TestClient) -> None:
    sid = new_sheet(client, "dice", PLAYERS)
    for _ in range(2):
        r = post(client, sid, {"points": 400}).json()
        assert "applied" not in r and "entry_id" not in r
    assert r["view"]["scores"] == [400, 400, 0]  # no id: two entries


@pytest.mark.parametrize(
    "bad", ["short", "x" * 65, "has space!", 12345678, ["a1b2c3d4e5"], "ünïcödé-id"]
)
def test_a_malformed_entry_id_is_refused_and_changes_nothing(client: TestClient, bad: Any) -> None:
    sid = new_sheet(client, "dice", PLAYERS)
    r = post(client, sid, {"points": 450, "entry_id": bad})
    assert r.status_code == 400 and "entry_id" in r.json()["detail"]
    assert dice_rows(client, sid) == []


def test_a_refused_entry_leaves_its_id_free(client: TestClient) -> None:
    sid = new_sheet(client, "dice", PLAYERS)
    r = post(client, sid, {"points": 475, "entry_id": "retry-me-1"})  # not a multiple of 50
    assert r.status_code == 400
    ok = post(client, sid, {"points": 500, "entry_id": "retry-me-1"}).json()
    assert ok["applied"] is True and ok["view"]["scores"] == [500, 0, 0]


def test_the_malformed_id_message_is_translated(client: TestClient) -> None:
    sid = new_sheet(client, "pepper", PEPPER_PLAYERS)
    r = client.post(f"/api/sheets/{sid}/entries?lang=de", json={"passed": True, "entry_id": "x"})
    assert r.status_code == 400 and r.json()["detail"].startswith("entry_id: 8 bis 64 Buchstaben")


def test_a_sheet_that_is_not_there(client: TestClient) -> None:
    r = client.post("/api/sheets/nosuch/entries", json={"points": 50, "entry_id": "a1b2c3d4e5"})
    assert r.status_code == 404
    assert client.post("/api/sheets/nosuch/undo").status_code == 404


# ------------------------------------------------------------------ order, repeats: a property

# The dice turns a phone may have held: banked points or a bust, with or without Pfeffer.
TURNS = st.lists(
    st.tuples(st.sampled_from([None, 350, 400, 550, 1000]), st.booleans()), min_size=1, max_size=8
)


def legal_entries(turns: list[tuple[int | None, bool]]) -> list[dict[str, Any]]:
    """The turns as entry bodies, leaving out those the engine refuses where they come."""
    sheet = DiceSheet(PLAYERS)
    bodies: list[dict[str, Any]] = []
    for points, pfeffer in turns:
        try:
            sheet.enter(points, pfeffer=pfeffer)
        except IllegalAction:
            continue
        bodies.append({"bust": True} if points is None else {"points": points})
        bodies[-1]["pfeffer"] = pfeffer
    return bodies


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(turns=TURNS, repeats=st.lists(st.integers(0, 2), min_size=8, max_size=8), data=st.data())
def test_a_queue_sent_with_repeats_arrives_in_order_exactly_once(
    client: TestClient, turns: list[tuple[int | None, bool]], repeats: list[int], data: Any
) -> None:
    """A phone sends its queue in order; an answer that gets lost makes it send the same entry
    again, and an old request may even arrive late (a repeat of any entry sent before). The
    sheet ends as the engine's sheet of the entries, each once, in order."""
    bodies = legal_entries(turns)
    sid = new_sheet(client, "dice", PLAYERS)
    sent: list[dict[str, Any]] = []
    for i, body in enumerate(bodies):
        entry = {**body, "entry_id": f"entry-{i:04d}"}
        for _ in range(1 + repeats[i]):
            assert post(client, sid, entry).status_code == 200
        sent.append(entry)
        late = data.draw(st.sampled_from(sent), label="late repeat")
        r = post(client, sid, late).json()
        assert r["applied"] is False
    expected = DiceSheet(PLAYERS)
    for body in bodies:
        expected.enter(None if body.get("bust") else body["points"], pfeffer=body["pfeffer"])
    shown = client.get(f"/api/sheets/{sid}").json()
    assert shown["view"]["scores"] == expected.totals
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    row = store.sheet(sid)
    assert row is not None and len(DiceSheet.from_json(row.data).history) == len(bodies)
    assert (row.entry_ids or []) == [f"entry-{i:04d}" for i in range(len(bodies))]


def test_pepper_entries_with_ids_count_once_in_order(client: TestClient) -> None:
    sid = new_sheet(client, "pepper", PEPPER_PLAYERS)
    hands = [
        {"bidder": 0, "bid": 3, "trump": "H", "tricks": [4, 2]},
        {"bidder": 1, "bid": "small", "trump": "S", "tricks": [0, 6]},
        {"bidder": 2, "bid": 4, "trump": "D", "tricks": [3, 3]},
    ]
    for i, hand in enumerate(hands):
        for _ in range(2):
            post(client, sid, {**hand, "entry_id": f"hand-{i:05d}"})
    expected = PepperSheet(PEPPER_PLAYERS)
    for hand in hands:
        expected.enter(hand["bidder"], hand["bid"], hand["trump"], hand["tricks"])  # type: ignore[arg-type]
    d = client.get(f"/api/sheets/{sid}").json()
    assert [r["number"] for r in d["rows"]] == [1, 2, 3]
    assert [r["bidder"] for r in d["rows"]] == [0, 1, 2]
    assert d["scores"] == expected.totals


def test_add_entry_once_is_pure() -> None:
    _, _, data = sheets.new_sheet({"game": "dice", "players": ["A", "B"]})
    new, ids, applied = sheets.add_entry_once(
        "dice", data, [], {"points": 400, "entry_id": "k" * 8}
    )
    assert applied and ids == ["k" * 8] and new != data
    same, ids2, applied2 = sheets.add_entry_once(
        "dice", new, ids, {"points": 9, "entry_id": "k" * 8}
    )
    assert not applied2 and same is new and ids2 == ids


# ------------------------------------------------------------------ two writers at once


def test_entries_sent_at_once_are_all_kept(server: ServerProcess) -> None:
    """Twelve phones send a bust at the same moment to a real server: the sheet has twelve
    turns, none overwritten by another's write."""
    sid = server.post("/api/sheets", {"game": "dice", "players": PLAYERS})["id"]

    def send(i: int) -> int:
        req = urllib.request.Request(
            f"{server.base}/api/sheets/{sid}/entries",
            data=json.dumps({"bust": True, "entry_id": f"phone-{i:04d}"}).encode(),
            headers={"content-type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:  # pragma: no cover - reported by the assert
            return exc.code

    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        codes = list(pool.map(send, range(12)))
    assert codes == [200] * 12
    rows = server.get(f"/api/sheets/{sid}")["view"]["sheet_rows"]
    assert sum(1 for row in rows for cell in row["turns"] if cell is not None) == 12


# ------------------------------------------------------------------ the migration


def test_migration_0003_keeps_the_sheets_there_were(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    _, _, data = sheets.new_sheet({"game": "dice", "players": ["A", "B"]})
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO sheets (id, game, title, data, created_at, updated_at) "
                "VALUES ('old', 'dice', '', :data, '2026-01-01', '2026-01-01')"
            ),
            {"data": json.dumps(data)},
        )
    migrate(engine)  # what the server does on start
    store = Store(engine)
    row = store.sheet("old")
    assert row is not None and row.entry_ids is None
    engine.dispose()
    with TestClient(create_app(url, bot_delay=0)) as client:
        r = post(client, "old", {"points": 400, "entry_id": "first-new-id"}).json()
        assert r["applied"] and r["view"]["scores"] == [400, 0]
        assert (
            post(client, "old", {"points": 400, "entry_id": "first-new-id"}).json()["applied"]
            is False
        )
