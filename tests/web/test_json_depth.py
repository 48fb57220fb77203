"""Text nested too deeply is refused before any parser sees it (``jsondata.too_deep``).

Python's ``json`` recurses once per level. A WebSocket message of 1,020 ``[`` took it to the
interpreter's recursion limit, and the garbage collector's callback (``LoopWatch._gc``, the
GC pause metric) that ran meanwhile failed with RecursionError (seen in CI as an "exception
ignored"). So messages and bodies deeper than ``MAX_DEPTH`` are refused unparsed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from pfeffer.web.jsondata import MAX_DEPTH, too_deep
from tests.web.test_api_edge import stored

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\u00e9\U0001f3b2'),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet='[]{}"\\x', max_size=3), inner, max_size=3)
    ),
    max_leaves=40,
)


def depth(value: Any) -> int:
    """How deep arrays and objects nest in ``value`` (the reference)."""
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.integers(min_value=0, max_value=8))
def test_the_depth_is_found_without_parsing_strings_included(value: Any, limit: int) -> None:
    text = json.dumps(value, ensure_ascii=False)
    expected = depth(value) > limit
    assert too_deep(text, limit) is expected
    assert too_deep(text.encode(), limit) is expected
    assert too_deep(json.dumps(value), limit) is expected  # escaped (\\uXXXX) alike


def test_what_the_pages_send_is_far_below_the_limit() -> None:
    rules = {"triples": {"1": 1000}, "seats": [{"name": "[[[[", "kind": "human"}]}
    assert not too_deep(json.dumps({"game": "dice", "rules": rules}))
    assert too_deep("[" * (MAX_DEPTH + 1)) and not too_deep("[" * MAX_DEPTH)


def nested(levels: int) -> Any:
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


def test_a_deep_websocket_message_is_malformed_unparsed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[str] = []
    loads = json.loads

    def spy(text: str, *args: Any, **kwargs: Any) -> Any:
        parsed.append(text)
        return loads(text, *args, **kwargs)

    t = client.post(
        "/api/tables",
        json={"game": "dice", "seats": [{"kind": "human"}, {"kind": "bot"}]},
    ).json()
    with client.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
        while ws.receive_json()["type"] != "state":
            pass
        monkeypatch.setattr(json, "loads", spy)
        deep = json.dumps({"type": "ping", "x": nested(MAX_DEPTH + 1)})
        ws.send_text(deep)  # before: parsed, and answered with a pong
        while (reply := ws.receive_json())["type"] not in ("error", "pong"):
            pass
        assert reply["type"] == "error" and reply["code"] == "malformed"
        assert deep not in parsed
        ws.send_text(json.dumps({"type": "ping", "x": nested(3)}))
        while (reply := ws.receive_json())["type"] not in ("error", "pong"):
            pass
        assert reply == {"type": "pong"}  # the socket stays, and shallow text is read


def test_a_deep_rest_body_is_a_400_and_nothing_is_made(client: TestClient) -> None:
    body = {"game": "dice", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    made = client.post("/api/tables", json={**body, "x": nested(MAX_DEPTH - 1)})
    assert made.status_code == 201  # keys the body does not use are ignored, as before
    before = stored(client)
    r = client.post("/api/tables", json={**body, "x": nested(MAX_DEPTH + 1)})  # before: 201
    assert r.status_code == 400 and r.json()["detail"] == "send a JSON object"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert stored(client) == before
