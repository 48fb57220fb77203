"""The server's layers (issue 8 section 6): the table service without FastAPI, computer players
off the event loop, and every page under a strict Content-Security-Policy (no inline script or
style, no handler attribute, nothing from another host)."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from pfeffer.core.errors import NotYourTurn
from pfeffer.web.adapters.games import BoundTable, adapter
from pfeffer.web.middleware.security import CSP
from pfeffer.web.server import create_app
from pfeffer.web.services.tables import Hub
from pfeffer.web.storage.repository import SeatSpec, Store, make_engine, migrate
from tests.web.conftest import form_data

# ------------------------------------------------------------------ the table service


class Recorder:
    """A client of the table service that is no WebSocket: it keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def send_json(self, data: Any) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000) -> None:
        self.sent.append(("closed", code))


def test_the_table_service_needs_no_request(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    store = Store(engine)
    seats = [SeatSpec("Ann", "human", None, False), SeatSpec("Bo", "human", None, False)]
    row, _ = store.create_table("dice", adapter("dice").parse_rules({}), 7, seats)

    async def scenario() -> tuple[list[Any], list[Any], int]:
        hub = Hub(store, bot_delay=0)
        live = await hub.get(row.id)
        assert live is not None
        ann, watcher = Recorder(), Recorder()
        live.conns[ann] = 0
        live.conns[watcher] = None
        with pytest.raises(NotYourTurn):
            await hub.act(
                live, 1, "roll", live.seats[1].token
            )  # Bo is not to act: nothing changes, nothing sent
        assert ann.sent == [] and live.version == 0
        await hub.act(live, 0, "roll", live.seats[0].token)
        await hub.stop()
        return ann.sent, watcher.sent, live.version

    to_ann, to_watcher, version = asyncio.run(scenario())
    stored = [a.action for a in store.actions(row.id)]  # the roll as thrown: "roll 535211"
    assert version == 1 and len(stored) == 1 and stored[0].startswith("roll ")
    assert [f["seat"] for f in to_ann] == [0] and [f["seat"] for f in to_watcher] == [None]
    assert to_ann[0]["last"] == {"seat": 0, "action": "roll"} and to_ann[0]["version"] == 1
    assert to_ann[0]["legal"] and to_watcher[0]["legal"] == []
    engine.dispose()


def test_a_slow_computer_player_does_not_hold_up_another_table(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Pepper bot that thinks until the test lets it go: meanwhile a dice table is created,
    connected and answers an action. Were the bot thinking on the event loop, nothing would
    answer until its wait ran out, and it would report that nobody let it go."""
    thinking, release = threading.Event(), threading.Event()
    let_go: list[bool] = []
    think = BoundTable.bot_action

    def slow(self: BoundTable[Any], seat: int, bot: str | None, rng_seed: int) -> str:
        if self.kind == "pepper" and not thinking.is_set():  # its first move only
            thinking.set()
            let_go.append(release.wait(timeout=10))
        return think(self, seat, bot, rng_seed)

    monkeypatch.setattr(BoundTable, "bot_action", slow)
    with TestClient(create_app(db_url, bot_delay=0, computer_tables=True)) as client:
        client.post("/api/tables", json={"game": "pepper", "seats": [{"kind": "bot"}] * 4})
        assert thinking.wait(10)
        dice = client.post("/api/tables", json={"game": "dice", "seats": [{}, {}]}).json()
        url = f"/ws/{dice['id']}?token={dice['seats'][0]['token']}"
        with client.websocket_connect(url) as ws:
            first = ws.receive_json()
            assert first["type"] == "state" and "roll" in first["legal"]
            ws.send_json({"type": "action", "action": "roll", "version": first["version"]})
            after = ws.receive_json()
        answered_while_thinking = not let_go  # the bot is still waiting
        release.set()
        deadline = time.monotonic() + 10
        while not let_go and time.monotonic() < deadline:
            time.sleep(0.01)
    assert after["type"] == "state" and after["version"] == first["version"] + 1
    assert after["last"] == {"seat": 0, "action": "roll"}
    assert answered_while_thinking and let_go[:1] == [True]


# ------------------------------------------------------------------ every page under the CSP


def finish(client: TestClient, game: str, rules: dict[str, Any]) -> str:
    """A table of computer players played to the end; its id."""
    seats = [{"kind": "bot"}] * (4 if game == "pepper" else 2)
    t = client.post("/api/tables", json={"game": game, "rules": rules, "seats": seats}).json()
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{t['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the computer players did not finish"
        time.sleep(0.05)
    table_id: str = t["id"]
    return table_id


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    """The app with a page of every kind: {name: path, or (method, path, form data)}."""
    path: Path = tmp_path_factory.mktemp("layers") / "layers.db"
    with TestClient(create_app(f"sqlite:///{path}", bot_delay=0, computer_tables=True)) as client:
        human = {"name": "Ann", "kind": "human", "public": True}
        dice = client.post("/api/tables", json={"game": "dice", "seats": [human, {"kind": "bot"}]})
        pepper = client.post(
            "/api/tables", json={"game": "pepper", "seats": [human] + [{"kind": "bot"}] * 3}
        )
        d, p = dice.json(), pepper.json()
        sheet = client.post("/api/sheets", json={"game": "dice", "players": ["Oma", "Opa"]})
        sheet_p = client.post("/api/sheets", json={"game": "pepper", "players": ["A", "B"]})
        dice_done = finish(client, "dice", {"target": 1000, "min_bank": 0})
        pepper_done = finish(client, "pepper", {"target": 1})
        pages: dict[str, Any] = {
            "lobby": "/",
            "new-dice": "/new/dice",
            "new-pepper": "/new/pepper",
            "new-refused": ("post", "/new/dice", {"players": "9"}),
            "host-dice": d["host_url"],
            "host-pepper": p["host_url"],
            "rules-dice": "/rules/dice",
            "rules-pepper": "/rules/pepper",
            "play-dice": d["seats"][0]["url"],
            "play-pepper": p["seats"][0]["url"],
            "watch-dice": f"/watch/{d['id']}",
            "watch-pepper": f"/watch/{p['id']}",
            "history": "/history",
            "replay-dice": f"/replay/{dice_done}",
            "replay-pepper": f"/replay/{pepper_done}",
            "replay-running": f"/replay/{d['id']}",
            "sheets": "/sheets",
            "sheets-refused": ("post", "/sheets", {"game": "dice", "name0": "only one"}),
            "sheet-dice": sheet.json()["url"],
            "sheet-pepper": sheet_p.json()["url"],
            "bad-link": f"/play/{d['id']}/forged",
            "lobby-de": "/?lang=de",
            "play-cs": p["seats"][0]["url"] + "?lang=cs",
            "device-pepper": f"/device/{p['id']}/{p['host_token']}",
            "strategy-dice": "/strategy/dice",  # tablehints
            "strategy-table": f"/strategy/dice?table={d['id']}",
            "train": "/train",  # issue 23: the puzzle trainer
            "train-cs": "/train?lang=cs",
        }
        yield client, pages


def fetch(client: TestClient, page: Any) -> Any:
    if isinstance(page, tuple):
        method, path, form = page
        return client.request(method, path, data=form_data(client, form), follow_redirects=False)
    return client.get(page)


class Scan(HTMLParser):
    """What a strict CSP would refuse, or what leaves the machine: {problem}."""

    URL_ATTRS = ("src", "href", "action", "formaction", "poster", "srcset", "data")

    def __init__(self, host: str) -> None:
        super().__init__()
        self.host = host
        self.problems: list[str] = []
        self.inline_script = False
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        for name, value in attrs:
            if name == "style":
                self.problems.append(f"<{tag} style=...>")
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
            if name in self.URL_ATTRS and value:
                url = urlsplit(value.strip())
                outside = url.scheme in ("http", "https") and url.netloc != self.host
                if outside or value.strip().startswith("//") or url.scheme == "javascript":
                    self.problems.append(f"<{tag} {name}={value}>")
        if tag == "style":
            self.problems.append("<style>")
        if tag == "script":
            self.scripts += 1
            self.inline_script = "src" not in named and named.get("type") != "application/json"
            src = named.get("src") or ""
            if src and not src.startswith("/static/"):
                self.problems.append(f"<script src={src}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.inline_script = False

    def handle_data(self, data: str) -> None:
        if self.inline_script and data.strip():
            self.problems.append(f"inline <script>: {data.strip()[:40]}")


def test_every_page_route_is_checked(site: tuple[TestClient, dict[str, Any]]) -> None:
    """Each page of the app (every GET route outside /api, /static and /ws) is in ``site``."""
    client, pages = site
    paths = [p[1] if isinstance(p, tuple) else p.split("?")[0] for p in pages.values()]
    schema = client.get("/openapi.json").json()["paths"]
    routes = [r for r, ops in schema.items() if "get" in ops and not r.startswith("/api/")]
    assert len(routes) >= 10
    for route in routes:
        pattern = re.sub(r"\{[^}]+\}", "[^/]+", route) + "$"
        assert any(re.match(pattern, p) for p in paths), route


@pytest.mark.parametrize(
    "name",
    [
        "lobby",
        "new-dice",
        "new-pepper",
        "new-refused",
        "host-dice",
        "host-pepper",
        "rules-dice",
        "rules-pepper",
        "play-dice",
        "play-pepper",
        "watch-dice",
        "watch-pepper",
        "history",
        "replay-dice",
        "replay-pepper",
        "replay-running",
        "sheets",
        "sheets-refused",
        "sheet-dice",
        "sheet-pepper",
        "bad-link",
        "lobby-de",
        "play-cs",
        "device-pepper",
        "strategy-dice",
        "strategy-table",
        "train",
        "train-cs",
    ],
)
def test_every_page_has_the_policy_and_nothing_it_forbids(
    site: tuple[TestClient, dict[str, Any]], name: str
) -> None:
    client, pages = site
    r = fetch(client, pages[name])
    expected = {"new-refused": 400, "sheets-refused": 400, "replay-running": 409, "bad-link": 404}
    assert r.status_code == expected.get(name, 200), r.text[:300]
    assert r.headers["content-type"].startswith("text/html")
    assert r.headers["content-security-policy"] == CSP
    assert "script-src 'self';" in CSP and "'unsafe-inline'" not in CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    scan = Scan("testserver")
    scan.feed(r.text)
    assert scan.problems == []
    assert scan.scripts >= 1  # the i18n data block at least: the scan saw the page's scripts
    assert "//cdn" not in r.text
    if name.startswith("host"):
        assert r.text.count('<svg data-url="http://testserver/play/') >= 1  # the QR codes


def test_the_scan_finds_what_the_policy_forbids() -> None:
    """The page check above fails on each thing a strict CSP refuses."""
    bad = [
        "<script>alert(1)</script>",
        '<p style="color:red">x</p>',
        "<style>p{}</style>",
        '<button onclick="go()">x</button>',
        '<script src="https://cdn.example.org/x.js"></script>',
        '<link rel="stylesheet" href="//cdn.example.org/x.css">',
        '<a href="javascript:go()">x</a>',
    ]
    for html in bad:
        scan = Scan("testserver")
        scan.feed(html)
        assert scan.problems, html
    ok = Scan("testserver")
    ok.feed('<script type="application/json">{"a": 1}</script><script src="/static/play.js">')
    ok.feed('<a href="http://testserver/play/t/k">x</a><svg class="qr"><path fill="#fff"/></svg>')
    assert ok.problems == []


def test_json_and_static_files_are_not_sniffed(site: tuple[TestClient, dict[str, Any]]) -> None:
    client, _ = site
    for path in ("/api/tables", "/static/play.js", "/static/app.css", "/favicon.ico"):
        r = client.get(path)
        assert r.status_code == 200
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
