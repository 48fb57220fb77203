"""Count how Pepper hands end between heuristic players: the table behind
``pfeffer.pepper.outlook.HAND_OUTCOMES`` (the win-probability model's hands).

    python benchmarks/pepper_hand_outcomes.py [--hands 20000] [--level heuristic|hard|expert]
        [--players 4 3 2]

Prints, per player count, the counts of (bid, tricks of the bidder's side, and with 3 players the
tricks of the seat after the bidder) over ``--hands`` hands of self-play: ``HeuristicBot`` or the
expert at a level in every seat (all passes that redeal are not counted; by default the last
player must bid).
"""

from __future__ import annotations

import argparse
from collections import Counter

from pfeffer.core.bots import Bot
from pfeffer.pepper import PepperGame, PepperView
from pfeffer.pepper.bots import PEPPER_BOTS, HeuristicBot


def outcomes(players: int, hands: int, level: str = "heuristic") -> Counter[tuple[str, int, int]]:
    """(bid, the bidder side's tricks, the next seat's tricks with 3 players else 0) counts."""
    bots: list[Bot[PepperView]] = [
        HeuristicBot()
        if level == "heuristic"
        else PEPPER_BOTS.create("expert", level=level, seed=s)
        for s in range(players)
    ]
    out: Counter[tuple[str, int, int]] = Counter()
    seed = 0
    while sum(out.values()) < hands:
        g = PepperGame(players=players, seed=seed, dealer=seed % players)
        seed += 1
        while not g.is_over and sum(out.values()) < hands:
            if g.phase == "deal":
                g.apply("deal")
                continue
            seat = g.current_player
            assert seat is not None
            before = len(g.results)
            g.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
            if len(g.results) > before:
                r = g.results[-1]
                if r.bidder is None or r.bid is None:
                    continue
                side = g.side_of(r.bidder)
                nxt = r.tricks[(r.bidder + 1) % 3] if players == 3 else 0
                out[r.bid, r.tricks[side], nxt] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--level", default="heuristic")
    ap.add_argument("--players", type=int, nargs="+", default=[4, 3, 2])
    args = ap.parse_args()
    for n in args.players:
        counts = outcomes(n, args.hands, args.level)
        rows = ", ".join(f"({b!r}, {t}, {o}, {c})" for (b, t, o), c in sorted(counts.items()))
        print(f"    {n}: ({rows}),")


if __name__ == "__main__":
    main()
