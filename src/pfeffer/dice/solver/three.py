"""Exact optimal play for three players (docs/strategy.md, "More players").

Each player maximises their own chance to win (a shared win counts ``1/k`` to each of ``k``
players); values are vectors, one chance per player. The start-of-turn state is the totals of the
mover, the next player and the one after, and whether Auto-Pfeffer is on; once a player reaches
the target the other two have one last turn each (:func:`three_kernels.final_three`).

Rules: everything the two-player fast path handles (not the opening-only minimum, no Pfeffer
reward, ties shared); a Pfeffer call is checked never to pay (:func:`calls_never_pay`).

>>> from pfeffer.dice.rules import DiceRules
>>> s = solve_three(DiceRules(target=300, min_bank=150), lower=2, final_steps=80)
>>> a, b, c = s.chances(0, 0, 0)
>>> round(a + b + c, 12), a > b > c
(1.0, True)
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable

import numpy as np

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import three_kernels as tk
from pfeffer.dice.solver.general import dice_consts
from pfeffer.dice.solver.gkernels import reach_table
from pfeffer.dice.solver.stages import DONE, FINAL_ROUND, sweep
from pfeffer.dice.solver.tables import F64, DiceTables, build_tables, kernel_dice, solve_vector

Progress = Callable[[str, float], None]


@dataclasses.dataclass(frozen=True, eq=False)
class ThreeStrategy:
    """Optimal three-player play: ``W[mode, i, j, k, p]`` is the chance of player ``p`` (0 the
    mover, 1 the next, 2 the one after) at the start of the mover's turn with the totals of
    index ``i``, ``j``, ``k`` (``total + lower`` in steps; mode 1: Auto-Pfeffer); ``FR[d1, e]``
    the final round's chances (see :func:`three_kernels.final_three`)."""

    rules: DiceRules
    lower: int
    W: F64
    FR: F64
    reach: F64
    residuals: tuple[float, ...]
    seconds: float

    @functools.cached_property
    def tables(self) -> DiceTables:
        """The rules' dice tables."""
        return build_tables(self.rules)

    @property
    def step(self) -> int:
        """The points of one scoring step."""
        return self.tables.step

    @property
    def players(self) -> int:
        """The number of players (three)."""
        return 3

    @functools.cached_property
    def last_turns(self) -> tuple[F64, F64]:
        """The final round's last turn (see :func:`three_kernels.last_two`) when a tie shares
        the win between two and between three players."""
        t = self.tables
        r = self.rules
        dice, consts = kernel_dice(t), dice_consts(t)
        dmax = self.FR.shape[0] - 2
        two = tk.last_two(dmax, t.min_bank, 0.5, r.hot_dice_must_roll, dice, consts)
        three = tk.last_two(dmax, t.min_bank, 1.0 / 3.0, r.hot_dice_must_roll, dice, consts)
        return two, three

    @functools.cached_property
    def _turns(self) -> dict[tuple[object, ...], tuple[F64, F64, F64, F64]]:
        return {}

    def chances(self, own: int, nxt: int, after: int, auto_pfeffer: bool = False
                ) -> tuple[float, float, float]:  # fmt: skip
        """Each player's chance (mover, next, the one after) at the start of the mover's turn
        with these totals (points; all below the target)."""
        t = self.tables
        idx = [max(x // t.step, -self.lower) + self.lower for x in (own, nxt, after)]
        if any(x // t.step >= t.target for x in (own, nxt, after)):
            raise ValueError("a player has reached the target: that is the final round")
        mode = 1 if (auto_pfeffer and self.rules.auto_pfeffer) else 0
        v = self.W[mode, idx[0], idx[1], idx[2]]
        return float(v[0]), float(v[1]), float(v[2])

    def win_probability(self, own: int, nxt: int, after: int, auto_pfeffer: bool = False
                        ) -> float:  # fmt: skip
        """The mover's chance to win (see :meth:`chances`)."""
        return self.chances(own, nxt, after, auto_pfeffer)[0]


def check_rules(rules: DiceRules) -> None:
    """NotImplementedError for rules the three-player solver does not handle."""
    off = [name for name, on in (("min_bank_opening_only", rules.min_bank_opening_only),
                                 ("pfeffer_reward", rules.pfeffer and
                                  rules.pfeffer_reward == "stake"),
                                 ("tie", rules.tie == "playoff")) if on]  # fmt: skip
    t = build_tables(rules)
    if int(t.opt_points.min()) == 0:
        off.append("keep options worth 0 points")
    if off:
        raise NotImplementedError(f"the three-player solver does not handle {', '.join(off)}")


def final_tables3(t: DiceTables, dmax: int) -> tuple[F64, F64]:
    """``(FR, reach)`` of the rules (see :func:`three_kernels.final_three`)."""
    r = t.rules
    dice = kernel_dice(t)
    consts = dice_consts(t)
    reach = reach_table(dmax + 1, r.hot_dice_must_roll, dice, consts)
    two = tk.last_two(dmax, t.min_bank, 0.5, r.hot_dice_must_roll, dice, consts)
    three = tk.last_two(dmax, t.min_bank, 1.0 / 3.0, r.hot_dice_must_roll, dice, consts)
    FR = tk.final_three(dmax, t.min_bank, r.hot_dice_must_roll, two, three, dice, consts)
    return FR, reach


def solve_three(
    rules: DiceRules,
    *,
    lower: int = 20,
    final_steps: int = 600,
    tolerance: float = 1e-11,
    progress: Progress | None = None,
    max_sweeps: int = 500,
) -> ThreeStrategy:
    """Solve ``rules`` for three players by Gauss-Seidel value iteration until a full sweep
    changes no chance by more than ``tolerance``."""
    check_rules(rules)
    start = time.perf_counter()
    report = progress or (lambda stage, fraction: None)
    t = build_tables(rules)
    r = rules
    rv, dice = solve_vector(t, lower), kernel_dice(t)
    consts = dice_consts(t)
    report(FINAL_ROUND, 0.0)
    FR, reach = final_tables3(t, final_steps)
    if r.final_round and FR[-1, -1, 0] < 1.0 - t.bust[6]:
        # Past both leads of the table the turn banks (three_bank's ``capped``): that must be
        # provably best there, or the tail would be guessed.
        raise ValueError(f"final_steps={final_steps} is too few for these rules: the leader's "
                         f"chance at the table's end, {FR[-1, -1, 0]:.4f}, must be at least "
                         f"{1.0 - t.bust[6]:.4f}")  # fmt: skip
    size = t.target + lower
    W = np.full((2, size, size, size, 3), 1.0 / 3.0)
    L = size + final_steps + 3 * int(consts[0]) + 8
    b, D, H = np.zeros((L, tk.K)), np.zeros((L, 5, tk.K)), np.zeros((L, tk.K))
    residuals: list[float] = []
    top = 3 * size - 3
    chunk = max(1, top // 30)
    for _ in range(max_sweeps):
        change = 0.0
        hi = top
        while hi >= 0:
            lo = max(0, hi - chunk + 1)
            c = tk.sweep3(W, rv, FR, reach, dice, consts, b, D, H, hi, lo)
            change = max(change, c)
            hi = lo - 1
            report(sweep(len(residuals) + 1), min(0.99, (len(residuals) + 1) / 30))
        residuals.append(change)
        if change <= tolerance:
            break
    report(DONE, 1.0)
    return ThreeStrategy(r, lower, W, FR, reach, tuple(residuals), time.perf_counter() - start)


#: The largest target (points, default scores) the exact three-player solve accepts from
#: :func:`pfeffer.dice.solve`: solved within 10 minutes of one core (docs/strategy.md).
MAX_EXACT_TARGET = 500
#: The lower bound (steps) and the final round's table (steps) of that solve.
EXACT_LOWER = 10
EXACT_FINAL = 300


def solve_exact_three(rules: DiceRules, *, progress: Progress | None = None) -> ThreeStrategy:
    """The exact three-player strategy of :func:`pfeffer.dice.solve` (``players=3``): a
    ``ValueError`` above :data:`MAX_EXACT_TARGET`, NotImplementedError for rules it does not
    handle, and a check that a Pfeffer call never pays."""
    if rules.target > MAX_EXACT_TARGET:
        raise ValueError(
            f"the exact three-player solve handles targets up to {MAX_EXACT_TARGET} points "
            f"(not {rules.target}: the states grow with the cube of the target); use "
            "solve(rules, players, method='approx')"
        )
    s = solve_three(rules, lower=EXACT_LOWER, final_steps=EXACT_FINAL, progress=progress)
    if not calls_never_pay(s, 1e-11):
        raise NotImplementedError("under these rules a Pfeffer call can pay for three players")
    return s


def calls_never_pay(s: ThreeStrategy, slack: float = 0.0) -> bool:
    """Whether a Pfeffer call (reward "none") provably never beats throwing: after the mover's
    bust the next player starts under Auto-Pfeffer, and the mover's chance there must not grow
    with a lower total by any call's penalty (see :func:`pfeffer.dice.solver.solve.
    calls_never_pay`)."""
    r = s.rules
    if not r.pfeffer:
        return True
    t = s.tables
    xmin = r.pfeffer_penalty_factor * (t.min_bank + t.margin)
    w = s.W[1 if r.auto_pfeffer else 0, :, :, :, 2]  # the mover as the one after
    high = np.maximum.accumulate(w, axis=2)
    idx = np.maximum(np.arange(w.shape[2]) - xmin, 0)
    return bool(np.all(high[:, :, idx] <= w + slack))
