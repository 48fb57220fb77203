"""Issue 19: several actions in one message, taken as one step ("keep 15" and "roll": one round
trip, all or none), and the seed a table may be given where the app allows it (tests only)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.web.server import create_app

SEED = 1  # the first throw: 4-5-1-2-6-5, which scores (keep 155, 15, 1, 5, 55)
SEATS = [{"name": "Anna", "kind": "human"}, {"name": "Bo", "kind": "human"}]


@pytest.fixture
def seeded(db_url: str) -> Any:
    with TestClient(create_app(db_url, bot_delay=0, allow_seed=True)) as c:
        yield c


def make(client: TestClient, **extra: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "dice", "seats": SEATS, **extra})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def state(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] in ("state", "error"):
            return msg


def test_a_seed_is_refused_where_the_app_does_not_allow_it(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "dice", "seats": SEATS, "seed": 1})
    assert r.status_code == 400 and "seed" in r.json()["detail"]


@pytest.mark.parametrize("seed", [-1, 2**63, "1", 1.5, True])
def test_a_seed_is_a_whole_number(seeded: TestClient, seed: Any) -> None:
    r = seeded.post("/api/tables", json={"game": "dice", "seats": SEATS, "seed": seed})
    assert r.status_code == 400


def test_a_seeded_table_throws_the_same_dice(seeded: TestClient) -> None:
    throws = []
    for _ in range(2):
        t = make(seeded, seed=SEED)
        with seeded.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
            state(ws)
            ws.send_json({"type": "action", "action": "roll"})
            throws.append(state(ws)["view"]["roll"])
    assert throws[0] == throws[1] == [4, 5, 1, 2, 6, 5]


def test_keep_and_roll_in_one_message_is_one_step(seeded: TestClient) -> None:
    t = make(seeded, seed=SEED)
    with seeded.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
        state(ws)
        ws.send_json({"type": "action", "action": "roll", "version": 0})
        assert state(ws)["version"] == 1
        ws.send_json({"type": "action", "actions": ["keep 155", "roll"], "version": 1})
        frame = state(ws)  # one frame for both: the dice set aside and three thrown
        assert frame["type"] == "state" and frame["version"] == 3
        assert frame["last"] == {"seat": 0, "action": "roll"}
        assert len(frame["view"]["roll"]) == 3 and frame["view"]["turn_total"] == 200
        # The same message again (a double click): answered with the state, nothing applied.
        ws.send_json({"type": "action", "actions": ["keep 155", "roll"], "version": 1})
        assert state(ws)["version"] == 3
    store: Any = seeded.app.state.store  # type: ignore[attr-defined]
    actions = store.actions(t["id"])  # the record keeps both actions, as before
    assert [a.action.split()[0] for a in actions] == ["roll", "keep", "roll"]


def test_a_refused_action_of_a_step_applies_none_of_it(seeded: TestClient) -> None:
    t = make(seeded, seed=SEED)
    with seeded.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
        state(ws)
        ws.send_json({"type": "action", "action": "roll"})
        state(ws)
        ws.send_json({"type": "action", "actions": ["keep 155", "keep 155"]})
        err = state(ws)
        assert err["type"] == "error" and err["code"] == "illegal"
        ws.send_json({"type": "sync"})
        assert state(ws)["version"] == 1  # the first keep was not kept either
    store: Any = seeded.app.state.store  # type: ignore[attr-defined]
    assert len(store.actions(t["id"])) == 1


@pytest.mark.parametrize(
    "actions", [[], ["roll"] * 5, [1, "roll"], ["x" * 65], [""], "roll", None, 5, {"a": 1}]
)
def test_a_malformed_list_of_actions_is_refused(seeded: TestClient, actions: Any) -> None:
    t = make(seeded, seed=SEED)
    with seeded.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
        state(ws)
        ws.send_json({"type": "action", "actions": actions})
        err = state(ws)
        assert err["type"] == "error" and err["code"] == "malformed"
