"""Issue 21 §2, a solve in under a minute: a cold solve against the warm start from the scaled
table of a smaller target, side by side in one process (numba compiled first on a tiny rule
set). Counts that do not depend on the machine's load come first: optimising sweeps (capped and
whole), then CPU seconds (``time.process_time``, all threads) and wall seconds with the load
average; medians over ``--repeats`` and the ratios warm / cold. The warm start's CPU counts the
smaller solve. Also checks that both reach the same table (largest difference).

    PYTHONPATH=src python benchmarks/bench_solve_speed.py --target 2000 --lower 40 \\
        --small 1000 --small-lower 20 --small-tolerance 1e-3 [--repeats 3] [--threads 2]

The warm start: ``solve.scaled_guess`` (every total scaled by small / target, read bilinearly),
the first sweeps capped as from the plain guess (``iterate_tables(..., cap_guess=True)``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import kernels
from pfeffer.dice.solver.solve import (
    FINAL_STEPS,
    TOLERANCE,
    iterate_tables,
    scaled_guess,
    solve_tables,
)
from pfeffer.dice.solver.tables import build_tables, kernel_dice, solve_vector


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--target", type=int, default=2000)
    p.add_argument("--lower", type=int, default=40)
    p.add_argument("--small", type=int, default=1000)
    p.add_argument("--small-lower", type=int, default=20)
    p.add_argument("--small-tolerance", type=float, default=1e-3)
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args()
    solve_tables(DiceRules(target=500), lower=10, final_steps=100)  # compile
    rules = DiceRules(target=a.target)
    t = build_tables(rules)
    dice = kernel_dice(t)
    final = kernels.final_round_table(FINAL_STEPS, 0.5, solve_vector(t, a.lower), dice)
    tail = kernels.tail_table(final, dice)
    rows: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": []}
    for _ in range(a.repeats):
        for name in ("cold", "warm"):
            load = os.getloadavg()[0]
            c0, w0 = time.process_time(), time.perf_counter()
            guess, cap, extra = None, False, ""
            if name == "warm":
                small = solve_tables(DiceRules(target=a.small), lower=a.small_lower,
                                     threads=a.threads, tolerance=a.small_tolerance)  # fmt: skip
                guess, cap = scaled_guess(small, rules, a.lower), True
                extra = f" (smaller solve {time.process_time() - c0:.1f} s CPU)"
            n, au, log = iterate_tables(rules, t, final, tail, a.lower, TOLERANCE, a.threads, guess,
                                        lambda s, f: None, cap_guess=cap)  # fmt: skip
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            rows[name].append((cpu, wall))
            if name == "cold":
                ref = (n, au)
            else:
                diff = max(float(np.abs(n - ref[0]).max()), float(np.abs(au - ref[1]).max()))
                extra += f", largest difference from cold {diff:.1e}"
            capped = sum(log.capped)
            print(f"{name}: {capped} capped + {len(log.residuals) - capped} whole sweeps, "
                  f"{cpu:.1f} s CPU, {wall:.1f} s wall (load {load:.1f}){extra}; residuals "
                  + ", ".join(f"{r:.1e}" for r in log.residuals), flush=True)  # fmt: skip
    med = {k: (statistics.median(c for c, _ in v), statistics.median(w for _, w in v))
           for k, v in rows.items()}  # fmt: skip
    (cc, cw), (wc, ww) = med["cold"], med["warm"]
    print(f"median cold {cc:.1f} s CPU / {cw:.1f} s wall, warm {wc:.1f} / {ww:.1f}; "
          f"warm / cold: CPU {wc / cc:.2f}, wall {ww / cw:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
