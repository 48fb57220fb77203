"""Issue 20 §3: the client's WebSocket messages are a tagged union of models
(``pfeffer.web.schemas.ws``) answered through a table of handlers (``routes/ws.py``); each type
keeps its error codes of protocol v1."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.web.routes import ws as ws_route
from pfeffer.web.schemas import ws as schemas

SEATS = [{"name": "Anna", "kind": "human"}, {"name": "Bo", "kind": "human"}]


def table(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "dice", "seats": SEATS})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def answer(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """The first frame after ``message`` that is not a broadcast of who is online."""
    ws.send_json(message)
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] in ("error", "pong", "hint", "hand_review") or (
            frame["type"] == "state" and message["type"] == "sync"
        ):
            return frame


def first_state(ws: Any) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] == "state":
            return frame


def test_every_message_type_has_a_model_and_a_handler() -> None:
    assert set(ws_route.HANDLERS) == set(schemas.MESSAGE_TYPES)
    for kind in schemas.MESSAGE_TYPES:
        assert type(schemas.parse_message({"type": kind})).model_fields["type"]
    # A type whose model has fields says how a wrong field is refused.
    with_fields = {
        k
        for k in schemas.MESSAGE_TYPES
        if set(type(schemas.parse_message({"type": k})).model_fields) != {"type"}
    }
    assert with_fields == set(ws_route.INVALID)


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "action", "action": 5}, "malformed"),
        ({"type": "action", "actions": "roll"}, "malformed"),
        ({"type": "action", "actions": None}, "malformed"),
        ({"type": "action", "action": "roll", "version": "0"}, "malformed"),
        ({"type": "action", "action": "roll", "version": True}, "malformed"),
        ({"type": "chat", "text": 5}, "chat_malformed"),
        ({"type": "chat", "reaction": ["party"]}, "chat_malformed"),
        ({"type": "hand_review", "hand": "1"}, "hints_off"),  # the table's check comes first
        ({"type": "nothing"}, "malformed"),
        ({"type": 5}, "malformed"),
    ],
)
def test_a_wrong_field_gets_its_types_code(
    client: TestClient, message: dict[str, Any], code: str
) -> None:
    made = table(client)
    with client.websocket_connect(f"/ws/{made['id']}?token={made['seats'][0]['token']}") as ws:
        version = first_state(ws)["version"]
        err = answer(ws, message)
        assert err["type"] == "error" and err["code"] == code, err
        assert answer(ws, {"type": "sync"})["version"] == version  # nothing moved


def test_a_version_that_is_no_number_is_malformed_not_stale(client: TestClient) -> None:
    """Before, ``"version": "0"`` was compared with the table's number and answered
    ``stale``; it is no version at all."""
    made = table(client)
    with client.websocket_connect(f"/ws/{made['id']}?token={made['seats'][0]['token']}") as ws:
        first_state(ws)
        err = answer(ws, {"type": "action", "action": "roll", "version": "0"})
        assert err["code"] == "malformed" and "version" in err["message"].lower()


def test_a_spectator_is_told_so_before_the_field_is_checked(client: TestClient) -> None:
    made = table(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        first_state(ws)
        assert answer(ws, {"type": "chat", "text": 5})["code"] == "chat_spectator"
        assert answer(ws, {"type": "action", "action": "roll"})["code"] == "spectator"
        assert answer(ws, {"type": "ping", "more": [1]})["type"] == "pong"  # keys ignored
