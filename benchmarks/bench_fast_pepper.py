"""Random full Pepper hands per second through the compiled kernel, side by side with OpenSpiel.

    python benchmarks/bench_fast_pepper.py [--seconds N] [--repeats R] [--players 2|3|4]

One hand = shuffle, deal, auction, trump and every trick, each decision uniformly random among the
legal actions, and the score. Measured on one core, medians of R interleaved runs of N seconds:

- ``kernel, one call per hand``: a Python loop calling the kernel once per hand (``shuffle`` and
  ``play_random_hand``), i.e. driven from Python like the OpenSpiel figures;
- ``kernel, batch``: ``random_hands`` plays the hands inside the kernel;
- OpenSpiel 2.0.2 ``euchre`` driven from a Python loop (as in bench_pepper.py) and its whole loop
  in C++ (``pyspiel.evaluate_bots`` with uniform random bots, one call per hand).

OpenSpiel runs in ``benchmarks/.venvs/openspiel`` (created on first use), never a dependency.
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
from anchor_env import VENVS, pin_one_core
from bench_pepper import ensure_openspiel_venv, openspiel_rate


def kernel_rate(seconds: float, players: int, seed: int, batch: bool) -> float:
    """Random hands per second of the kernel for ``seconds`` of wall time."""
    import numpy as np

    from pfeffer.pepper.fast import kernel

    kernel.seed(seed)
    kernel.random_hands(players, 10, 0)  # compile / load the cache outside the clock
    deck = np.arange(24, dtype=np.int64)
    hands = np.zeros(4, dtype=np.int64)
    log = np.zeros(1, dtype=np.int64)
    out = np.zeros(kernel.OUT_SIZE, dtype=np.int64)
    shuffle, play = kernel.shuffle, kernel.play_random_hand
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if batch:
            kernel.random_hands(players, 20000, count % players)
            count += 20000
        else:
            for i in range(1000):
                shuffle(deck)
                play(players, i % players, deck, hands, log, log, False, out)
            count += 1000
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def evaluate_bots_rate(seconds: float, seed: int) -> float:
    """Random euchre hands per second of OpenSpiel's C++ loop (run inside its virtualenv)."""
    import pyspiel

    game = pyspiel.load_game("euchre")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for i in range(1000):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + count + i)
        count += 1000
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def _line(name: str, runs: list[float], seconds: float) -> str:
    text = ", ".join(f"{r:,.0f}" for r in runs)
    return (f"{name}: {statistics.median(runs):,.0f} random hands/s "
            f"(median of {len(runs)} x {seconds:g} s; runs: {text})")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; prints the rates and the ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one run (default 2)")
    ap.add_argument("--repeats", type=int, default=5, help="runs per engine; the median counts")
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--openspiel-venv", type=Path, default=VENVS / "openspiel")
    ap.add_argument("--skip-openspiel", action="store_true", help="measure only the kernel")
    ap.add_argument("--openspiel-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    pin_one_core()

    if args.openspiel_worker:
        sec, seed = args.seconds, args.seed
        rates = [openspiel_rate(sec, seed), evaluate_bots_rate(sec, seed)]
        print(json.dumps(rates))
        return 0

    python = None if args.skip_openspiel else ensure_openspiel_venv(args.openspiel_venv)
    per_hand: list[float] = []
    batch: list[float] = []
    loop: list[float] = []
    cpp: list[float] = []
    for i in range(args.repeats):  # interleaved: every engine sees the same machine load
        per_hand.append(kernel_rate(args.seconds, args.players, args.seed + i, batch=False))
        batch.append(kernel_rate(args.seconds, args.players, args.seed + i, batch=True))
        if python is not None:
            out = subprocess.run(
                [str(python), str(Path(__file__).resolve()), "--openspiel-worker",
                 "--seconds", str(args.seconds), "--seed", str(args.seed + i)],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            a, b = json.loads(out.stdout.strip().splitlines()[-1])
            loop.append(a)
            cpp.append(b)
    print(_line(f"kernel, one call per hand ({args.players} players)", per_hand, args.seconds))
    print(_line(f"kernel, batch ({args.players} players)", batch, args.seconds))
    if not loop:
        return 0
    print(_line("OpenSpiel euchre, Python loop", loop, args.seconds))
    print(_line("OpenSpiel euchre, C++ evaluate_bots", cpp, args.seconds))
    ph, ba = statistics.median(per_hand), statistics.median(batch)
    lp, cp = statistics.median(loop), statistics.median(cpp)
    print(f"ratio kernel one call per hand / euchre Python loop: {ph / lp:.1f}; "
          f"/ euchre C++ evaluate_bots: {ph / cp:.1f}")  # fmt: skip
    print(f"ratio kernel batch / euchre C++ evaluate_bots: {ba / cp:.1f} (target >= 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
