"""The first player's chance under the default rules from simulated games of perfect play.

    python benchmarks/dice_first_player_mc.py [--games 200000] [--chunk 2000] [--resume]

Plays games 0 .. N-1 of one simulator run (seed ``--seed``) with the solved default table in
both seats (:func:`pfeffer.dice.simulate`, perfect play in the compiled loop: the same games as
two :class:`~pfeffer.dice.bots.OptimalBot` in :class:`~pfeffer.dice.DiceGame`), in chunks. Each
finished chunk is appended to a JSON-lines progress file (``--progress``); ``--resume`` skips
the chunks already there, so an interrupted run goes on where it stopped. Prints the first
player's share with its standard error (a shared win counts half) and compares it with the
solver's ``win_probability(0, 0)``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

DEFAULT_PROGRESS = Path(__file__).resolve().parent / "results" / "dice_first_player_mc.jsonl"


def summary(rows: list[dict[str, float]], solved: float) -> str:
    """The first player's share ± its standard error over the chunks in ``rows``."""
    games = sum(r["games"] for r in rows)
    if not games:
        return "no games yet"
    wins = sum(r["wins"] for r in rows)
    squares = sum(r["squares"] for r in rows)
    p = wins / games
    var = (squares - games * p * p) / (games - 1) if games > 1 else math.nan
    se = math.sqrt(var / games)
    turns = sum(r["turns"] for r in rows) / games
    calls = sum(r["calls"] for r in rows)
    cpu = sum(r["cpu"] for r in rows)
    return (
        f"{games:,} games: first player {p:.5f} ± {se:.5f} (solver {solved:.7f}; "
        f"difference {(p - solved) / se:+.2f} standard errors); {turns:.1f} turns a game, "
        f"{calls} Pfeffer calls; {cpu:,.0f} s CPU ({games / cpu:.1f} games/s)"
    )


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--chunk", type=int, default=2_000, help="games per simulate() call")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--progress", type=Path, default=DEFAULT_PROGRESS)
    ap.add_argument("--resume", action="store_true", help="go on from the progress file")
    args = ap.parse_args(argv)

    from pfeffer.dice import DiceRules
    from pfeffer.dice.sim import simulate
    from pfeffer.dice.solver import solve

    strategy = solve(DiceRules())
    solved = strategy.win_probability(0, 0)
    rows: list[dict[str, float]] = []
    if args.resume and args.progress.exists():
        for line in args.progress.read_text().splitlines():
            row = json.loads(line)
            if row["seed"] == args.seed:
                rows.append(row)
        print(f"resuming: {summary(rows, solved)}", flush=True)
    elif args.progress.exists():
        print(f"{args.progress} exists: pass --resume to go on, or remove it", file=sys.stderr)
        return 2
    args.progress.parent.mkdir(parents=True, exist_ok=True)
    done = {int(r["first_game"]) for r in rows}
    for g0 in range(0, args.games, args.chunk):
        if g0 in done:
            continue
        n = min(args.chunk, args.games - g0)
        start = time.process_time()
        r = simulate(strategy.rules, [strategy, strategy], games=n, seed=args.seed, first_game=g0)
        shares = r.winners[:, 0] / r.winners.sum(axis=1)
        row = {
            "seed": args.seed,
            "first_game": g0,
            "games": n,
            "wins": float(shares.sum()),
            "squares": float((shares**2).sum()),
            "turns": sum(r.turns),
            "busts": sum(r.busts),
            "calls": sum(r.pfeffer_calls),
            "cpu": time.process_time() - start,
        }
        with args.progress.open("a") as f:
            f.write(json.dumps(row) + "\n")
        rows.append(row)
        print(summary(rows, solved), flush=True)
    print(f"done: {summary(rows, solved)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
