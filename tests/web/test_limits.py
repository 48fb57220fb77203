"""Rate limits per address and per connection, the cap on connections per table (issue 9 §4):
a refusal is an HTTP 429 with a message or a WebSocket error frame of protocol v1."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pfeffer.web.middleware.limits import Limits, Rate, RateLimits
from pfeffer.web.server import create_app
from tests.web.cluster import RedisServer

HUMANS = [{"name": "Ann", "kind": "human", "public": True}, {"name": "Bo", "kind": "human"}]


def app_with(tmp_path: Path, limits: Limits) -> Any:
    return create_app(f"sqlite:///{tmp_path / 'limits.db'}", bot_delay=0, limits=limits)


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Any]:
    opened: list[TestClient] = []

    def make(limits: Limits, address: str = "10.0.0.1") -> TestClient:
        c = TestClient(app_with(tmp_path, limits), client=(address, 40000))
        c.__enter__()
        opened.append(c)
        return c

    yield make
    for c in opened:
        c.__exit__(None, None, None)


def new_table(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "dice", "seats": HUMANS})
    assert r.status_code == 201, r.text
    table: dict[str, Any] = r.json()
    return table


def test_rates_parse_and_limits_change_by_option() -> None:
    assert Rate.parse("200/10s") == Rate(200, 10)
    assert Rate.parse(" 5 / 15 ") == Rate(5, 15)
    for bad in ("", "0/10s", "5/0", "five/10s", "5 per 10s", "5/1.5s"):
        with pytest.raises(ValueError, match="COUNT/SECONDS"):
            Rate.parse(bad)
    limits = Limits().with_options(["ws=3/1s", "spectators=9", "create=1/60", "chat=2/5s"])
    assert (limits.ws, limits.spectators, limits.create) == (Rate(3, 1), 9, Rate(1, 60))
    assert limits.chat == Rate(2, 5)
    limits = Limits().with_options(["spectators_per_address=2", "seat_windows=3"])
    assert (limits.spectators_per_address, limits.seat_windows) == (2, 3)
    assert Limits().with_options(["table_connections=7"]).spectators == 7  # the old name
    assert limits.http == Limits().http  # untouched
    assert not Limits().with_options(["off"]).enabled
    assert Limits().with_options(["off", "on"]).enabled
    for bad in ("bogus=1", "spectators=many", "seat_windows=", "off=1"):
        with pytest.raises(ValueError, match="unknown limit"):
            Limits().with_options([bad])
    with pytest.raises(ValueError, match="COUNT/SECONDS"):
        Limits().with_options(["ws"])


def test_http_requests_per_address_get_429_with_a_message(make_client: Any) -> None:
    limits = Limits(http=Rate(4, 60))
    client = make_client(limits)
    codes = [client.get("/api/tables").status_code for _ in range(4)]
    assert codes == [200] * 4
    r = client.get("/api/tables")
    assert r.status_code == 429
    assert "Too many requests" in r.json()["detail"]
    assert int(r.headers["Retry-After"]) >= 1
    page = client.get("/rules/dice?lang=de")  # a page: an HTML page in the user's language
    assert page.status_code == 429 and page.headers["content-type"].startswith("text/html")
    assert "Zu viele Anfragen" in page.text
    assert page.headers["Content-Security-Policy"]  # refusals get the security headers too
    # Another address has its own bucket (the same app: a second client on it).
    other = TestClient(client.app, client=("10.0.0.2", 40000))
    assert other.get("/api/tables").status_code == 200


def test_new_tables_and_claims_per_address(make_client: Any) -> None:
    client = make_client(Limits(create=Rate(2, 60), join=Rate(1, 60)))
    first, _second = new_table(client), new_table(client)
    r = client.post("/api/tables", json={"game": "dice", "seats": HUMANS})
    assert r.status_code == 429 and "new tables" in r.json()["detail"]
    assert client.post("/api/sheets", json={"game": "dice", "players": ["A"]}).status_code == 429
    form = client.post("/play-now/dice", follow_redirects=False)
    assert form.status_code == 429 and "text/html" in form.headers["content-type"]
    assert client.get("/api/tables").status_code == 200  # reading is not creating
    claim = f"/api/tables/{first['id']}/claim/0"
    assert client.post(claim).status_code == 200
    r = client.post(f"/api/tables/{first['id']}/claim/1")
    assert r.status_code == 429 and "joins" in r.json()["detail"]


def test_websocket_messages_per_connection(make_client: Any) -> None:
    client = make_client(Limits(ws=Rate(3, 60)))
    t = new_table(client)
    with client.websocket_connect(f"/ws/{t['id']}?lang=cs") as ws:
        assert ws.receive_json()["type"] == "state"
        for _ in range(3):
            ws.send_text(json.dumps({"type": "ping"}))
            assert ws.receive_json() == {"type": "pong"}
        ws.send_text(json.dumps({"type": "ping"}))
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "rate_limited"
        assert refused["message"] and "Too many" not in refused["message"]  # Czech
        # Refused messages change nothing and the connection stays open ...
        for _ in range(2):
            ws.send_text(json.dumps({"type": "action", "action": "roll"}))
            assert ws.receive_json()["code"] == "rate_limited"
        # ... until a client ignores the refusals: then it is disconnected (1008).
        ws.send_text(json.dumps({"type": "ping"}))
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
    state = client.get(f"/api/tables/{t['id']}/state").json()
    assert state["version"] == t.get("version", 0) == 0  # no roll got through


def test_websocket_connections_per_address(make_client: Any) -> None:
    client = make_client(Limits(join=Rate(2, 60)))
    t = new_table(client)
    with (
        client.websocket_connect(f"/ws/{t['id']}") as a,
        client.websocket_connect(f"/ws/{t['id']}") as b,
    ):
        assert a.receive_json()["type"] == b.receive_json()["type"] == "state"
        with client.websocket_connect(f"/ws/{t['id']}") as c:
            refused = c.receive_json()
            assert refused == {
                "type": "error",
                "code": "rate_limited",
                "message": "Too many new connections from your address: please wait a moment.",
            }
            with pytest.raises(WebSocketDisconnect) as closed:
                c.receive_json()
            assert closed.value.code == 4429


def refused_full(ws: Any) -> str:
    """The refusal of a connection beyond a cap: a ``table_full`` frame, then close 4503."""
    refused = ws.receive_json()
    assert refused["code"] == "table_full" and refused["message"]
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 4503
    return str(refused["message"])


def test_spectators_from_one_address_never_lock_a_player_out(make_client: Any) -> None:
    """Issue 20 §1.3: before, 64 spectator sockets from one address made the table
    ``table_full`` for a seated player."""
    client = make_client(Limits())
    t = new_table(client)
    held = 8  # the default cap per table and address
    with contextlib.ExitStack() as stack:
        watchers = [
            stack.enter_context(client.websocket_connect(f"/ws/{t['id']}")) for _ in range(64)
        ]
        for ws in watchers[:held]:
            assert ws.receive_json()["type"] == "state"
        for ws in watchers[held:]:
            assert "spectators" in refused_full(ws)
        for seat in t["seats"]:
            with client.websocket_connect(f"/ws/{t['id']}?token={seat['token']}") as player:
                assert player.receive_json()["seat"] == seat["seat"]


def test_spectators_have_caps_of_their_own(make_client: Any) -> None:
    limits = Limits(spectators=3, spectators_per_address=2, seat_windows=2)
    client = make_client(limits)
    t, other = new_table(client), new_table(client)
    app = client.app
    here, there = TestClient(app, client=("10.0.0.7", 1)), TestClient(app, client=("10.0.0.8", 1))
    url = f"/ws/{t['id']}"
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        assert a.receive_json()["type"] == b.receive_json()["type"] == "state"
        with client.websocket_connect(url) as c:  # a third from this address
            refused_full(c)
        with here.websocket_connect(url) as d:  # another address, up to the table's cap
            assert d.receive_json()["type"] == "state"
            with there.websocket_connect(url) as e:
                assert "spectators" in refused_full(e)
            with client.websocket_connect(f"/ws/{other['id']}") as f:  # another table
                assert f.receive_json()["type"] == "state"
            seat0 = f"{url}?token={t['seats'][0]['token']}"
            with client.websocket_connect(seat0) as p1, here.websocket_connect(seat0) as p2:
                assert p1.receive_json()["seat"] == p2.receive_json()["seat"] == 0
                with there.websocket_connect(seat0) as p3:  # a seat's windows have a cap too
                    assert "windows" in refused_full(p3)
                seat1 = f"{url}?token={t['seats'][1]['token']}"
                with there.websocket_connect(seat1) as q:  # which is the seat's alone
                    assert q.receive_json()["seat"] == 1


def test_a_table_takes_a_capped_number_of_spectators(make_client: Any) -> None:
    client = make_client(Limits(spectators=1))
    t, other = new_table(client), new_table(client)
    seat0 = t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{t['id']}?token={seat0}") as a:
        assert a.receive_json()["type"] == "state"
        with client.websocket_connect(f"/ws/{t['id']}") as b:
            assert b.receive_json()["type"] == "state"
            with client.websocket_connect(f"/ws/{t['id']}") as c:
                refused_full(c)
            with client.websocket_connect(f"/ws/{other['id']}") as d:  # another table: room
                assert d.receive_json()["type"] == "state"
        # One left: there is room again, and the player still plays.
        with client.websocket_connect(f"/ws/{t['id']}") as e:
            assert e.receive_json()["type"] == "state"
        a.send_text(json.dumps({"type": "action", "action": "roll"}))
        frame = a.receive_json()
        while frame["type"] != "state" or frame["version"] == 0:
            frame = a.receive_json()
        assert frame["version"] == 1


def test_limits_off_let_everything_through(make_client: Any) -> None:
    client = make_client(Limits(http=Rate(1, 60), create=Rate(1, 60)).with_options(["off"]))
    for _ in range(5):
        new_table(client)
    assert client.get("/api/tables").status_code == 200


def rate_limits_of(app: Any) -> RateLimits:
    """The app's rate-limit middleware, found in its built stack."""
    layer = app.middleware_stack
    while not isinstance(layer, RateLimits):
        layer = layer.app
    return layer


def test_the_http_limits_and_the_chat_count_with_one_limiter(make_client: Any) -> None:
    """Issue 20 (1.11): one implementation. The chat's count was a class of its own in
    services/chat.py, the middleware's another (token buckets)."""
    client = make_client(Limits())
    limiter = client.app.state.limiter
    assert rate_limits_of(client.app).limiter is limiter
    assert client.app.state.hub.chats.limiter is limiter


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A private redis-server (the machine's own Redis is never touched)."""
    import shutil

    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server (installed by .ci/run)")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def test_two_processes_on_one_redis_share_each_limit(tmp_path: Path, redis_url: str) -> None:
    """Issue 20 (1.11): with Redis the limits hold across the processes (each process had
    counts of its own, so n processes let n times as much through). Two apps on one database
    and one Redis stand for two ``pfeffer serve`` processes behind one address."""
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    limits = Limits(http=Rate(4, 3600), chat=Rate(3, 3600))
    apps = [create_app(db, bot_delay=0, limits=limits, redis_url=redis_url) for _ in range(2)]
    with (
        TestClient(apps[0], client=("10.0.0.7", 40000)) as one,
        TestClient(apps[1], client=("10.0.0.7", 40000)) as two,
    ):
        t = new_table(one)  # the first request
        assert two.get("/api/tables").status_code == 200
        assert one.get("/api/tables").status_code == 200
        assert two.get("/api/tables").status_code == 200  # the fourth, on either process
        assert one.get("/api/tables").status_code == 429
        assert two.get("/api/tables").status_code == 429
        # The chat: a seat's messages count together on both processes.
        anna = f"/ws/{t['id']}?token={t['seats'][0]['token']}"
        for client, n in ((one, 2), (two, 1)):
            with client.websocket_connect(anna) as ws:
                for i in range(n):
                    ws.send_text(json.dumps({"type": "chat", "text": f"m{i}"}))
                    frame = ws.receive_json()
                    while frame["type"] != "chat":
                        frame = ws.receive_json()
        with one.websocket_connect(anna) as ws:
            ws.send_text(json.dumps({"type": "chat", "text": "one too many"}))
            frame = ws.receive_json()
            while frame["type"] != "error":
                frame = ws.receive_json()
            assert frame["code"] == "chat_rate"
