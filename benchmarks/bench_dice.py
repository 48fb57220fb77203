"""Full two-player Würfel-Pfeffer games per second, side by side with farkle-simulation.

    python benchmarks/bench_dice.py [--seconds N] [--repeats R]

Ours: a whole game to 10,000 under the default rules (350 minimum, final round) between two
:class:`~pfeffer.dice.bots.HeuristicBot` players, through the one API every front end uses: for
each decision ``view(seat)``, ``legal_actions()``, ``bot.choose(...)`` and ``apply(action)``.

Anchor: PyPI's farkle-simulation 0.1.0, ``simulate_game(p1, p2, True)`` with two
``NaiveStrategy(True)`` players, its per-roll ``print`` replaced by a no-op. Its rules differ
(three pairs 750, straight 1000, no minimum, no final round), so the comparison is "a full
two-player game with a simple banking bot". It runs in its own virtualenv
(``benchmarks/.venvs/farkle``, created on first use: torch 2.13.0 CPU, its plotting and data
dependencies, then the package without dependencies) in a subprocess. Runs alternate between the
two programs so both see the same machine load; each figure is the median of R runs of N seconds,
pinned to one core.
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

FARKLE_VERSION = "0.1.0"
FARKLE_INSTALLS = [
    ["torch==2.13.0"],
    ["orjson", "seaborn", "matplotlib", "pandas", "tqdm"],
    ["--no-deps", f"farkle-simulation=={FARKLE_VERSION}"],
]


def pfeffer_rate(seconds: float, seed: int) -> tuple[float, float, float]:
    """(games/s, actions per game, turns per game) of our engine with two heuristic bots."""
    from pfeffer.dice import DiceGame
    from pfeffer.dice.bots import HeuristicBot

    bots = [HeuristicBot(), HeuristicBot()]
    games = actions = turns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = DiceGame(["A", "B"], seed=seed + games)
        view, legal, apply = game.view, game.legal_actions, game.apply
        while (seat := game.current_player) is not None:
            apply(bots[seat].choose(view(seat), legal()))
        games += 1
        actions += len(game.actions)
        turns += len(game.history)
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start), actions / games, turns / games


def farkle_rate(seconds: float) -> tuple[float, float]:
    """(games/s, turns per game) of farkle-simulation (run inside its virtualenv)."""
    import farkle_simulation.components.simulation as sim
    import farkle_simulation.components.strategy as strat

    def quiet(*args: object, **kwargs: object) -> None:
        return None

    sim.print = quiet
    strat.print = quiet
    p1, p2 = strat.NaiveStrategy(True), strat.NaiveStrategy(True)
    warm = time.perf_counter() + 1.0  # fills its lazy scoring cache
    while time.perf_counter() < warm:
        sim.simulate_game(p1, p2, True)
    games = turns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        _, t1, t2 = sim.simulate_game(p1, p2, True)
        games += 1
        turns += len(t1) + len(t2)
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start), turns / games


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; prints both rates and their ratio."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of one run (default 3)")
    ap.add_argument("--repeats", type=int, default=5, help="runs per program; the median counts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--farkle-venv", type=Path, default=VENVS / "farkle")
    ap.add_argument("--skip-anchor", action="store_true", help="measure only our engine")
    ap.add_argument("--farkle-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    pin_one_core()

    if args.farkle_worker:
        print(json.dumps(farkle_rate(args.seconds)))
        return 0

    python = None
    if not args.skip_anchor:
        python = ensure_venv(args.farkle_venv, "farkle_simulation", FARKLE_INSTALLS)
    ours: list[float] = []
    theirs: list[float] = []
    shape = (0.0, 0.0)
    farkle_turns = 0.0
    for i in range(args.repeats):
        rate, per_game, turns = pfeffer_rate(args.seconds, args.seed + 1000 * i)
        ours.append(rate)
        shape = (per_game, turns)
        if python is not None:
            out = subprocess.run(
                [str(python), str(Path(__file__).resolve()), "--farkle-worker",
                 "--seconds", str(args.seconds)],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            rate, farkle_turns = json.loads(out.stdout.strip().splitlines()[-1])
            theirs.append(rate)
    ours_med = statistics.median(ours)
    runs = ", ".join(f"{r:,.0f}" for r in ours)
    print(f"pfeffer dice, 2 heuristic bots: {ours_med:,.0f} games/s "
          f"(median of {args.repeats} x {args.seconds:g} s; runs: {runs}; "
          f"{shape[0]:.0f} actions and {shape[1]:.1f} turns a game)")  # fmt: skip
    if not theirs:
        return 0
    theirs_med = statistics.median(theirs)
    runs = ", ".join(f"{r:,.0f}" for r in theirs)
    print(f"farkle-simulation {FARKLE_VERSION}, 2 NaiveStrategy: {theirs_med:,.0f} games/s "
          f"(median of {args.repeats} x {args.seconds:g} s; runs: {runs}; "
          f"{farkle_turns:.1f} turns a game)")  # fmt: skip
    print(f"ratio pfeffer / farkle-simulation: {ours_med / theirs_med:.2f} (target >= 2.0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
