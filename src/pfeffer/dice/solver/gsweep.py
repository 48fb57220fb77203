"""The general solver's start-of-turn table (numba): bank arrays read from the table, and a
Gauss-Seidel sweep over every state (docs/strategy.md, "General rules").

Tables (totals as indices ``total + lower``; flags ``F`` = 2 under the opening-only minimum, where
index 0 is "has not banked yet", else 1): ``RN[oo, ot, i, j]`` the mover's chance at the start of
a turn without a Pfeffer bet, ``RA[...]`` under Auto-Pfeffer, and ``CL[oo, ot, i, j, r]`` the
chance after calling Pfeffer when the predecessor banked ``r`` steps (-1: the call is provably
worse than throwing). A state with predecessor result ``r > 0`` is worth
``max(RN, CL[..., r])``.
"""

from __future__ import annotations

from typing import NamedTuple

from pfeffer.core.compiled import jit
from pfeffer.dice.solver.gkernels import TAIL_EPS, fin_value, turn_dp
from pfeffer.dice.solver.tables import (
    F64,
    I64,
    S_AUTO,
    S_CALLS,
    S_FACTOR,
    S_FINAL_ROUND,
    S_FORBIDDEN,
    S_LOWER,
    S_MARGIN,
    S_MUST_ROLL,
    S_PENALTY,
    S_STAKE_REWARD,
    S_TARGET,
    Dice,
)


class Starts(NamedTuple):
    """The start-of-turn tables ``RN``, ``RA``, ``CL`` (see the module text)."""

    RN: F64
    RA: F64
    CL: F64


class Ends(NamedTuple):
    """What the main game's turns read of the game's end: the last turn's chance ``G[flag, d]``
    (:func:`gkernels.last_turn_table`), the minimum per "has banked" flag ``needs`` and the best
    chance to bank at least ``y`` steps in one turn ``reach[y]``."""

    G: F64
    needs: I64
    reach: F64


class Work(NamedTuple):
    """One turn's work arrays: the bank values ``b``, ``D``, ``H`` and ``R``
    (:func:`gkernels.turn_dp`)."""

    b: F64
    D: F64
    H: F64
    R: F64


class BankTurn(NamedTuple):
    """One turn's numbers for :func:`main_bank`, in steps: the mover's total ``own`` against
    ``other`` (the true totals, not indices), banking from ``need``, a bank ``t >= stake``
    adding ``stake`` with ``bonus``; ``ot`` the other's flag (the mover's after a bank is the
    last, "has banked"); the bust's value ``beta`` to the mover and ``maxp`` the most steps one
    keep scores (``beta`` infinite and ``maxp`` 0 fill the whole array: the advice)."""

    own: int
    other: int
    need: int
    stake: int
    bonus: bool
    ot: int
    beta: float
    maxp: int


@jit
def main_bank(
    b: F64, turn: BankTurn, rv: I64, tabs: Starts, ends: Ends, bust: F64
) -> tuple[int, int]:
    """Fill ``b`` with the mover's chance after banking each turn total (``turn``; the rules
    from ``rv``, :func:`pfeffer.dice.solver.tables.solve_vector`: ``S_CALLS`` reads the Pfeffer
    calls ``tabs.CL``, ``S_STAKE_REWARD`` values them in the last turn; ``bust`` the chances by
    dice) as far as the turn needs it, and return ``(tcut, top)`` as :func:`gkernels.find_cuts`
    would (from the first total whose bank reaches the target, ``b`` is non-decreasing)."""
    own, other, need, stake, bonus, ot, beta, maxp = turn
    lower = rv[S_LOWER]
    target = rv[S_TARGET]
    final_round = rv[S_FINAL_ROUND] != 0
    calls = rv[S_CALLS] != 0
    calls_fin = rv[S_STAKE_REWARD] != 0
    m = rv[S_MARGIN]
    RN, CL = tabs.RN, tabs.CL
    oa = RN.shape[0] - 1  # the mover has banked
    G, reach = ends.G, ends.reach
    need0_ot = ends.needs[ot]
    n = b.shape[0]
    last = n - 2 * maxp - 2
    rl = reach.shape[0] - 1
    thr = 1.0 - bust[6] * (1.0 - beta)
    j = other + lower
    first = -1
    tcut = -1
    top = -1
    stop = n
    t = 0
    while t < stop:
        if t < need or t < 1:
            b[t] = -1.0
            t += 1
            continue
        s = own + t + (stake if (bonus and t >= stake) else 0)
        if s < target:
            k = max(s + lower, 0)  # (advice may start below the bound: its banks are clamped)
            v = RN[ot, oa, j, k]
            if calls and t < CL.shape[4]:
                c = CL[ot, oa, j, k, t]
                v = max(v, c)
            b[t] = 1.0 - v
        else:
            if first < 0:
                first = t
            if final_round:
                b[t] = 1.0 - fin_value(G, ot, s - other, t, calls_fin, need0_ot, m, reach)
            else:
                b[t] = 1.0
        if first >= 0 and tcut < 0 and (b[t] >= thr or t >= last):
            tcut = t
        if tcut >= 0 and top < 0 and ((1.0 - b[t]) * 2.0 * reach[min(t, rl)] <= TAIL_EPS
                                      or t >= last):  # fmt: skip
            top = t
            stop = min(n, t + 2 * maxp + 1)
        t += 1
    return tcut, top


@jit
def state_turn(
    oo: int,
    ot: int,
    i: int,
    j: int,
    need: int,
    pen: int,
    stake: int,
    bonus: bool,
    tabs: Starts,
    rv: I64,
    ends: Ends,
    dice: Dice,
    consts: F64,
    work: Work,
) -> float:
    """The value of one turn from the start: the mover (flags ``oo``, ``ot``) at index ``i``
    against ``j``, banking from ``need``, a bust costing ``pen`` steps (a bank ``t >= stake``
    adds ``stake`` with ``bonus``); the rules from ``rv``
    (:func:`pfeffer.dice.solver.tables.solve_vector`)."""
    RN, RA = tabs.RN, tabs.RA
    kb = max(i - pen, 0)
    w0 = RA[ot, oo, j, kb] if rv[S_AUTO] != 0 else RN[ot, oo, j, kb]
    return turn_from(oo, ot, i, j, need, stake, bonus, 1.0 - w0, tabs, rv, ends, dice, consts,
                     work)  # fmt: skip


@jit
def turn_from(
    oo: int,
    ot: int,
    i: int,
    j: int,
    need: int,
    stake: int,
    bonus: bool,
    beta: float,
    tabs: Starts,
    rv: I64,
    ends: Ends,
    dice: Dice,
    consts: F64,
    work: Work,
) -> float:
    """:func:`state_turn` with the bust worth ``beta`` to the mover: the bank values read from
    ``tabs`` (:func:`main_bank`), then the turn solved (:func:`gkernels.turn_dp`)."""
    lower = rv[S_LOWER]
    b = work.b
    turn = BankTurn(i - lower, j - lower, need, stake, bonus, ot, beta, int(consts[0]))
    tcut, top = main_bank(b, turn, rv, tabs, ends, dice.bust)
    return turn_dp(b, beta, rv[S_MUST_ROLL] != 0, tcut, top, dice, consts, work.D, work.H,
                   work.R, False)  # fmt: skip


@jit
def gsweep(
    tabs: Starts,
    rv: I64,
    ends: Ends,
    dice: Dice,
    consts: F64,
    work: Work,
    sum_hi: int,
    sum_lo: int,
) -> float:
    """One Gauss-Seidel pass over the start states whose index sum lies in ``[sum_lo, sum_hi]``,
    highest sums first (banks raise the sum); per sum the Pfeffer calls and Auto-Pfeffer states
    (their busts lower the sum) before the plain ones (whose busts lead to the partner state).
    A player who has not banked yet has a total of at most 0: other states are skipped. Returns
    the largest change of a state's value."""
    RN, RA = tabs.RN, tabs.RA
    lower = rv[S_LOWER]
    auto = rv[S_AUTO] != 0
    calls = rv[S_CALLS] != 0
    apen = rv[S_PENALTY]
    F = RN.shape[0]
    size = RN.shape[2]
    change = 0.0
    for total in range(sum_hi, sum_lo - 1, -1):
        i0 = max(0, total - size + 1)
        i1 = min(size - 1, total)
        for kind in range(2):
            for oo in range(F):
                for ot in range(F):
                    for i in range(i0, i1 + 1):
                        j = total - i
                        if (F == 2 and oo == 0 and i > lower) or (F == 2 and ot == 0 and j > lower):
                            continue
                        need0 = ends.needs[oo]
                        if kind == 0:
                            if calls and (F == 1 or ot == 1):
                                c = _calls(oo, ot, i, j, need0, tabs, rv, ends, dice, consts, work)
                                change = max(change, c)
                            if auto:
                                v = state_turn(oo, ot, i, j, need0, apen, 0, False, tabs, rv, ends,
                                               dice, consts, work)  # fmt: skip
                                change = max(change, abs(v - RA[oo, ot, i, j]))
                                RA[oo, ot, i, j] = v
                        else:
                            v = state_turn(oo, ot, i, j, need0, 0, 0, False, tabs, rv, ends, dice,
                                           consts, work)  # fmt: skip
                            change = max(change, abs(v - RN[oo, ot, i, j]))
                            RN[oo, ot, i, j] = v
    return change


@jit
def _calls(
    oo: int,
    ot: int,
    i: int,
    j: int,
    need0: int,
    tabs: Starts,
    rv: I64,
    ends: Ends,
    dice: Dice,
    consts: F64,
    work: Work,
) -> float:
    """Every Pfeffer call of one start state: the predecessor banked ``r`` = 1 .. ``j`` steps (a
    bank cannot exceed the banker's new index). A call that provably loses against throwing is
    stored as -1: with the stake as the minimum, the turn banks with at most the best chance to
    reach it (each bank worth at most 1) and otherwise busts; with short banks allowed and no
    reward, it is throwing with a dearer bust."""
    RN, RA, CL = tabs
    auto = rv[S_AUTO] != 0
    bonus = rv[S_STAKE_REWARD] != 0
    forbidden = rv[S_FORBIDDEN] != 0
    m, f = rv[S_MARGIN], rv[S_FACTOR]
    reach = ends.reach
    rn = RN[oo, ot, i, j]
    roll_bust = 1.0 - (RA[ot, oo, j, i] if auto else RN[ot, oo, j, i])
    change = 0.0
    for r in range(1, min(j, CL.shape[4] - 1) + 1):
        s = r + m
        pen = f * s
        kb = max(i - pen, 0)
        beta = 1.0 - (RA[ot, oo, j, kb] if auto else RN[ot, oo, j, kb])
        v = -1.0
        if forbidden:
            need = max(need0, s)
            p = reach[min(need, reach.shape[0] - 1)]
            if beta + (1.0 - beta) * p > rn:
                v = state_turn(oo, ot, i, j, need, pen, s, bonus, tabs, rv, ends, dice, consts,
                               work)  # fmt: skip
        elif bonus or beta > roll_bust:
            v = state_turn(oo, ot, i, j, need0, pen, s, bonus, tabs, rv, ends, dice, consts, work)
        old = CL[oo, ot, i, j, r]
        change = max(change, abs(max(v, rn) - max(old, rn)))
        CL[oo, ot, i, j, r] = v
    return change
