"""Random full Pepper hands per second from a Python loop, side by side with OpenSpiel's euchre.

    python benchmarks/bench_pepper.py [--seconds N] [--repeats R] [--players 2|3|4]

One hand = the deal, the auction, naming trump and every trick, each decision a uniformly random
choice from ``legal_actions()`` made in Python, exactly like the OpenSpiel loop: a new
``pyspiel.load_game("euchre")`` state per hand (one euchre game is one hand), chance outcomes
sampled by hand from ``state.chance_outcomes()``, player actions by ``random.choice`` over
``state.legal_actions()``. Each figure is the median of R runs of N seconds on one core.

OpenSpiel runs in its own virtualenv (``benchmarks/.venvs/openspiel``, created on first use with
``pip install open-spiel==2.0.2``; ``--openspiel-venv`` points at another one), through a
subprocess running this same file with ``--openspiel-worker``. It is never a project dependency.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from anchor_env import VENVS, ensure_venv, pin_one_core

DEFAULT_VENV = VENVS / "openspiel"
OPENSPIEL_VERSION = "2.0.2"


def pepper_rate(seconds: float, players: int, seed: int) -> float:
    """Random hands per second of our engine, for ``seconds`` of wall time."""
    from pfeffer.pepper import PepperGame

    rng = random.Random(seed)
    choice = rng.choice
    hands = 0
    game = PepperGame(players=players, seed=seed)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            if game.is_over:
                game = PepperGame(players=players, seed=rng.getrandbits(48))
            game.apply("deal")
            apply, legal = game.apply, game.legal_actions
            while game.phase not in ("deal", "over"):
                apply(choice(legal()))
            hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - start)


def openspiel_rate(seconds: float, seed: int) -> float:
    """Random euchre hands per second of OpenSpiel from Python (run inside its virtualenv)."""
    import pyspiel

    game = pyspiel.load_game("euchre")
    rng = random.Random(seed)
    choice, rand = rng.choice, rng.random
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    r = rand()
                    outcomes = state.chance_outcomes()
                    action = outcomes[-1][0]
                    for a, p in outcomes:
                        r -= p
                        if r < 0:
                            action = a
                            break
                    state.apply_action(action)
                else:
                    state.apply_action(choice(state.legal_actions()))
            hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - start)


def ensure_openspiel_venv(path: Path) -> Path:
    """The python of a virtualenv with open-spiel installed, creating it if needed."""
    return ensure_venv(path, "pyspiel", [[f"open-spiel=={OPENSPIEL_VERSION}"]])


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; prints both rates and their ratio."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of one run (default 3)")
    ap.add_argument("--repeats", type=int, default=5, help="runs per engine; the median counts")
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--openspiel-venv", type=Path, default=DEFAULT_VENV)
    ap.add_argument("--skip-openspiel", action="store_true", help="measure only our engine")
    ap.add_argument("--openspiel-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    pin_one_core()

    if args.openspiel_worker:
        rates = [openspiel_rate(args.seconds, args.seed + i) for i in range(args.repeats)]
        print(json.dumps(rates))
        return 0

    python = None if args.skip_openspiel else ensure_openspiel_venv(args.openspiel_venv)
    ours: list[float] = []
    theirs: list[float] = []
    # Interleave the runs so that both engines see the same machine load.
    for i in range(args.repeats):
        ours.append(pepper_rate(args.seconds, args.players, args.seed + i))
        if python is not None:
            out = subprocess.run(
                [str(python), str(Path(__file__).resolve()), "--openspiel-worker",
                 "--seconds", str(args.seconds), "--repeats", "1", "--seed", str(args.seed + i)],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            theirs.extend(json.loads(out.stdout.strip().splitlines()[-1]))
    ours_med = statistics.median(ours)
    runs = ", ".join(f"{r:,.0f}" for r in ours)
    print(f"pfeffer pepper ({args.players} players): {ours_med:,.0f} random hands/s "
          f"(median of {args.repeats} x {args.seconds:g} s; runs: {runs})")  # fmt: skip
    if not theirs:
        return 0
    theirs_med = statistics.median(theirs)
    runs = ", ".join(f"{r:,.0f}" for r in theirs)
    print(f"OpenSpiel {OPENSPIEL_VERSION} euchre: {theirs_med:,.0f} random hands/s "
          f"(median of {args.repeats} x {args.seconds:g} s; runs: {runs})")  # fmt: skip
    print(f"ratio pepper / euchre: {ours_med / theirs_med:.2f} "
          f"(target >= 0.5; above 1.0 means faster than OpenSpiel)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
