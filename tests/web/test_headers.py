"""Security headers on every response (issue 9 §4): every GET route of the app is fetched (with
real ids where it has parameters) and every page, JSON answer, file and error checked."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Mount

from pfeffer.web.middleware.security import CSP
from tests.web.conftest import form_data

EVERY = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "same-origin",
}
PAGE = {"x-frame-options": "DENY", "cross-origin-opener-policy": "same-origin"}


def check(r: Any, where: str) -> str:
    """Check the headers of one response; its kind ("html", "json" or "other")."""
    h = r.headers
    for name, value in EVERY.items():
        assert h.get(name) == value, (where, name)
    for feature in ("camera", "microphone", "geolocation"):
        assert f"{feature}=()" in h.get("permissions-policy", ""), where
    kind = h.get("content-type", "")
    if kind.startswith("text/html"):
        assert h.get("content-security-policy") == CSP, where
        for name, value in PAGE.items():
            assert h.get(name) == value, (where, name)
        return "html"
    if kind.startswith("application/json"):
        csp = h.get("content-security-policy", "")
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp, where
        return "json"
    return "other"


def test_the_policy_allows_no_inline_code_and_no_framing() -> None:
    rules = dict(part.strip().split(" ", 1) for part in CSP.split(";"))
    assert rules["script-src"] == "'self'" and rules["style-src"] == "'self'"
    assert rules["default-src"] == "'self'" and rules["object-src"] == "'none'"
    assert rules["frame-ancestors"] == "'none'" and rules["base-uri"] == "'self'"
    assert rules["form-action"] == "'self'"
    assert "unsafe" not in CSP and "*" not in CSP.replace("ws:", "").replace("wss:", "")


@pytest.fixture
def ids(client: TestClient) -> dict[str, str]:
    """Real values for the routes' parameters: a running table, a finished one, a sheet."""
    human = {"name": "Ann", "kind": "human"}
    t = client.post("/api/tables", json={"game": "dice", "seats": [human, {"kind": "bot"}]}).json()
    done = client.post(
        "/api/tables",
        json={
            "game": "dice",
            "rules": {"target": 1000, "min_bank": 0},
            "seats": [{"kind": "bot"}] * 2,
        },
    ).json()
    sheet = client.post("/api/sheets", json={"game": "dice", "players": ["A", "B"]}).json()
    deadline = time.monotonic() + 60  # the computer players finish the second table
    while client.get(f"/api/tables/{done['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return {
        "table_id": t["id"],
        "admin_token": t["host_token"],
        "host_token": t["host_token"],
        "token": t["seats"][0]["token"],
        "sheet_id": sheet["id"],
        "kind": "dice",
        "finished": done["id"],
        "path": "sw.js",
    }


def concrete(path: str, ids: dict[str, str]) -> str:
    url = re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: ids.get(m[1], "nosuch"), path)
    if url.startswith("/replay/") or url.endswith(("/record", "/replay")):
        url = url.replace(ids["table_id"], ids["finished"])
    return url


def walk(routes: list[Any]) -> Iterator[Any]:
    """Every route, also those of included routers (kept apart by newer FastAPI versions)."""
    for route in routes:
        sub = getattr(route, "original_router", None)
        if sub is not None:
            yield from walk(sub.routes)
        else:
            yield route


def test_every_get_route_answers_with_the_headers(client: TestClient, ids: dict[str, str]) -> None:
    kinds: dict[str, str] = {}
    for route in walk(client.app.routes):  # type: ignore[attr-defined]
        if isinstance(route, APIRoute) and "GET" in (route.methods or ()):
            url = concrete(route.path, ids)
            r = client.get(url, follow_redirects=False)
            assert r.status_code < 500, url
            kinds[route.path] = check(r, url)
        elif isinstance(route, Mount):
            kinds[route.path] = check(client.get(f"{route.path}/play.js"), route.path)
    assert kinds["/"] == kinds["/play/{table_id}/{token}"] == kinds["/sheets"] == "html"
    assert kinds["/api/tables/{table_id}/state"] == kinds["/api/tables"] == "json"
    assert kinds["/static"] == "other"
    assert len([k for k in kinds.values() if k == "html"]) >= 10


def test_errors_and_refusals_have_the_headers(client: TestClient, ids: dict[str, str]) -> None:
    responses = {
        "404 page": client.get("/watch/nosuch"),
        "404 api": client.get("/api/tables/nosuch"),
        "404 route": client.get("/no/such/route"),
        "400 api": client.post("/api/tables", content=b"[1,"),
        "403 csrf": client.post("/play-now/dice"),
        "400 form": client.post("/new/dice", data=form_data(client, {"players": "99"})),
        "405": client.delete("/api/tables"),
        "head": client.head("/"),
    }
    for name, r in responses.items():
        assert r.status_code < 500, name
        check(r, name)
    assert check(responses["404 page"], "404") == "html"
    assert check(responses["400 api"], "400") == "json"
