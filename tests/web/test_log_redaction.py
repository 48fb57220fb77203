"""No log line holds a seat or host token (issue 20 §1.4), in either format (``text``:
uvicorn's own formatters, ``json``: ``--log-format json``), for valid and forged tokens alike:
uvicorn logs a request's or WebSocket's URL as it came (``/ws/<id>?token=...``)."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets.sync.client
from fastapi.testclient import TestClient
from uvicorn.logging import AccessFormatter, DefaultFormatter

from pfeffer.web.observability import JsonFormatter
from pfeffer.web.server import create_app
from tests.web.conftest import ServerProcess, free_port

SEATS = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}]
FORMATS = {
    "text": (
        DefaultFormatter("%(levelprefix)s %(message)s", use_colors=False),
        AccessFormatter(
            '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s',
            use_colors=False,
        ),
    ),
    "json": (JsonFormatter(), JsonFormatter()),
}


@contextlib.contextmanager
def captured(fmt: str) -> Iterator[io.StringIO]:
    """Every line of uvicorn's and the app's loggers, at INFO, in ``fmt``."""
    out = io.StringIO()
    default, access = FORMATS[fmt]
    added = []
    for name, formatter in (("uvicorn.error", default), ("uvicorn.access", access)):
        handler = logging.StreamHandler(out)
        handler.setFormatter(formatter)
        added.append((logging.getLogger(name), handler))
    plain = logging.StreamHandler(out)
    plain.setFormatter(default)
    added.append((logging.getLogger("pfeffer"), plain))
    levels = []
    for logger, handler in added:
        levels.append((logger, logger.level, logger.propagate))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    try:
        yield out
    finally:
        for (logger, handler), (_, level, propagate) in zip(added, levels, strict=True):
            logger.removeHandler(handler)
            logger.setLevel(level)
            logger.propagate = propagate


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_no_log_line_of_any_format_holds_a_token(tmp_path: Path, fmt: str) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'r.db'}", bot_delay=0)
    with TestClient(app) as client:
        t = client.post("/api/tables", json={"game": "dice", "seats": SEATS}).json()
    tid, valid, host = t["id"], t["seats"][0]["token"], t["host_token"]
    forged = secrets.token_urlsafe(24)
    secrets_ = [valid, host, forged, "not-a-real-key"]
    with captured(fmt) as out:
        for token in (valid, forged, "not-a-real-key"):
            # What uvicorn writes for a request and a WebSocket (its own format strings).
            logging.getLogger("uvicorn.access").info(
                '%s - "%s %s HTTP/%s" %d',
                "127.0.0.1:5000",
                "GET",
                f"/ws/{tid}?token={token}&lang=de",
                "1.1",
                101,
            )
            logging.getLogger("uvicorn.error").info(
                '%s - "WebSocket %s" [accepted]', "127.0.0.1:5000", f"/ws/{tid}?token={token}"
            )
            logging.getLogger("uvicorn.access").info(
                '%s - "%s %s HTTP/%s" %d',
                "127.0.0.1:5000",
                "GET",
                f"/play/{tid}/{token}",
                "1.1",
                200,
            )
        logging.getLogger("uvicorn.access").info(
            '%s - "%s %s HTTP/%s" %d',
            "127.0.0.1:5000",
            "POST",
            f"/table/{tid}/{host}/seat/0/link",
            "1.1",
            303,
        )
        logging.getLogger("uvicorn.error").info("device page /device/%s/%s", tid, host)
        logging.getLogger("pfeffer.web").warning("state asked with host_token=%s", host)
    text = out.getvalue()
    assert text.count("[redacted]") >= 12 and tid in text  # the lines were written
    for token in secrets_:
        assert token not in text, (fmt, token)
    if fmt == "json":
        assert all(json.loads(line)["message"] for line in text.splitlines())


def test_serve_with_json_logs_writes_no_token(tmp_path: Path) -> None:
    srv = ServerProcess(
        f"sqlite:///{tmp_path / 'logs.db'}", free_port(), extra_args=["--log-format", "json"]
    )
    srv.start()
    forged = secrets.token_urlsafe(24)
    try:
        t = srv.post("/api/tables", {"game": "dice", "seats": SEATS})
        tid, valid, host = t["id"], t["seats"][0]["token"], t["host_token"]
        for token in (valid, forged):
            with websockets.sync.client.connect(f"{srv.ws_base}/ws/{tid}?token={token}") as ws:
                assert json.loads(ws.recv(timeout=10))["type"] in ("state", "error")
            with contextlib.suppress(urllib.error.HTTPError):
                urllib.request.urlopen(f"{srv.base}/play/{tid}/{token}", timeout=10).read()
        urllib.request.urlopen(f"{srv.base}/table/{tid}/{host}", timeout=10).read()
    finally:
        srv.stop()
    assert srv.proc is not None and srv.proc.stdout is not None
    out = srv.proc.stdout.read().decode()
    assert f"/ws/{tid}" in out  # uvicorn's WebSocket lines are there, cleaned
    for token in (valid, host, forged):
        assert token not in out
