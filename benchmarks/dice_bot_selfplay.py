"""Strength of the dice HeuristicBot's settings, by self-play.

    python benchmarks/dice_bot_selfplay.py [--games N]

Each variant changes one setting of :class:`~pfeffer.dice.bots.HeuristicBot` (a bank threshold,
or the roll-on worths) and plays N two-player games against the default bot: every seed twice,
once from each seat (so the first player's edge cancels), the same seeds for every variant.
It prints the variant's share of wins (a shared win counts half) with its standard error;
0.5 means as strong as the default.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Mapping

from pfeffer.dice import DiceGame
from pfeffer.dice.bots import BANK_AT, ROLL_ON_WORTH, HeuristicBot


def win_share(challenger: HeuristicBot, games: int, seed: int = 10_000) -> float:
    """The challenger's share of wins against the default HeuristicBot."""
    default = HeuristicBot()
    score = 0.0
    for i in range(games):
        seats = [challenger, default] if i % 2 == 0 else [default, challenger]
        g = DiceGame(2, seed=seed + i // 2)
        while (s := g.current_player) is not None:
            g.apply(seats[s].choose(g.view(s), g.legal_actions()))
        if seats.index(challenger) in g.winners:
            score += 1 / len(g.winners)
    return score / games


def variants() -> dict[str, tuple[Mapping[int, int], Mapping[int, int]]]:
    """One change at a time, around the defaults."""
    bank, worth = dict(BANK_AT), dict(ROLL_ON_WORTH)
    out: dict[str, tuple[Mapping[int, int], Mapping[int, int]]] = {"default": (bank, worth)}
    for dice, values in {2: (250, 400), 3: (350, 500), 4: (700, 1500), 5: (2000, 4000)}.items():
        for v in values:
            out[f"bank with {dice} dice at {v}"] = ({**bank, dice: v}, worth)
    out["roll-on worths halved"] = (bank, {k: v // 2 for k, v in worth.items()})
    out["roll-on worths doubled"] = (bank, {k: v * 2 for k, v in worth.items()})
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=1500, help="games per variant (default 1500)")
    args = ap.parse_args(argv)
    error = math.sqrt(0.25 / args.games)
    for name, (bank, worth) in variants().items():
        share = win_share(HeuristicBot(name, bank, worth), args.games)
        print(f"{name:28s} {share:.3f} ± {error:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
