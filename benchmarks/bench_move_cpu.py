"""The server's CPU per dice move without the network, the database or Redis (issue 9, load).

    python benchmarks/bench_move_cpu.py [--games 40] [--repeats 5] [--target 2000] [--profile F]

Plays seeded dice games as ``benchmarks/bench_load.py`` does (a human on one process who banks
when allowed, else keeps the first option; a heuristic computer player), through the very
functions the two server processes call per move:

- the acting process: the action applied to a copy of the game (``Table.after``; a computer
  player's move first asks its bot, ``Table.bot_action``) and the table moved on
  (``Live.advance``), the frame of the human's seat
  written (``Live.frame_text``, what a broadcast sends) and the fan-out's message written
  (orjson, as ``services/redisbus.py`` does);
- the other process: the message read, its actions applied to a copy of its game and the table
  moved on (``Table.replay``, ``Live.advance``, as ``services/sync.py`` ``_remote_act`` does)
  and the spectator's frame written.

``--more-viewers``: a spectator watches on the acting process too, and both seats are open on
the other process too (frames for several viewers of one version).

It prints the CPU time (``time.process_time``) per move, median of ``--repeats`` runs of
``--games`` games, in all and by part. The database's commit, Redis and the WebSocket
writes are not in it (``bench_load.py`` measures the whole server). It measures the
``pfeffer`` package it imports: from a work tree of its own, run it with ``PYTHONPATH=src``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import statistics
import time
from pathlib import Path
from typing import Any

import orjson

from pfeffer.web.adapters.games import adapter, chosen_action
from pfeffer.web.services.live import Live
from pfeffer.web.services.messages import Act, parse
from pfeffer.web.storage.repository import SeatRow

PARTS = ("bot", "apply", "own_frame", "publish", "remote_apply", "remote_frame")


class Conn:
    """A client in ``Live.conns`` (its frames are written, never sent)."""

    async def send_json(self, data: Any) -> None:
        raise AssertionError("not sent")

    async def close(self, code: int = 1000) -> None:
        raise AssertionError("not closed")


def seats() -> list[SeatRow]:
    return [
        SeatRow(
            table_id="t", seat=0, name="Human", kind="human", bot=None, token="a", public=False
        ),
        SeatRow(
            table_id="t", seat=1, name="Robo", kind="bot", bot="heuristic", token="b", public=False
        ),
    ]


def play(seed: int, target: int, cpu: dict[str, float], more: bool = False) -> int:
    """One game to its end on two processes' copies; the moves it took (CPU into ``cpu``)."""
    clock = time.process_time
    rules = {"target": target}
    names = ["Human", "Robo"]
    here, there = (
        Live("t", "dice", adapter("dice").table(rules, names, seed), seats(), 0, "running", None)
        for _ in range(2)
    )
    here.conns[Conn()] = 0  # the human's connection here
    there.conns[Conn()] = None  # the spectator's, on the other process
    here.frame_text(0)
    there.frame_text(None)
    moves = 0
    while not here.game.is_over:
        seat = here.game.current_player
        assert seat is not None
        t0 = clock()
        if seat == 1:
            action = here.table.bot_action(1, "heuristic", seed * 100_003 + moves)
        else:
            legal = here.table.legal_actions(0)
            keeps = [x for x in legal if "keep" in x]
            action = "bank" if "bank" in legal else (keeps or legal)[0]
        t1 = clock()
        before = len(here.game.actions)
        table = here.table.after(action, seat)
        new = table.game.actions[before:]
        old = here.version
        applied = (seat, action, old, old + 1) if seat == 0 else None
        here.advance(table, old + 1, {"seat": seat, "action": action}, applied)
        t2 = clock()
        here.frame_text(0)
        if more:
            here.frame_text(None)
        t3 = clock()
        msg = orjson.dumps(
            Act(
                start=old,
                end=here.version,
                actions=new,
                seat=seat,
                last=here.last,
                applied=applied,
                status=here.status,
            ).wire("node-a")
        )
        t4 = clock()
        got = parse(orjson.loads(msg))  # as a process reads a message (services/messages.py)
        assert isinstance(got, Act)
        there.advance(there.table.replay(got.actions), got.end, got.last)
        t5 = clock()
        there.frame_text(None)
        if more:
            there.frame_text(0)
            there.frame_text(1)
        t6 = clock()
        for part, dt in zip(
            PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5), strict=True
        ):
            cpu[part] += dt
        moves += 1
        assert there.last == {"seat": seat, "action": chosen_action(action)} or seat == 1
    return moves


def run(games: int, target: int, more: bool = False) -> tuple[int, dict[str, float]]:
    cpu = dict.fromkeys(PARTS, 0.0)
    moves = sum(play(seed, target, cpu, more) for seed in range(1, games + 1))
    return moves, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--target", type=int, default=2000)
    ap.add_argument("--profile", type=Path, help="write a cProfile of one run here")
    ap.add_argument(
        "--more-viewers",
        action="store_true",
        help="a spectator on the acting process too, seats 0 and 1 on the other one too",
    )
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    run(2, args.target)  # warm up (the engines' tables, the converters)
    if args.profile:
        prof = cProfile.Profile(time.process_time)
        prof.runcall(run, args.games, args.target)
        prof.dump_stats(args.profile)
    per_move: dict[str, list[float]] = {p: [] for p in (*PARTS, "server", "total")}
    moves = 0
    for _ in range(args.repeats):
        moves, cpu = run(args.games, args.target, args.more_viewers)
        for part, s in cpu.items():
            per_move[part].append(s / moves * 1e6)
        per_move["server"].append(sum(cpu[p] for p in PARTS if p != "bot") / moves * 1e6)
        per_move["total"].append(sum(cpu.values()) / moves * 1e6)
    out = {
        "games": args.games,
        "moves": moves,
        "repeats": args.repeats,
        "us_per_move_median": {k: round(statistics.median(v), 1) for k, v in per_move.items()},
        "us_per_move_min": {k: round(min(v), 1) for k, v in per_move.items()},
    }
    print(json.dumps(out, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
