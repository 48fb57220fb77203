"""Fixtures for the web tests: an in-process app (TestClient) and a real server process."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.web.server import create_app

POSTGRES_ENV = "PFEFFER_TEST_POSTGRES_URL"
CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
)
SHOTS = Path(__file__).resolve().parent / "screenshots"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite file database."""
    return f"sqlite:///{tmp_path / 'web.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """The app with computer players moving at once (tables of computer players only are
    taken: many tests watch whole games)."""
    with TestClient(create_app(db_url, bot_delay=0, computer_tables=True)) as c:
        yield c


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """``pfeffer serve`` as a child process on a loopback port."""

    def __init__(
        self,
        db_url: str,
        port: int,
        bot_delay: float = 0.0,
        extra_args: list[str] | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.db_url = db_url
        self.port = port
        self.bot_delay = bot_delay
        self.extra_args = extra_args or []  # more options of ``pfeffer serve``
        self.ssl_context = ssl_context  # set: the server speaks HTTPS (--ssl-certfile)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        scheme = "https" if self.ssl_context else "http"
        return f"{scheme}://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start the process (``wait_ready`` waits until it answers)."""
        code = "import sys; from pfeffer.cli import main; sys.argv[0] = 'pfeffer'; main()"
        args = ["serve", "--port", str(self.port), "--db", self.db_url]
        args += ["--bot-delay", str(self.bot_delay), *self.extra_args]
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, *args],
            # Tests may name a table's seed (POST /api/tables "seed"): a known first throw.
            # And tables of computer players only (browser tests watch whole games).
            env={**os.environ, "PFEFFER_TEST_ALLOW_SEED": "1", "PFEFFER_TEST_COMPUTER_TABLES": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 30) -> None:
        """Wait until the server answers HTTP (RuntimeError if it exits or does not)."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise RuntimeError(f"server exited: {out}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(
                    self.base + "/api/tables", timeout=1, context=self.ssl_context
                ).read()
                return
            time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def post(self, path: str, body: Any) -> Any:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10, context=self.ssl_context) as r:
            return json.load(r)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10, context=self.ssl_context) as r:
            return json.load(r)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A running server process on a SQLite file (bot delay 0)."""
    srv = ServerProcess(f"sqlite:///{tmp_path / 'live.db'}", free_port())
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = None
        for _ in range(2):  # the very first start of Chromium on a fresh machine can be slow
            try:
                b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, timeout=90_000)
                break
            except Exception:  # pragma: no cover - retried once
                continue
        if b is None:
            pytest.skip("Chromium did not start")
        yield b
        b.close()


def form_data(client: TestClient, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """Form fields with the page's CSRF token, as a browser posts a form it was sent
    (``pfeffer.web.middleware.csrf``): the token comes from the cookie any page sets."""
    token = client.cookies.get("pfeffer_csrf")
    if token is None:
        client.get("/rules/dice")
        token = client.cookies["pfeffer_csrf"]
    return {**(data or {}), "csrf_token": token}
