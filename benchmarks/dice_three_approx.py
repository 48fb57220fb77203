"""The approximation's loss against exact three-player play (docs/strategy.md, "More players").

One seat plays :class:`~pfeffer.dice.solver.approx.ApproxStrategy` (the two-player strategy
against the strongest opponent), the other two the exact three-player strategy; each seat in turn.
Two figures per seat: the approximate player's win rate (a shared win counts ``1/k``), and its
*regret*: at each of its decisions the exact three-player advice's best value less the value of
the action it chose (both the chance to win after the action with exact play afterwards). By the
performance difference identity the expected sum of these per game is exactly the expected loss
in winning chance against playing the exact strategy in that seat (the other two exact), with a
far smaller spread than the win counts.

    nice python benchmarks/dice_three_approx.py --target 500 --games 2000
"""

from __future__ import annotations

import argparse
import math
import time

from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.solver.approx import ApproxStrategy
from pfeffer.dice.solver.solve import solve_tables
from pfeffer.dice.solver.three import solve_three
from pfeffer.dice.solver.three_advice import advise_three


def _mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--target", type=int, default=500)
    p.add_argument("--min-bank", type=int, default=350)
    p.add_argument("--games", type=int, default=2000, help="games per seat of the approximation")
    p.add_argument("--lower", type=int, default=10)
    p.add_argument("--final", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rules = DiceRules(target=a.target, min_bank=a.min_bank)
    start = time.process_time()
    exact = solve_three(rules, lower=a.lower, final_steps=a.final)
    approx = ApproxStrategy(solve_tables(rules, lower=a.lower, final_steps=a.final))
    print(f"target {a.target}: solved in {time.process_time() - start:.1f} s CPU; exact chances "
          f"{exact.chances(0, 0, 0)}", flush=True)  # fmt: skip
    all_regret: list[float] = []
    all_loss: list[float] = []
    for seat in range(3):
        wins: list[float] = []
        regrets: list[float] = []
        for game in range(a.games):
            g = DiceGame(3, rules, seed=a.seed * 1_000_003 + seat * 100_000 + game)
            regret = 0.0
            while not g.is_over:
                mover = g.current_player
                assert mover is not None
                legal = g.legal_actions()
                tips = advise_three(exact, g)
                if mover == seat:
                    if len(legal) == 1:
                        choice = legal[0]
                    else:
                        choice = next(t.action for t in approx.advise(g) if t.action in legal)
                    if tips:
                        values = {t.action: t.win_probability for t in tips}
                        regret += tips[0].win_probability - values[choice]
                else:
                    choice = tips[0].action if tips else legal[0]
                g.apply(choice)
            wins.append(1.0 / len(g.winners) if seat in g.winners else 0.0)
            regrets.append(regret)
        want = exact.chances(0, 0, 0)[seat]
        w, ws = _mean_se(wins)
        r, rs = _mean_se(regrets)
        all_regret += regrets
        all_loss += [want - x for x in wins]
        print(f"seat {seat}: exact {want:.4f}, approximation wins {w:.4f} ± {ws:.4f} "
              f"(loss {want - w:+.4f} ± {ws:.4f}), regret per game {r:.5f} ± {rs:.5f}, "
              f"{a.games} games", flush=True)  # fmt: skip
    r, rs = _mean_se(all_regret)
    loss, ls = _mean_se(all_loss)
    print(f"all seats: loss from wins {loss:+.4f} ± {ls:.4f}; regret per game {r:.5f} ± "
          f"{rs:.5f}; {time.process_time() - start:.0f} s CPU")  # fmt: skip


if __name__ == "__main__":
    main()
