"""The topology of compose.yaml with real processes (issue 9 §5): the project's own
``deploy/nginx.conf`` in a real nginx, in front of two ``pfeffer serve`` processes on PostgreSQL
and a private Redis. Docker does not run on these machines, so the containers are processes:
only the upstream addresses and the listening port of the file are changed, nothing else.

A game is played through the proxy's one address (HTTP and WebSockets); in the middle one app
process is killed (``kill -9``); the players' connections through nginx break, they reconnect
to the same address, nginx sends them to the other process, and the game ends with every move
once and in order. ``.ci/run`` installs Debian's nginx; where it is missing the test skips.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.cluster import (
    Player,
    RedisServer,
    Server,
    check_frames,
    need_services,
    pg_schema,
    start_all,
    wait_for_frame,
    wait_for_port,
)
from tests.web.conftest import free_port

pytestmark = pytest.mark.cluster

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def nginx_conf(site: str, port: int, backends: list[int], workdir: Path) -> str:
    """``deploy/nginx.conf`` (a file for nginx's ``conf.d``) inside a main configuration of its
    own: the compose service names become loopback ports, ``listen 80`` a free port."""
    ups = re.findall(r"server app\d:8000", site)
    assert len(ups) == len(backends) == 2, "the proxy's upstream should name both app processes"
    for name, backend in zip(ups, backends, strict=True):
        site = site.replace(name, f"server 127.0.0.1:{backend}", 1)
    assert "listen 80;" in site
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    temp = "\n".join(
        f"    {kind}_temp_path {workdir / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers then reach the temp folders
    return (
        f"{user}daemon off;\nworker_processes 1;\npid {workdir / 'nginx.pid'};\n"
        f"error_log {workdir / 'error.log'} warn;\nevents {{ worker_connections 256; }}\n"
        f"http {{\n    access_log off;\n{temp}\n{site}\n}}\n"
    )


class Nginx:
    """nginx on a free loopback port with the project's site configuration."""

    def __init__(self, backends: list[int], workdir: Path) -> None:
        assert NGINX is not None
        self.port = free_port()
        self.workdir = workdir
        site = (ROOT / "deploy" / "nginx.conf").read_text()
        self.conf = workdir / "nginx.conf"
        self.conf.write_text(nginx_conf(site, self.port, backends, workdir))
        check = subprocess.run(
            [NGINX, "-t", "-c", str(self.conf), "-e", str(workdir / "error.log")],
            check=False,
            capture_output=True,
            text=True,
        )
        assert check.returncode == 0, check.stderr
        self.proc = subprocess.Popen(
            [NGINX, "-c", str(self.conf), "-e", str(workdir / "error.log")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for_port(self.port, "nginx")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def request(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                text = r.read().decode()
                return r.status, json.loads(text) if "json" in r.headers["Content-Type"] else text
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)
        if self.proc.poll() is None:
            self.proc.kill()


def connections(app: Server) -> int:
    """The open WebSocket connections of one app process (its own /metrics, not the proxy's)."""
    with urllib.request.urlopen(app.base + "/metrics", timeout=5) as r:
        text = r.read().decode()
    m = re.search(r"^pfeffer_websocket_connections (\S+)$", text, re.M)
    assert m is not None
    return int(float(m[1]))


@pytest.fixture
def site() -> Iterator[tuple[Nginx, list[Server]]]:
    if NGINX is None:
        pytest.skip("nginx is not installed (.ci/run installs Debian's nginx-light)")
    with tempfile.TemporaryDirectory() as tmp, pg_schema(need_services()) as pg:
        work = Path(tmp)
        os.chmod(work, 0o755)
        redis = RedisServer(work)
        redis.start()
        servers = [Server(pg, redis.url, work / f"app{i}.log") for i in (1, 2)]
        proxy: Nginx | None = None
        try:
            start_all(servers)
            proxy = Nginx([s.port for s in servers], work)
            yield proxy, servers
        finally:
            if proxy is not None:
                proxy.stop()
            for s in servers:
                s.stop()
            redis.stop()


def test_a_game_through_the_proxy_survives_the_death_of_one_app_process(
    site: tuple[Nginx, list[Server]],
) -> None:
    proxy, (app1, app2) = site
    # The proxy serves the pages and the JSON API, and keeps /metrics to the inside.
    status, page = proxy.request("/")
    assert status == 200 and "<html" in page.lower()
    assert proxy.request("/metrics")[0] == 404
    status, made = proxy.request(
        "/api/tables",
        {
            "game": "dice",
            "rules": {"target": 3000},
            "seats": [
                {"name": "Ann", "kind": "human"},
                {"name": "Ben", "kind": "human"},
                {"name": "Rob", "kind": "bot", "bot": "heuristic"},
            ],
        },
    )
    assert status == 201, made
    table = made["id"]
    tokens = [s["token"] for s in made["seats"] if s["kind"] == "human"]
    # Every client knows the one address only.
    players = [Player([proxy.ws_base], table, t, f"P{i}") for i, t in enumerate(tokens)]
    watcher = Player([proxy.ws_base], table, None, "watcher")
    killed: list[int] = []
    victims: list[Server] = []

    async def play() -> None:
        tasks = [asyncio.create_task(p.run(timeout=120)) for p in [*players, watcher]]
        await wait_for_frame(
            watcher, lambda f: f["version"] >= 8, "the game did not reach version 8"
        )
        # The humans hold their next move while the process dies, so that the game cannot end
        # before the kill (a straight and a bank can finish it within a dozen actions).
        for p in players:
            p.pause.clear()
        # The process that holds more of the game's connections dies without a word.
        counts = await asyncio.to_thread(lambda: [connections(a) for a in (app1, app2)])
        victim = (app1, app2)[counts.index(max(counts))]
        assert max(counts) >= 1
        victims.append(victim)
        victim.kill9()
        killed.append(watcher.frames[-1]["version"])
        for p in players:
            p.pause.set()
        await asyncio.gather(*tasks)

    asyncio.run(play())
    status, rec = proxy.request(f"/api/tables/{table}/record?token={tokens[0]}")
    assert status == 200
    record: list[str] = rec["actions"]
    assert len(record) > killed[0]  # the game went on after the kill
    for p in [*players, watcher]:
        check_frames(p, record)
        assert p.frames[-1]["version"] == len(record)
        assert p.frames[-1]["status"] == "finished"
    # The kill broke connections through the proxy (those on the dead process), and they came
    # back through the same address.
    assert sum(p.reconnects for p in [*players, watcher]) >= 1
    survivor = app2 if victims[0] is app1 else app1
    assert survivor.proc is not None and survivor.proc.poll() is None
