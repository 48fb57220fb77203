"""Issue 20 §1.5, §1.6, §1.10: the edge of the JSON API. Bodies nested too deeply, too large
(by their Content-Length, or sent in chunks without one) or not sent as JSON are refused with
a 4xx and the security headers, and nothing is stored."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from pfeffer.web.middleware.body import MAX_BODY

SEATS = [{"name": "Anna", "kind": "human"}, {"name": "Bo", "kind": "human"}]
JSON = {"content-type": "application/json"}


def stored(client: TestClient) -> tuple[int, int, int]:
    """(tables, sheets, actions) in the database."""
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.connect() as db:
        return tuple(  # type: ignore[return-value]
            int(db.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar_one())
            for t in ("game_tables", "sheets", "actions")
        )


def headers_ok(r: Any) -> None:
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:200])
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers["content-security-policy"].startswith("default-src 'none'")
    assert isinstance(r.json()["detail"], str)


@pytest.fixture
def made(client: TestClient) -> dict[str, Any]:
    table = client.post("/api/tables", json={"game": "dice", "seats": SEATS}).json()
    sheet = client.post("/api/sheets", json={"game": "dice", "players": ["A", "B"]}).json()
    return {"table": table, "sheet": sheet}


def json_routes(made: dict[str, Any]) -> list[str]:
    t, s = made["table"]["id"], made["sheet"]["id"]
    return [
        "/api/tables",
        "/api/sheets",
        f"/api/sheets/{s}/entries",
        f"/api/tables/{t}/rematch",
        f"/api/tables/{t}/seats/0/link",
        f"/api/tables/{t}/seats/0/public",
    ]


@pytest.mark.parametrize("body", ["[" * 10_000, '{"a":' * 10_000, "[" * 5000 + "]" * 5000])
def test_deeply_nested_json_is_a_400(client: TestClient, made: dict[str, Any], body: str) -> None:
    before = stored(client)
    for path in json_routes(made):
        r = client.post(path, content=body, headers=JSON)
        headers_ok(r)
        assert r.status_code == 400, path
    assert stored(client) == before


def test_a_body_over_the_limit_is_a_413_by_its_length(client: TestClient) -> None:
    before = stored(client)
    big = b'{"game": "dice", "seats": [], "x": "' + b"a" * MAX_BODY + b'"}'
    r = client.post("/api/tables", content=big, headers=JSON)
    headers_ok(r)
    assert r.status_code == 413 and str(MAX_BODY) in r.json()["detail"]
    assert stored(client) == before


def test_a_body_over_the_limit_is_a_413_when_sent_in_chunks(client: TestClient) -> None:
    """No Content-Length (chunked transfer): the reading stops at the limit."""
    sent = []

    def chunks() -> Iterator[bytes]:
        yield b'{"game": "dice", "seats": ' + b"[" * 10 + b"]" * 10 + b', "x": "'
        for _ in range(64):  # 4 MiB in all, far past the limit
            sent.append(1)
            yield b"a" * 65536
        yield b'"}'

    before = stored(client)
    r = client.post("/api/tables", content=chunks(), headers=JSON)
    assert "content-length" not in r.request.headers
    headers_ok(r)
    assert r.status_code == 413
    assert stored(client) == before


def test_a_body_just_under_the_limit_is_read(client: TestClient) -> None:
    body = {"game": "dice", "seats": SEATS, "note": "a" * (MAX_BODY - 200)}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    "kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_the_json_api_takes_only_json(client: TestClient, kind: str | None) -> None:
    """A page of another site can post text/plain here without a preflight: before, that
    created tables."""
    before = stored(client)
    body = b'{"game": "dice", "seats": [{"kind": "human"}, {"kind": "human"}]}'
    r = client.post("/api/tables", content=body, headers={"content-type": kind} if kind else {})
    headers_ok(r)
    assert r.status_code == 415 and "application/json" in r.json()["detail"]
    assert stored(client) == before
    ok = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert ok.status_code == 201
    charset = {"content-type": "application/json; charset=utf-8"}
    assert client.post("/api/tables", content=body, headers=charset).status_code == 201


def test_refusals_are_in_the_request_language(client: TestClient) -> None:
    r = client.post("/api/tables?lang=de", content=b"{}", headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "schick" in r.json()["detail"]
    big = b"[" + b"0," * MAX_BODY + b"0]"
    r = client.post("/api/tables?lang=cs", content=big, headers=JSON)
    assert r.status_code == 413 and "příliš velký" in r.json()["detail"]


def test_posts_without_a_body_need_no_type(client: TestClient, made: dict[str, Any]) -> None:
    """The lobby's claim button posts no body (lobby.js), as the sheet's undo does."""
    sheet = made["sheet"]["id"]
    assert client.post(f"/api/sheets/{sheet}/undo").status_code == 200
    r = client.post(f"/api/tables/{made['table']['id']}/claim/0")
    assert r.status_code == 403  # a private seat: the refusal of the route, not of the edge


def test_the_pages_scripts_send_json_as_json() -> None:
    """Every call of the pages' scripts that sends a body names it application/json."""
    import re
    from pathlib import Path

    import pfeffer.web

    static = Path(pfeffer.web.__file__).parent / "static"
    calls = 0
    for script in static.glob("*.js"):
        text = script.read_text(encoding="utf-8")
        for m in re.finditer(r"fetch\(", text):
            call = text[m.start() : text.find("});", m.start()) + 3]
            if "body:" in call:
                calls += 1
                assert '"Content-Type": "application/json"' in call, (script.name, call)
    assert calls >= 3  # play.js's rematch, sheet.js's entries, sheet-sync.js's queue
