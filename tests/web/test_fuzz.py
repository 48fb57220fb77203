"""Fuzzing a live server (issue 9 §2): thousands of random and mutated WebSocket frames and REST
bodies against ``pfeffer serve`` in its own process. Every frame and request gets a
well-formed answer (an ``error`` frame with a code and a message, a JSON error with a
``detail``, an HTML error page; never a 500), the server stays up and logs no traceback, and
a table's version moves only when a frame was a move the engine accepted, by exactly one.

The suite's run is 2,000 frames and 1,250 REST bodies (about 30 s);
``PFEFFER_FUZZ_EXAMPLES=500`` makes it ten times bigger.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from tests.web.conftest import ServerProcess, free_port

EXAMPLES = int(os.environ.get("PFEFFER_FUZZ_EXAMPLES", "50"))
FRAMES = 40  # frames per example (one table)
MAX_MESSAGE = 2048  # the protocol's limit (routes/ws.py)
FRAME_TYPES = {"state", "error", "pong", "chat", "chat_history", "rematch"}
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    # No shrinking: against a live server it takes minutes; a failure shows its frames as is.
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``pfeffer serve`` without rate limits (they would answer most frames themselves)."""
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    srv = ServerProcess(f"sqlite:///{db}", free_port(), extra_args=["--limit", "off"])
    srv.start()
    yield srv
    alive = srv.proc is not None and srv.proc.poll() is None
    srv.stop()
    assert alive, "the server died"
    assert srv.proc is not None and srv.proc.stdout is not None
    out = srv.proc.stdout.read().decode(errors="replace")
    assert "Traceback" not in out and "Exception in ASGI" not in out, out[-4000:]


def check_frame(text: str | bytes) -> dict[str, Any]:
    """A frame of protocol v1: a JSON object of a known type; errors with code and message."""
    assert isinstance(text, str), "the server sends text frames"
    frame = json.loads(text)
    assert isinstance(frame, dict) and frame.get("type") in FRAME_TYPES, frame
    if frame["type"] == "error":
        assert isinstance(frame.get("code"), str) and frame["code"], frame
        assert isinstance(frame.get("message"), str) and frame["message"].strip(), frame
    if frame["type"] == "state":
        assert isinstance(frame["version"], int) and isinstance(frame["legal"], list)
    return frame


def parsed(payload: str | bytes) -> Any:
    """The message as the server reads it (routes/ws.py), or None where it refuses it."""
    if not isinstance(payload, str) or len(payload) > MAX_MESSAGE:
        return None
    try:
        return json.loads(payload)
    except (ValueError, RecursionError):
        return None


def drain(ws: ClientConnection, pongs: int = 1) -> list[dict[str, Any]]:
    """Every frame up to our ``pongs``-th pong: what the connection was sent meanwhile."""
    ws.send(json.dumps({"type": "ping"}))
    frames: list[dict[str, Any]] = []
    seen = 0
    while seen < pongs:
        frame = check_frame(ws.recv(timeout=10))
        seen += frame["type"] == "pong"
        frames.append(frame)
    return frames


class Table:
    """A fresh table with two human seats (no computer player: only our frames move it),
    a connection per seat and a spectator's."""

    def __init__(self, srv: ServerProcess, game: str) -> None:
        seats = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}]
        made = srv.post("/api/tables", {"game": game, "seats": seats})
        self.id: str = made["id"]
        urls = [f"{srv.ws_base}/ws/{self.id}?token={s['token']}" for s in made["seats"]]
        urls.append(f"{srv.ws_base}/ws/{self.id}")
        self.conns = [connect(u, max_size=2**22, open_timeout=10, legacy=True) for u in urls]
        self.state: list[dict[str, Any]] = [{}, {}, {}]
        for i, ws in enumerate(self.conns):
            for frame in drain(ws):
                if frame["type"] == "state":
                    self.state[i] = frame
        self.version = self.state[2]["version"]

    def mover(self) -> int | None:
        """The connection whose seat may act now."""
        for i in (0, 1):
            s = self.state[i]
            if s.get("status") == "running" and s.get("legal"):
                return i
        return None

    def close(self) -> None:
        for ws in self.conns:
            ws.close()


KINDS = ["legal", "legal", "legal", "mutate", "mutate", "mutate", "wrong_conn", "json"]
KINDS += ["text", "binary", "chat", "control"]
MUTATIONS = ["value", "drop", "junk", "wrap", "truncate", "insert", "long", "deep", "binary"]
# One frame's plan: every choice drawn up front, the same shape whatever the table does (the
# server's dice and deals differ from run to run; the plan is read against them).
PLAN = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(KINDS),
        "pick": st.integers(0, 2**16),
        "conn": st.integers(0, 2),
        "versioned": st.booleans(),
        "mutation": st.sampled_from(MUTATIONS),
        "key": st.sampled_from(["type", "action", "version"]),
        "value": JSON,
        "text": st.text(max_size=250),
        "bytes": st.binary(max_size=200),
        "size": st.integers(1000, 5000),
        "depth": st.sampled_from([50, 999, 1020]),
        "control": st.sampled_from(["sync", "ping"]),
    }
)


def mutate(plan: dict[str, Any], frame: dict[str, Any]) -> str | bytes:
    """A legal frame mutated one way or another."""
    how, pick = plan["mutation"], plan["pick"]
    text = json.dumps(frame)
    if how == "value":
        return json.dumps({**frame, plan["key"]: plan["value"]})
    if how == "drop":
        return json.dumps({k: v for k, v in frame.items() if k != plan["key"]})
    if how == "junk":
        return json.dumps({**frame, plan["text"][:8]: plan["value"]})
    if how == "wrap":
        return json.dumps([frame])
    if how == "truncate":
        return text[: pick % len(text)]
    if how == "insert":
        at = pick % (len(text) + 1)
        return text[:at] + (plan["text"][:3] or "\x00") + text[at:]
    if how == "long":
        return json.dumps({**frame, "pad": "x" * plan["size"]})
    if how == "deep":
        depth: int = plan["depth"]
        return "[" * depth + "]" * depth
    return text.encode()


def next_frame(plan: dict[str, Any], table: Table) -> tuple[int, str | bytes]:
    """The frame a plan makes at this table, and the connection to send it on."""
    mover, kind = table.mover(), plan["kind"]
    if kind in ("legal", "mutate", "wrong_conn") and mover is not None:
        legal = table.state[mover]["legal"]
        frame: dict[str, Any] = {"type": "action", "action": legal[plan["pick"] % len(legal)]}
        if plan["versioned"]:
            frame["version"] = table.version
        if kind == "legal":
            return mover, json.dumps(frame)
        if kind == "wrong_conn":
            return (1 - mover, 2)[plan["pick"] % 2], json.dumps(frame)
        return mover, mutate(plan, frame)
    conn = plan["conn"]
    if kind == "json":
        return conn, json.dumps(plan["value"])
    if kind == "text":
        return conn, plan["text"]
    if kind == "binary":
        return conn, plan["bytes"]
    if kind == "chat":
        bodies = [
            {"type": "chat", "text": plan["text"]},
            {"type": "chat", "reaction": plan["value"]},
            {"type": "chat", "text": plan["value"]},
            {"type": "chat", "reaction": "well_played"},
        ]
        return conn, json.dumps(bodies[plan["pick"] % len(bodies)])
    return conn, json.dumps({"type": plan["control"]})


@FUZZ
@given(
    game=st.sampled_from(["dice", "pepper"]), plans=st.lists(PLAN, min_size=FRAMES, max_size=FRAMES)
)
def test_websocket_frames(live: ServerProcess, game: str, plans: list[dict[str, Any]]) -> None:
    table = Table(live, game)
    try:
        for plan in plans:
            conn, payload = next_frame(plan, table)
            before, mover = table.version, table.mover()
            legal = table.state[conn].get("legal", []) if conn == mover else []
            message = parsed(payload)
            table.conns[conn].send(payload)
            is_ping = isinstance(message, dict) and message.get("type") == "ping"
            answers: dict[int, list[dict[str, Any]]] = {}
            # Its own connection first: once its pong is back, the server has done with the
            # frame, broadcasts included, so the other connections hold what it caused.
            # The other seat is sent nothing unless the frame could reach everybody.
            reaches_all = isinstance(message, dict) and message.get("type") in ("action", "chat")
            for i in (conn, *(j for j in range(3) if j != conn)):
                if i not in (conn, 2) and not reaches_all:
                    continue
                answers[i] = frames = drain(table.conns[i], 2 if i == conn and is_ping else 1)
                for frame in frames:
                    if frame["type"] == "state":
                        table.state[i] = frame
            # Every frame is answered on its own connection (a ping by its pong).
            assert is_ping or len(answers[conn]) >= 2, (payload, answers[conn])
            versions = {
                f["version"] for got in answers.values() for f in got if f["type"] == "state"
            }
            table.version = table.state[2]["version"]
            is_move = (
                isinstance(message, dict)
                and message.get("type") == "action"
                and isinstance(message.get("action"), str)
                and 0 < len(message["action"]) <= 64
                and message.get("version") in (None, before)
            )
            if table.version != before:
                # Only a move the engine took, once, from the seat to act, at this version.
                assert table.version == before + 1 and versions <= {before, before + 1}
                assert is_move and conn == mover, payload
                action = message["action"]
                assert table.state[2]["last"] == {"seat": conn, "action": action}
                assert action in legal or action.split(" ", 1)[0] in legal, (action, legal)
            else:
                assert versions <= {before}, (payload, versions)
                assert not (is_move and message["action"] in legal), payload
    finally:
        table.close()


# ----------------------------------------------------------------- REST

ENDPOINTS = [
    ("POST", "/api/tables", "table"),
    ("GET", "/api/tables?status={text}", None),
    ("GET", "/api/tables/{id}", None),
    ("GET", "/api/tables/{id}/state?token={token}", None),
    ("POST", "/api/tables/{id}/claim/{seat}", None),
    ("POST", "/api/tables/{id}/seats/{seat}/link", "host"),
    ("POST", "/api/tables/{id}/seats/{seat}/public", "public"),
    ("POST", "/api/tables/{id}/rematch", "rematch"),
    ("GET", "/api/tables/{id}/record", None),
    ("GET", "/api/tables/{id}/replay?step={text}", None),
    ("GET", "/api/presets/{text}", None),
    ("POST", "/api/sheets", "sheet"),
    ("GET", "/api/sheets/{sheet}", None),
    ("POST", "/api/sheets/{sheet}/entries", "entry"),
    ("POST", "/api/sheets/{sheet}/undo", None),
    ("POST", "/new/{kind}", "form"),
    ("POST", "/play-now/{kind}", "form"),
    ("POST", "/sheets", "form"),
    ("POST", "/table/{id}/{host}/seat/{seat}/{text}", "form"),
]


@pytest.fixture(scope="module")
def rest(live: ServerProcess) -> Iterator[tuple[httpx.Client, dict[str, Any]]]:
    """A client, a table (its version is watched) and a sheet to aim at."""
    with httpx.Client(base_url=live.base, timeout=10) as client:
        seats = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}]
        t = client.post("/api/tables", json={"game": "dice", "seats": seats}).json()
        sheet = client.post("/api/sheets", json={"game": "dice", "players": ["A", "B"]}).json()
        yield client, {"table": t, "sheet": sheet["id"]}


def valid_body(kind: str | None, target: dict[str, Any]) -> dict[str, Any]:
    t = target["table"]
    return {
        "table": {
            "game": "dice",
            "seats": [{"kind": "human"}, {"kind": "bot"}],
            "preset": "farkle",
        },
        "host": {"host_token": t["host_token"]},
        "public": {"host_token": t["host_token"], "public": True},
        "rematch": {"token": t["seats"][0]["token"]},
        "sheet": {"game": "pepper", "players": ["A", "B"]},
        "entry": {"points": 350, "pfeffer": False, "entry_id": "fuzz-0001"},
        "form": {"players": "2", "seat0_kind": "human", "csrf_token": "x" * 43},
    }.get(kind or "", {})


@FUZZ
@given(data=st.data())
def test_rest_bodies(rest: tuple[httpx.Client, dict[str, Any]], data: Any) -> None:
    client, target = rest
    t = target["table"]
    before = client.get(f"/api/tables/{t['id']}/state").json()["version"]
    for _ in range(25):
        method, template, kind = data.draw(st.sampled_from(ENDPOINTS))
        real = data.draw(st.booleans())
        fill = {
            "id": t["id"] if real else data.draw(st.text(max_size=20)),
            "token": t["seats"][0]["token"] if real else data.draw(st.text(max_size=20)),
            "host": t["host_token"] if real else data.draw(st.text(max_size=20)),
            "seat": str(data.draw(st.integers(-2, 3))) if real else data.draw(st.text(max_size=5)),
            "sheet": target["sheet"] if real else data.draw(st.text(max_size=20)),
            "kind": data.draw(st.sampled_from(["dice", "pepper", "chess", ""])),
            "text": data.draw(st.text(max_size=12)),
        }
        path = template.format(**{k: quote(v, safe="") for k, v in fill.items()})
        body = valid_body(kind, target)
        shape = data.draw(st.sampled_from(["json", "mutated", "bytes", "form", "none"]))
        kw: dict[str, Any] = {}
        if shape == "json":
            kw["content"] = json.dumps(data.draw(JSON)).encode()
            kw["headers"] = {"content-type": "application/json"}
        elif shape == "mutated" and body:
            key = data.draw(st.sampled_from(sorted(body)))
            # json.dumps writes NaN and Infinity as bare words (which httpx's json= refuses):
            # the server must answer those non-standard bodies too.
            kw["content"] = json.dumps({**body, key: data.draw(JSON)}).encode()
            kw["headers"] = {"content-type": "application/json"}
        elif shape == "bytes":
            kw["content"] = data.draw(st.binary(max_size=200))
            kw["headers"] = {
                "content-type": data.draw(
                    st.sampled_from(
                        [
                            "application/json",
                            "application/x-www-form-urlencoded",
                            "multipart/form-data",
                            "text/plain",
                        ]
                    )
                )
            }
        elif shape == "form":
            kw["data"] = {k: str(v) for k, v in body.items()} | {
                "x": data.draw(st.text(max_size=20))
            }
        r = client.request(method, path, **kw)
        assert r.status_code < 500, (method, path, r.status_code, r.text[:300])
        if 300 <= r.status_code < 400:  # /api/tables/ to /api/tables, a form to its page
            assert r.headers["location"], (path, r.status_code)
            continue
        if path.startswith("/api/") or r.headers["content-type"].startswith("application/json"):
            answer = r.json()
            if r.status_code >= 400:
                detail = answer["detail"]
                assert (isinstance(detail, str) and detail.strip()) or (
                    isinstance(detail, list) and all(d.get("msg") for d in detail)
                ), answer
        elif r.status_code >= 400:
            assert r.headers["content-type"].startswith("text/html"), (path, r.status_code)
            assert "<h1" in r.text
    after = client.get(f"/api/tables/{t['id']}/state").json()["version"]
    assert after == before  # REST requests never move a table
    assert client.get("/healthz").json() == {"status": "ok"}


def test_the_server_is_up_after_the_fuzzing(live: ServerProcess) -> None:
    assert live.proc is not None and live.proc.poll() is None
    assert live.get("/readyz")["status"] == "ready"
    assert Path(live.db_url.removeprefix("sqlite:///")).exists()
