"""How far the lower truncation moves the default rules' table (docs/strategy.md, "Truncation").

Solves the default rules with a deeper lower bound (``--lower`` steps, default 200 = -10000) by
plain Gauss-Seidel value iteration with the fast path's own kernel (the same model as the shipped
table), warm-started from the shipped table (totals below its bound start at its bottom row), until
a full sweep changes nothing by more than 1e-11; then prints the largest change of any start value
between the shipped table and the deeper one, by region. No dense policy tables: memory stays
small. Run niced, e.g.::

    PYTHONPATH=src nice -n 10 /usr/bin/time -v python benchmarks/dice_truncation.py --lower 200

The deeper table is stored with ``--out`` (an .npz with ``normal``, ``auto``, ``lower``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import kernels
from pfeffer.dice.solver.cache import SHIPPED, _read
from pfeffer.dice.solver.tables import build_tables


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lower", type=int, default=200)
    ap.add_argument("--tolerance", type=float, default=1e-11)
    ap.add_argument("--out", default="")
    ap.add_argument("--max-sweeps", type=int, default=200)
    a = ap.parse_args()
    rules = DiceRules()
    shipped = _read(SHIPPED, rules)
    assert shipped is not None
    t = build_tables(rules)
    lo0, lo = shipped.lower, a.lower
    size0, size = t.target + lo0, t.target + lo
    pad = lo - lo0
    Wn = np.empty((size, size))
    Wa = np.empty((size, size))
    for W, old in ((Wn, shipped.normal), (Wa, shipped.auto)):
        ext = np.pad(old, ((pad, 0), (pad, 0)), mode="edge")  # below the old bound: its bottom
        W[:] = ext
    F = shipped.final
    args = kernels.kernel_args(t)
    Q = kernels.tail_table(F, t.group_start, t.group_prob, t.six_nonhot)
    turn_size = 2 * size + F.shape[0] + kernels.TAIL + t.max_points + 16
    D = np.zeros((turn_size, 5))
    H = np.zeros(turn_size)
    start = time.process_time()
    residuals = []
    for k in range(a.max_sweeps):
        c = kernels.sweep(Wn, Wa, 2 * size - 2, 0, lo, t.target, t.min_bank, t.auto_penalty, True,
                          True, True, F, Q, *args, D, H)  # fmt: skip
        residuals.append(c)
        print(f"sweep {k + 1}: largest change {c:.3e}  ({time.process_time() - start:.0f} s CPU)",
              flush=True)  # fmt: skip
        if c <= a.tolerance:
            break
    print("CPU seconds", round(time.process_time() - start, 1))
    if a.out:
        np.savez_compressed(a.out, normal=Wn, auto=Wa, lower=np.array(lo),
                            residuals=np.array(residuals))  # fmt: skip
    step = t.step
    print(
        f"win_probability(0, 0): shipped {shipped.normal[lo0, lo0]:.12f}, "
        f"deeper {Wn[lo, lo]:.12f}, change {Wn[lo, lo] - shipped.normal[lo0, lo0]:.2e}"
    )
    for level in (0, -1000, -2000, -4000, -6000):
        k0 = lo0 + level // step
        k = lo + level // step
        if k0 < 0:
            continue
        dn = np.abs(Wn[k:, k:] - shipped.normal[k0:, k0:]).max()
        da = np.abs(Wa[k:, k:] - shipped.auto[k0:, k0:]).max()
        print(f"both totals >= {level}: normal {dn:.2e}, Auto-Pfeffer {da:.2e}")
    del size0


if __name__ == "__main__":
    main()
