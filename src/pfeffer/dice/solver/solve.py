"""Solving a rule set: the final round's last turns, then the start-of-turn table by value
iteration (Gauss-Seidel sweeps, highest score sums first) until a sweep changes no value by more
than the tolerance.

>>> from pfeffer.dice.solver.strategy import solve_small
>>> solve_small().residuals[-1] <= 1e-10
True
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import kernels
from pfeffer.dice.solver.strategy import DiceStrategy
from pfeffer.dice.solver.tables import build_tables

#: The stopping rule: a full sweep that moves no start-of-turn value by more than this.
TOLERANCE = 1e-11
#: The final round's table covers leads up to this many steps; beyond, the last turn's chance
#: counts as 0 (it is below 1e-13 at 600 steps under the default scores, see docs/strategy.md).
FINAL_STEPS = 600
#: Totals below minus this many steps count as that bound (see docs/strategy.md).
LOWER_STEPS = 40
MAX_SWEEPS = 500

Progress = Callable[[str, float], None]
"""``progress(stage, fraction)``: the stage's name and how far the solve has come (0 to 1)."""


def solve_tables(
    rules: DiceRules,
    *,
    progress: Progress | None = None,
    lower: int = LOWER_STEPS,
    final_steps: int = FINAL_STEPS,
    tolerance: float = TOLERANCE,
) -> DiceStrategy:
    """Solve ``rules`` for two players (see :func:`solve`)."""
    unsupported = [
        name
        for name, off in (("pfeffer_reward", rules.pfeffer_reward == "stake" and rules.pfeffer),
                          ("min_bank_opening_only", rules.min_bank_opening_only),
                          ("tie", rules.tie == "playoff"))
        if off
    ]  # fmt: skip
    if unsupported:
        raise NotImplementedError(f"the solver does not handle {', '.join(unsupported)} yet")
    start = time.perf_counter()
    report = progress or (lambda stage, fraction: None)
    t = build_tables(rules)
    args = kernels.kernel_args(t)
    tie = 0.5
    report("final round", 0.0)
    F = kernels.final_round_table(final_steps, t.min_bank, rules.hot_dice_must_roll, tie, *args)
    Q = kernels.tail_table(F, t.group_start, t.group_prob, t.six_nonhot)
    size = t.target + lower
    normal = np.full((size, size), 0.5)
    auto = np.full((size, size), 0.5)
    turn_size = 2 * size + final_steps + kernels.TAIL + t.max_points + 16
    D = np.zeros((turn_size, 5))
    H = np.zeros(turn_size)
    residuals: list[float] = []
    chunk = max(1, (2 * size) // 20)
    first = None
    for _ in range(MAX_SWEEPS):
        change = 0.0
        hi = 2 * size - 2
        while hi >= 0:
            lo = max(0, hi - chunk + 1)
            c = kernels.sweep(normal, auto, hi, lo, lower, t.target, t.min_bank, t.auto_penalty,
                              rules.auto_pfeffer, rules.final_round, rules.hot_dice_must_roll,
                              F, Q, *args, D, H)  # fmt: skip
            change = max(change, c)
            hi = lo - 1
            done = len(residuals) + (2 * size - 1 - hi) / (2 * size)
            report("sweeps", _fraction(first, residuals, tolerance, done))
        residuals.append(change)
        first = first or change
        if change <= tolerance:
            break
    report("done", 1.0)
    return DiceStrategy(
        rules=rules,
        lower=lower,
        normal=normal,
        auto=auto,
        final=F,
        residuals=tuple(residuals),
        seconds=time.perf_counter() - start,
    )


def _fraction(first: float | None, residuals: list[float], tolerance: float, done: float) -> float:
    """How far the sweeps have come: the residual's way down to the tolerance, on a log scale."""
    if not residuals or first is None:
        return min(done, 1.0) * 0.05
    last = residuals[-1]
    span = np.log(first / tolerance)
    return float(min(max(np.log(first / max(last, tolerance)) / span, 0.05), 0.99))
