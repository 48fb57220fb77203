"""Health, readiness, Prometheus metrics and JSON logs (issue 9 §4)."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine
from sqlalchemy.exc import OperationalError

from pfeffer.web.app import GC_YOUNG
from pfeffer.web.observability import JsonFormatter, database_check
from pfeffer.web.server import create_app
from tests.web.conftest import ServerProcess, free_port

SEATS = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}]


def metrics(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: {(name, labels): value}."""
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


@pytest.fixture
def logs() -> Iterator[io.StringIO]:
    """The app's log lines as JSON (the formatter of ``--log-format json``)."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("pfeffer.web")
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield out
    logger.removeHandler(handler)
    logger.setLevel(old_level)


def lines(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_healthz_and_readyz(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.get("/readyz")
    assert r.status_code == 200
    assert r.json() == {"status": "ready"}

    async def redis_down() -> None:
        raise ConnectionError("redis://10.1.2.3:6379 refused")

    client.app.state.readiness.append(("redis", redis_down))  # type: ignore[attr-defined]
    with caplog.at_level(logging.WARNING, logger="pfeffer.web.ready"):
        r = client.get("/readyz")
    assert r.status_code == 503
    # Issue 20 (1.10): anyone may ask, so the answer names no check, address or error ...
    assert r.json() == {"status": "unavailable"}
    assert "10.1.2.3" not in r.text and "redis" not in r.text
    # ... which go to the log for the operator.
    (record,) = [rec for rec in caplog.records if rec.name == "pfeffer.web.ready"]
    assert record.checks == {"redis": "ConnectionError: redis://10.1.2.3:6379 refused"}  # type: ignore[attr-defined]
    assert client.get("/healthz").status_code == 200  # the process itself is fine


def test_the_database_check_fails_on_an_unreachable_database(tmp_path: Path) -> None:
    ok = database_check(create_engine(f"sqlite:///{tmp_path / 'ok.db'}"))
    asyncio.run(ok())
    dead = create_engine("postgresql+psycopg://postgres@127.0.0.1:1/none")
    with pytest.raises(OperationalError, match=r"connect|refused|Connection"):
        asyncio.run(database_check(dead, timeout=5)())


def test_metrics_count_moves_latency_connections_and_errors(client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": "dice", "seats": SEATS}).json()
    token = t["seats"][0]["token"]
    before = metrics(client)
    assert before[("pfeffer_moves_total", ())] == 0
    assert before[("pfeffer_websocket_connections", ())] == 0
    with client.websocket_connect(f"/ws/{t['id']}?token={token}") as ws:
        frame = ws.receive_json()
        assert metrics(client)[("pfeffer_websocket_connections", ())] == 1
        sent = 0
        for _ in range(3):  # roll, then set aside, as long as it is Ann's turn
            legal = [a for a in frame["legal"] if a != "pfeffer"]
            if not legal:
                break
            ws.send_text(json.dumps({"type": "action", "action": legal[0]}))
            sent += 1
            frame = ws.receive_json()
            while frame["type"] != "state":
                frame = ws.receive_json()
        ws.send_text(json.dumps({"type": "action", "action": "jump"}))
        assert ws.receive_json()["code"] == "illegal"
        version = frame["version"]
    client.get("/watch/nosuch")
    after = metrics(client)
    assert version >= 1
    assert after[("pfeffer_moves_total", ())] == version
    assert after[("pfeffer_move_seconds_count", ())] == sent + 1  # the illegal one answered too
    assert after[("pfeffer_commit_seconds_count", ())] == version
    assert after[("pfeffer_websocket_connections", ())] == 0
    assert after[("pfeffer_errors_total", (("code", "illegal"),))] == 1
    assert after[("pfeffer_errors_total", (("code", "http_404"),))] >= 1
    assert after[("pfeffer_http_requests_total", (("status", "2xx"),))] >= 3


def test_one_json_line_per_request_move_and_error(client: TestClient, logs: io.StringIO) -> None:
    t = client.post("/api/tables", json={"game": "dice", "seats": SEATS}).json()
    token = t["seats"][0]["token"]
    client.get(f"/play/{t['id']}/{token}")
    with client.websocket_connect(f"/ws/{t['id']}?token={token}") as ws:
        ws.receive_json()
        # Banking before the first throw is illegal whatever the dice will show (after a throw
        # that scores nothing it would be the other player's turn: "not_your_turn").
        ws.send_text(json.dumps({"type": "action", "action": "bank"}))
        frame = ws.receive_json()
        ws.send_text(json.dumps({"type": "action", "action": "roll"}))
        ws.receive_json()
    found = lines(logs)
    requests = [x for x in found if x.get("event") == "request"]
    assert {"route": "/play/{table_id}/{token}", "status": 200, "method": "GET"}.items() <= (
        requests[-1].items()
    )
    assert requests[0]["route"] == "/api/tables" and requests[0]["status"] == 201
    moves = [x for x in found if x.get("event") == "move"]
    assert [(m["table"], m["seat"], m["version"]) for m in moves] == [(t["id"], 0, 1)]
    errors = [x for x in found if x.get("event") == "ws_error"]
    assert errors and errors[0]["code"] == frame["code"] == "illegal"
    assert all({"time", "level", "logger", "message"} <= x.keys() for x in found)
    assert token not in logs.getvalue()  # routes are logged as templates, never the URL


def test_serve_log_format_json(tmp_path: Path) -> None:
    srv = ServerProcess(
        f"sqlite:///{tmp_path / 'logs.db'}", free_port(), extra_args=["--log-format", "json"]
    )
    srv.start()
    try:
        t = srv.post("/api/tables", {"game": "dice", "seats": SEATS})
        token = t["seats"][0]["token"]
        srv.get(f"/api/tables/{t['id']}/state?token={token}")
        assert srv.get("/healthz") == {"status": "ok"}
    finally:
        srv.stop()
    assert srv.proc is not None and srv.proc.stdout is not None
    out = srv.proc.stdout.read().decode()
    logged = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    routes = [x.get("route") for x in logged if x.get("event") == "request"]
    assert "/api/tables" in routes and "/api/tables/{table_id}/state" in routes
    assert any(x["logger"].startswith("uvicorn") for x in logged)  # uvicorn's lines too
    assert token not in out


def test_a_fresh_app_has_its_own_metrics(tmp_path: Path) -> None:
    """Two apps in one process (the tests build many) do not share counters."""
    a = create_app(f"sqlite:///{tmp_path / 'a.db'}", bot_delay=0)
    b = create_app(f"sqlite:///{tmp_path / 'b.db'}", bot_delay=0)
    assert a.state.metrics.registry is not b.state.metrics.registry


def test_event_loop_lag_and_garbage_collector_pauses(tmp_path: Path) -> None:
    """The lag sampler and the collector's callback feed their histograms while the app runs;
    the callback is gone again once the app stopped (``gc.callbacks`` is the process's)."""
    app = create_app(f"sqlite:///{tmp_path / 'gc.db'}", bot_delay=0)
    callbacks = len(gc.callbacks)
    with TestClient(app) as client:
        assert len(gc.callbacks) == callbacks + 1
        gc.collect()  # a full collection, generation 2
        deadline = 200
        while metrics(client).get(("pfeffer_event_loop_lag_seconds_count", ()), 0) < 1:
            deadline -= 1
            assert deadline, "no lag sample"
            client.get("/healthz")
            time.sleep(0.05)
        got = metrics(client)
        assert got[("pfeffer_gc_pause_seconds_count", (("generation", "2"),))] >= 1
    assert len(gc.callbacks) == callbacks


def test_a_served_app_freezes_its_heap(tmp_path: Path) -> None:
    """``freeze_heap`` (what ``pfeffer serve`` passes): after the start, what the process holds
    is out of the collector's rounds (``gc.freeze``) and the youngest generation is collected
    less often (``GC_YOUNG``); without it nothing is frozen or changed."""
    gc.unfreeze()
    threshold = gc.get_threshold()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", bot_delay=0)):
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == threshold
    try:
        with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", freeze_heap=True)):
            assert gc.get_freeze_count() > 10_000  # the modules and the engines' tables
            assert gc.get_threshold() == (GC_YOUNG, *threshold[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
