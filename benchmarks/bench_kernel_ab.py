"""The simulator's kernel in steps against the one loop it was (issue 19 §4), side by side.

    python benchmarks/bench_kernel_ab.py [--rounds R] [--seconds S] [--batch B]
    python benchmarks/bench_kernel_ab.py --control       # the one loop against a copy of itself
    python benchmarks/bench_kernel_ab.py --check N [--perfect]

Timing: ``bench_simulate.py``'s games (default rules, 2 × ``"heuristic"``, B games a call,
default 20,000) through :func:`pfeffer.dice.sim.simulate`, with ``kernel.run_games`` swapped for
the version measured. Each round runs both versions for S CPU seconds each, the order
alternating from round to round, and counts games per CPU second (``time.process_time``: the
figure a loaded machine disturbs least); printed: both medians, their ratio (one loop / steps:
below 1 the steps are faster), the median of the rounds' own ratios, and the load average
before and after. ``--control`` times the one loop (``kernel_oneloop.py``) against a second
compiled copy of the same file, to show the noise of the method. Pinned to one core.

``--check N``: N batches (2,000 to 10,000 in all; seeds, rules presets and house rules, two to
five seats of every policy level) played and recorded by both, every array compared (totals,
winners, turns, counts, actions, turn rows); ``--perfect`` adds batches of perfect play (a
small solved table, target 1000). ``tests/dice/test_kernel_steps.py`` runs the same check.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from anchor_env import pin_one_core
from pfeffer.dice import DiceRules
from pfeffer.dice.presets import DICE_PRESETS
from pfeffer.dice.sim import api, kernel, simulate

HERE = Path(__file__).resolve().parent

#: House rules the check plays besides the presets: each sets options the presets leave alone.
VARIANTS: tuple[dict[str, Any], ...] = (
    {"target": 3000},
    {"target": 3000, "pfeffer_reward": "stake", "pfeffer_short_bank": "allowed"},
    {"target": 2000, "auto_pfeffer": False, "pfeffer_margin": 0, "pfeffer_penalty_factor": 3},
    {"target": 2000, "final_round": False, "hot_dice_must_roll": False},
    {"target": 1500, "tie": "playoff", "min_bank": 0},
    {"target": 2500, "min_bank": 500, "min_bank_opening_only": True, "auto_pfeffer_penalty": 0},
    {"target": 2000, "pfeffer": False, "tie": "playoff"},
)
LEVELS = ("heuristic", "threshold", "easy", "medium", "hard")


def load_oneloop(name: str = "kernel_oneloop") -> Any:
    """``kernel_oneloop.py`` as a module named ``name`` (a second name: a second compiled copy)."""
    spec = importlib.util.spec_from_file_location(name, HERE / "kernel_oneloop.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def kernel_swapped(run_games: Callable[..., Any]) -> Iterator[None]:
    """``pfeffer.dice.sim`` plays with ``run_games`` while the block runs."""
    old = kernel.run_games
    kernel.run_games = run_games
    try:
        yield
    finally:
        kernel.run_games = old


def batch_arrays(
    run_games: Callable[..., Any], rules: DiceRules, policies: Sequence[Any], games: int, seed: int
) -> list[np.ndarray]:
    """Every array the kernel writes for ``games`` games, recorded, played by ``run_games``."""
    resolved = api._check(rules, policies, games, seed)
    with kernel_swapped(run_games):
        record = (1000 * games, 200 * games)
        b = api._run(rules, resolved, g0=0, games=games, seed=seed, record=record)
    assert b.status == kernel.STATUS_OK and b.done == games, (b.status, b.done)
    return [b.scores, b.winners, b.turns, b.stats, b.act_log, b.act_end, b.turn_log, b.turn_end]


def check_cases(n: int, perfect: bool = False) -> list[tuple[DiceRules, list[Any], int, int]]:
    """``n`` batches (rules, policies, games, seed) over the presets, the variants, two to five
    seats and every level; with ``perfect``, a sixth of them perfect play too."""
    from pfeffer.dice.solver.solve import solve_small

    rule_sets = [DiceRules(**p.rules) for p in DICE_PRESETS] + [DiceRules(**v) for v in VARIANTS]
    rng = np.random.default_rng(19)
    small = solve_small() if perfect else None
    cases: list[tuple[DiceRules, list[Any], int, int]] = []
    for i in range(n):
        seed = int(rng.integers(0, 2**63)) << int(rng.integers(0, 33)) if i % 3 else i
        if small is not None and i % 6 == 5:
            other = [small, LEVELS[i % len(LEVELS)]]
            cases.append((small.rules, other if i % 12 == 5 else other[::-1], 30, seed))
            continue
        rules = rule_sets[i % len(rule_sets)]
        seats = 2 + (i // len(rule_sets)) % 4
        players = [LEVELS[int(j)] for j in rng.integers(0, len(LEVELS), seats)]
        cases.append((rules, players, 40 if rules.target > 3000 else 150, seed))
    return cases


def check(n: int, perfect: bool, new: Callable[..., Any], old: Callable[..., Any]) -> int:
    """Batches where ``new`` and ``old`` differ (printed)."""
    bad = games = 0
    for rules, players, count, seed in check_cases(n, perfect):
        a = batch_arrays(new, rules, players, count, seed)
        b = batch_arrays(old, rules, players, count, seed)
        games += count
        if not all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b, strict=True)):
            bad += 1
            print(f"DIFFERENT: {rules.to_dict()} {players} seed {seed}")
    print(f"{n} batches, {games:,} games: {n - bad} identical, {bad} different")
    return bad


def rate(run_games: Callable[..., Any], seconds: float, batch: int, seed: int) -> float:
    """Games per CPU second of ``simulate`` with ``run_games``, 2 × heuristic, default rules."""
    rules = DiceRules()
    games = 0
    with kernel_swapped(run_games):
        start = time.process_time()
        while True:
            simulate(rules, ["heuristic"] * 2, games=batch, seed=seed + games)
            games += batch
            used = time.process_time() - start
            if used >= seconds:
                return games / used


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7, help="rounds of both versions (default 7)")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds a run (default 2)")
    ap.add_argument("--batch", type=int, default=20_000, help="games per simulate() call")
    ap.add_argument("--control", action="store_true", help="the one loop against its own copy")
    ap.add_argument("--check", type=int, default=0, metavar="N", help="compare N batches instead")
    ap.add_argument("--perfect", action="store_true", help="with --check: perfect play too")
    args = ap.parse_args(argv)
    oneloop = load_oneloop()
    if args.check:
        return 1 if check(args.check, args.perfect, kernel.run_games, oneloop.run_games) else 0
    pin_one_core()
    if args.control:
        names, fns = (
            ("one loop", "one loop copy"),
            (oneloop.run_games, load_oneloop("oneloop_copy").run_games),
        )
    else:
        names, fns = ("one loop", "steps"), (oneloop.run_games, kernel.run_games)
    for fn in fns:  # compile or load both before the clock starts
        rate(fn, 0.0, 10, 0)
    load = os.getloadavg()
    rates: tuple[list[float], list[float]] = ([], [])
    for r in range(args.rounds):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for i in order:
            rates[i].append(rate(fns[i], args.seconds, args.batch, 10**9 * r + 1))
        print(f"round {r + 1}: " + ", ".join(f"{names[i]} {rates[i][-1]:,.0f}" for i in (0, 1)))
    med = [statistics.median(x) for x in rates]
    per_round = statistics.median(a / b for a, b in zip(*rates, strict=True))
    print(f"games / CPU s, medians of {args.rounds} × {args.seconds:g} s: "
          f"{names[0]} {med[0]:,.0f}, {names[1]} {med[1]:,.0f}")  # fmt: skip
    print(f"ratio {names[0]} / {names[1]}: of the medians {med[0] / med[1]:.3f}, "
          f"median of the rounds' ratios {per_round:.3f}")  # fmt: skip
    after = os.getloadavg()
    print(f"load average before {load[0]:.1f} {load[1]:.1f}, after {after[0]:.1f} {after[1]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
