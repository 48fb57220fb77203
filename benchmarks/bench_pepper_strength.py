"""Strength of the expert Pepper player against ``HeuristicBot``, with duplicate deals.

    python benchmarks/bench_pepper_strength.py [--players 4 3 2] [--minutes M] [--level expert]
    python benchmarks/bench_pepper_strength.py --times [--hands H]

Each game (to the rules' target, 30) is played once per seating: with 4 players the expert
partnership sits at seats 0+2, then at 1+3; with 3 and 2 players the expert takes each seat in
turn against heuristic players. Every seating of a game uses the same seed, so the same deals
come out in the same order (as long as the hands last as long; a game's later deals depend on
how many hands it took). A win counts 1, a shared win 1/2. The ± is one standard error over the
duplicate sets (each set's mean is one sample). Runs single-process for about ``M`` minutes per
player count.

``--times`` instead measures each level's time a decision (median, 90th percentile and maximum,
per phase, decisions with one legal action left out) over ``H`` hands with 4 players, the level
at every seat.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from pfeffer.core.bots import Bot
from pfeffer.pepper import PepperGame, PepperView
from pfeffer.pepper.bots import PEPPER_BOTS, HeuristicBot


def play(players: int, seed: int, expert_seats: set[int], level: str) -> float:
    """1, 1/2 or 0: whether the expert's side won the game with ``seed``."""
    g = PepperGame(players=players, seed=seed, dealer=0)
    bots: list[Bot[PepperView]] = [
        PEPPER_BOTS.create("expert", level=level, seed=seed * 10 + s)
        if s in expert_seats
        else HeuristicBot()
        for s in range(players)
    ]
    while not g.is_over:
        if g.phase == "deal":
            g.apply("deal")
            continue
        seat = g.current_player
        assert seat is not None
        g.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
    sides = {g.side_of(s) for s in expert_seats}
    won = [w for w in g.winners if w in sides]
    return len(won) / len(g.winners) if won else 0.0


def seatings(players: int) -> list[set[int]]:
    """The expert's seats in each game of a duplicate set."""
    if players == 4:
        return [{0, 2}, {1, 3}]
    return [{s} for s in range(players)]


def run(players: int, minutes: float, level: str) -> tuple[float, float, int, float]:
    """Win rate, its standard error, the games played and the seconds per game."""
    sets: list[float] = []
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < minutes * 60 or len(sets) < 2:
        results = [play(players, 1000 + seed, seats, level) for seats in seatings(players)]
        sets.append(statistics.fmean(results))
        seed += 1
    games = len(sets) * len(seatings(players))
    p = statistics.fmean(sets)
    se = statistics.stdev(sets) / math.sqrt(len(sets))
    return p, se, games, (time.perf_counter() - start) / games


def decision_times(level: str, hands: int, players: int = 4) -> dict[str, list[float]]:
    """Milliseconds per decision of ``level`` at every seat, by phase."""
    bots = [PEPPER_BOTS.create("expert", level=level, seed=s) for s in range(players)]
    out: dict[str, list[float]] = {"auction": [], "declare": [], "play": []}
    for h in range(hands):
        g = PepperGame(players=players, seed=h, dealer=0)
        g.apply("deal")
        while g.phase != "deal" and not g.is_over:
            seat = g.current_player
            assert seat is not None
            legal, view = g.legal_actions(), g.view(seat)
            t = time.perf_counter()
            action = bots[seat].choose(view, legal)
            if len(legal) > 1:
                out[str(g.phase)].append(1000 * (time.perf_counter() - t))
            g.apply(action)
    return out


def print_times(hands: int) -> None:
    """The table of decision times per level."""
    decision_times("hard", 1)  # load the compiled kernels first
    print("| level | play: median / p90 / max | auction: median / max | declare: median |")
    print("|---|---|---|---|")
    for level in ("easy", "medium", "hard", "expert"):
        t = decision_times(level, hands)
        q = sorted(t["play"])
        print(
            f"| {level} | {statistics.median(q):.2f} / {q[int(0.9 * len(q))]:.1f} / "
            f"{q[-1]:.1f} ms | {statistics.median(t['auction']):.1f} / {max(t['auction']):.1f} "
            f"ms | {statistics.median(t['declare']):.1f} ms |",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[4, 3, 2])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--level", default="expert")
    ap.add_argument("--times", action="store_true")
    ap.add_argument("--hands", type=int, default=20)
    args = ap.parse_args()
    if args.times:
        print_times(args.hands)
        return
    print(f"| players | {args.level} wins vs HeuristicBot | games | s/game |")
    print("|---|---|---|---|")
    for n in args.players:
        p, se, games, per = run(n, args.minutes, args.level)
        print(f"| {n} | {100 * p:.1f}% ± {100 * se:.1f} | {games} | {per:.1f} |", flush=True)


if __name__ == "__main__":
    main()
