"""Two variants of the expert Pepper player head to head on duplicate hands; resumable.

    python benchmarks/bench_pepper_variants.py --out FILE.jsonl --a KEY=VALUE,... --b KEY=VALUE,...
        [--players 4 3 2] [--deals N] [--minutes M] [--resume]
    python benchmarks/bench_pepper_variants.py --report FILE.jsonl

Each deal (seed ``k``, dealer ``k`` mod players, scores 0 : 0) is played as one hand once per
seating: with 4 players variant A as the partnership 0+2, then 1+3; with 3 and 2 players A in each
seat in turn against B in the others. A hand scores "A's points minus B's" (with 3 players minus
the mean of the two B seats); a deal's score is the mean over its seatings, so the cards cancel
out and what is left is the difference the variants make. The ± is one standard error over the
deals. With ``--against heuristic`` A and B do not meet: each plays the same seatings of the
deal against ``HeuristicBot``, and a deal scores A's mean result minus B's. ``--a`` / ``--b`` are
``ExpertBot`` options (``worlds=100`` default; e.g.
``weighted=false``, ``alphamu=true``). Every hand is appended to ``--out`` as a JSON line;
``--resume`` skips the hands already there.

This is the sensitive measure for a change that helps a little in many hands (points a hand, not
games); ``bench_pepper_strength.py --opponent expert:...`` plays whole games to 30 instead.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from anchor_env import pin_one_core
from bench_pepper_strength import parse_options, read, seatings
from pfeffer.pepper import PepperGame
from pfeffer.pepper.bots import HeuristicBot
from pfeffer.pepper.expert import DEFAULT_WORLDS, ExpertBot


def _bot(options: str, seed: int) -> ExpertBot:
    opts = parse_options(options)
    worlds = int(opts.pop("worlds", DEFAULT_WORLDS))
    return ExpertBot(worlds=worlds, seed=seed, **opts)


def play_hand(  # noqa: PLR0917 - one hand's facts
    players: int, deal: int, seating: int, a: str, b: str, against: str = ""
) -> dict[str, Any]:
    """One hand of deal ``deal`` with variant A in the seats of ``seating``; with ``against``
    ("heuristic"), seatings past the plain ones put variant B there instead, and
    ``HeuristicBot`` in the other seats."""
    plain = seatings(players)
    seats = plain[seating % len(plain)]
    g = PepperGame(players=players, seed=deal, dealer=deal % players)
    if against:
        mine_opts = a if seating < len(plain) else b
        bots: list[Any] = [
            _bot(mine_opts, deal * 10 + s) if s in seats else HeuristicBot() for s in range(players)
        ]
    else:
        bots = [_bot(a if s in seats else b, deal * 10 + s) for s in range(players)]
    start = time.perf_counter()
    g.apply("deal")
    while not g.results:
        seat = g.current_player
        assert seat is not None
        g.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
    r = g.results[-1]
    pts = list(r.points)
    a_sides = {g.side_of(s) for s in seats}
    mine = statistics.fmean(pts[s] for s in a_sides)
    theirs = statistics.fmean(p for s, p in enumerate(pts) if s not in a_sides)
    diff = mine - theirs
    if against and seating >= len(plain):
        diff = -diff  # B's result against the same opponents counts against A
    return {
        "players": players, "a": a, "b": b, "against": against, "deal": deal,
        "seating": seating, "points": pts, "bidder": r.bidder, "bid": r.bid, "diff": diff,
        "seconds": round(time.perf_counter() - start, 2),
    }  # fmt: skip


def report(records: list[dict[str, Any]]) -> list[str]:
    """Markdown rows per (A, B, players): A's mean advantage in points a hand ± s.e."""
    groups: dict[tuple[str, str, str, int], dict[int, dict[int, float]]] = {}
    for r in records:
        g = groups.setdefault((r["a"], r["b"], r.get("against", ""), r["players"]), {})
        g.setdefault(r["deal"], {})[r["seating"]] = r["diff"]
    rows = [
        "| A | B | opponents | players | A − B points a hand | deals (hands) |",
        "|---|---|---|---|---|---|",
    ]
    for (a, b, against, n), deals in sorted(groups.items()):
        k = len(seatings(n)) * (2 if against else 1)
        scale = 2 if against else 1  # against the same opponents: A's mean minus B's
        full = [scale * statistics.fmean(d.values()) for d in deals.values() if len(d) == k]
        if len(full) < 2:
            continue
        se = statistics.stdev(full) / math.sqrt(len(full))
        rows.append(
            f"| {a or '-'} | {b or '-'} | {against or 'B'} | {n} | "
            f"{statistics.fmean(full):+.2f} ± {se:.2f} | {len(full)} ({len(full) * k}) |"
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[4, 3, 2])
    ap.add_argument("--a", default="")
    ap.add_argument("--b", default="")
    ap.add_argument(
        "--against", default="", help="heuristic: A and B each against HeuristicBot instead"
    )
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--minutes", type=float, default=0.0)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--report", type=Path, nargs="+")
    args = ap.parse_args()
    if args.report:
        print("\n".join(report(read(args.report))))
        return
    if args.out is None:
        ap.error("give --out FILE.jsonl or --report FILE.jsonl")
    if args.out.exists() and not args.resume:
        raise SystemExit(f"{args.out} exists: add --resume to go on with it")
    pin_one_core()
    done = {
        (r["players"], r["a"], r["b"], r.get("against", ""), r["deal"], r["seating"])
        for r in read([args.out])
    }
    deadline = time.time() + args.minutes * 60 if args.minutes else math.inf
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as f:
        for k in range(args.deals):
            for n in args.players:
                for i in range(len(seatings(n)) * (2 if args.against else 1)):
                    if (n, args.a, args.b, args.against, 5000 + k, i) in done:
                        continue
                    if time.time() > deadline:
                        break
                    rec = play_hand(n, 5000 + k, i, args.a, args.b, args.against)
                    f.write(json.dumps(rec) + "\n")
                    f.flush()
    print("\n".join(report(read([args.out]))))


if __name__ == "__main__":
    main()
