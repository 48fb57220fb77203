"""Solve times of the two-player dice solver (issue 10: the defaults in ≤ 5 minutes on two cores
with ≤ 1 GB): each rule set from scratch in its own subprocess (no cache, numba compiled first
on a tiny rule set), with wall time, CPU time (user + system, all threads), peak resident memory,
optimising sweeps, their residuals and the first player's chance, and the wall time of the
optimising sweeps (``sweeps_s``) and of the policy evaluation (``evaluation_s``); below each row
the residuals, how many first sweeps capped the turns and how many states each sweep bounded
instead of solving.

    PYTHONPATH=src python benchmarks/bench_dice_solve.py [--threads 2] [--sets defaults,...]

Sets: ``defaults``, ``target5000``, ``no-auto`` (Auto-Pfeffer off), ``no-final`` (no final
round), ``must-roll`` (hot dice need not be thrown: ``hot_dice_must_roll`` flipped) and
``general`` (the opening-only minimum at target 3000: the general path; not in the default list,
add it with ``--sets``; ``target1000`` is a quick check of the script). ``--lower N`` solves
with that bound instead of the solver's default (−10000). Run it on a quiet machine: with other
jobs on the cores the wall time means little (CPU time still does).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from pfeffer.dice.rules import DiceRules

SETS: dict[str, dict[str, object]] = {
    "defaults": {},
    "target5000": {"target": 5000},
    "no-auto": {"auto_pfeffer": False},
    "no-final": {"final_round": False},
    "must-roll": {"hot_dice_must_roll": not DiceRules().hot_dice_must_roll},
    "general": {"target": 3000, "min_bank_opening_only": True},
    "target1000": {"target": 1000},
}
DEFAULT_SETS = "defaults,target5000,no-auto,no-final,must-roll"


def timed(module: object, name: str, spent: dict[str, float], key: str) -> None:
    """Replace ``module.name`` by a wrapper that adds its wall time to ``spent[key]``."""
    f = getattr(module, name)

    def wrapper(*args: object) -> object:
        start = time.perf_counter()
        try:
            return f(*args)
        finally:
            spent[key] += time.perf_counter() - start

    setattr(module, name, wrapper)


def one(name: str, threads: int, lower: int) -> dict[str, object]:
    """Solve one set in this process; its figures."""
    from pfeffer.dice.solver import kernels, lanes
    from pfeffer.dice.solver.solve import LOWER_STEPS, solve_tables

    # Compile the kernels first (numba's cache makes this quick after the first run).
    solve_tables(DiceRules(target=1000), lower=20, final_steps=300, threads=threads)
    spent = {"sweeps_s": 0.0, "evaluation_s": 0.0}
    timed(lanes, "sweep_policy", spent, "sweeps_s")
    timed(lanes, "sweep_policy_threads", spent, "sweeps_s")
    timed(kernels, "sweep_fixed", spent, "evaluation_s")
    timed(kernels, "sweep_fixed_threads", spent, "evaluation_s")
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    rules = DiceRules(**SETS[name])  # type: ignore[arg-type]
    s = solve_tables(rules, threads=threads, lower=lower if lower > 0 else LOWER_STEPS)
    wall = time.perf_counter() - start
    ru = resource.getrusage(resource.RUSAGE_SELF)
    cpu = ru.ru_utime + ru.ru_stime - before.ru_utime - before.ru_stime
    return {"set": name, "wall": wall, "cpu": cpu, "rss_mb": ru.ru_maxrss / 1024,
            "sweeps": len(s.residuals), "residuals": list(s.residuals),
            "capped": s.capped, "skipped": list(s.skipped),
            "lower": s.lower, "first": s.win_probability(0, 0), **spent}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sets", default=DEFAULT_SETS)
    ap.add_argument("--lower", type=int, default=0)
    ap.add_argument("--one", default="", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        print(json.dumps(one(a.one, a.threads, a.lower)))
        return
    print(f"threads {a.threads}, lower {a.lower or 'default'}")
    print("| set | wall s | CPU s | peak MB | sweeps | last residual | W(0, 0) | sweeps s | "
          "evaluation s |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in a.sets.split(","):
        out = subprocess.run(
            [sys.executable, __file__, "--one", name, "--threads", str(a.threads), "--lower",
             str(a.lower)],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        r = json.loads(out.strip().splitlines()[-1])
        print(f"| {name} | {r['wall']:.0f} | {r['cpu']:.0f} | {r['rss_mb']:.0f} | {r['sweeps']} "
              f"| {r['residuals'][-1]:.1e} | {r['first']:.10f} | {r['sweeps_s']:.0f} "
              f"| {r['evaluation_s']:.0f} |", flush=True)  # fmt: skip
        print(
            f"  residuals {', '.join(f'{x:.2g}' for x in r['residuals'])}; the first "
            f"{r['capped']} capped; states bounded, not solved: {r['skipped']}",
            flush=True,
        )


if __name__ == "__main__":
    main()
