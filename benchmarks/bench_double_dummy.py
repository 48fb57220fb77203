"""Double-dummy solving time per Pepper deal, side by side with DDS (Bo Haglund's bridge solver).

    python benchmarks/bench_double_dummy.py [--deals N] [--repeats R] [--seed S]

N random 4-player deals (6 cards a hand, a random trump or no trump, a random leader) are solved by
``pfeffer.pepper.fast.dd.solve_masks`` and by DDS (PyPI ``endplay``, ``solve_board`` with
``OptimalOne``: the most tricks the side on lead can take) on the same deals, on one core. Each
figure is the median over R interleaved passes of the median time per deal of a pass. A Pepper
deal becomes a bridge deal when the left bower moves into the trump suit (docs/pepper-ai.md):
trump J(right) J(left) A K Q T 9 -> A K Q J T 9 8 of trumps, the left bower's old suit A K Q T 9
-> A K Q J T. Every deal's result is compared. Then 3-player deals with 8 cards a hand (and
2-player ones) are timed against the 4-player DDS figure.

DDS runs in its own virtualenv (``benchmarks/.venvs/endplay``, created on first use with
``pip install endplay``) through a subprocess running this file with ``--dds-worker``; it is never a
dependency of the project.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from anchor_env import VENVS, ensure_venv, pin_one_core

ENDPLAY_VERSION = "0.5.12"
SAME_COLOUR = (3, 2, 1, 0)
Deal = tuple[list[int], int, int]  # hand masks, trump (4 = no trump), leader


def random_deals(count: int, players: int, seed: int) -> list[Deal]:
    """``count`` deals of all 24 cards (2 players: 8 each and a dead hand left out)."""
    rng = random.Random(seed)
    size = 6 if players == 4 else 8
    out = []
    for _ in range(count):
        deck = list(range(24))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[i * size : (i + 1) * size]) for i in range(players)]
        out.append((hands, rng.randrange(5), rng.randrange(players)))
    return out


def bridge_card(card: int, trump: int) -> tuple[int, str]:
    """The bridge card (Pepper suit number C D H S = 0..3, rank letter) of a Pepper card.

    >>> bridge_card(8, 1), bridge_card(20, 0), bridge_card(23, 0), bridge_card(21, 1)
    ((1, 'A'), (0, 'K'), (3, 'A'), (3, 'Q'))
    """
    suit, rank = divmod(card, 6)
    if trump < 4:
        if rank == 2 and suit == trump:
            return trump, "A"
        if rank == 2 and suit == SAME_COLOUR[trump]:
            return trump, "K"
        if suit == trump:
            return trump, "89_TJQ"[rank]
        if suit == SAME_COLOUR[trump]:
            return suit, "TJ_QKA"[rank]
    return suit, "9TJQKA"[rank]


def pbn(deal: Deal) -> str:
    """The deal as a PBN string for DDS, seat 0 = North, starting with the leader."""
    hands, trump, leader = deal
    parts = []
    for i in range(4):
        by_suit: list[list[str]] = [[] for _ in range(4)]
        for c in range(24):
            if hands[(leader + i) % 4] >> c & 1:
                s, r = bridge_card(c, trump)
                by_suit[s].append(r)
        order = "AKQJT98"
        parts.append(".".join("".join(sorted(by_suit[s], key=order.index)) for s in (3, 2, 1, 0)))
    return "NESW"[leader] + ":" + " ".join(parts)


def dds_worker(path: Path) -> None:
    """Solve the deals in ``path`` with DDS; print the median time and the results (JSON)."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal as BridgeDeal
    from endplay.types import Denom, Player

    denoms = (Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt)
    rows = json.loads(path.read_text())
    deals = []
    for text, trump, leader in rows:
        d = BridgeDeal(text)
        d.first = Player(leader)
        d.trump = denoms[trump]
        deals.append(d)
    times, results = [], []
    for d in deals:
        start = time.perf_counter()
        solved = solve_board(d, SolveMode.OptimalOne)
        times.append(time.perf_counter() - start)
        results.append(max(score for _, score in solved))
    print(json.dumps({"median": statistics.median(times), "results": results}))


def ours(deals: list[Deal]) -> tuple[float, list[int]]:
    """The median time per deal of our solver and its results."""
    from pfeffer.pepper.fast.dd import solve_masks

    solve_masks(*deals[0][:3])  # load the compiled code outside the clock
    times, results = [], []
    for hands, trump, leader in deals:
        start = time.perf_counter()
        r = solve_masks(hands, trump, leader)
        times.append(time.perf_counter() - start)
        results.append(r)
    return statistics.median(times), results


def ours_strings(deals: list[Deal]) -> float:
    """The median time per deal of the public API ``double_dummy`` (card strings in)."""
    from pfeffer.pepper import double_dummy
    from pfeffer.pepper.cards import TRUMP_STR, mask_strs

    args = [([mask_strs(h) for h in hs], TRUMP_STR[t] if t < 4 else None, ld)
            for hs, t, ld in deals]  # fmt: skip
    double_dummy(*args[0])
    times = []
    for a in args:
        start = time.perf_counter()
        double_dummy(*a)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _ms(x: float) -> str:
    return f"{x * 1e3:.3f} ms"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; prints the medians, the ratios and the agreement with DDS."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=500, help="deals per pass (default 500)")
    ap.add_argument("--repeats", type=int, default=5, help="interleaved passes (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--endplay-venv", type=Path, default=VENVS / "endplay")
    ap.add_argument("--dds-worker", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    pin_one_core()
    if args.dds_worker:
        dds_worker(args.dds_worker)
        return 0

    python = ensure_venv(args.endplay_venv, "endplay", [[f"endplay=={ENDPLAY_VERSION}"]])
    deals = random_deals(args.deals, 4, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deals.json"
        path.write_text(json.dumps([[pbn(d), d[1], d[2]] for d in deals]))
        mine: list[float] = []
        strings: list[float] = []
        dds: list[float] = []
        agree = 0
        for _ in range(args.repeats):  # interleaved passes: both see the same machine load
            t, results = ours(deals)
            mine.append(t)
            strings.append(ours_strings(deals))
            out = subprocess.run(
                [str(python), str(Path(__file__).resolve()), "--dds-worker", str(path)],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            got = json.loads(out.stdout.strip().splitlines()[-1])
            dds.append(got["median"])
            agree = sum(a == b for a, b in zip(results, got["results"], strict=True))
    m, s, d = statistics.median(mine), statistics.median(strings), statistics.median(dds)
    print(f"4 players, 6 cards, {args.deals} deals x {args.repeats} passes, one core:")
    print(f"  pfeffer solve_masks:  median {_ms(m)} per deal (passes: "
          + ", ".join(_ms(x) for x in mine) + ")")  # fmt: skip
    print(f"  pfeffer double_dummy: median {_ms(s)} per deal (card strings in)")
    print(f"  DDS (endplay {ENDPLAY_VERSION}) solve_board: median {_ms(d)} per deal (passes: "
          + ", ".join(_ms(x) for x in dds) + ")")  # fmt: skip
    print(f"  ratio pfeffer / DDS: {m / d:.2f} (double_dummy: {s / d:.2f}; target <= 1)")
    print(f"  agreement with DDS: {agree} of {len(deals)} deals")
    for players in (3, 2):
        other = random_deals(args.deals, players, args.seed)
        times = [ours(other)[0] for _ in range(args.repeats)]
        t = statistics.median(times)
        print(f"{players} players, 8 cards: median {_ms(t)} per deal; "
              f"ratio to DDS 4 players, 6 cards: {t / d:.2f}"
              + (" (target <= 3)" if players == 3 else ""))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
