"""Solves in the background: the solved table of a two-player rule set worked out in a worker
process while the players sit down (issue 21 §1), never in the server's own processes.

- :func:`start` spawns a worker (``multiprocessing``'s "spawn": a fresh interpreter, nothing of
  the server's event loop or sockets inherited) and returns at once. The worker takes the rules'
  lock (``<key>.lock`` beside the cached tables, an ``flock``: one solve per rules across every
  process of the machine; a second worker for the same rules ends at once), then the machine's
  lock (one solve at a time across processes and servers of this user: a solve takes the cores
  and up to a GB), solves at a low priority, stores the table in the cache every process reads
  (:mod:`pfeffer.dice.solver.cache`) and removes its progress file.
- Its progress is a small JSON file beside the table (``<key>.progress.json``: ``state``
  "waiting" or "solving", ``fraction``, ``started``, the estimate), which :func:`status` reads.
- Rules whose solve would take more than an hour here (:mod:`pfeffer.dice.solver.estimate`;
  Classic Farkle's about nine) are refused: never solved on first use.

The service (``services/solves.py``) decides when to start one and what the pages show.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import multiprocessing
import os
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import cache as solver_cache

#: The machine's lock (one solve at a time); ``$PFEFFER_SOLVE_LOCK`` overrides it.
LOCK_ENV = "PFEFFER_SOLVE_LOCK"
#: Progress is written at most this often (seconds).
WRITE_EVERY = 1.0
#: The worker's niceness: the server's processes answer first.
NICE = 10
#: A worker just spawned has this long (seconds) to take its rules' lock; until then the
#: progress file :func:`start` wrote counts as a solve under way (no second worker, no "idle").
STARTING = 60.0
#: A solve that failed (out of memory, a bug) is not started again for this long (seconds): a
#: table's status would otherwise start it over and over.
RETRY_AFTER = 3600.0
#: Tests only: solve with this lower bound (steps) instead of the solver's, so that a small
#: target solves in seconds (its table is then cruder than a real one's; never set in use).
TEST_LOWER_ENV = "PFEFFER_TEST_SOLVE_LOWER"


def machine_lock() -> Path:
    """The machine-wide lock file of solves (this user's: a server's processes share a user)."""
    override = os.environ.get(LOCK_ENV)
    if override:
        return Path(override)
    return Path(tempfile.gettempdir()) / f"pfeffer-solve-{os.getuid()}.lock"


def _files(rules: DiceRules) -> tuple[Path, Path]:
    base = solver_cache.cache_dir() / solver_cache.rules_key(rules)
    return base.with_suffix(".lock"), base.with_suffix(".progress.json")


def _failed(rules: DiceRules) -> Path:
    """The mark a failed solve leaves (its time and the error), beside the lock."""
    return (solver_cache.cache_dir() / solver_cache.rules_key(rules)).with_suffix(".failed")


def failed_lately(rules: DiceRules) -> bool:
    """Whether a solve of ``rules`` failed less than :data:`RETRY_AFTER` seconds ago."""
    try:
        return time.time() - _failed(rules).stat().st_mtime < RETRY_AFTER
    except OSError:
        return False


def _rules(data: Mapping[str, Any]) -> DiceRules:
    return DiceRules.from_dict(dict(data))


def key(data: Mapping[str, Any]) -> str:
    """The rules' key in the cache (their file names)."""
    return solver_cache.rules_key(_rules(data))


def estimate(data: Mapping[str, Any]) -> dict[str, Any]:
    """The solve's cost here: ``seconds`` (wall, on this machine's cores), ``memory`` (bytes)
    and ``refusal`` (why it is not solved on first use, None if it may be)."""
    from pfeffer.dice.solver.estimate import estimate as cost

    e = cost(_rules(data))
    return {"seconds": e.seconds, "memory": e.memory, "refusal": e.refusal()}


def solved(data: Mapping[str, Any]) -> bool:
    """Whether the table of these rules is shipped or cached (not read)."""
    return solver_cache.exists(_rules(data))


@contextlib.contextmanager
def _flock(path: Path, *, wait: bool) -> Iterator[bool]:
    """Hold ``path``'s lock (``wait``: until it is free) while the block runs; yields whether
    it is held."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _locked(path: Path) -> bool:
    """Whether another process holds ``path``'s lock now."""
    if not path.exists():
        return False
    with _flock(path, wait=False) as held:
        return not held


def _write(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(path)


def status(data: Mapping[str, Any]) -> dict[str, Any]:
    """Where the solve of these rules stands: ``state`` "ready" (a table is there), "solving"
    or "waiting" (a worker holds the rules' lock; with ``fraction``, ``elapsed`` and
    ``seconds`` left), "too_long" (refused: ``refusal``, ``seconds``) or "idle" (nothing
    under way)."""
    rules = _rules(data)
    if solver_cache.exists(rules):
        return {"state": "ready"}
    lock, progress = _files(rules)
    held = _locked(lock)
    found = _progress(progress)
    if held or _starting(found):
        return _with_time_left(found or {"state": "waiting"})
    cost = estimate(data)
    if cost["refusal"] is not None:
        return {"state": "too_long", "seconds": cost["seconds"], "refusal": cost["refusal"]}
    return {"state": "idle", "seconds": cost["seconds"]}


def _progress(path: Path) -> dict[str, Any] | None:
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def _starting(found: dict[str, Any] | None) -> bool:
    """Whether ``found`` is the mark of a worker spawned moments ago."""
    spawned = found.get("spawned") if found else None
    return isinstance(spawned, float | int) and 0 <= time.time() - spawned < STARTING


def _with_time_left(found: dict[str, Any]) -> dict[str, Any]:
    state = found.get("state", "waiting")
    fraction = float(found.get("fraction", 0.0))
    guess = float(found.get("estimate", 0.0))
    out: dict[str, Any] = {"state": state, "fraction": fraction, "seconds": guess}
    if state == "solving":
        elapsed = max(0.0, time.time() - float(found.get("started", time.time())))
        out["elapsed"] = elapsed
        # Early on the measured estimate; once a fifth is done, the pace so far.
        if fraction >= 0.2 and elapsed > 0:
            out["seconds"] = elapsed * (1 - fraction) / fraction
        else:
            out["seconds"] = max(1.0, guess - elapsed)
    return out


def start(data: Mapping[str, Any]) -> bool:
    """Start a worker process that solves these rules unless their table is there, a worker
    already holds their lock, or the solve is refused (more than an hour here). Returns at
    once (a fraction of a second to spawn: call it in a thread); whether a worker was
    started."""
    rules = _rules(data)
    lock, progress = _files(rules)
    if solver_cache.exists(rules) or _locked(lock) or _starting(_progress(progress)):
        return False
    if failed_lately(rules):
        return False
    cost = estimate(data)
    if cost["refusal"] is not None:
        return False
    progress.parent.mkdir(parents=True, exist_ok=True)
    _write(progress, {"state": "waiting", "fraction": 0.0, "estimate": cost["seconds"],
                      "spawned": time.time()})  # fmt: skip
    multiprocessing.active_children()  # reaps the workers that ended
    ctx = multiprocessing.get_context("spawn")
    names = (solver_cache.DATA_DIR_ENV, LOCK_ENV, TEST_LOWER_ENV)
    env = {k: os.environ[k] for k in names if k in os.environ}
    # A daemon: a server that stops ends its solve (not waits up to an hour for it); the lock
    # goes with the process, and the next status of a table that wants it starts it again.
    worker = ctx.Process(target=work, args=(rules.to_dict(), env), name="pfeffer-solve",
                         daemon=True)  # fmt: skip
    worker.start()
    return True


def work(data: dict[str, Any], env: dict[str, str]) -> None:
    """The worker: solve ``data``'s rules under the two locks and store the table (the target
    of :func:`start`; callable in-process by tests)."""
    os.environ.update(env)
    with contextlib.suppress(OSError):
        os.nice(NICE)
    rules = _rules(data)
    lock, progress = _files(rules)
    with _flock(lock, wait=False) as mine:
        if not mine:
            return  # another worker solves these rules
        try:
            _solve(rules, progress)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                _failed(rules).write_text(f"{type(exc).__name__}: {exc}\n")
            raise
        finally:
            progress.unlink(missing_ok=True)


def _solve(rules: DiceRules, progress: Path) -> None:
    guess = estimate(rules.to_dict())["seconds"]
    _write(progress, {"state": "waiting", "fraction": 0.0, "estimate": guess})
    with _flock(machine_lock(), wait=True):
        if solver_cache.exists(rules):
            return  # solved while this waited (another user of the cache)
        from pfeffer.dice.solver.solve import available_cores, solve_tables

        started = time.time()
        last = 0.0

        def report(stage: str, fraction: float) -> None:
            nonlocal last
            now = time.time()
            if now - last >= WRITE_EVERY or fraction >= 1.0:
                last = now
                _write(progress, {"state": "solving", "stage": stage, "fraction": fraction,
                                  "started": started, "estimate": guess})  # fmt: skip

        report("start", 0.0)
        lower = os.environ.get(TEST_LOWER_ENV)
        options = {"lower": int(lower)} if lower else {}
        strategy = solve_tables(rules, progress=report, threads=available_cores(), **options)
        solver_cache.save(strategy)
