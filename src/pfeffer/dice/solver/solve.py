"""Solving a rule set: the final round's last turns, then the start-of-turn table by modified
policy iteration: an optimising Gauss-Seidel sweep (highest score sums first) re-solves every
turn and stores its policy as a result distribution (bank totals, bust), cheap linear sweeps
then evaluate those fixed policies; this repeats until an optimising sweep changes no value by
more than the tolerance (the stopping rule of plain value iteration, reached in about five
optimising sweeps instead of about thirty).

>>> from pfeffer.dice.solver.solve import solve_small
>>> solve_small().residuals[-1] <= 1e-10
True
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Callable

import numpy as np

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import kernels, lanes
from pfeffer.dice.solver.general import solve_general, solve_playoff
from pfeffer.dice.solver.gkernels import dice_consts, reach_table
from pfeffer.dice.solver.stages import DONE, FINAL_ROUND
from pfeffer.dice.solver.stages import sweep as sweep_stage
from pfeffer.dice.solver.strategy import DiceStrategy
from pfeffer.dice.solver.tables import F64, DiceTables, build_tables, kernel_dice, solve_vector

#: The stopping rule: a full sweep that moves no start-of-turn value by more than this.
TOLERANCE = 1e-11
#: The final round's table covers leads up to this many steps; beyond, the last turn's chance
#: counts as 0 (it is below 1e-13 at 600 steps under the default scores, see docs/strategy.md).
FINAL_STEPS = 600
#: Totals below minus this many steps count as that bound (see docs/strategy.md).
LOWER_STEPS = 200
MAX_SWEEPS = 500
#: Policy evaluation (between optimising sweeps) stops when a linear sweep changes no value by
#: more than this, or by more than ``EVALUATION_RELATIVE`` times the last optimising sweep's
#: change, and by no more than the square of that change, the order of the next sweep's change
#: once the policies settle (evaluating a policy far more exactly than the next sweep will change
#: it is wasted: at target 3000 the same six optimising sweeps with 106 linear sweeps instead of
#: 233, 1e-3 took one optimising sweep more; without the square the sweep that should end the
#: solve can stand above the tolerance by the evaluation's own error: at target 5000 it was
#: 1.4e-11, one optimising sweep more), or after this many sweeps.
EVALUATION_TOLERANCE = 1e-14
EVALUATION_RELATIVE = 1e-5
MAX_EVALUATIONS = 2000
#: An optimising sweep after one that changed nothing by more than this bounds the residual of
#: each state whose inputs have hardly moved instead of re-solving its turn, and skips the state
#: if the bound is at most ``SKIP_SHARE`` of the tolerance (:mod:`.residual`; the last sweep of
#: the defaults then solves 16 of its 320,000 states).
SKIP_FROM = 1e-6
SKIP_SHARE = 0.5
#: The first optimising sweeps (from the plain first guess) cap every turn at this many points:
#: from there on every choice banks (:func:`kernels.turn_limits`), so a turn far below the
#: target costs as little as one near it. A cheap approximation while the table is far off; the
#: sweeps turn whole once a capped sweep changes nothing by more than ``CAP_UNTIL``, and only a
#: whole sweep can end the solve.
CAP_POINTS = 3000
CAP_UNTIL = 0.05

Progress = Callable[[str, float], None]
"""``progress(stage, fraction)``: the stage's name and how far the solve has come (0 to 1)."""


def available_cores() -> int:
    """The cores this process may run on (the default number of threads of a solve)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def solve_tables(
    rules: DiceRules,
    *,
    progress: Progress | None = None,
    lower: int = LOWER_STEPS,
    final_steps: int = FINAL_STEPS,
    tolerance: float = TOLERANCE,
    threads: int = 1,
) -> DiceStrategy:
    """Solve ``rules`` for two players (see :func:`solve`). ``threads`` > 1 spreads the states of
    each score sum over that many threads (Auto-Pfeffer rules only; the same values).

    Rules the plain tables describe (every option but the opening-only minimum and Pfeffer with
    the stake as reward) take the fast path below; the others, and rules where a Pfeffer call
    could pay after all (:func:`calls_never_pay`), the general path
    (:func:`pfeffer.dice.solver.general.solve_general`)."""
    if needs_general(rules):
        s = solve_general(rules, progress=progress, lower=lower, final_steps=final_steps,
                          tolerance=tolerance,
                          calls=rules.pfeffer and rules.pfeffer_reward == "stake")  # fmt: skip
        if not calls_never_pay(s, tolerance):
            s = solve_general(rules, progress=progress, lower=lower, final_steps=final_steps,
                              tolerance=tolerance, calls=True)  # fmt: skip
        return s
    s = _solve_fast(rules, progress=progress, lower=lower, final_steps=final_steps,
                    tolerance=tolerance, threads=threads)  # fmt: skip
    if not calls_never_pay(s, tolerance):
        return solve_general(rules, progress=progress, lower=lower, final_steps=final_steps,
                             tolerance=tolerance, calls=True)  # fmt: skip
    return s


def solve_deeper(
    s: DiceStrategy,
    lower: int,
    *,
    progress: Progress | None = None,
    tolerance: float = TOLERANCE,
    threads: int = 2,
) -> DiceStrategy:
    """``s``'s rules (fast path) solved again with the bound at ``lower`` steps, from ``s``'s
    table extended downward: the truncation check's deeper solve (same stopping rule)."""
    if needs_general(s.rules):
        raise ValueError("solve_deeper handles the fast path's rules only")
    return _solve_fast(s.rules, progress=progress, lower=lower, final_steps=len(s.final) - 2,
                       tolerance=tolerance, threads=threads, guess=s)  # fmt: skip


def needs_general(rules: DiceRules) -> bool:
    """Whether the plain tables cannot describe ``rules``: a "has banked" flag per player (the
    opening-only minimum) or the predecessor's bank (a Pfeffer call with the stake as reward)."""
    return rules.min_bank_opening_only or (rules.pfeffer and rules.pfeffer_reward == "stake")


def calls_never_pay(s: DiceStrategy, slack: float = 0.0) -> bool:
    """Whether calling Pfeffer provably never beats throwing in ``s`` (reward "none"; True when
    ``s`` values the calls itself or there is no Pfeffer).

    With no reward, a call allows only banks that throwing allows too (with the same outcome) and
    turns a bust into a loss of ``factor × stake`` points. So the call cannot pay when, for every
    state, the opponent's chance after the mover's bust is at least as high with the mover any
    stake's penalty lower: ``W0[j, i - x] >= W0[j, i] - slack`` for all ``x >= factor ×
    (smallest bank + margin)`` (``W0`` the opponent's table after a bust). In the final round and a
    playoff a call cannot pay at all: a bust there loses anyway or leaves the other a lead that
    only grows with the penalty (docs/strategy.md)."""
    r = s.rules
    m = s.model
    if not r.pfeffer or m.calls:
        return True
    W0 = m.RA if r.auto_pfeffer else m.RN
    ot = m.flags - 1
    xmin = r.pfeffer_penalty_factor * (int(m.needs[ot]) + m.tables.margin)
    for oo in range(m.flags):
        last = s.lower if (m.flags == 2 and oo == 0) else W0.shape[3] - 1
        w = W0[ot, oo, :, : last + 1]
        if m.flags == 2 and ot == 0:
            w = w[: s.lower + 1]
        low = np.minimum.accumulate(w, axis=1)
        below = low[:, np.maximum(np.arange(last + 1) - xmin, 0)]
        if np.any(below < w - slack):
            return False
    return True


def _solve_fast(
    rules: DiceRules,
    *,
    progress: Progress | None,
    lower: int,
    final_steps: int,
    tolerance: float,
    threads: int,
    guess: DiceStrategy | None = None,
) -> DiceStrategy:
    """The fast path: one flag, no predecessor in the state (see docs/strategy.md, "Method");
    ``guess`` (a solved table of the same rules at another bound) is the first guess, its
    bottom row standing for the totals below its bound."""
    start = time.perf_counter()
    report = progress or (lambda stage, fraction: None)
    t = build_tables(rules)
    dice = kernel_dice(t)
    extra: dict[str, F64] = {}
    tie = 0.5
    report(FINAL_ROUND, 0.0)
    if rules.final_round and rules.tie == "playoff":
        reach = reach_table(final_steps + 1, rules.hot_dice_must_roll, dice, dice_consts(dice))
        P = solve_playoff(t, t.min_bank, reach, final_steps)
        tie = float(1.0 - P[1])  # a tie in the last turn banks: the playoff without a call
        extra = {"playoff": P, "reach": reach}
    F = kernels.final_round_table(final_steps, tie, solve_vector(t, lower), dice)
    Q = kernels.tail_table(F, dice)
    start_tables = None
    if guess is not None:
        index = np.clip(np.arange(t.target + lower) - lower + guess.lower, 0, None)
        index = np.minimum(index, t.target + guess.lower - 1)
        start_tables = (guess.normal[np.ix_(index, index)], guess.auto[np.ix_(index, index)])
    normal, auto, log = iterate_tables(rules, t, F, Q, lower, tolerance, threads, start_tables,
                                       report)  # fmt: skip
    report(DONE, 1.0)
    return DiceStrategy(
        rules=rules,
        lower=lower,
        normal=normal,
        auto=auto,
        final=F,
        residuals=tuple(log.residuals),
        skipped=tuple(log.skipped),
        capped=sum(log.capped),
        seconds=time.perf_counter() - start,
        extra=extra,
    )


def iterate_tables(
    rules: DiceRules,
    t: DiceTables,
    F: F64,
    Q: F64,
    lower: int,
    tolerance: float,
    threads: int,
    guess: tuple[F64, F64] | None,
    report: Progress,
    cap_guess: bool = False,
) -> tuple[F64, F64, SweepLog]:
    """Modified policy iteration at bound ``lower`` from ``guess`` (else 0.5 everywhere; any
    guess gives the same fixed point, a good one fewer sweeps): the tables and what each
    optimising sweep did. ``cap_guess``: cap the first sweeps from ``guess`` too (as from the
    plain guess) while they change a value by more than ``CAP_UNTIL``."""
    rv = solve_vector(t, lower)
    dice = kernel_dice(t)
    fin = kernels.FinalTables(F, Q)
    size = t.target + lower
    normal = np.full((size, size), 0.5) if guess is None else guess[0]
    auto = np.full((size, size), 0.5) if guess is None else guess[1]
    turn_size = 2 * size + len(F) + kernels.TAIL + t.max_points + 16
    kinds = 2 if rules.auto_pfeffer else 1
    chunks = threads if (threads > 1 and rules.auto_pfeffer) else 1
    # The scratch (the turn's choices ``lanes.LANES`` wide) and the policies' bands: one of each
    # per thread.
    sc = lanes.scratch(t, turn_size, size, chunks if chunks > 1 else 0)
    store = kernels.policy_store(kinds, size, chunks)
    log = SweepLog()
    residuals = log.residuals
    # The first sweeps' turns are capped (a cheap approximation while the table is far off),
    # unless that caps nothing here.
    cap = max(CAP_POINTS // t.step, t.min_bank)
    capped = (guess is None or cap_guess) and cap < size
    # The last sweep's tables (start, end) and the best chance of a turn to get t steps far, for
    # the residual bounds of the sweeps that may end the solve (:mod:`.residual`).
    snap = np.zeros((2, 2, size, size))
    reach = reach_table(size + 1, rules.hot_dice_must_roll, dice, dice_consts(dice))
    skipped = np.zeros((2, size, size), dtype=np.bool_)
    chunk = max(1, (2 * size) // 50)

    def sweep(mode: int) -> float:
        """An optimising sweep (``mode``: see :func:`lanes._lane_group`); its largest change."""
        change = 0.0
        shortcut = tolerance * SKIP_SHARE
        turn_cap = cap if capped else kernels.NO_CAP
        hi = 2 * size - 2
        how = lanes.Sweep(mode, shortcut, turn_cap, snap, reach, skipped)
        sweep_kernel = lanes.sweep_policy_threads if chunks > 1 else lanes.sweep_policy
        while hi >= 0:
            lo = max(0, hi - chunk + 1)
            c = sweep_kernel(normal, auto, rv, fin, dice, sc, store, how, hi, lo)
            change = max(change, c)
            hi = lo - 1
            done = len(residuals) + (2 * size - 1 - hi) / (2 * size)
            report(sweep_stage(len(residuals) + 1), _fraction(done))
        return change

    for _ in range(MAX_SWEEPS):
        # An optimising sweep: every turn re-solved, its policy stored as a result distribution;
        # once the last (whole) sweep changed little, a state whose residual is bounded below the
        # tolerance without solving is skipped (and solved after all if the sweep does not end
        # the solve: the evaluation needs its policy). Only a whole sweep can end the solve.
        start = (normal.copy(), auto.copy())
        store.used[:] = 0
        skipped[:] = False
        mode = 0
        if residuals and not log.capped[-1] and residuals[-1] <= SKIP_FROM:
            mode = 1
        change = sweep(mode)
        if mode == 1 and change > tolerance and skipped.any():
            change = max(change, sweep(2))
        residuals.append(change)
        log.capped.append(capped)
        log.skipped.append(int(skipped.sum()) if mode == 1 else 0)
        snap[0, 0], snap[0, 1] = start
        snap[1, 0], snap[1, 1] = normal, auto
        if capped:
            capped = change > CAP_UNTIL
        elif change <= tolerance:
            break
        # Evaluate the fixed policies: cheap linear sweeps to (nearly) their fixed point.
        for _ in range(MAX_EVALUATIONS):
            if chunks > 1:
                c = kernels.sweep_fixed_threads(normal, auto, rv, store, chunks)
            else:
                c = kernels.sweep_fixed(normal, auto, rv, store)
            if c <= max(EVALUATION_TOLERANCE, min(EVALUATION_RELATIVE * change, change**2)):
                break
    return normal, auto, log


def scaled_guess(small: DiceStrategy, rules: DiceRules, lower: int) -> tuple[F64, F64]:
    """A first guess for ``rules`` at bound ``lower`` from ``small``, a table of the same rules
    at a smaller target: every total scaled by the ratio of the targets, read bilinearly from
    ``small`` (clamped to its range). Issue 21 §2's warm start; measured in
    benchmarks/bench_solve_speed.py, not used by :func:`solve_tables` (see docs/strategy.md)."""
    t, st = build_tables(rules), build_tables(small.rules)
    top = st.target + small.lower - 1
    scale = st.target / t.target
    at = np.clip((np.arange(t.target + lower) - lower) * scale + small.lower, 0, top)
    i0 = np.floor(at).astype(np.int64)
    i1 = np.minimum(i0 + 1, top)
    f = at - i0
    out = []
    for tab in (small.normal, small.auto):
        a = tab[np.ix_(i0, i0)] * (1 - f)[:, None] + tab[np.ix_(i1, i0)] * f[:, None]
        b = tab[np.ix_(i0, i1)] * (1 - f)[:, None] + tab[np.ix_(i1, i1)] * f[:, None]
        out.append(np.ascontiguousarray(a * (1 - f)[None, :] + b * f[None, :]))
    return out[0], out[1]


@dataclasses.dataclass
class SweepLog:
    """What each optimising sweep of :func:`iterate_tables` did: its largest change, whether
    its turns were capped, and how many states it bounded instead of solving."""

    residuals: list[float] = dataclasses.field(default_factory=list)
    capped: list[bool] = dataclasses.field(default_factory=list)
    skipped: list[int] = dataclasses.field(default_factory=list)


def _fraction(done: float) -> float:
    """How far the solve has come after ``done`` optimising sweeps (fractions count): about
    five are needed (fewer at small targets); past that the bar creeps towards the end."""
    expected = 5.0
    if done <= expected - 1:
        return done / expected
    return 1.0 - (1.0 / expected) / (1.0 + done - (expected - 1))


@functools.cache
def solve_small() -> DiceStrategy:
    """A strategy for a small target (doctests and quick checks): target 1000."""
    return solve_tables(DiceRules(target=1000), lower=20, final_steps=300, tolerance=1e-10)
