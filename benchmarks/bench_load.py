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
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.web.cluster import RedisServer, Server, pg_schema, start_all  # noqa: E402

from pfeffer.web.games import chosen_action  # noqa: E402

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
    """What the clients measured."""

    own: list[float] = field(default_factory=list)
    cross: list[float] = field(default_factory=list)
    games: int = 0
    checked: int = 0
    mismatches: list[str] = field(default_factory=list)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)

    def reset(self) -> None:
        self.own.clear()
        self.cross.clear()


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
                http, "GET", human_base + f"/api/tables/{t['id']}/record"
            )
            self.check(t["id"], record["actions"], seen)

    async def play(self, hs: Any, sent: dict[int, float]) -> bool:
        """Play to the end (True), or until the bench stops (False)."""
        acted = -1
        got: set[int] = set()
        while True:
            msg = json.loads(await hs.recv())
            if msg.get("type") != "state":
                continue
            v = msg["version"]
            if v in sent and v not in got:
                got.add(v)
                self.stats.own.append(time.perf_counter() - sent[v])
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
            msg = json.loads(await ws.recv())
            if msg.get("type") != "state":
                continue
            v = msg["version"]
            if v not in seen:
                seen[v] = msg["last"]
                if v in sent:
                    self.stats.cross.append(time.perf_counter() - sent[v])
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


class Bench:
    def __init__(self, args: argparse.Namespace, servers: list[Server], pg: str) -> None:
        self.args = args
        self.servers = servers
        self.pg = pg
        self.stats = Stats()
        self.runs: list[tuple[TableRun, asyncio.Task[None]]] = []

    def pids(self) -> list[int]:
        return [s.proc.pid for s in self.servers if s.proc is not None]

    def cpu(self) -> float:
        return sum(proc_cpu(p) for p in self.pids())

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

    async def grow_to(self, n: int) -> None:
        a, b = self.servers[0].base, self.servers[1].base
        while len(self.runs) < n:
            i = len(self.runs)
            run = TableRun((a, b) if i % 2 == 0 else (b, a), self.stats, self.args)
            self.runs.append((run, asyncio.create_task(run.run())))
            if i % 20 == 19:
                await asyncio.sleep(0.2)  # do not open hundreds of tables in one instant

    async def stop_all(self) -> None:
        for run, _ in self.runs:
            run.stop.set()
        tasks = [t for _, t in self.runs]
        await asyncio.wait(tasks, timeout=self.args.game_timeout)
        for t in tasks:
            t.cancel()
        self.runs.clear()

    async def level(self, n: int) -> dict[str, Any]:
        await self.grow_to(n)
        await asyncio.sleep(min(5.0, self.args.level_seconds / 3))  # settle
        self.stats.reset()
        cpu0, moves0, t0 = self.cpu(), await asyncio.to_thread(self.moves), time.perf_counter()
        await asyncio.sleep(self.args.level_seconds)
        cpu1, moves1, t1 = self.cpu(), await asyncio.to_thread(self.moves), time.perf_counter()
        moves = max(1, moves1 - moves0)
        row = {
            "tables": n,
            "moves_per_s": round(moves / (t1 - t0), 1),
            "own_p50_ms": round(pct(self.stats.own, 0.5), 1),
            "own_p99_ms": round(pct(self.stats.own, 0.99), 1),
            "cross_p50_ms": round(pct(self.stats.cross, 0.5), 1),
            "cross_p99_ms": round(pct(self.stats.cross, 0.99), 1),
            "cpu_ms_per_move": round((cpu1 - cpu0) / moves * 1000, 2),
            "rss_mb": round(self.rss(), 1),
            "samples": len(self.stats.cross),
        }
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
    bench.args.check = True
    await bench.grow_to(tables)
    samples: list[tuple[float, float]] = []
    start = time.perf_counter()
    end = start + minutes * 60
    while time.perf_counter() < end:
        samples.append((round(time.perf_counter() - start, 1), round(bench.rss(), 1)))
        print(
            json.dumps({"t": samples[-1][0], "rss_mb": samples[-1][1], "games": bench.stats.games}),
            flush=True,
        )
        await asyncio.sleep(min(15.0, max(0.0, end - time.perf_counter())))
    await bench.stop_all()
    after_warmup = [r for t, r in samples if t >= min(60.0, minutes * 60 / 3)] or [samples[-1][1]]
    growth = max(after_warmup) - after_warmup[0]
    return {
        "minutes": minutes,
        "tables": tables,
        "games_finished": bench.stats.games,
        "records_checked": bench.stats.checked,
        "mismatches": bench.stats.mismatches[:20],
        "client_errors": bench.stats.errors,
        "rss_samples": samples,
        "rss_growth_mb": round(growth, 1),
        "growth_bound_mb": bench.args.growth_mb,
        "ok": growth <= bench.args.growth_mb
        and not bench.stats.mismatches
        and bench.stats.checked > 0,
    }


async def main_async(args: argparse.Namespace, servers: list[Server], pg: str) -> dict[str, Any]:
    bench = Bench(args, servers, pg)
    out: dict[str, Any] = {
        "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
    }
    if args.soak_minutes:
        out["soak"] = await soak(bench, args.soak_minutes, args.soak_tables)
    else:
        levels = [min(int(x), args.max_tables) for x in args.levels.split(",")]
        out["load"] = await load(bench, levels)
    out["games_finished"] = bench.stats.games
    out["client_errors"] = bench.stats.errors
    out["client_error_kinds"] = bench.stats.error_kinds
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
            result = asyncio.run(main_async(args, servers, pg))
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
