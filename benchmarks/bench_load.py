"""Load and soak of two ``pfeffer serve`` processes on PostgreSQL and Redis (issue 9 §3).

    python benchmarks/bench_load.py [--levels 50,100,200,300,500,700] [--level-seconds 20]
                                    [--soak-minutes 10 --soak-tables 200] [--json FILE]

Starts a private ``redis-server`` and two server processes on loopback ports, on a schema of its
own in the PostgreSQL database at ``--db`` (default: ``PFEFFER_TEST_POSTGRES_URL``, else the
machine's ``postgresql+psycopg://postgres@127.0.0.1:5432/test``; the schema is dropped at the end).
Every table is a real dice game: a simulated human (thinking ``--think`` seconds on average,
connected to one process) against a computer player (moving after ``--bot-delay``), watched by a
spectator connected to the other process. Tables alternate between the processes; a finished
game is replaced by a new one.

Load (levels of concurrent tables, each held ``--level-seconds``): the latency from a human's
action leaving the client to the frame that carries it arriving, at the human's own process
(``own``) and at the spectator on the other process (``cross``, through Redis), p50 and p99; the
moves per second (humans and computer players); the CPU seconds both processes spent per move;
their memory per table (resident memory above the empty servers', divided by the tables). The
answer: the most tables held with the cross p99 under 50 ms.

Soak (``--soak-minutes``): ``--soak-tables`` tables for that long; the servers' resident memory
is sampled every 15 s, and its growth after the first minute must stay under ``--growth-mb``;
every finished game's record (``/api/tables/{id}/record``) must equal what its spectator saw,
version by version (no lost, doubled or reordered move).

The simulated players run in ``--client-procs`` processes of their own (default 2; a table's
human and spectator in the same one, so both its clocks are one): in the one process of before,
400 WebSockets decoding every frame shared one event loop, and the time a frame waited there
for that loop counted as the server's latency. A frame's time of arrival is taken before it is
decoded, and only its top-level fields are kept. To tell the servers' delays from the
machine's and the clients', each level also reports:

- ``cores``: the CPU each part used (the servers, the client processes, Redis, and the
  machine's PostgreSQL with every session, also other users');
- ``client_lag_p99_ms`` / ``client_lag_max_ms``: how late the client processes' event loops
  woke from a 10 ms sleep (what their measurements carry on top of the server's delay);
- ``probe_p50_ms`` / ``probe_p99_ms`` per server: the round trip of a ``ping`` sent every
  20 ms by the parent process, which does nothing else, on a table of its own;
- ``servers_loop`` per server, from its ``/metrics``: its event loop's lag (p99 as the upper
  bound of its histogram bucket, the share of samples over 10 and 50 ms) and its garbage
  collector's full collections (``gc2_count``, ``gc2_ms``) and all collections (``gc_all_ms``);
- ``load_avg``: the machine's one-minute load average at the end of the level (figures from a
  busy machine are not comparable: ``uptime`` first).

Traffic goes only to 127.0.0.1, every wait has a time limit and the run ends by itself. The
servers run with ``--limit off``: every simulated player comes from the one loopback address.
Run it niced on a shared machine (``nice -n 10``).

``--profile DIR``: each server runs under ``cProfile`` (every thread: the event loop and the
database threads) and writes ``DIR/s0.prof`` and ``DIR/s1.prof`` when it stops (read them with
``python -m pstats``). The profiler slows the servers down several times: the latencies of such
a run mean nothing, the profile (CPU time of each thread) shows where the time per move goes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.web.cluster import RedisServer, Server, pg_schema, start_all  # noqa: E402

from pfeffer.web.adapters.games import chosen_action  # noqa: E402

PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
GOAL_MS = 50.0
TICK = os.sysconf("SC_CLK_TCK")


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def proc_rss_mb(pid: int) -> float:
    """Resident memory of the process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


PROFILED = """
import atexit, cProfile, sys, threading
import time
profiles = [cProfile.Profile(time.thread_time)]
run = threading.Thread.run
def profiled_run(self):
    p = cProfile.Profile(time.thread_time)
    profiles.append(p)
    p.enable()
    try:
        run(self)
    finally:
        p.disable()
threading.Thread.run = profiled_run
def dump():
    import pstats
    profiles[0].disable()
    stats = pstats.Stats(profiles[0])
    for p in profiles[1:]:
        try:
            stats.add(p)
        except Exception:
            pass
    stats.dump_stats(OUT)
atexit.register(dump)
import signal
def stop(*_):
    sys.exit(0)  # uvicorn raises SIGTERM again after its shutdown: exit through atexit
signal.signal(signal.SIGTERM, stop)
from pfeffer.cli import main
sys.argv[0] = "pfeffer"
profiles[0].enable()
main()
"""


class ProfiledServer(Server):
    """A server under ``cProfile`` (see the module doc), its profile written to ``out``."""

    def __init__(self, *args: Any, out: Path, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.out = out

    def launch(self) -> None:
        code = PROFILED.replace("OUT", repr(str(self.out)))
        args = ["serve", "--port", str(self.port), "--db", self.db_url]
        args += ["--bot-delay", str(self.bot_delay), *self.extra_args]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code, *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )


def http(method: str, url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        url, data=data, method=method, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


@dataclass
class Stats:
    """What the clients of one client process measured."""

    own: list[float] = field(default_factory=list)
    cross: list[float] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)  # the client process's event-loop lag
    games: int = 0
    checked: int = 0
    mismatches: list[str] = field(default_factory=list)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)

    def take(self) -> dict[str, Any]:
        """What was measured since the last call (latencies, lag) and the running counts."""
        out = {
            "own": self.own,
            "cross": self.cross,
            "lag": self.lag,
            "games": self.games,
            "checked": self.checked,
            "mismatches": self.mismatches[:20],
            "errors": self.errors,
            "error_kinds": dict(self.error_kinds),
        }
        self.own, self.cross, self.lag = [], [], []
        return out


def state_of(text: str | bytes, keys: tuple[str, ...]) -> dict[str, Any] | None:
    """The top-level ``keys`` of a state frame (None for any other frame); decoded by orjson,
    a few times quicker than ``json`` (the clients share the machine with the servers)."""
    msg = orjson.loads(text)
    if msg.get("type") != "state":
        return None
    return {k: msg[k] for k in keys}


class TableRun:
    """One table after another: a human on one process, a spectator on the other."""

    def __init__(self, bases: tuple[str, str], stats: Stats, args: argparse.Namespace) -> None:
        self.bases = bases  # (http of the human's process, http of the spectator's)
        self.stats = stats
        self.args = args
        self.rng = random.Random()
        self.stop = asyncio.Event()

    async def run(self) -> None:
        while not self.stop.is_set():
            try:
                await asyncio.wait_for(self.game(), self.args.game_timeout)
            except (OSError, websockets.ConnectionClosed, TimeoutError, ValueError) as exc:
                self.stats.errors += 1
                self.stats.error_kinds[type(exc).__name__] = (
                    self.stats.error_kinds.get(type(exc).__name__, 0) + 1
                )
                await asyncio.sleep(1)

    async def game(self) -> None:
        human_base, watch_base = self.bases
        seats = [{"name": "Human", "kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
        body = {"game": "dice", "rules": {"target": self.args.target}, "seats": seats}
        t = await asyncio.to_thread(http, "POST", human_base + "/api/tables", body)
        token = t["seats"][0]["token"]
        ws_h = human_base.replace("http", "ws") + f"/ws/{t['id']}?token={token}"
        ws_w = watch_base.replace("http", "ws") + f"/ws/{t['id']}"
        sent: dict[int, float] = {}  # version an action makes → when it was sent
        seen: dict[int, Any] = {}  # what the spectator saw: version → last action
        async with (
            websockets.connect(ws_h, max_size=2**22) as hs,
            websockets.connect(ws_w, max_size=2**22) as ws,
        ):
            watcher = asyncio.create_task(self.watch(ws, sent, seen))
            try:
                if not await self.play(hs, sent):
                    return  # left unfinished: the level is over
                await asyncio.wait_for(watcher, 30)
            finally:
                watcher.cancel()
        self.stats.games += 1
        if self.args.check:
            record = await asyncio.to_thread(
                http, "GET", human_base + f"/api/tables/{t['id']}/record?token={token}"
            )
            self.check(t["id"], record["actions"], seen)

    async def play(self, hs: Any, sent: dict[int, float]) -> bool:
        """Play to the end (True), or until the bench stops (False)."""
        acted = -1
        got: set[int] = set()
        while True:
            raw = await hs.recv()
            now = time.perf_counter()  # before the frame is decoded: the client's own time
            msg = state_of(raw, ("version", "status", "legal"))
            if msg is None:
                continue
            v = msg["version"]
            if v in sent and v not in got:
                got.add(v)
                self.stats.own.append(now - sent[v])
            if msg["status"] == "finished":
                return True
            if msg["legal"] and v != acted and not self.stop.is_set():
                acted = v
                await asyncio.sleep(self.rng.expovariate(1 / self.args.think))
                legal = msg["legal"]
                act = (
                    "bank" if "bank" in legal else next((x for x in legal if "keep" in x), legal[0])
                )
                sent[v + 1] = time.perf_counter()
                await hs.send(json.dumps({"type": "action", "action": act, "version": v}))
            elif self.stop.is_set() and msg["legal"]:
                return False  # the bench is over: leave the table as it stands

    async def watch(self, ws: Any, sent: dict[int, float], seen: dict[int, Any]) -> None:
        while True:
            raw = await ws.recv()
            now = time.perf_counter()
            msg = state_of(raw, ("version", "status", "last"))
            if msg is None:
                continue
            v = msg["version"]
            if v not in seen:
                seen[v] = msg["last"]
                if v in sent:
                    self.stats.cross.append(now - sent[v])
            if msg["status"] == "finished":
                return

    def check(self, table: str, record: list[str], seen: dict[int, Any]) -> None:
        self.stats.checked += 1
        first = min(seen)
        if sorted(seen) != list(range(first, len(record) + 1)):
            self.stats.mismatches.append(f"{table}: versions seen {sorted(seen)[:5]}…")
            return
        for v in range(max(first, 1), len(record) + 1):
            if seen[v] is None or seen[v]["action"] != chosen_action(record[v - 1]):
                self.stats.mismatches.append(f"{table}: version {v} differs from the record")
                return


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000


LAG_TICK = 0.01  # seconds between the samples of an event loop's lag


async def sample_lag(stats: Stats) -> None:
    """How late this process's event loop wakes up from a ``LAG_TICK`` sleep, again and again:
    a busy client process delays every frame it measures by as much."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        stats.lag.append(time.perf_counter() - t - LAG_TICK)


# ---------------------------------------------------------------------- client processes


class ClientProcess:
    """Simulated players in a process of their own (``--client-procs``): the tables given to
    it, each with its human and its spectator, so that a table's two clocks are one. The
    parent sends it commands over a pipe: ``grow`` (to this many tables), ``take`` (the
    measurements so far), ``stop`` (leave every table), ``quit``."""

    def __init__(self, bases: tuple[str, str], args: argparse.Namespace, index: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=client_main, args=(child, bases, vars(args), index), daemon=True
        )
        self.proc.start()

    def ask(self, *command: Any) -> Any:
        self.conn.send(command)
        wait = 60.0 + (2 * float(command[1]) if command[0] == "stop" else 0.0)
        if not self.conn.poll(wait):
            raise RuntimeError(f"client process gave no answer to {command[0]}")
        return self.conn.recv()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.send(("quit",))
        self.proc.join(10)
        if self.proc.is_alive():
            self.proc.kill()


def client_main(conn: Connection, bases: tuple[str, str], args: dict[str, Any], index: int) -> None:
    """The body of a client process (see :class:`ClientProcess`)."""
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(client_loop(conn, bases, argparse.Namespace(**args), index))


async def client_loop(
    conn: Connection, bases: tuple[str, str], args: argparse.Namespace, index: int
) -> None:
    stats = Stats()
    runs: list[tuple[TableRun, asyncio.Task[None]]] = []
    lag = asyncio.create_task(sample_lag(stats))
    loop = asyncio.get_running_loop()
    commands: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
    loop.add_reader(conn.fileno(), lambda: commands.put_nowait(conn.recv()))
    a, b = bases
    while True:
        cmd = await commands.get()
        if cmd[0] == "grow":
            while len(runs) < cmd[1]:
                # Tables alternate between the processes (the first server takes the human of
                # even tables, counted over every client process).
                i = cmd[2] + cmd[3] * len(runs)
                run = TableRun((a, b) if i % 2 == 0 else (b, a), stats, args)
                runs.append((run, asyncio.create_task(run.run())))
            conn.send(len(runs))
        elif cmd[0] == "take":
            conn.send(stats.take())
        elif cmd[0] == "stop":
            for run, _ in runs:
                run.stop.set()
            tasks = [t for _, t in runs]
            if tasks:
                await asyncio.wait(tasks, timeout=cmd[1])
            for t in tasks:
                t.cancel()
            runs.clear()
            conn.send(True)
        else:
            lag.cancel()
            loop.remove_reader(conn.fileno())
            return


# ---------------------------------------------------------------------- the machine's processes


def pg_pids() -> list[int]:
    """The machine's PostgreSQL processes (the server and every session: the bench's database
    is shared, so this counts other users of it too)."""
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError):
                if (d / "comm").read_text().strip() == "postgres":
                    pids.append(int(d.name))
    return pids


def cpu_of(pids: list[int]) -> dict[int, float]:
    """CPU seconds each process has used (those that still run)."""
    out = {}
    for p in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            out[p] = proc_cpu(p)
    return out


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two readings of ``cpu_of``: a process started in between
    counts whole, one that ended in between is missed."""
    return sum(t - before.get(p, 0.0) for p, t in after.items())


class Probe:
    """A spectator's WebSocket on each server, sending ``ping`` every ``every`` seconds from the
    parent process (which does nothing else): the pong's round trip shows how long the server's
    event loop takes to answer a message, whatever the clients' processes are doing."""

    def __init__(self, ws_urls: list[str], every: float = 0.02) -> None:
        self.urls = ws_urls
        self.every = every
        self.rtt: list[list[float]] = [[] for _ in ws_urls]
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._run(i)) for i in range(len(self.urls))]

    async def _run(self, i: int) -> None:
        async with websockets.connect(self.urls[i], max_size=2**22) as ws:
            while True:
                t = time.perf_counter()
                await ws.send('{"type": "ping"}')
                while json.loads(await ws.recv()).get("type") != "pong":
                    pass
                self.rtt[i].append(time.perf_counter() - t)
                await asyncio.sleep(self.every)

    def take(self) -> list[list[float]]:
        out, self.rtt = self.rtt, [[] for _ in self.urls]
        return out

    async def stop(self) -> None:
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def scrape(base: str) -> dict[str, float]:
    """A server's ``/metrics``: {sample with its labels: value}."""
    with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
        text = r.read().decode()
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


def loop_figures(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """What held up a server's event loop between two scrapes: its lag's p99 (the upper bound
    of the histogram's bucket it falls in), the share of lag samples over 10 and 50 ms, and
    the garbage collector's full collections (generation 2) with their time in all."""
    lag = "pfeffer_event_loop_lag_seconds_bucket"
    d = {k: after[k] - before.get(k, 0.0) for k in after if k.startswith(lag)}
    n = d.get(lag + '{le="+Inf"}', 0.0)
    bounds = sorted(
        (float(k.split('le="')[1].rstrip('"}')), v) for k, v in d.items() if "+Inf" not in k
    )
    p99 = next((b for b, c in bounds if c >= 0.99 * n), float("inf")) if n else float("nan")
    over = {b: n - c for b, c in bounds}

    def delta(name: str) -> float:
        return after.get(name, 0.0) - before.get(name, 0.0)

    gc_sums = [k for k in after if k.startswith("pfeffer_gc_pause_seconds_sum")]
    return {
        "lag_p99_ms_le": p99 * 1000,
        "lag_over_10ms": round(over.get(0.01, 0.0) / n, 4) if n else None,
        "lag_over_50ms": round(over.get(0.05, 0.0) / n, 4) if n else None,
        "gc2_count": delta('pfeffer_gc_pause_seconds_count{generation="2"}'),
        "gc2_ms": round(delta('pfeffer_gc_pause_seconds_sum{generation="2"}') * 1000, 1),
        "gc_all_ms": round(sum(delta(k) for k in gc_sums) * 1000, 1),
    }


class Bench:
    def __init__(self, args: argparse.Namespace, servers: list[Server], pg: str, redis_pid: int):
        self.args = args
        self.servers = servers
        self.pg = pg
        self.redis_pid = redis_pid
        self.tables = 0
        self.totals: dict[str, Any] = {"games": 0, "checked": 0, "errors": 0}
        self.mismatches: list[str] = []
        self.error_kinds: dict[str, int] = {}
        bases = (servers[0].base, servers[1].base)
        self.clients = [ClientProcess(bases, args, i) for i in range(args.client_procs)]
        self.probe: Probe | None = None

    def pids(self) -> list[int]:
        return [s.proc.pid for s in self.servers if s.proc is not None]

    def cpu(self) -> float:
        return sum(proc_cpu(p) for p in self.pids())

    def cpu_parts(self) -> dict[str, dict[int, float]]:
        """CPU seconds used so far by each process: the servers, the client processes, Redis,
        PostgreSQL."""
        return {
            "servers": cpu_of(self.pids()),
            "clients": cpu_of([c.proc.pid for c in self.clients if c.proc.pid]),
            "redis": cpu_of([self.redis_pid]),
            "postgres": cpu_of(pg_pids()),
        }

    def rss(self) -> float:
        return sum(proc_rss_mb(p) for p in self.pids())

    def moves(self) -> int:
        from sqlalchemy import create_engine, text

        engine = create_engine(self.pg)
        try:
            with engine.connect() as c:
                return int(c.execute(text("SELECT count(*) FROM actions")).scalar_one())
        finally:
            engine.dispose()

    async def ask_all(self, *command: Any) -> list[Any]:
        return list(
            await asyncio.gather(*(asyncio.to_thread(c.ask, *command) for c in self.clients))
        )

    async def start_probe(self) -> None:
        """The probes watch a table of their own (a game nobody plays)."""
        seats = [{"name": "Probe", "kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
        urls = []
        for s in self.servers:
            body = {"game": "dice", "seats": seats}
            t = await asyncio.to_thread(http, "POST", s.base + "/api/tables", body)
            urls.append(s.base.replace("http", "ws") + f"/ws/{t['id']}")
        self.probe = Probe(urls)
        self.probe.start()

    async def grow_to(self, n: int) -> None:
        """``n`` tables, spread over the client processes, 20 at a time (not hundreds of
        tables in one instant)."""
        k = len(self.clients)
        while self.tables < n:
            step = min(20, n - self.tables)
            target = self.tables + step
            # Client process j holds the tables j, j + k, j + 2k, … of the whole bench.
            shares = [len(range(j, target, k)) for j in range(k)]
            await asyncio.gather(
                *(
                    asyncio.to_thread(c.ask, "grow", shares[j], j, k)
                    for j, c in enumerate(self.clients)
                )
            )
            self.tables = target
            await asyncio.sleep(0.2)

    async def take(self) -> dict[str, Any]:
        """The clients' measurements since the last call, merged; the running counts."""
        parts = await self.ask_all("take")
        out: dict[str, Any] = {"own": [], "cross": [], "lag": []}
        for p in parts:
            for k in ("own", "cross", "lag"):
                out[k] += p[k]
        for k in ("games", "checked", "errors"):
            self.totals[k] = sum(p[k] for p in parts)
        self.mismatches = [m for p in parts for m in p["mismatches"]]
        self.error_kinds = {}
        for p in parts:
            for k, v in p["error_kinds"].items():
                self.error_kinds[k] = self.error_kinds.get(k, 0) + v
        return out

    async def stop_all(self) -> None:
        await self.ask_all("stop", self.args.game_timeout)
        self.tables = 0

    async def close(self) -> None:
        if self.probe is not None:
            await self.probe.stop()
        for c in self.clients:
            await asyncio.to_thread(c.close)

    async def level(self, n: int) -> dict[str, Any]:
        await self.grow_to(n)
        await asyncio.sleep(min(5.0, self.args.level_seconds / 3))  # settle
        await self.take()
        if self.probe is not None:
            self.probe.take()
        scraped0 = [await asyncio.to_thread(scrape, sv.base) for sv in self.servers]
        moves0 = await asyncio.to_thread(self.moves)
        cpu0, t0 = self.cpu_parts(), time.perf_counter()
        await asyncio.sleep(self.args.level_seconds)
        cpu1, t1 = self.cpu_parts(), time.perf_counter()
        moves1 = await asyncio.to_thread(self.moves)
        scraped1 = [await asyncio.to_thread(scrape, sv.base) for sv in self.servers]
        got = await self.take()
        moves = max(1, moves1 - moves0)
        used = {k: cpu_used(cpu0[k], cpu1[k]) for k in cpu0}
        row = {
            "tables": n,
            "moves_per_s": round(moves / (t1 - t0), 1),
            "own_p50_ms": round(pct(got["own"], 0.5), 1),
            "own_p99_ms": round(pct(got["own"], 0.99), 1),
            "cross_p50_ms": round(pct(got["cross"], 0.5), 1),
            "cross_p99_ms": round(pct(got["cross"], 0.99), 1),
            "cpu_ms_per_move": round(used["servers"] / moves * 1000, 2),
            # Cores in use, each part (PostgreSQL: the machine's, every session).
            "cores": {k: round(v / (t1 - t0), 2) for k, v in used.items()},
            "client_lag_p99_ms": round(pct(got["lag"], 0.99), 1),
            "client_lag_max_ms": round(pct(got["lag"], 1.0), 1),
            "rss_mb": round(self.rss(), 1),
            "samples": len(got["cross"]),
        }
        if self.probe is not None:
            rtt = self.probe.take()
            row["probe_p50_ms"] = [round(pct(r, 0.5), 1) for r in rtt]
            row["probe_p99_ms"] = [round(pct(r, 0.99), 1) for r in rtt]
        row["servers_loop"] = [loop_figures(a, b) for a, b in zip(scraped0, scraped1, strict=True)]
        row["load_avg"] = os.getloadavg()[0]
        print(json.dumps(row), flush=True)
        return row


async def load(bench: Bench, levels: list[int]) -> dict[str, Any]:
    base_rss = bench.rss()
    rows = []
    for n in levels:
        row = await bench.level(n)
        row["mb_per_table"] = round((row["rss_mb"] - base_rss) / n, 3)
        rows.append(row)
        if row["cross_p99_ms"] > 4 * GOAL_MS:
            break  # far past the goal: higher levels say nothing more
    await bench.stop_all()
    held = [r["tables"] for r in rows if r["cross_p99_ms"] < GOAL_MS and r["own_p99_ms"] < GOAL_MS]
    return {
        "base_rss_mb": round(base_rss, 1),
        "levels": rows,
        "max_tables_p99_under_50ms": max(held, default=0),
    }


async def soak(bench: Bench, minutes: float, tables: int) -> dict[str, Any]:
    await bench.grow_to(tables)
    samples: list[tuple[float, float]] = []
    start = time.perf_counter()
    end = start + minutes * 60
    while time.perf_counter() < end:
        samples.append((round(time.perf_counter() - start, 1), round(bench.rss(), 1)))
        await bench.take()  # the counts (and the latencies, not needed here)
        games = bench.totals["games"]
        print(
            json.dumps({"t": samples[-1][0], "rss_mb": samples[-1][1], "games": games}), flush=True
        )
        await asyncio.sleep(min(15.0, max(0.0, end - time.perf_counter())))
    await bench.stop_all()
    await bench.take()
    after_warmup = [r for t, r in samples if t >= min(60.0, minutes * 60 / 3)] or [samples[-1][1]]
    growth = max(after_warmup) - after_warmup[0]
    return {
        "minutes": minutes,
        "tables": tables,
        "games_finished": bench.totals["games"],
        "records_checked": bench.totals["checked"],
        "mismatches": bench.mismatches[:20],
        "client_errors": bench.totals["errors"],
        "rss_samples": samples,
        "rss_growth_mb": round(growth, 1),
        "growth_bound_mb": bench.args.growth_mb,
        "ok": growth <= bench.args.growth_mb
        and not bench.mismatches
        and bench.totals["checked"] > 0,
    }


async def main_async(
    args: argparse.Namespace, servers: list[Server], pg: str, redis_pid: int
) -> dict[str, Any]:
    if args.soak_minutes:
        args.check = True  # before the client processes start: they take the arguments along
    out: dict[str, Any] = {
        "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "uptime_load_avg": os.getloadavg(),
    }
    bench = Bench(args, servers, pg, redis_pid)
    try:
        if args.probe:
            await bench.start_probe()
        if args.soak_minutes:
            out["soak"] = await soak(bench, args.soak_minutes, args.soak_tables)
        else:
            levels = [min(int(x), args.max_tables) for x in args.levels.split(",")]
            out["load"] = await load(bench, levels)
        await bench.take()
        out["games_finished"] = bench.totals["games"]
        out["client_errors"] = bench.totals["errors"]
        out["client_error_kinds"] = bench.error_kinds
    finally:
        await bench.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default=os.environ.get("PFEFFER_TEST_POSTGRES_URL") or PG_DEFAULT)
    ap.add_argument("--levels", default="50,100,200,300,500,700")
    ap.add_argument("--level-seconds", type=float, default=20.0)
    ap.add_argument("--max-tables", type=int, default=1000, help="hard cap on concurrent tables")
    ap.add_argument("--think", type=float, default=1.0, help="a human's mean thinking time, s")
    ap.add_argument("--bot-delay", type=float, default=0.5)
    ap.add_argument("--target", type=int, default=2000, help="points a dice game is played to")
    ap.add_argument("--game-timeout", type=float, default=300.0)
    ap.add_argument("--soak-minutes", type=float, default=0.0)
    ap.add_argument("--soak-tables", type=int, default=200)
    ap.add_argument(
        "--growth-mb", type=float, default=50.0, help="allowed memory growth in the soak"
    )
    ap.add_argument("--check", action="store_true", help="compare each finished record (load too)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--profile", type=Path, help="run the servers under cProfile, into DIR")
    ap.add_argument(
        "--client-procs",
        type=int,
        default=2,
        help="processes the simulated players run in (each holds whole tables)",
    )
    ap.add_argument(
        "--no-probe",
        dest="probe",
        action="store_false",
        help="no ping probe on each server (see Probe)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, pg_schema(args.db) as pg:
        redis = RedisServer(Path(tmp))
        redis.start()
        servers: list[Server] = []
        for i in range(2):
            log = Path(tmp) / f"s{i}.log"
            if args.profile:
                args.profile.mkdir(parents=True, exist_ok=True)
                out = args.profile.resolve() / f"s{i}.prof"
                servers.append(ProfiledServer(pg, redis.url, log, args.bot_delay, out=out))
            else:
                servers.append(Server(pg, redis.url, log, args.bot_delay))
        for s in servers:
            s.extra_args += ["--limit", "off"]  # every client comes from 127.0.0.1
        try:
            start_all(servers)
            assert redis.proc is not None
            result = asyncio.run(main_async(args, servers, pg, redis.proc.pid))
        finally:
            for s in servers:
                s.stop()
            redis.stop()
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    if "soak" in result and not result["soak"]["ok"]:
        sys.exit(1)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
