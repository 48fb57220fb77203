"""How well the expert Pepper player's bids and trumps fit the tricks its side takes (issue 22, 5).

    python benchmarks/pepper_bid_calibration.py --players 4 --hands 2000 --out FILE.jsonl
        [--seed 0] [--level expert|hard] [--worlds W] [--variant KEY=VALUE,...] [--resume]
        [--minutes M]
    python benchmarks/pepper_bid_calibration.py --report FILE.jsonl [FILE.jsonl ...]

Deals ``--hands`` single hands (game seed ``--seed + i``, dealer ``i % players``, scores 0 : 0)
with the engine (:class:`pfeffer.pepper.PepperGame`) and lets the expert (``PEPPER_BOTS``, kind
``expert``, ``--level``; ``--worlds`` and ``--variant`` build :class:`ExpertBot` with other
options) sit in every seat: it bids, names trump and plays the hand. Per hand one JSON line is
appended to ``--out``: the winning bid, the bidder, whether the bid was forced (everybody else
passed, P6), the trump (``NT``: no trump), the tricks the bidder's side took, made or set, the
points of every side, the bidder's hand, and the double-dummy tricks of the bidder's side on the
same deal with the bidder leading under every trump (``pfeffer.pepper.double_dummy``; with 3
players the bidder alone against both others; with 2 the dead hand takes no part). ``--resume``
skips the hands already in the file.

The report prints, per bid level, per trump kind (suit or no trump) and per level and kind: hands,
make rate, mean tricks taken, mean double-dummy tricks with the chosen trump and with the best
trump of the deal, how often double dummy made the bid with the chosen trump, and how often the
chosen trump was a best one (ties count). The bids of a last bidder after everybody else passed
(it had to bid, P6, though at any level) are rows of their own ("1 (must bid)"). "forecast" is
the declarer's own make rate over the worlds of its trump decision (double dummy, before the
declarer's discount); "bidder's points" the points of the bidder's side.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pepper_strength import make_expert, parse_options
from pfeffer.core.bots import Bot
from pfeffer.pepper import PepperGame, PepperView, double_dummy
from pfeffer.pepper.bots import LEVEL_WORLDS
from pfeffer.pepper.expert import ExpertBot
from pfeffer.pepper.rules import bid_ladder, cards_per_hand

SUITS = ("C", "D", "H", "S", "NT")


def make_bot(level: str, worlds: int | None, variant: str, seed: int) -> Bot[PepperView]:
    """The expert of ``level``; with ``worlds`` or ``variant``, an :class:`ExpertBot` so built."""
    if worlds is None:
        return make_expert(level, variant, seed)
    return ExpertBot(worlds=worlds, seed=seed, **parse_options(variant))


def play_hand(players: int, seed: int, bots: Sequence[Bot[PepperView]]) -> dict[str, Any] | None:
    """One hand from 0 : 0 with ``bots`` in the seats: its record (None after an all-pass)."""
    g = PepperGame(players=players, seed=seed, dealer=seed % players)
    g.apply("deal")
    dealt = [g.hand(s) for s in range(players)]
    auction: list[tuple[int, str]] = []
    forecast: dict[str, list[int]] = {}
    while not g.results:
        seat = g.current_player
        assert seat is not None
        phase = g.phase
        action = bots[seat].choose(g.view(seat), g.legal_actions())
        if phase == "auction":
            auction.append((seat, action))
        elif phase == "declare":
            forecast = _forecast(bots[seat])
        g.apply(action)
    r = g.results[-1]
    if r.bidder is None or r.bid is None:
        return None
    bidder = r.bidder
    side = g.side_of(bidder)
    dd = {
        t: double_dummy(dealt, None if t == "NT" else t, bidder, seat=bidder)
        for t in g.rules.trumps
    }
    bids = [c for _, c in auction if c != "pass"]
    return {
        "players": players,
        "seed": seed,
        "bidder": bidder,
        "bid": r.bid,
        "forced": len(bids) == 1 and auction[-1] == (bidder, r.bid) and _all_passed(auction),
        "trump": r.trump or "NT",
        "tricks": r.tricks[side],
        "made": bool(r.made),
        "points": list(r.points),
        "hand": dealt[bidder],
        "auction": auction,
        "dd": dd,
        "forecast": forecast,
        "predicted": forecast.get(r.trump or "NT", []),
    }


def _forecast(bot: Bot[PepperView]) -> dict[str, list[int]]:
    """The declarer's own forecast: per trump, its side's double-dummy tricks in each world of
    its trump decision (empty when the bot is no :class:`ExpertBot`)."""
    got = getattr(bot, "_declared", None)
    if not isinstance(bot, ExpertBot) or got is None:
        return {}
    return {t: [int(x) for x in got[3][:, i]] for i, t in enumerate(got[2])}


def _all_passed(auction: Sequence[tuple[int, str]]) -> bool:
    """Whether every call before the last was a pass (the last bidder had to bid, P6)."""
    return all(c == "pass" for _, c in auction[:-1])


def need(players: int, bid: str) -> int:
    """The tricks a bid asks for."""
    return cards_per_hand(players) if bid in ("small", "big") else int(bid)


def run(args: argparse.Namespace) -> None:
    """Play the hands not yet in ``--out`` and append their records."""
    out = Path(args.out)
    done: set[int] = set()
    if args.resume and out.exists():
        for line in out.read_text().splitlines():
            rec = json.loads(line)
            if rec["players"] == args.players:
                done.add(rec["seed"])
    bots = [
        make_bot(args.level, args.worlds, args.variant, args.seed * 10 + s)
        for s in range(args.players)
    ]
    start = time.monotonic()
    count = 0
    with out.open("a") as f:
        for i in range(args.hands):
            seed = args.seed + i
            if seed in done:
                continue
            if args.minutes and time.monotonic() - start > args.minutes * 60:
                print(f"stopped after {args.minutes} minutes", flush=True)
                break
            rec = play_hand(args.players, seed, bots)
            if rec is None:
                continue
            rec |= {"level": args.level, "worlds": args.worlds, "variant": args.variant}
            f.write(json.dumps(rec) + "\n")
            f.flush()
            count += 1
            if count % 50 == 0:
                rate = (time.monotonic() - start) / count
                print(f"{count} hands, {rate:.2f} s a hand", flush=True)


def _row(label: str, recs: Sequence[dict[str, Any]], trumps: Sequence[str]) -> str:
    n = len(recs)
    players = recs[0]["players"]
    made = sum(r["made"] for r in recs) / n
    se = math.sqrt(made * (1 - made) / n)
    tricks = sum(r["tricks"] for r in recs) / n
    dd_chosen = [r["dd"][r["trump"]] for r in recs]
    dd_best = [max(r["dd"][t] for t in trumps if t in r["dd"]) for r in recs]
    dd_made = sum(d >= need(players, r["bid"]) for d, r in zip(dd_chosen, recs, strict=True)) / n
    best_hit = sum(c == b for c, b in zip(dd_chosen, dd_best, strict=True)) / n
    fc = [
        sum(x >= need(players, r["bid"]) for x in r["predicted"]) / len(r["predicted"])
        for r in recs
        if r.get("predicted")
    ]
    forecast = f"{100 * sum(fc) / len(fc):.0f}%" if fc else "-"
    points = sum(r["points"][r["bidder"] % 2 if players == 4 else r["bidder"]] for r in recs) / n
    return (
        f"| {label} | {n} | {forecast} | {100 * made:.0f}% ± {100 * se:.0f} | {tricks:.2f} "
        f"| {sum(dd_chosen) / n:.2f} | {sum(dd_best) / n:.2f} | {100 * dd_made:.0f}% "
        f"| {100 * best_hit:.0f}% | {points:+.2f} |"
    )


def table(recs: Sequence[dict[str, Any]]) -> list[str]:
    """Markdown rows for the records of one player count: per level, per trump kind, per both."""
    players = recs[0]["players"]
    trumps = SUITS
    lines = [
        f"{players} players, {len(recs)} hands:",
        "",
        "| bid / trump | hands | forecast | made | tricks | DD chosen | DD best | DD made "
        "| chosen best | bidder's points |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    ladder = bid_ladder(players)

    def level(r: dict[str, Any]) -> str:
        return f"{r['bid']} (must bid)" if r["forced"] else str(r["bid"])

    def kind(r: dict[str, Any]) -> str:
        return "NT" if r["trump"] == "NT" else "suit"

    order = [b for x in ladder for b in (f"{x} (must bid)", x)]
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in recs:
        groups.setdefault(level(r), []).append(r)
    lines += [_row(k, groups[k], trumps) for k in order if k in groups]
    for k in ("suit", "NT"):
        sub = [r for r in recs if kind(r) == k]
        if sub:
            lines.append(_row(f"**{k}**", sub, trumps))
    lines.append(_row("**all**", recs, trumps))
    for k in order:
        for t in ("suit", "NT"):
            sub = [r for r in groups.get(k, []) if kind(r) == t]
            if sub and len(sub) < len(groups[k]):
                lines.append(_row(f"{k}, {t}", sub, trumps))
    return lines


def _forecast_with(xs: Sequence[int], needed: int, d: float) -> float:
    """The make rate over worlds with tricks ``xs`` under a declarer's discount of ``d`` tricks
    (the form of :meth:`ExpertBot._discounted`: ``floor(d)`` tricks fewer and one more with
    chance ``d - floor(d)``, never below the least over the worlds)."""
    lo = min(xs)
    k = math.floor(d)
    f = d - k
    return sum(
        (1 - f) * (max(x - k, lo) >= needed) + f * (max(x - k - 1, lo) >= needed) for x in xs
    ) / len(xs)


def fitted_discount(recs: Sequence[dict[str, Any]]) -> tuple[float, float, float]:
    """(make rate, forecast without discount, the discount in tricks at which the declarers'
    forecasts average the make rate: bisection on [0, 3]; 0 when even no discount forecasts
    too little, 3 when even 3 tricks forecast too much)."""
    recs = [r for r in recs if r.get("predicted")]
    players = recs[0]["players"]
    made = sum(r["made"] for r in recs) / len(recs)

    def forecast(d: float) -> float:
        return sum(_forecast_with(r["predicted"], need(players, r["bid"]), d) for r in recs) / len(
            recs
        )

    lo, hi = 0.0, 3.0
    if forecast(lo) <= made:
        return made, forecast(0.0), 0.0
    if forecast(hi) >= made:
        return made, forecast(0.0), hi
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if forecast(mid) > made else (lo, mid)
    return made, forecast(0.0), (lo + hi) / 2


def fit_lines(recs: Sequence[dict[str, Any]]) -> list[str]:
    """Markdown rows: per trump kind, the make rate, the declarers' forecast without discount,
    and the declarer's discount that would have forecast the make rate."""
    lines = [
        "| trump | contracts | made | forecast, no discount | fitted discount (tricks) |",
        "|---|---|---|---|---|",
    ]
    for label, sub in (
        ("suit", [r for r in recs if r["trump"] != "NT"]),
        ("NT", [r for r in recs if r["trump"] == "NT"]),
        ("all", list(recs)),
    ):
        if not any(r.get("predicted") for r in sub):
            continue
        made, raw, d = fitted_discount(sub)
        n = sum(1 for r in sub if r.get("predicted"))
        se = math.sqrt(made * (1 - made) / n)
        lines.append(
            f"| {label} | {n} | {100 * made:.1f}% ± {100 * se:.1f} | {100 * raw:.1f}% | {d:.2f} |"
        )
    return lines


def report(paths: Iterable[str]) -> None:
    """Print the tables of the records in ``paths``, one per player count and variant."""
    by: dict[tuple[int, str, str, Any], list[dict[str, Any]]] = {}
    for p in paths:
        for line in Path(p).read_text().splitlines():
            r = json.loads(line)
            by.setdefault((r["players"], r["level"], r["variant"], r["worlds"]), []).append(r)
    for (players, level, variant, worlds), recs in sorted(by.items(), key=str):
        w = worlds or LEVEL_WORLDS.get(level)
        print(f"level {level}, {w} worlds, variant {variant or '-'}: ", end="")
        print("\n".join(table(recs)))
        print()
        print("\n".join(fit_lines(recs)))
        print()
        del players


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--level", default="expert", choices=("expert", "hard"))
    ap.add_argument("--worlds", type=int, default=None)
    ap.add_argument("--variant", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--minutes", type=float, default=0)
    ap.add_argument("--report", nargs="+")
    args = ap.parse_args()
    if args.report:
        report(args.report)
        return
    if not args.out:
        ap.error("--out is required unless --report")
    run(args)
    report([args.out])


if __name__ == "__main__":
    main()
