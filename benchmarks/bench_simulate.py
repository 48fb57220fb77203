"""The batch simulator's games per second, side by side with farkle-simulation.

    python benchmarks/bench_simulate.py [--seconds N] [--repeats R] [--batch B]

Ours: :func:`pfeffer.dice.sim.simulate` playing whole two-player games to 10,000 under the default
rules with ``"heuristic"`` in both seats (the same games and decisions as two
:class:`~pfeffer.dice.bots.HeuristicBot` in :class:`~pfeffer.dice.DiceGame`), in calls of B games
(default 20,000; the per-call set-up is included), repeated for N seconds. The kernel is compiled
(or loaded from numba's on-disk cache) before the clock starts.

Anchor: PyPI's farkle-simulation 0.1.0 with two ``NaiveStrategy(True)`` players, measured exactly
as in ``bench_dice.py`` (its own virtualenv, a subprocess). Runs alternate between the two
programs so both see the same machine load; each figure is the median of R runs, pinned to one
core. The goal is a ratio of at least 10.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from anchor_env import VENVS, ensure_venv, pin_one_core
from bench_dice import FARKLE_INSTALLS, FARKLE_VERSION


def simulate_rate(seconds: float, batch: int, seed: int) -> tuple[float, float]:
    """(games/s, turns per game) of the simulator with two heuristic policies."""
    from pfeffer.dice import DiceRules
    from pfeffer.dice.sim import simulate

    rules = DiceRules()
    simulate(rules, ["heuristic"] * 2, games=10, seed=0)  # compile or load the kernel
    games = turns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        result = simulate(rules, ["heuristic"] * 2, games=batch, seed=seed + games)
        games += batch
        turns += sum(result.turns)
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start), turns / games


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; prints both rates and their ratio."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of one run (default 3)")
    ap.add_argument("--repeats", type=int, default=5, help="runs per program; the median counts")
    ap.add_argument("--batch", type=int, default=20_000, help="games per simulate() call")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--farkle-venv", type=Path, default=VENVS / "farkle")
    ap.add_argument("--skip-anchor", action="store_true", help="measure only the simulator")
    args = ap.parse_args(argv)
    pin_one_core()

    python = None
    if not args.skip_anchor:
        python = ensure_venv(args.farkle_venv, "farkle_simulation", FARKLE_INSTALLS)
    ours: list[float] = []
    theirs: list[float] = []
    turns = farkle_turns = 0.0
    bench_dice = Path(__file__).resolve().parent / "bench_dice.py"
    for i in range(args.repeats):
        rate, turns = simulate_rate(args.seconds, args.batch, args.seed + 10**9 * i)
        ours.append(rate)
        if python is not None:
            out = subprocess.run(
                [str(python), str(bench_dice), "--farkle-worker", "--seconds", str(args.seconds)],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            rate, farkle_turns = json.loads(out.stdout.strip().splitlines()[-1])
            theirs.append(rate)
    ours_med = statistics.median(ours)
    runs = ", ".join(f"{r:,.0f}" for r in ours)
    print(f"pfeffer simulate, 2 heuristic policies: {ours_med:,.0f} games/s "
          f"(median of {args.repeats} x {args.seconds:g} s; runs: {runs}; "
          f"{turns:.1f} turns a game)")  # fmt: skip
    if not theirs:
        return 0
    theirs_med = statistics.median(theirs)
    runs = ", ".join(f"{r:,.0f}" for r in theirs)
    print(f"farkle-simulation {FARKLE_VERSION}, 2 NaiveStrategy: {theirs_med:,.0f} games/s "
          f"(median of {args.repeats} x {args.seconds:g} s; runs: {runs}; "
          f"{farkle_turns:.1f} turns a game)")  # fmt: skip
    print(f"ratio simulate / farkle-simulation: {ours_med / theirs_med:.1f} (goal >= 10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
