"""Issue 21 §2: how much work three directions could take out of a dice solve, measured before
building them (docs/strategy.md, "Issue 21 §2").

``lazy``: each optimising sweep's change per start state, and the share of the sweep's work (a
state's turn costs about its number of turn totals: to the target, or to the cap of the first
sweeps) in states whose change was below a fraction of the sweep's largest: what re-solving only
the states that still move could save.
``neighbours``: whether the turns of neighbouring opponent totals (same own total) choose alike
on the shipped default table, and where they first differ. ``menus``: how many keep options a
turn weighs, and how many are left once an option keeping fewer points to the same dice is
dropped (exact only where the bank values rise with the total; counted on the shipped table).

    PYTHONPATH=src python benchmarks/solve_directions.py lazy --target 2000 --lower 100
    PYTHONPATH=src python benchmarks/solve_directions.py neighbours
    PYTHONPATH=src python benchmarks/solve_directions.py menus
"""

from __future__ import annotations

import argparse
import importlib
import time
from typing import Any

import numpy as np

from pfeffer.dice import solve
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import kernels, lanes
from pfeffer.dice.solver.tables import build_tables, kernel_dice, solve_vector

SHARES = (1e-1, 1e-2, 1e-3, 1e-4)


def lazy(target: int, lower: int) -> None:
    """Solve ``target`` at bound ``lower`` on one thread, printing each optimising sweep's share
    of work in states that moved by less than each of ``SHARES`` of the sweep's largest change."""
    module = importlib.import_module("pfeffer.dice.solver.solve")
    plain = lanes.sweep_policy
    start: dict[str, Any] = {}

    def watched(normal: Any, auto: Any, *rest: Any) -> float:
        how, hi, lo = rest[5], rest[6], rest[7]
        if hi == 2 * normal.shape[0] - 2:
            start["tables"] = (normal.copy(), auto.copy())
        change = float(plain(normal, auto, *rest))
        if lo == 0:
            n0, a0 = start["tables"]
            size = normal.shape[0]
            moved = np.stack([np.abs(normal - n0), np.abs(auto - a0)])
            # A turn's work: its turn totals (to the target, or to the cap of a capped sweep).
            steps = np.minimum(size - np.arange(size), how.cap)
            work = np.broadcast_to(steps[:, None], (2, size, size))
            top = moved.max()
            shares = "  ".join(
                f"<{s:g}: {work[moved < s * top].sum() / work.sum():.3f}" for s in SHARES
            )
            whole = "capped" if how.cap < kernels.NO_CAP else "whole"
            print(f"sweep ({whole}, mode {how.mode}) largest {top:.2e}  {shares}", flush=True)
        return change

    lanes.sweep_policy = watched  # type: ignore[assignment]
    try:
        t0 = time.process_time()
        s = module.solve_tables(DiceRules(target=target), lower=lower, threads=1)
    finally:
        lanes.sweep_policy = plain
    print(f"CPU {time.process_time() - t0:.1f} s, residuals {s.residuals}")


def neighbours(pairs: int, seed: int) -> None:
    """Compare the turns of ``(i, j)`` and ``(i, j + 1)`` (normal states) below the target."""
    s = solve(DiceRules())
    t = build_tables(s.rules)
    dice = kernel_dice(t)
    size = s.normal.shape[0]
    rv = solve_vector(t, s.lower)
    fin = kernels.FinalTables(s.final, kernels.tail_table(s.final, dice))
    turn_size = 2 * size + len(s.final) + kernels.TAIL + t.max_points + 16

    def policy(i: int, j: int) -> tuple[Any, Any]:
        sc = kernels.scratch(t, turn_size, size)
        beta = kernels.bust_value(False, i, j, s.normal, s.auto, rv)
        kernels.turn_policy(i - s.lower, j - s.lower, beta, s.normal, rv, fin, dice, sc)
        return sc.roll.copy(), sc.arg.copy()

    rng = np.random.default_rng(seed)
    firsts: list[int] = []
    same = 0
    for _ in range(pairs):
        i, j = int(rng.integers(0, size)), int(rng.integers(0, size - 1))
        (r1, a1), (r2, a2) = policy(i, j), policy(i, j + 1)
        top = size - i
        differ = (r1[:top] != r2[:top]).any(axis=1) | (a1[:top] != a2[:top]).any(axis=1)
        where = np.nonzero(differ)[0]
        if len(where) == 0:
            same += 1
        else:
            firsts.append(int(where[0]))
    print(f"pairs {pairs}: the same choices at every turn total below the target: {same}")
    if firsts:
        q1, med, q3 = np.percentile(firsts, [25, 50, 75])
        print(f"first differing turn total (steps): quartiles {q1:.0f} / {med:.0f} / {q3:.0f}")


def menus() -> None:
    """Keep options per dice count, all and without those dominated by more points to the same
    dice; and where the shipped table's bank values fall as the total rises."""
    s = solve(DiceRules())
    d = kernel_dice(build_tables(s.rules))
    every = kept = 0
    for n in range(1, 7):
        for g in range(int(d.group_start[n]), int(d.group_start[n + 1])):
            options = range(int(d.opt_start[g]), int(d.opt_start[g + 1]))
            every += len(options)
            kept += len({int(d.opt_offset[o]) % 6 for o in options})
    print(f"keep options over all throws: {every}; one per dice left: {kept}")
    for name, table in (("normal", s.normal), ("auto", s.auto)):
        rises = np.diff(table, axis=1) > 0  # W[j, x + 1] > W[j, x]: a bank worth less higher up
        rows = np.nonzero(rises.any(axis=1))[0] - s.lower
        print(f"{name}: opponent totals (steps) whose bank values fall somewhere: {rows.tolist()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("lazy")
    p.add_argument("--target", type=int, default=2000)
    p.add_argument("--lower", type=int, default=100)
    p = sub.add_parser("neighbours")
    p.add_argument("--pairs", type=int, default=240)
    p.add_argument("--seed", type=int, default=1)
    sub.add_parser("menus")
    a = parser.parse_args()
    if a.what == "lazy":
        lazy(a.target, a.lower)
    elif a.what == "neighbours":
        neighbours(a.pairs, a.seed)
    else:
        menus()


if __name__ == "__main__":
    main()
