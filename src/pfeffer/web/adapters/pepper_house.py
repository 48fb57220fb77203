"""Pepper puzzles under house rules for the trainer page (issue 23): made on the server once per
rules key, in a worker process, never on the event loop.

The page offers the house rules of the new-table form that change what a hand's decisions are
worth: each other choice of a choice rule and the other value of a yes/no rule
(:func:`options`: ``all_pass=redeal``, ``no_trump=false``), one rule changed at a time, named
by the form's label and value. The target (and so the presets, which differ only in the
target and the seats) changes nothing in a puzzle, whose values are the hand's points.

:func:`start` hands the generator (``pfeffer.pepper.puzzle_gen.generate``, as ``pfeffer pepper
train --rule``: at most :data:`HOUSE_HANDS` hands, 40 sampled deals per value, twice) to a pool
of one worker process ("spawn": a fresh interpreter, nothing of the server's loop or sockets
inherited; one rules key at a time, at a low priority) and returns at once; :func:`made` has the
puzzles once it is done, kept in this process for its life. A server of several processes makes
them in each process that is asked (the same puzzles: the generator's seed is fixed)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import threading
from typing import Any

from pfeffer.pepper.puzzles import PepperPuzzle
from pfeffer.pepper.rules import PEPPER_RULE_SPECS, PepperRules

#: The hands played to make the puzzles (at most), the puzzles of each kind and the sampled
#: deals per value (two samples each), as the terminal's ``--rule``.
HOUSE_HANDS = 60
HOUSE_PER_KIND = {"card": 30, "bid": 15, "trump": 10, "open": 30}
HOUSE_WORLDS = 40
#: The worker's niceness: the server's processes answer first.
NICE = 10
#: Tests only: play this many hands instead of :data:`HOUSE_HANDS` (fewer puzzles, sooner).
TEST_HANDS_ENV = "PFEFFER_TEST_HOUSE_HANDS"


def options() -> list[tuple[str, str, str]]:
    """The house rules the page offers: (key, the form's label of the rule (a msgid), the
    value: the choice as the API names it, or "yes"/"no")."""
    out = []
    for spec in PEPPER_RULE_SPECS:
        if spec.type == "choice":
            for c in spec.choices:
                if c != spec.default:
                    out.append((f"{spec.name}={c}", spec.label, c))
        elif spec.type == "bool":
            value = not spec.default
            out.append((f"{spec.name}={str(value).lower()}", spec.label, "yes" if value else "no"))
    return out


def rules_of(key: str) -> PepperRules | None:
    """The rules of an offered key (None: not one the page offers)."""
    if key not in {k for k, _, _ in options()}:
        return None
    name, _, value = key.partition("=")
    spec = next(s for s in PEPPER_RULE_SPECS if s.name == name)
    return PepperRules.from_dict({name: value == "true" if spec.type == "bool" else value})


_LOCK = threading.Lock()
#: The worker pool (made when first needed), under ``"pool"``.
_WORKER: dict[str, concurrent.futures.ProcessPoolExecutor] = {}
_PENDING: dict[str, concurrent.futures.Future[list[dict[str, Any]]]] = {}
_MADE: dict[str, tuple[PepperPuzzle, ...]] = {}


def made(key: str) -> tuple[PepperPuzzle, ...] | None:
    """The puzzles of the rules ``key`` if they are made (None: not yet, or not started)."""
    found = _MADE.get(key)
    if found is not None:
        return found
    with _LOCK:
        future = _PENDING.get(key)
        if future is None or not future.done():
            return None
        del _PENDING[key]
        if future.exception() is not None:
            return None  # asked again, it starts again
        _MADE[key] = tuple(PepperPuzzle.from_dict(d) for d in future.result())
        return _MADE[key]


def start(key: str) -> str:
    """Make the puzzles of ``key``'s rules unless they are made or under way: "ready" or
    "preparing" (KeyError: not a key the page offers). Returns at once."""
    rules = rules_of(key)
    if rules is None:
        raise KeyError(key)
    if made(key) is not None:
        return "ready"
    with _LOCK:
        if key not in _PENDING:
            pool = _WORKER.get("pool")
            if pool is None:
                pool = _WORKER["pool"] = concurrent.futures.ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn")
                )
            env = {k: os.environ[k] for k in (TEST_HANDS_ENV,) if k in os.environ}
            _PENDING[key] = pool.submit(work, rules.to_dict(), env)
    return "preparing"


def wait(key: str, timeout: float | None = None) -> tuple[PepperPuzzle, ...]:
    """The puzzles of ``key``'s rules, started if need be and waited for (in a thread, never
    the event loop); KeyError for a key not offered, TimeoutError."""
    start(key)
    with _LOCK:
        future = _PENDING.get(key)
    if future is not None:
        concurrent.futures.wait([future], timeout=timeout)
    found = made(key)
    if found is None:
        raise TimeoutError(key)
    return found


def shutdown() -> None:
    """Stop the worker (the app is shutting down); puzzles under way are dropped."""
    with _LOCK:
        pool = _WORKER.pop("pool", None)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        _PENDING.clear()


def work(data: dict[str, Any], env: dict[str, str]) -> list[dict[str, Any]]:
    """The worker: the puzzles of the rules ``data`` as JSON-ready data."""
    os.environ.update(env)
    with contextlib.suppress(OSError):
        os.nice(NICE)
    from pfeffer.pepper.puzzle_gen import generate

    hands = int(os.environ.get(TEST_HANDS_ENV) or HOUSE_HANDS)
    found, _ = generate(hands=hands, seed=0, per_kind=HOUSE_PER_KIND, worlds=HOUSE_WORLDS,
                        rules=PepperRules.from_dict(data))  # fmt: skip
    return [p.to_dict() for p in found]
