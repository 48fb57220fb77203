"""Each computer level's win rate against perfect play, seats swapped, from the simulator.

    python benchmarks/bench_dice_levels.py [--games N] [--levels easy medium hard heuristic]

For every level, N games with the level in the first seat and N with it in the second (perfect
play, the solved default table, in the other seat; :func:`pfeffer.dice.simulate`), the same game
seeds both ways. Prints the level's share of wins over the 2N games (a shared win counts half)
with its standard error, the share from each seat, and the distance to perfect play: against
itself perfect play wins exactly half of the games with seats swapped, so a level within 2% of
optimal wins at least 48%.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

LEVELS = ("easy", "medium", "hard", "heuristic")


def measure(level: str, games: int, seed: int) -> tuple[float, float, float, float, float]:
    """(share, standard error, share as first player, as second, CPU seconds) of ``level``."""
    from pfeffer.dice import DiceRules
    from pfeffer.dice.sim import simulate
    from pfeffer.dice.solver import solve

    strategy = solve(DiceRules())
    start = time.process_time()
    first = simulate(strategy.rules, [level, strategy], games=games, seed=seed)
    second = simulate(strategy.rules, [strategy, level], games=games, seed=seed)
    cpu = time.process_time() - start
    shares = [first.winners[:, 0] / first.winners.sum(axis=1)]
    shares.append(second.winners[:, 1] / second.winners.sum(axis=1))
    share = (first.wins[0] + second.wins[1]) / (2 * games)
    # Paired by seed: the variance of the mean of the two seats' shares per seed.
    pair = (shares[0] + shares[1]) / 2
    se = float(pair.std(ddof=1) / math.sqrt(games))
    return share, se, first.win_rate(0), second.win_rate(1), cpu


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; prints one line per level (markdown table rows)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per seat order")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--levels", nargs="+", default=list(LEVELS))
    args = ap.parse_args(argv)
    print("| level | win rate vs perfect (seats swapped) | as first | as second | games |")
    print("|---|---:|---:|---:|---:|")
    for level in args.levels:
        share, se, first, second, cpu = measure(level, args.games, args.seed)
        print(
            f"| {level} | **{share:.4f} ± {se:.4f}** | {first:.4f} | {second:.4f} | "
            f"{2 * args.games:,} |  ({cpu:.0f} s CPU)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
