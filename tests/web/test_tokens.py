"""Tokens and ids (issue 9 §4): constant-time comparison wherever a seat or host token is
checked, table and sheet ids with 128 random bits (old shorter ids still open), and the host
page behind its token only."""

from __future__ import annotations

import ast
import base64
import hmac
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import pfeffer.web
from pfeffer.web.storage import repository as storage
from pfeffer.web.tokens import same_token, seat_with_token
from tests.web.conftest import form_data

WEB = Path(pfeffer.web.__file__).resolve().parent
SEATS = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}, {"kind": "bot"}]


def make(client: TestClient, **body: Any) -> dict[str, Any]:
    body = {"game": "dice", "seats": SEATS, **body}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def test_no_token_is_compared_with_eq_in_the_server() -> None:
    """An AST scan: ``==`` / ``!=`` / ``in`` with a token on either side is a timing leak;
    the SQL of the storage layer (a query, not a comparison in Python) is not scanned."""
    found = []
    for path in WEB.rglob("*.py"):
        if "storage" in path.parts or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            if not all(isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops):
                continue
            sides = [node.left, *node.comparators]
            names = [ast.unparse(s) for s in sides if not isinstance(s, ast.Constant)]
            if any("token" in n.lower() for n in names):
                found.append(f"{path.relative_to(WEB)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def test_same_token_and_the_seat_lookup() -> None:
    assert same_token("abc", "abc") and not same_token("abd", "abc")
    for bad in (None, 12, ["abc"], "", "ABC", "abc ", "äbc"):
        assert not same_token(bad, "abc")
    assert not same_token("", "")  # an empty token is no key

    class Row:
        def __init__(self, token: str) -> None:
            self.token = token

    rows = [Row("t0"), Row("t1"), Row("t2")]
    assert seat_with_token(rows, "t1") is rows[1]
    assert seat_with_token(rows, "t3") is None and seat_with_token(rows, None) is None


def test_every_token_check_compares_in_constant_time(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def counting(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", counting)
    t = make(client)
    seat1 = t["seats"][1]["token"]
    checks: dict[str, Callable[[], Any]] = {
        "state": lambda: client.get(f"/api/tables/{t['id']}/state", params={"token": seat1}),
        "play page": lambda: client.get(f"/play/{t['id']}/{seat1}"),
        "host page": lambda: client.get(t["host_url"]),
        "device page": lambda: client.get(f"/device/{t['id']}/{t['host_token']}"),
        "host api": lambda: client.post(
            f"/api/tables/{t['id']}/seats/0/public",
            json={"host_token": t["host_token"], "public": True},
        ),
        "rematch": lambda: client.post(f"/api/tables/{t['id']}/rematch", json={"token": seat1}),
    }
    for name, call in checks.items():
        calls.clear()
        r = call()
        assert r.status_code in (200, 409), (name, r.status_code)  # 409: rematch of a game on
        assert calls, name
        if name in ("state", "play page", "rematch"):
            # The token is compared with every seat, not only up to the one that matches
            # (and, for a live table, once more with the seat in memory: issue 20 §1.2).
            assert len(SEATS) <= len(calls) <= len(SEATS) + 1, name
    calls.clear()
    with client.websocket_connect(f"/ws/{t['id']}?token={seat1}") as ws:
        assert ws.receive_json()["seat"] == 1
    assert len(calls) == len(SEATS) + 1


def test_ids_have_128_random_bits_and_old_ids_still_open(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = [make(client)["id"] for _ in range(20)]
    ids += [
        client.post("/api/sheets", json={"game": "dice", "players": ["A", "B"]}).json()["id"]
        for _ in range(20)
    ]
    assert len(set(ids)) == len(ids)
    for i in ids:
        raw = base64.urlsafe_b64decode(i + "=" * (-len(i) % 4))
        assert len(raw) >= 16, i  # 128 bits from secrets.token_urlsafe
    # A table and a sheet made before (9 random bytes, 12 characters) still open everywhere.
    monkeypatch.setattr(storage, "ID_BYTES", 9)
    old = make(client)
    old_sheet = client.post("/api/sheets", json={"game": "dice", "players": ["A", "B"]}).json()
    monkeypatch.undo()
    assert len(old["id"]) == len(old_sheet["id"]) == 12
    assert client.get(f"/api/tables/{old['id']}").status_code == 200
    assert client.get(f"/watch/{old['id']}").status_code == 200
    assert client.get(old["seats"][0]["url"]).status_code == 200
    assert client.get(old["host_url"]).status_code == 200
    assert client.get(f"/sheet/{old_sheet['id']}").status_code == 200
    with client.websocket_connect(f"/ws/{old['id']}?token={old['seats'][0]['token']}") as ws:
        assert ws.receive_json()["type"] == "state"


def test_the_host_page_opens_with_its_token_only(client: TestClient) -> None:
    t, other = make(client), make(client)
    host = t["host_token"]
    assert client.get(f"/table/{t['id']}/{host}").status_code == 200
    assert client.get(f"/device/{t['id']}/{host}").status_code == 200
    wrong = [
        t["seats"][0]["token"],  # a seat's link is not the host's
        other["host_token"],  # another table's host
        host[:-1],
        host + "x",
        host.upper() if host.upper() != host else host.lower(),
        "%00",
        "x" * 200,
    ]
    for token in wrong:
        for page in ("table", "device"):
            r = client.get(f"/{page}/{t['id']}/{token}")
            assert r.status_code == 404, (page, token)
            if host not in token:  # the page repeats its own address (the language links)
                assert host not in r.text
    assert client.get(f"/table/{t['id']}/").status_code == 404
    assert client.get(f"/table/{t['id']}").status_code == 404
    # The host's buttons with a wrong key change nothing (even with the page's CSRF token).
    for token in wrong[:3]:
        r = client.post(f"/table/{t['id']}/{token}/seat/0/public", data=form_data(client))
        assert r.status_code == 404
        r = client.post(f"/api/tables/{t['id']}/seats/0/link", json={"host_token": token})
        assert r.status_code == 404
    assert client.get(f"/api/tables/{t['id']}").json()["seats"][0]["free"] is False


def test_the_host_token_is_shown_nowhere_else(client: TestClient) -> None:
    t = make(client, seats=[{"name": "Ann", "kind": "human", "public": True}, {"kind": "bot"}])
    host = t["host_token"]
    seen = [
        client.get("/").text,
        client.get(f"/watch/{t['id']}").text,
        client.get(t["seats"][0]["url"]).text,
        client.get("/api/tables").text,
        client.get(f"/api/tables/{t['id']}").text,
        client.get(f"/api/tables/{t['id']}/state").text,
        client.get(f"/api/tables/{t['id']}/state", params={"token": t["seats"][0]["token"]}).text,
        client.get("/history").text,
    ]
    with client.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
        seen.append(json.dumps(ws.receive_json()))
    assert t["id"] in "".join(seen)  # the pages were about this table
    for text in seen:
        assert host not in text
