"""How far the lower truncation moves the default rules' table (docs/strategy.md, "Truncation
check").

Solve deeper (from a stored table extended downward, the fast path's own modified policy
iteration and stopping rule) and store the result::

    PYTHONPATH=src /usr/bin/time -v python benchmarks/dice_truncation.py solve \\
        --base shipped --lower 240 --tolerance 1e-12 --out /tmp/lower240.npz

Compare stored tables on their common states (largest change of any start value, normal /
Auto-Pfeffer table, among the states whose both totals are at least the level shown)::

    PYTHONPATH=src python benchmarks/dice_truncation.py compare shipped /tmp/lower240.npz
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import numpy as np

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver.cache import SHIPPED, _read, write
from pfeffer.dice.solver.solve import solve_deeper
from pfeffer.dice.solver.strategy import DiceStrategy

#: Levels (points) of the comparison: states with both totals at least this.
LEVELS = (0, -2000, -4000, -6000)
#: The default rules' scoring step (points).
STEP = 50


def load(name: str) -> DiceStrategy:
    """A stored default-rules table: ``shipped`` or an .npz written by ``solve``."""
    s = _read(SHIPPED if name == "shipped" else Path(name), DiceRules())
    if s is None:
        raise SystemExit(f"no default-rules table in {name}")
    return s


def differences(a: DiceStrategy, b: DiceStrategy, level: int) -> tuple[float, float]:
    """The largest change of a normal / Auto-Pfeffer start value with both totals ≥ ``level``."""
    k = -level // STEP
    if k > min(a.lower, b.lower):
        return float("nan"), float("nan")
    ia, ib = a.lower - k, b.lower - k
    n = float(np.abs(a.normal[ia:, ia:] - b.normal[ib:, ib:]).max())
    x = float(np.abs(a.auto[ia:, ia:] - b.auto[ib:, ib:]).max())
    return n, x


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("solve")
    s.add_argument("--base", default="shipped")
    s.add_argument("--lower", type=int, default=240)
    s.add_argument("--tolerance", type=float, default=1e-12)
    s.add_argument("--threads", type=int, default=2)
    s.add_argument("--out", required=True)
    c = sub.add_parser("compare")
    c.add_argument("tables", nargs="+")
    a = ap.parse_args()
    if a.cmd == "solve":
        base = load(a.base)
        start = time.perf_counter()
        marks: set[str] = set()

        def progress(stage: str, fraction: float) -> None:
            if stage not in marks:
                marks.add(stage)
                print(time.strftime("%H:%M:%S"), stage, flush=True)

        deep = solve_deeper(base, a.lower, tolerance=a.tolerance, threads=a.threads,
                            progress=progress)  # fmt: skip
        write(deep, Path(a.out))
        ru = resource.getrusage(resource.RUSAGE_SELF)
        print(f"lower {a.lower}: {time.perf_counter() - start:.0f} s wall, "
              f"{ru.ru_utime + ru.ru_stime:.0f} s CPU, {ru.ru_maxrss / 1024:.0f} MB peak, "
              f"residuals {deep.residuals}, W(0, 0) = {deep.win_probability(0, 0)!r}")  # fmt: skip
        return
    tables = [load(name) for name in a.tables]
    ref = tables[-1]
    print(f"against lower {ref.lower} (W(0, 0) = {ref.win_probability(0, 0)!r})")
    print("| lower | " + " | ".join(f"states ≥ {lv}" for lv in LEVELS) + " | W(0, 0) moves by |")
    for t in tables[:-1]:
        cells = [f"{n:.1e} / {x:.1e}" for n, x in (differences(t, ref, lv) for lv in LEVELS)]
        w = abs(t.win_probability(0, 0) - ref.win_probability(0, 0))
        print(f"| {t.lower} | " + " | ".join(cells) + f" | {w:.1e} |")


if __name__ == "__main__":
    main()
