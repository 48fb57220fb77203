"""The general solver: exact optimal two-player play under every house rule (docs/strategy.md,
"General rules") — the opening-only minimum (a "has banked" flag per player), Pfeffer with the
stake as reward (the predecessor's bank enters the state), short banks, Auto-Pfeffer, the final
round and ties shared or played off.

The start-of-turn values are found by Gauss-Seidel value iteration (:func:`gsweep.gsweep`) until a
full sweep changes no value by more than the tolerance; the final round's last turns and the
playoff are solved first (:func:`final_tables`).

>>> from pfeffer.dice.rules import DiceRules
>>> s = solve_general(DiceRules(target=500, min_bank_opening_only=True), lower=10,
...                   final_steps=200, tolerance=1e-9)
>>> s.residuals[-1] <= 1e-9, s.extra["roll"].shape  # per "has banked" flag of both
(True, (2, 2, 20, 20))
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import gkernels as gk
from pfeffer.dice.solver.gsweep import Ends, Starts, Work, gsweep
from pfeffer.dice.solver.stages import DONE, FINAL_ROUND, sweep
from pfeffer.dice.solver.strategy import DiceStrategy
from pfeffer.dice.solver.tables import (
    F64,
    I64,
    DiceTables,
    build_tables,
    kernel_dice,
    solve_vector,
)

Progress = Callable[[str, float], None]
#: The playoff's values are iterated until no value moves by more than this.
PLAYOFF_TOLERANCE = 1e-15


def need_levels(t: DiceTables) -> I64:
    """The minimum to bank (steps) per "has banked" flag: one flag (always the minimum) unless the
    minimum holds only until the first bank (then 1 step once a player has banked)."""
    if t.rules.min_bank_opening_only:
        return np.array([t.min_bank, 1], dtype=np.int64)
    return np.array([t.min_bank], dtype=np.int64)


def dice_consts(t: DiceTables) -> F64:
    """:func:`gkernels.dice_consts` of the tables."""
    return gk.dice_consts(kernel_dice(t))


def scratch(length: int) -> Work:
    """Work arrays for one turn of up to ``length`` totals: bank values, D, H and R."""
    return Work(np.zeros(length), np.zeros((length, 5)), np.zeros(length), np.zeros((1, 7)))


def solve_playoff(t: DiceTables, need_open: int, reach: F64, dmax: int) -> F64:
    """``P[x]``: the chance that the player who starts a playoff round wins the playoff when the
    other's last result was ``x`` steps (0: a bust, so Auto-Pfeffer is on; every ``x`` ≥ ``dmax``
    counts as ``P[dmax]``, the value without a Pfeffer call).

    A round (docs/rules.md D14, house rule ``tie="playoff"``): the player after the last one to play
    (in two-player games the one who reached the target first) takes a turn from level scores,
    then the other a last turn; equal totals start the next round. Iterated to a fixed point
    (each round ends level only with the chance of a tie)."""
    r = t.rules
    dice = kernel_dice(t)
    consts = dice_consts(t)
    rv = solve_vector(t, 0)
    must = r.hot_dice_must_roll
    calls = r.pfeffer and r.pfeffer_reward == "stake"
    forbidden = r.pfeffer_short_bank == "forbidden"
    m, f = t.margin, r.pfeffer_penalty_factor
    pen_b = t.auto_penalty  # (0 without Auto-Pfeffer)
    work = scratch(2 * dmax + m + 3 * int(consts[0]) + 8)
    P = np.full(dmax + 1, 0.5)
    for _ in range(1000):
        G = gk.last_turn_table(need_open, 1.0 - P, must, dice, consts)[None, :]
        tie0 = 1.0 - P[0]
        common = (need_open, tie0, rv, reach, dice, consts, work)
        roll = gk.playoff_turn(G, need_open, 0, 0, False, *common)
        new = np.full(dmax + 1, roll)
        new[0] = gk.playoff_turn(G, need_open, pen_b, 0, False, *common)
        if calls:
            for x in range(1, dmax):
                s = x + m
                need = max(need_open, s) if forbidden else need_open
                beta = 1.0 - gk.last_ahead(-f * s, pen_b, tie0, reach[need_open])
                if forbidden and beta + (1.0 - beta) * reach[min(need, len(reach) - 1)] <= roll:
                    continue  # the call provably loses against throwing
                v = gk.playoff_turn(G, need, f * s, s, True, *common)
                new[x] = max(roll, v)
        change = float(np.abs(new - P).max())
        P = new
        if change <= PLAYOFF_TOLERANCE:
            break
    return P


def final_tables(t: DiceTables, final_steps: int) -> tuple[F64, F64, F64]:
    """``(G, reach, P)``: the last turn's chance ``G[flag, d]`` (to end more than ``d`` steps
    up; see :func:`gkernels.last_turn_table`), the best chance to bank at least ``y`` steps in one
    turn ``reach[y]``, and the playoff's values ``P`` (empty when ties are shared)."""
    r = t.rules
    dice = kernel_dice(t)
    consts = dice_consts(t)
    needs = need_levels(t)
    reach = gk.reach_table(final_steps + 1, r.hot_dice_must_roll, dice, consts)
    P = np.zeros(0)
    tie = np.full(final_steps + 1, 0.5)
    if r.final_round and r.tie == "playoff":
        P = solve_playoff(t, int(needs[-1]), reach, final_steps)
        tie = 1.0 - P
    if not r.final_round:
        return np.zeros((len(needs), final_steps + 2)), reach, P
    G = np.stack(
        [gk.last_turn_table(int(n), tie, r.hot_dice_must_roll, dice, consts) for n in needs]
    )
    return G, reach, P


def solve_general(
    rules: DiceRules,
    *,
    progress: Progress | None = None,
    lower: int = 40,
    final_steps: int = 600,
    tolerance: float = 1e-11,
    calls: bool | None = None,
    max_sweeps: int = 500,
) -> DiceStrategy:
    """Solve ``rules`` for two players on the general path. ``calls`` (default: Pfeffer with the
    stake as reward) keeps the predecessor's bank in the state so that a Pfeffer call is valued
    in every state; without it a call is assumed never to pay (checked afterwards by
    :func:`pfeffer.dice.solver.solve.calls_never_pay`)."""
    start = time.perf_counter()
    report = progress or (lambda stage, fraction: None)
    r = rules
    t = build_tables(r)
    consts = dice_consts(t)
    needs = need_levels(t)
    if calls is None:
        calls = r.pfeffer and r.pfeffer_reward == "stake"
    report(FINAL_ROUND, 0.0)
    G, reach, P = final_tables(t, final_steps)
    flags = len(needs)
    size = t.target + lower
    RN = np.full((flags, flags, size, size), 0.5)
    RA = np.full((flags, flags, size, size), 0.5)
    CL = np.full((flags, flags, size, size, size) if calls else (1, 1, 1, 1, 1), -1.0)
    work = scratch(2 * size + t.margin + final_steps + 3 * int(consts[0]) + 8)
    tabs, ends = Starts(RN, RA, CL), Ends(G, needs, reach)
    rv, dice = solve_vector(t, lower, calls=calls), kernel_dice(t)
    residuals: list[float] = []
    chunk = max(1, (2 * size) // 50)
    for _ in range(max_sweeps):
        change = 0.0
        hi = 2 * size - 2
        while hi >= 0:
            lo = max(0, hi - chunk + 1)
            c = gsweep(tabs, rv, ends, dice, consts, work, hi, lo)
            change = max(change, c)
            hi = lo - 1
            done = len(residuals) + (2 * size - 1 - hi) / (2 * size)
            report(sweep(len(residuals) + 1), min(0.99, done / 25.0))
        residuals.append(change)
        if change <= tolerance:
            break
    report(DONE, 1.0)
    extra: dict[str, F64] = {"roll": RN, "roll_auto": RA, "last": G, "reach": reach}
    if calls:
        extra["calls"] = CL
    if P.size:
        extra["playoff"] = P
    return DiceStrategy(
        rules=r,
        lower=lower,
        normal=RN[-1, -1].copy(),
        auto=RA[-1, -1].copy(),
        final=G[-1].copy(),
        residuals=tuple(residuals),
        seconds=time.perf_counter() - start,
        extra=extra,
    )
