"""Issue 20: no message, name or body can break a table. Generated cases (hypothesis) send a
text that cannot be kept (a lone surrogate, NUL or another control character, a direction
override or isolate, U+202A–U+202E, U+2066–U+2069) in every text field of the REST API, in
the keys of its bodies and in the WebSocket chat, and REST bodies over the size limit (with a
Content-Length and sent in chunks without one): each gets a 4xx with the security headers,
never a 5xx, and nothing is stored (every row of the database, and the chat, as before).

``PFEFFER_FUZZ_EXAMPLES`` scales the number of cases (default 50 each)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pfeffer.core.text import BIDI_CONTROLS
from pfeffer.web.middleware.body import MAX_BODY
from pfeffer.web.server import create_app

EXAMPLES = int(os.environ.get("PFEFFER_FUZZ_EXAMPLES", "50"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
SEATS = [{"name": "Anna", "kind": "human"}, {"name": "Bo", "kind": "human"}]

#: One character that cannot be kept as text.
BAD_CHAR = (
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
    | st.sampled_from(sorted(BIDI_CONTROLS))
    | st.characters(categories=["Cc"]).filter(lambda c: c not in "\t\n\r\v\f")
)
#: A text holding at least one of them, anywhere.
BAD_TEXT = st.builds(
    lambda a, c, b: a + c + b,
    st.text(max_size=6),
    BAD_CHAR,
    st.text(max_size=6),
)


def snapshot(client: TestClient) -> list[Any]:
    """Every row of every table of the database."""
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.connect() as db:
        return [
            sorted(map(repr, db.execute(sa.text(f"SELECT * FROM {name}")).all()))
            for name in ("game_tables", "seats", "actions", "sheets")
        ]


def refused(r: Any, status: set[int] | None = None) -> None:
    """A 4xx JSON refusal with the security headers."""
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    assert status is None or r.status_code in status, (r.status_code, r.text[:300])
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["content-security-policy"].startswith("default-src 'none'")
    assert isinstance(r.json()["detail"], str) and r.json()["detail"]


class App:
    """A fresh app with a table and a score sheet of each game."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.table = client.post("/api/tables", json={"game": "dice", "seats": SEATS}).json()
        four = {"players": ["A", "B", "C", "D"]}
        self.dice = client.post("/api/sheets", json={"game": "dice", **four}).json()["id"]
        self.pepper = client.post("/api/sheets", json={"game": "pepper", **four}).json()["id"]

    def cases(self) -> list[tuple[str, dict[str, Any], list[Any]]]:
        """(path, a body the route takes, where a text goes: a path of keys, or ``KEY`` for a
        new key of the object there)."""
        t, host = self.table["id"], self.table["host_token"]
        token = self.table["seats"][0]["token"]
        seat = {"name": "Anna", "kind": "human", "bot": "heuristic", "public": False}
        table = {"game": "dice", "seats": [seat, {"kind": "bot"}], "rules": {"target": 3000}}
        pepper = {"bidder": 0, "bid": "4", "trump": "H", "tricks": [4, 2], "entry_id": "e" * 12}
        sheet = {"game": "dice", "title": "Friday", "players": ["A", "B"], "rules": {}}
        public = {"host_token": host, "public": True}
        return [
            ("/api/tables", table, ["game"]),
            ("/api/tables", table, ["preset"]),
            ("/api/tables", table, ["seats", 0, "name"]),
            ("/api/tables", table, ["seats", 0, "kind"]),
            ("/api/tables", table, ["seats", 0, "bot"]),
            ("/api/tables", table, ["seats", 0, KEY]),
            ("/api/tables", table, ["rules", KEY]),
            ("/api/tables", table, ["rules", "extra_dice"]),
            ("/api/tables", table, [KEY]),
            ("/api/sheets", sheet, ["title"]),
            ("/api/sheets", sheet, ["players", 1]),
            ("/api/sheets", sheet, ["game"]),
            ("/api/sheets", sheet, ["rules", KEY]),
            ("/api/sheets", sheet, [KEY]),
            (f"/api/sheets/{self.dice}/entries", {"points": 350}, ["entry_id"]),
            (f"/api/sheets/{self.dice}/entries", {"points": 350}, [KEY]),
            (f"/api/sheets/{self.pepper}/entries", pepper, ["trump"]),
            (f"/api/sheets/{self.pepper}/entries", pepper, ["bid"]),
            (f"/api/sheets/{self.pepper}/entries", pepper, ["entry_id"]),
            (f"/api/tables/{t}/seats/1/link", {"host_token": host}, ["host_token"]),
            (f"/api/tables/{t}/seats/1/link", {"host_token": host}, [KEY]),
            (f"/api/tables/{t}/seats/1/public", public, [KEY]),
            (f"/api/tables/{t}/seats/1/public", public, ["host_token"]),
            (f"/api/tables/{t}/rematch", {"token": token}, ["token"]),
        ]  # fmt: skip


KEY = object()  # in a case's path: a new key of that object, named by the bad text


def put(body: Any, where: list[Any], text: str) -> Any:
    """A copy of ``body`` with ``text`` at ``where``."""
    body = json.loads(json.dumps(body))
    at = body
    for step in where[:-1]:
        at = at[step]
    if where[-1] is KEY:
        at[text] = "x"
    else:
        at[where[-1]] = text
    return body


def with_app(tmp_path: Path, check: Callable[[App], None]) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'fuzz.db'}", bot_delay=0)) as client:
        check(App(client))


def test_no_text_field_of_the_api_keeps_what_is_not_text(tmp_path: Path) -> None:
    def check(app: App) -> None:
        cases = app.cases()

        @FUZZ
        @given(
            case=st.sampled_from(range(len(cases))),
            text=BAD_TEXT,
            lang=st.sampled_from(["en", "de", "cs"]),
        )
        def one(case: int, text: str, lang: str) -> None:
            path, body, where = cases[case]
            before = snapshot(app.client)
            # ensure_ascii: a lone surrogate travels as its JSON escape, as a browser sends it
            content = json.dumps(put(body, where, text), ensure_ascii=True)
            r = app.client.post(
                f"{path}?lang={lang}",
                content=content,
                headers={"content-type": "application/json"},
            )
            refused(r, {400})
            assert snapshot(app.client) == before

        one()
        for path, body, _ in cases[:-1]:  # the bodies themselves are taken (the rematch: 409)
            assert app.client.post(path, json=body).status_code in (200, 201)

    with_app(tmp_path, check)


def test_no_body_over_the_limit_is_read(tmp_path: Path) -> None:
    def check(app: App) -> None:
        paths = sorted({path for path, _, _ in app.cases()})

        @FUZZ
        @given(
            path=st.sampled_from(paths),
            extra=st.integers(min_value=1, max_value=3 * MAX_BODY),
            chunk=st.sampled_from([1024, 8192, 65536]),
            length=st.booleans(),
        )
        def one(path: str, extra: int, chunk: int, length: bool) -> None:
            before = snapshot(app.client)
            head, tail = b'{"game": "dice", "note": "', b'"}'
            data = head + b"a" * (MAX_BODY - len(head) - len(tail) + extra) + tail

            def chunks() -> Iterator[bytes]:
                for i in range(0, len(data), chunk):
                    yield data[i : i + chunk]

            r = app.client.post(
                path,
                content=data if length else chunks(),
                headers={"content-type": "application/json"},
            )
            refused(r, {413})
            assert snapshot(app.client) == before

        one()

    with_app(tmp_path, check)


def test_no_chat_message_keeps_what_is_not_text(tmp_path: Path) -> None:
    def check(app: App) -> None:
        t = app.table
        hub = app.client.app.state.hub  # type: ignore[attr-defined]
        url = f"/ws/{t['id']}?token={t['seats'][0]['token']}"
        with app.client.websocket_connect(url) as ws:

            @FUZZ
            @given(text=BAD_TEXT, lang=st.sampled_from(["en", "de", "cs"]))
            def one(text: str, lang: str) -> None:
                ws.send_text(json.dumps({"type": "chat", "text": text}, ensure_ascii=True))
                ws.send_text(json.dumps({"type": "ping"}))
                frames: list[dict[str, Any]] = []
                while not frames or frames[-1]["type"] != "pong":
                    frames.append(ws.receive_json())
                errors = [f for f in frames if f["type"] == "error"]
                assert [f["code"] for f in errors] == ["chat_malformed"], frames
                assert not [f for f in frames if f["type"] == "chat"]
                assert hub.chat_history(hub.lives[t["id"]]) is None  # nothing kept

            one()

    with_app(tmp_path, check)
