"""Strength of the expert Pepper player, with duplicate deals; resumable.

    python benchmarks/bench_pepper_strength.py --out FILE.jsonl [--players 4 3 2]
        [--opponent heuristic | ismcts[:sims=1000] | expert:KEY=VALUE,...] [--level expert]
        [--variant KEY=VALUE,...] [--sets N] [--minutes M] [--jobs J] [--resume]
    python benchmarks/bench_pepper_strength.py --report FILE.jsonl [FILE.jsonl ...]
    python benchmarks/bench_pepper_strength.py --times [--hands H] [--players 4 3 2]
    python benchmarks/bench_pepper_strength.py --card-times [--hands H] [--players 4 3 2]
        [--level expert] [--variant KEY=VALUE,...]

Each game (to the rules' target, 30) is played once per seating: with 4 players the expert
partnership sits at seats 0+2, then at 1+3; with 3 and 2 players the expert takes each seat in turn
against the opponents. Every seating of a game uses the same seed, so the same deals come out in the
same order (as long as the hands last as long; a game's later deals depend on how many hands it
took). A win counts 1, a shared win 1/2. One duplicate set is the games of one seed; the ± is one
standard error over the complete sets (each set's mean is one sample). Also reported: the mean final
margin (the expert side's score minus the best other side's).

Every finished game is appended to ``--out`` as one JSON line (players, opponent, level, variant,
seed, seating, win, margin, hands, seconds); ``--resume`` skips the games already in the file, so a
stopped run goes on where it stopped. ``--jobs`` games run in parallel processes. Player counts
are interleaved set by set.

Opponents: ``heuristic`` (``HeuristicBot``); ``ismcts``: OpenSpiel's Python ``ISMCTSBot``
(``open_spiel.python.algorithms.ismcts``, 1,000 simulations, UCT constant 2) playing through the
OpenSpiel adapter (``pfeffer.rl.openspiel``), its worlds from the adapter's exact, void-respecting
``resample_from_infostate``. Its evaluator plays random moves to the end of the current hand and
values the scores by the win model (:mod:`pfeffer.pepper.outlook`, the same the expert uses):
random roll-outs of whole games to 30 take about 100 s a decision here and carry next to no signal.
``expert:KEY=VALUE,...``: the expert at the same level with other ``ExpertBot`` options (for
comparing variants head to head, e.g. ``--opponent expert:weighted=false``).

``--times`` instead measures each level's time a decision (median, 90th percentile and maximum,
per phase, opening leads apart; decisions with one legal action left out) over ``H`` hands, the
level at every seat, one core (CPU time of the process). Loading the compiled code and working
out the win table happen once per process, before the measured hands.

``--card-times`` measures the card play of one level (``--level``, ``--variant``; the level at
every seat, ``H`` hands a player count, one core, CPU time) by trick number and by the card's
place in the trick (the opening lead of the hand apart, declarer's and others'): decisions,
median and maximum in ms, and how many took over 50 ms.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from anchor_env import pin_one_core
from pfeffer.core.bots import Bot
from pfeffer.pepper import PepperGame, PepperView
from pfeffer.pepper.bots import LEVEL_WORLDS, PEPPER_BOTS, HeuristicBot
from pfeffer.pepper.expert import ExpertBot
from pfeffer.pepper.outlook import Outlook
from pfeffer.pepper.rules import PepperRules

Job = tuple[int, str, str, str, int, int]  # players, opponent, level, variant, seed, seating


def parse_options(text: str) -> dict[str, Any]:
    """``"weighted=false,worlds=50,nt_discount=0.5"`` -> ``{"weighted": False, "worlds": 50,
    "nt_discount": 0.5}``."""
    out: dict[str, Any] = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        low = value.lower()
        parsed: Any = value
        if low in ("true", "false"):
            parsed = low == "true"
        elif value.isdigit():
            parsed = int(value)
        else:
            try:
                parsed = float(value)
            except ValueError:
                parsed = value
        out[key.strip()] = parsed
    return out


def make_expert(level: str, variant: str, seed: int) -> Bot[PepperView]:
    """The expert of ``level`` with the ``variant`` options (``PEPPER_BOTS`` when plain)."""
    opts = parse_options(variant)
    if not opts:
        return PEPPER_BOTS.create("expert", level=level, seed=seed)
    worlds = int(opts.pop("worlds", LEVEL_WORLDS.get(level, 100)))
    return ExpertBot(worlds=worlds, seed=seed, **opts)


def seatings(players: int) -> list[set[int]]:
    """The expert's seats in each game of a duplicate set."""
    if players == 4:
        return [{0, 2}, {1, 3}]
    return [{s} for s in range(players)]


def _outcome(g: PepperGame, expert_seats: set[int]) -> tuple[float, int]:
    sides = {g.side_of(s) for s in expert_seats}
    won = [w for w in g.winners if w in sides]
    mine = max(g.scores[s] for s in sides)
    others = max(sc for s, sc in enumerate(g.scores) if s not in sides)
    return (len(won) / len(g.winners) if won else 0.0), mine - others


def play(job: Job) -> dict[str, Any]:
    """Play one game of the job; the JSON record of its result."""
    players, opponent, level, variant, seed, seating = job
    seats = seatings(players)[seating]
    start = time.perf_counter()
    if opponent.startswith("ismcts"):
        g = _play_ismcts(players, seed, seats, level, variant, parse_options(opponent[7:]))
    else:
        g = PepperGame(players=players, seed=seed, dealer=0)
        other = parse_options(opponent[7:]) if opponent.startswith("expert") else None
        bots: list[Bot[PepperView]] = []
        for s in range(players):
            if s in seats:
                bots.append(make_expert(level, variant, seed * 10 + s))
            elif other is not None:
                bots.append(make_expert(level, opponent[7:], seed * 10 + s))
            else:
                bots.append(HeuristicBot())
        while not g.is_over:
            if g.phase == "deal":
                g.apply("deal")
                continue
            seat = g.current_player
            assert seat is not None
            g.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
    win, margin = _outcome(g, seats)
    return {
        "players": players, "opponent": opponent, "level": level, "variant": variant,
        "seed": seed, "seating": seating, "win": win, "margin": margin,
        "hands": len(g.results), "seconds": round(time.perf_counter() - start, 2),
    }  # fmt: skip


def _play_ismcts(  # noqa: PLR0917 - one game's facts
    players: int, seed: int, seats: set[int], level: str, variant: str, opts: dict[str, Any]
) -> PepperGame:
    """A game on the engine (``seed``'s deals) mirrored move by move into the OpenSpiel
    adapter's state, where the ISMCTS seats search."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    from pfeffer.pepper.cards import CARD_INDEX
    from pfeffer.pepper.game import deal_order
    from pfeffer.rl.openspiel import register
    from pfeffer.rl.spaces import PepperActionSpace

    register()
    game = pyspiel.load_game(f"pfeffer_pepper(players={players},target=30,max_hands=1000)")
    space = PepperActionSpace(players)
    g = PepperGame(players=players, seed=seed, dealer=0)
    state = game.new_initial_state()
    state.apply_action(0)  # the first dealer, as in g
    bots: dict[int, Any] = {}
    experts: dict[int, Bot[PepperView]] = {}
    for s in range(players):
        if s in seats:
            experts[s] = make_expert(level, variant, seed * 10 + s)
        else:
            rng = np.random.RandomState(seed * 10 + s)
            bots[s] = ismcts.ISMCTSBot(
                game, HandRollout(seed * 10 + s), 2.0, int(opts.get("sims", 1000)),
                random_state=rng,
            )  # fmt: skip
    while not g.is_over:
        if g.phase == "deal":
            g.apply("deal")
            hands = [g.hand(s) for s in range(players)]
            if players == 2:
                hands.append(g.dead_hand())
            for s in deal_order(players, g.dealer):
                state.apply_action(CARD_INDEX[hands[s].pop()])
            continue
        seat = g.current_player
        assert seat is not None and state.current_player() == seat
        if seat in bots:
            action_id = int(bots[seat].step(state))
            action = space.action_of(action_id)
        else:
            action = experts[seat].choose(g.view(seat), g.legal_actions())
            action_id = space.action_id(action)
        g.apply(action)
        state.apply_action(action_id)
    return g


class HandRollout:
    """ISMCTS evaluator: random legal moves to the end of the current hand on a copy of the
    engine, then each player's value 2p - 1 from its side's chance to win by the scores
    (the game's real returns if it ended)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def evaluate(self, state: Any) -> Any:
        """Values per player of a roll-out from ``state``."""
        import numpy as np

        from pfeffer.pepper.outlook import Outlook

        g = state.engine.clone()
        while g.phase != "deal" and not g.is_over:
            g.apply(self._rng.choice(g.legal_actions()))
        k = len(g.scores)
        if g.is_over:
            share = [1.0 / len(g.winners) if s in g.winners else 0.0 for s in range(k)]
        else:
            o = Outlook(len(g.players), g.rules)
            share = [o.win_chance(g.scores, s) for s in range(k)]
        return np.array([2 * share[g.side_of(p)] - 1 for p in range(len(g.players))])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        """Uniform over the legal actions."""
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


# ------------------------------------------------------------------------------ run and report


def jobs(args: argparse.Namespace) -> Iterator[Job]:
    """Every game of the run, set by set, player counts interleaved."""
    for k in range(args.sets):
        for n in args.players:
            for i in range(len(seatings(n))):
                yield (n, args.opponent, args.level, args.variant, 1000 + k, i)


def _key(r: dict[str, Any]) -> Job:
    return (r["players"], r["opponent"], r["level"], r["variant"], r["seed"], r["seating"])


def read(paths: list[Path]) -> list[dict[str, Any]]:
    """The records of JSONL result files (a torn last line is skipped)."""
    out = []
    for p in paths:
        if not p.exists():
            continue
        for line in p.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


def lower_bound(wins: float, games: int, alpha: float = 0.05) -> float:
    """The one-sided exact (Clopper-Pearson) lower confidence bound of a win rate, games taken
    as independent (shared wins rounded down): meaningful where the ± of a few sets is not, e.g.
    when every game was won.

    >>> round(lower_bound(6, 6), 3), round(lower_bound(0, 5), 3)
    (0.607, 0.0)
    """
    k = math.floor(wins)
    if k <= 0:
        return 0.0

    def tail(p: float) -> float:  # P(at least k wins of ``games``)
        return sum(math.comb(games, i) * p**i * (1 - p) ** (games - i) for i in range(k, games + 1))

    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if tail(mid) < alpha:
            lo = mid
        else:
            hi = mid
    return lo


def report(records: list[dict[str, Any]]) -> list[str]:
    """Markdown rows per (opponent, level, variant, players): win rate ± s.e. over complete
    duplicate sets and its 95% lower bound (:func:`lower_bound`), mean margin ± s.e., games,
    seconds a game."""
    groups: dict[tuple[str, str, str, int], dict[int, dict[int, dict[str, Any]]]] = {}
    for r in records:
        g = groups.setdefault((r["opponent"], r["level"], r["variant"], r["players"]), {})
        g.setdefault(r["seed"], {})[r["seating"]] = r
    rows = [
        "| opponent | level | variant | players | wins | 95% lower | margin | sets (games) "
        "| s/game |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (opp, level, variant, n), sets in sorted(groups.items()):
        full = [s for s in sets.values() if len(s) == len(seatings(n))]
        if not full:
            continue
        wins = [statistics.fmean(r["win"] for r in s.values()) for s in full]
        margins = [statistics.fmean(r["margin"] for r in s.values()) for s in full]
        secs = [r["seconds"] for s in full for r in s.values()]

        def pm(xs: list[float], scale: float, unit: str) -> str:
            se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
            return f"{scale * statistics.fmean(xs):.1f}{unit} ± {scale * se:.1f}"

        games = len(full) * len(seatings(n))
        low = lower_bound(sum(r["win"] for s in full for r in s.values()), games)
        rows.append(
            f"| {opp} | {level} | {variant or '-'} | {n} | {pm(wins, 100, '%')} | "
            f"{100 * low:.0f}% | {pm(margins, 1, '')} | {len(full)} ({games}) | "
            f"{statistics.fmean(secs):.0f} |"
        )
    return rows


def _init_worker() -> None:
    pin_one_core()


def run(args: argparse.Namespace) -> None:
    """Play the pending games of the run, appending each result to ``args.out``."""
    out: Path = args.out
    if out.exists() and not args.resume:
        raise SystemExit(f"{out} exists: add --resume to go on with it")
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {_key(r) for r in read([out])}
    pending = [j for j in jobs(args) if j not in done]
    print(f"{len(done)} games in {out}, {len(pending)} to play", flush=True)
    deadline = time.time() + args.minutes * 60 if args.minutes else math.inf
    with out.open("a") as f:
        if args.jobs <= 1:
            pin_one_core()
            for job in pending:
                if time.time() > deadline:
                    break
                f.write(json.dumps(play(job)) + "\n")
                f.flush()
        else:
            with multiprocessing.Pool(args.jobs, initializer=_init_worker) as pool:
                for rec in pool.imap(play, pending):
                    f.write(json.dumps(rec) + "\n")
                    f.flush()
                    if time.time() > deadline:
                        pool.terminate()
                        break
    print("\n".join(report(read([out]))))


# ------------------------------------------------------------------------------------ times


def decision_times(level: str, hands: int, players: int) -> dict[str, list[float]]:
    """Milliseconds per decision of ``level`` at every seat, by phase (opening leads apart)."""
    bots = [PEPPER_BOTS.create("expert", level=level, seed=s) for s in range(players)]
    out: dict[str, list[float]] = {"auction": [], "declare": [], "lead": [], "play": []}
    for h in range(hands):
        g = PepperGame(players=players, seed=h, dealer=h % players)
        g.apply("deal")
        while g.phase != "deal" and not g.is_over:
            seat = g.current_player
            assert seat is not None
            legal, view = g.legal_actions(), g.view(seat)
            phase = "lead" if g.phase == "play" and not g.tricks and not g.current_trick else None
            t = time.process_time()
            action = bots[seat].choose(view, legal)
            if len(legal) > 1:
                out[phase or str(g.phase)].append(1000 * (time.process_time() - t))
            g.apply(action)
    return out


def _q(xs: list[float]) -> str:
    if not xs:
        return "–"
    q = sorted(xs)
    return f"{statistics.median(q):.1f} / {q[int(0.9 * (len(q) - 1))]:.1f} / {q[-1]:.1f}"


def print_times(hands: int, players: list[int]) -> None:
    """The table of decision times per level and player count (CPU time of one process)."""
    pin_one_core()
    for n in players:
        decision_times("expert", 2, n)  # load the compiled kernels and the win model first
        Outlook(n, PepperRules())
    print(
        "| level | players | card play p50 / p90 / max | opening lead p50 / p90 / max | "
        "auction p50 / p90 / max | trump p50 |"
    )
    print("|---|---|---|---|---|---|")
    for level in ("easy", "medium", "hard", "expert"):
        for n in players:
            t = decision_times(level, hands, n)
            declare = f"{statistics.median(t['declare']):.1f}" if t["declare"] else "–"
            print(
                f"| {level} | {n} | {_q(t['play'] + t['lead'])} ms | {_q(t['lead'])} ms | "
                f"{_q(t['auction'])} ms | {declare} ms |",
                flush=True,
            )


def card_times(level: str, variant: str, hands: int, players: int) -> list[tuple[str, float]]:
    """``(where, ms)`` for every card decision with more than one legal card: ``where`` is
    ``"lead"`` (the hand's opening lead), else ``"trick T, card P"`` (from 1)."""
    bots = [make_expert(level, variant, s) for s in range(players)]
    out: list[tuple[str, float]] = []
    for h in range(hands):
        g = PepperGame(players=players, seed=h, dealer=h % players)
        g.apply("deal")
        while g.phase != "deal" and not g.is_over:
            seat = g.current_player
            assert seat is not None
            legal, view = g.legal_actions(), g.view(seat)
            t = time.process_time()
            action = bots[seat].choose(view, legal)
            ms = 1000 * (time.process_time() - t)
            if g.phase == "play" and len(legal) > 1:
                where = (
                    "lead"
                    if not g.tricks and not g.current_trick
                    else f"trick {len(g.tricks) + 1}, card {len(g.current_trick) + 1}"
                )
                out.append((where, ms))
            g.apply(action)
    return out


def print_card_times(level: str, variant: str, hands: int, players: list[int]) -> None:
    """The table of card decision times by player count, trick and place in the trick."""
    pin_one_core()
    for n in players:
        card_times(level, variant, 1, n)  # load the compiled kernels and the win model first
    print("| players | decision | count | median | max | over 50 ms |")
    print("|---|---|---|---|---|---|")
    for n in players:
        got = card_times(level, variant, hands, n)
        by: dict[str, list[float]] = {}
        for where, ms in got:
            by.setdefault(where, []).append(ms)
            by.setdefault("all", []).append(ms)
        for where in sorted(by, key=lambda w: (w != "all", w != "lead", w)):
            xs = by[where]
            print(
                f"| {n} | {where} | {len(xs)} | {statistics.median(xs):.1f} ms | "
                f"{max(xs):.1f} ms | {sum(x > 50 for x in xs)} |",
                flush=True,
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[4, 3, 2])
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--level", default="expert")
    ap.add_argument("--variant", default="")
    ap.add_argument("--sets", type=int, default=100, help="duplicate sets per player count")
    ap.add_argument("--minutes", type=float, default=0.0, help="stop after this long (0: never)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--report", type=Path, nargs="+")
    ap.add_argument("--times", action="store_true")
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--card-times", action="store_true")
    args = ap.parse_args()
    if args.card_times:
        print_card_times(args.level, args.variant, args.hands, args.players)
    elif args.times:
        print_times(args.hands, args.players)
    elif args.report:
        print("\n".join(report(read(args.report))))
    elif args.out:
        run(args)
    else:
        ap.error("give --out FILE.jsonl (a run), --report FILE.jsonl or --times")


if __name__ == "__main__":
    main()
