"""Real processes for the cluster tests (issue 9 §2): ``pfeffer serve`` processes on PostgreSQL
and a private ``redis-server``, a TCP proxy the test cuts, and players that fail over.

Nothing here touches the machine's shared PostgreSQL and Redis beyond a schema of the test's own
in the shared database: Redis is a private ``redis-server`` on a free port, and a PostgreSQL
outage is the test's own proxy cutting every connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import websockets
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from pfeffer.web.adapters.games import chosen_action
from tests.web.conftest import POSTGRES_ENV, ServerProcess, free_port

REDIS_ENV = "PFEFFER_TEST_REDIS_URL"


def need_services() -> str:
    """The PostgreSQL URL, or skip (with the reason) where the cluster tests cannot run."""
    pg = os.environ.get(POSTGRES_ENV)
    if not pg:
        pytest.skip(
            f"cluster tests need {POSTGRES_ENV} (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test)"
        )
    if not os.environ.get(REDIS_ENV):
        pytest.skip(f"cluster tests need {REDIS_ENV} (e.g. redis://127.0.0.1:6379/0)")
    if shutil.which("redis-server") is None:
        pytest.skip("cluster tests start a private redis-server, which is not installed")
    return pg


@contextlib.contextmanager
def pg_schema(base: str) -> Iterator[str]:
    """A schema of the test's own in the test database; the URL that works in it."""
    schema = "c_" + secrets.token_hex(6)
    admin = create_engine(base)
    try:
        with admin.begin() as c:
            c.execute(text(f"CREATE SCHEMA {schema}"))
    except OperationalError as exc:
        pytest.skip(f"PostgreSQL at {POSTGRES_ENV} is not reachable: {exc.orig}")
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as c:
            # A backend still holding a lock in the schema (a server process that died in a
            # transaction, a connection cut half-way) would make the DROP wait for good.
            c.execute(text("SET LOCAL lock_timeout = '20s'"))
            c.execute(
                text(
                    "SELECT pg_terminate_backend(l.pid) FROM pg_locks l"
                    " JOIN pg_class r ON r.oid = l.relation"
                    " JOIN pg_namespace n ON n.oid = r.relnamespace"
                    " WHERE n.nspname = :s AND l.pid <> pg_backend_pid()"
                ),
                {"s": schema},
            )
            c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def via_port(url: str, port: int) -> str:
    """``url`` with its host and port replaced by 127.0.0.1:``port`` (through a proxy)."""
    parts = urlsplit(url)
    user = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
    return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{port}"))


def pg_port(url: str) -> int:
    return urlsplit(url).port or 5432


def wait_for_port(port: int, what: str, timeout: float = 10) -> None:
    """Wait until a loopback port takes connections (RuntimeError naming ``what`` if not)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
            return
        time.sleep(0.02)
    raise RuntimeError(f"{what} did not start")


class RedisServer:
    """A private ``redis-server`` on a free loopback port (no persistence)."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        args += ["--appendonly", "no", "--dir", str(self.workdir)]
        self.proc = subprocess.Popen(
            ["redis-server", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for_port(self.port, "redis-server")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class TcpProxy:
    """A TCP proxy on a loopback port to ``target`` that the test can cut (every connection
    reset, new ones refused) and restore, in a thread of its own."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self.restore()

    def _call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._writers.update((writer, up_w))
        await asyncio.gather(self._pipe(reader, up_w), self._pipe(up_r, writer))
        self._writers.discard(writer)
        self._writers.discard(up_w)

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for w in list(self._writers):
            with contextlib.suppress(Exception):
                w.transport.abort()
        self._writers.clear()

    def restore(self) -> None:
        self._call(self._listen())

    def cut(self) -> None:
        self._call(self._cut())

    def close(self) -> None:
        self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)


class Server(ServerProcess):
    """``pfeffer serve`` on PostgreSQL and Redis, its output in a file (a pipe nobody reads
    would fill up and stop it)."""

    def __init__(self, db_url: str, redis_url: str, log: Path, bot_delay: float = 0.0) -> None:
        super().__init__(db_url, free_port(), bot_delay, ["--redis", redis_url])
        self.log = log

    def launch(self) -> None:
        code = "import sys; from pfeffer.cli import main; sys.argv[0] = 'pfeffer'; main()"
        args = ["serve", "--port", str(self.port), "--db", self.db_url]
        args += ["--bot-delay", str(self.bot_delay), *self.extra_args]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code, *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 60) -> None:
        try:
            super().wait_ready(timeout)
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}\n{self.log.read_text(errors='replace')[-3000:]}") from None


def start_all(servers: list[Server]) -> None:
    """Start the servers side by side and wait until each answers."""
    for s in servers:
        s.launch()
    for s in servers:
        s.wait_ready()


class Player:
    """A seat's (or a spectator's) browser tab: plays when its seat may act; when its server
    goes away it reconnects to the next one. Keeps every state frame it got."""

    def __init__(self, bases: list[str], table: str, token: str | None, name: str = "") -> None:
        self.bases = bases
        self.table = table
        self.token = token
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.sent: list[tuple[int, str]] = []  # (version it was sent at, action)
        self.reconnects = 0
        self.pause = asyncio.Event()
        self.pause.set()  # cleared: the player waits before its next action

    def url(self, i: int) -> str:
        base = self.bases[i % len(self.bases)]
        query = f"?token={self.token}" if self.token else ""
        return f"{base}/ws/{self.table}{query}"

    @staticmethod
    def choose(frame: dict[str, Any]) -> str:
        legal: list[str] = frame["legal"]
        if "bank" in legal:
            return "bank"
        keeps = [a for a in legal if a.startswith("keep ")]
        return keeps[0] if keeps else legal[0]

    async def run(self, timeout: float = 60, until_version: int | None = None) -> None:
        """Play until the game is over (or the table reached ``until_version``)."""
        await asyncio.wait_for(self._run(until_version), timeout)

    async def _run(self, until_version: int | None) -> None:
        i = 0
        while True:
            try:
                async with websockets.connect(self.url(i), open_timeout=5) as ws:
                    if await self._loop(ws, until_version):
                        return
            except (OSError, websockets.ConnectionClosed, TimeoutError):
                pass
            i += 1  # the next server
            self.reconnects += 1
            await asyncio.sleep(0.1)

    async def _loop(self, ws: Any, until_version: int | None) -> bool:
        acted = -1
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "error":
                self.errors.append(msg)
                continue
            if msg["type"] != "state":
                continue
            self.frames.append(msg)
            if msg["status"] == "finished":
                return True
            if until_version is not None and msg["version"] >= until_version:
                return True
            if msg["legal"] and msg["version"] != acted:
                await self.pause.wait()
                acted = msg["version"]
                action = self.choose(msg)
                self.sent.append((acted, action))
                await ws.send(json.dumps({"type": "action", "action": action, "version": acted}))


async def wait_for_frame(
    player: Player, check: Callable[[dict[str, Any]], bool], what: str, timeout: float = 60
) -> None:
    """Wait until ``player``'s last frame satisfies ``check``; fail (with ``what``) after
    ``timeout`` seconds or when the game finished first."""
    deadline = time.monotonic() + timeout
    while not (player.frames and check(player.frames[-1])):
        assert time.monotonic() < deadline, what
        assert not (player.frames and player.frames[-1]["status"] == "finished"), what
        await asyncio.sleep(0.005)


def check_frames(player: Player, record: list[str]) -> None:
    """What ``player`` saw agrees with the record: versions never go back, a version never
    changes its last action, and each version's last action is the record's. Over one
    connection (no reconnect) no version is skipped either."""
    last_v = -1
    for frame in player.frames:
        v = frame["version"]
        assert v >= last_v, (player.name, last_v, v)
        if v > 0:
            assert frame["last"]["action"] == chosen_action(record[v - 1]), (player.name, v)
        if player.reconnects == 0 and v != last_v and last_v >= 0:
            assert v == last_v + 1, (player.name, "skipped", last_v, v)
        last_v = v


def record_of(server: ServerProcess, table: dict[str, Any]) -> list[str]:
    """The actions of ``table`` (the answer to its creation) as its record holds them, read
    with its first human seat's link (a private table's record is its seats')."""
    key = next(s["token"] for s in table["seats"] if s["kind"] == "human")
    actions: list[str] = server.get(f"/api/tables/{table['id']}/record?token={key}")["actions"]
    return actions
