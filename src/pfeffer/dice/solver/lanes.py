"""Eight start states through one turn recursion (lanes) for the optimising sweeps.

An optimising sweep re-solves the turn of every start state (:func:`kernels.turn_policy`). The
states of one score sum and kind are independent of each other, and their turns differ only in
the bank values, the bust value and where the closed forms begin. So ``LANES`` (eight) of them go
through one backward pass side by side: each in-turn value is stored as eight adjacent lanes,
``V[LANES * (6 t + slot) + lane]``, and a keep menu's best option is found for all lanes in one
pass over its options. These kernels compile with LLVM's SLP vectorizer, which numba leaves off
by default (:mod:`pfeffer.core.compiled`): then a menu's lanes are 256-bit compares, maxima and
blends of four doubles (the picks are kept as floats for that), not scalar compares and
conditional moves. Measured on the shipped table, 500 groups over all sums, one process, medians
of five: four lanes without the vectorizer 0.698 s, with it 0.617 s (1.13×); eight lanes with it
1.26× faster per state than four (0.378 against 0.477 ms; without it, eight lanes had been no
faster than four and sixteen slower). Each lane's arithmetic is :func:`kernels.turn_policy`'s,
in the same order, so the tables are the same bit for bit (tests/dice/test_solver_lanes.py). The
forward pass (where the turn's chance goes) also takes the lanes in one pass over the menus
(:func:`_forward_lanes`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import prange

from pfeffer.core.compiled import jit
from pfeffer.dice.solver.kernels import (
    Choices,
    FinalTables,
    Scratch,
    Store,
    _bank_value,
    _store_row,
    bust_value,
    choice_array,
    turn_constants,
    turn_limits,
)
from pfeffer.dice.solver.residual import residual_bound
from pfeffer.dice.solver.tables import (
    F64,
    I64,
    S_AUTO,
    S_FINAL_ROUND,
    S_LOWER,
    S_MIN_BANK,
    S_MUST_ROLL,
    S_TARGET,
    Dice,
    DiceTables,
)

#: Start states solved side by side (:func:`_expect_lanes` is written out for exactly eight).
LANES = 8


class Sweep(NamedTuple):
    """How an optimising sweep goes (see :func:`_lane_group`): ``mode`` 0 solves every state, 1
    skips a group whose residuals are bounded by at most ``skip_tol`` (from the last sweep's
    tables ``snap`` and the chances ``reach``, marking it in ``skipped``), 2 solves only the
    groups marked; every turn is capped at ``cap`` (:func:`kernels.turn_limits`)."""

    mode: int
    skip_tol: float
    cap: int
    snap: F64
    reach: F64
    skipped: npt.NDArray[np.bool_]


@jit(inline=True)
def _expect_lanes(t: int, n: int, beta: F64, V: F64, dice: Dice, arg: Choices, e: F64) -> None:
    """``kernels._expect_arg`` for the lanes (bust values ``beta``): the value of throwing ``n``
    dice at ``t`` in each lane into ``e``, each menu's best offset per lane in
    ``arg[t, LANES g + lane]``. Written out lane by lane (no loop, no small arrays) so that the
    lanes stay in registers and the vectorizer packs them (two 256-bit registers of four).
    """
    gs, gp, os_, oo = dice.group_start, dice.group_prob, dice.opt_start, dice.opt_offset
    bn = dice.bust[n]
    e0 = bn * beta[0]
    e1 = bn * beta[1]
    e2 = bn * beta[2]
    e3 = bn * beta[3]
    e4 = bn * beta[4]
    e5 = bn * beta[5]
    e6 = bn * beta[6]
    e7 = bn * beta[7]
    base = 6 * t
    for g in range(gs[n], gs[n + 1]):
        pick = oo[os_[g]]
        at = LANES * (base + pick)
        x0 = V[at]
        x1 = V[at + 1]
        x2 = V[at + 2]
        x3 = V[at + 3]
        x4 = V[at + 4]
        x5 = V[at + 5]
        x6 = V[at + 6]
        x7 = V[at + 7]
        # The picks as floats, so that a lane's pick and value share one compare (a blend of
        # four doubles each, once vectorized).
        k0 = float(pick)
        k1 = k0
        k2 = k0
        k3 = k0
        k4 = k0
        k5 = k0
        k6 = k0
        k7 = k0
        for o in range(os_[g] + 1, os_[g + 1]):
            p = oo[o]
            at = LANES * (base + p)
            v0 = V[at]
            v1 = V[at + 1]
            v2 = V[at + 2]
            v3 = V[at + 3]
            v4 = V[at + 4]
            v5 = V[at + 5]
            v6 = V[at + 6]
            v7 = V[at + 7]
            q = float(p)
            c0 = v0 > x0
            c1 = v1 > x1
            c2 = v2 > x2
            c3 = v3 > x3
            c4 = v4 > x4
            c5 = v5 > x5
            c6 = v6 > x6
            c7 = v7 > x7
            k0 = q if c0 else k0
            k1 = q if c1 else k1
            k2 = q if c2 else k2
            k3 = q if c3 else k3
            k4 = q if c4 else k4
            k5 = q if c5 else k5
            k6 = q if c6 else k6
            k7 = q if c7 else k7
            x0 = v0 if c0 else x0
            x1 = v1 if c1 else x1
            x2 = v2 if c2 else x2
            x3 = v3 if c3 else x3
            x4 = v4 if c4 else x4
            x5 = v5 if c5 else x5
            x6 = v6 if c6 else x6
            x7 = v7 if c7 else x7
        a = LANES * g
        arg[t, a] = int(k0)
        arg[t, a + 1] = int(k1)
        arg[t, a + 2] = int(k2)
        arg[t, a + 3] = int(k3)
        arg[t, a + 4] = int(k4)
        arg[t, a + 5] = int(k5)
        arg[t, a + 6] = int(k6)
        arg[t, a + 7] = int(k7)
        q = gp[g]
        e0 += q * x0
        e1 += q * x1
        e2 += q * x2
        e3 += q * x3
        e4 += q * x4
        e5 += q * x5
        e6 += q * x6
        e7 += q * x7
    e[0] = e0
    e[1] = e1
    e[2] = e2
    e[3] = e3
    e[4] = e4
    e[5] = e5
    e[6] = e6
    e[7] = e7


@jit(slp=True)
def turn_policy_lanes(
    own: I64,
    other: I64,
    beta: F64,
    W: F64,
    rv: I64,
    fin: FinalTables,
    dice: Dice,
    sc: Scratch,
    cap: int,
) -> None:
    """:func:`kernels.turn_policy` for the ``LANES`` start states ``(own[l], other[l])`` with bust
    values ``beta[l]``: ``sc.out[l]`` = (value, const, p_bust) and ``sc.dist[l]`` the result
    distribution of lane ``l`` (``sc``: a :func:`scratch`); ``cap`` as in
    :func:`kernels.turn_limits`."""
    V, roll, arg, out = sc.V, sc.roll, sc.arg, sc.out
    min_bank, lower, target = rv[S_MIN_BANK], rv[S_LOWER], rv[S_TARGET]
    final_round, must_roll = rv[S_FINAL_ROUND] != 0, rv[S_MUST_ROLL] != 0
    F = fin.F
    pmin5, p_only_hot, maxp = turn_constants(dice)
    limits = np.empty((5, LANES), np.int64)
    tc5, tc6, top, end, free = limits[0], limits[1], limits[2], limits[3], limits[4]
    for lane in range(LANES):
        tc5[lane], tc6[lane], top[lane], end[lane], free[lane] = turn_limits(
            own[lane], other[lane], beta[lane], cap, rv, F, dice.bust[6], pmin5, maxp
        )
    heavy5 = tc5.max()  # below it some lane throws up to five dice by its menus
    heavy6 = tc6.max()  # below it some lane throws six dice by its menus
    bank = np.empty(LANES)
    e = np.empty(LANES)
    for t in range(end.max(), -1, -1):
        at = 6 * t
        for lane in range(LANES):
            b = -1.0
            if t >= min_bank and t >= 1 and t <= end[lane]:
                s = own[lane] + t
                b = _bank_value(s, other[lane], W, lower, target, F, final_round)
            bank[lane] = b
        if t < heavy5:
            for n in range(1, 6):
                _expect_lanes(t, n, beta, V, dice, arg, e)
                for lane in range(LANES):
                    if t < tc5[lane]:
                        roll[t, n, lane] = e[lane] > bank[lane]
                        V[LANES * (at + n - 1) + lane] = max(e[lane], bank[lane])
                    else:
                        V[LANES * (at + n - 1) + lane] = bank[lane]
        else:
            for n in range(5):
                for lane in range(LANES):
                    V[LANES * (at + n) + lane] = bank[lane]
        if t < heavy6:
            _expect_lanes(t, 6, beta, V, dice, arg, e)
        for lane in range(LANES):
            slot = LANES * (at + 5) + lane
            if t < tc6[lane]:
                roll[t, 6, lane] = must_roll or e[lane] > bank[lane]
                V[slot] = e[lane] if must_roll else max(e[lane], bank[lane])
            elif t <= end[lane]:
                V[slot] = _closed_six(t, lane, own[lane] + t - other[lane], beta[lane],
                                      bank[lane], t > top[lane], must_roll and t < free[lane],
                                      final_round, p_only_hot, fin, dice, V, arg)  # fmt: skip
    _forward_lanes(own, other, rv, fin, dice, limits, p_only_hot, sc)
    for lane in range(LANES):
        out[lane, 0] = V[LANES * 5 + lane]


@jit(inline=True)
def _closed_six(
    t: int,
    lane: int,
    lead: int,
    beta: float,
    bank: float,
    series: bool,
    must_roll: bool,
    final_round: bool,
    p_only_hot: float,
    fin: FinalTables,
    dice: Dice,
    V: F64,
    arg: Choices,
) -> float:
    """Six dice at ``t`` past the point where the lane's throw is settled (``t >= tc6``), the
    mover ``lead`` steps ahead after banking: the bank, or (hot dice must roll) the bust, the
    closed-form banks of ``Q`` and the hot-only chains (``series``: past ``top``, summed), as in
    :func:`kernels.turn_policy`."""
    if not must_roll:
        return bank
    gs, gp, os_, oo = dice.group_start, dice.group_prob, dice.opt_start, dice.opt_offset
    six_nonhot = dice.six_nonhot
    dlast = fin.F.shape[0] - 1
    d = min(lead, dlast) if final_round else dlast
    h = dice.bust[6] * beta + fin.Q[d]
    if series:
        return float(h / (1.0 - p_only_hot))
    at = 6 * t
    for g in range(gs[6], gs[7]):
        if six_nonhot[g] < 0:
            pick = oo[os_[g]]
            best = V[LANES * (at + pick) + lane]
            for o in range(os_[g] + 1, os_[g + 1]):
                v = V[LANES * (at + oo[o]) + lane]
                if v > best:
                    best = v
                    pick = oo[o]
            arg[t, LANES * g + lane] = pick
            h += gp[g] * best
    return float(h)


@jit(slp=True)
def _lane_group(
    auto_state: bool,
    i_first: int,
    i_last: int,
    total: int,
    Wn: F64,
    Wa: F64,
    rv: I64,
    fin: FinalTables,
    dice: Dice,
    sc: Scratch,
    store: Store,
    thread: int,
    how: Sweep,
) -> float:
    """The start states ``i_first .. i_last`` (at most ``LANES``) of score sum ``total``, solved
    side by side, their policies stored (``store.pool[thread]``) and their values written to the
    table: the Auto-Pfeffer states (``auto_state``) or the normal ones (if the rules have
    Auto-Pfeffer, a bust leaves the opponent an Auto-Pfeffer turn). A short group fills its
    lanes with copies of its last state. Every state the group reads is read as the table stood
    before the group: the caller keeps a state and what it reads out of one group. Returns the
    largest change.

    ``how.mode`` 1: a group whose every state's residual is bounded by at most ``how.skip_tol``
    (:func:`residual.residual_bound`, from the last sweep's tables ``how.snap``) is not solved
    but marked in ``how.skipped``, and its largest bound is returned as its change; mode 2: only
    the groups marked are solved (after a mode-1 sweep that did not end the solve: their bands
    were not stored); mode 0: every group is solved."""
    kind = 1 if auto_state else 0
    skipped = how.skipped
    if how.mode == 2 and not skipped[kind, i_first, total - i_first]:
        return 0.0
    if how.mode == 1:
        worst = 0.0
        for i in range(i_first, i_last + 1):
            worst = max(worst, residual_bound(auto_state, i, total - i, Wn, Wa, rv, how.snap,
                                              how.reach))  # fmt: skip
            if worst > how.skip_tol:
                break
        if worst <= how.skip_tol:
            for i in range(i_first, i_last + 1):
                skipped[kind, i, total - i] = True
            return worst
    lower = rv[S_LOWER]
    own = np.empty(LANES, np.int64)
    other = np.empty(LANES, np.int64)
    beta = np.empty(LANES)
    for lane in range(LANES):
        i = min(i_first + lane, i_last)
        j = total - i
        beta[lane] = bust_value(auto_state, i, j, Wn, Wa, rv)
        own[lane] = i - lower
        other[lane] = j - lower
    turn_policy_lanes(own, other, beta, Wn, rv, fin, dice, sc, how.cap)
    dist, out = sc.dist, sc.out
    table = Wa if auto_state else Wn
    change = 0.0
    for lane in range(i_last - i_first + 1):
        i = i_first + lane
        j = total - i
        store.C[kind, i, j] = _store_row(kind, i, j, Wn, dist[lane], out[lane, 1], store, thread)
        store.PB[kind, i, j] = out[lane, 2]
        change = max(change, abs(out[lane, 0] - table[i, j]))
        table[i, j] = out[lane, 0]
    return change


@jit(slp=True)
def sweep_policy(
    Wn: F64,
    Wa: F64,
    rv: I64,
    fin: FinalTables,
    dice: Dice,
    sc: Scratch,
    store: Store,
    how: Sweep,
    sum_hi: int,
    sum_lo: int,
) -> float:
    """An optimising Gauss-Seidel pass over the sums ``sum_hi .. sum_lo`` (highest first; the
    Auto-Pfeffer states of a sum before its normal ones) that re-solves every start state's turn,
    ``LANES`` at a time (:func:`turn_policy_lanes`), and stores its policy as its result
    distribution in ``store``: ``C[a, i, j]``, ``PB[a, i, j]`` and the band of bank chances
    (``a`` = 1 under Auto-Pfeffer, see :func:`kernels.turn_policy` and
    :func:`kernels._store_row`). The same values as solving the states one by one in the order
    of ``i``. Returns the largest change.

    Within a sum and kind the states read only other sums, except: an Auto-Pfeffer state at the
    lower bound (``i`` = 0) reads its partner's Auto-Pfeffer value, which comes later in the
    order (so it reads the old value, as the group does); without Auto-Pfeffer a normal state
    reads its partner's normal value, new where the partner comes first (``j < i``): so the
    normal states' groups end at the middle of the sum, and no group holds a state and its
    partner."""
    size = Wn.shape[0]
    auto = rv[S_AUTO] != 0
    change = 0.0
    for total in range(sum_hi, sum_lo - 1, -1):
        i0 = max(0, total - size + 1)
        i1 = min(size - 1, total)
        if auto:
            for i in range(i0, i1 + 1, LANES):
                change = max(change, _lane_group(True, i, min(i + LANES - 1, i1), total, Wn, Wa,
                                                 rv, fin, dice, sc, store, 0, how))  # fmt: skip
        mid = i1 if auto else min(total // 2, i1)
        for lo, hi in ((i0, mid), (max(i0, mid + 1), i1)):
            for i in range(lo, hi + 1, LANES):
                change = max(change, _lane_group(False, i, min(i + LANES - 1, hi), total, Wn,
                                                 Wa, rv, fin, dice, sc, store, 0,
                                                 how))  # fmt: skip
    return change


@jit(inline=True)
def _thread_scratch(sc: Scratch, c: int) -> Scratch:
    """Thread ``c``'s part of a per-thread :func:`scratch`."""
    return Scratch(sc.V[c], sc.roll[c], sc.arg[c], sc.M[c], sc.dist[c], sc.out[c])


@jit(parallel=True, slp=True)
def sweep_policy_threads(
    Wn: F64,
    Wa: F64,
    rv: I64,
    fin: FinalTables,
    dice: Dice,
    sc: Scratch,
    store: Store,
    how: Sweep,
    sum_hi: int,
    sum_lo: int,
) -> float:
    """:func:`sweep_policy` under Auto-Pfeffer with the groups of one score sum spread over the
    threads (one per row of ``store.pool``; ``sc``: one :func:`scratch` per thread). The same
    values: within a sum an Auto-Pfeffer state reads only other sums and (at the lower bound,
    ``i`` = 0 only) its partner, so the first group of each sum is done alone first; a normal
    state reads its partner's Auto-Pfeffer value, done in the pass before."""
    size = Wn.shape[0]
    chunks = store.pool.shape[0]
    change = 0.0
    for total in range(sum_hi, sum_lo - 1, -1):
        i0 = max(0, total - size + 1)
        i1 = min(size - 1, total)
        found = np.zeros(chunks)
        for kind in range(2):
            auto_state = kind == 0
            start = i0
            if auto_state:
                change = max(change, _lane_group(True, i0, min(i0 + LANES - 1, i1), total, Wn,
                                                 Wa, rv, fin, dice, _thread_scratch(sc, 0),
                                                 store, 0, how))  # fmt: skip
                start = i0 + LANES
            for c in prange(chunks):
                for i in range(start + c * LANES, i1 + 1, chunks * LANES):
                    found[c] = max(found[c], _lane_group(
                        auto_state, i, min(i + LANES - 1, i1), total, Wn, Wa, rv, fin, dice,
                        _thread_scratch(sc, c), store, c, how))  # fmt: skip
        change = max(change, found.max())
    return change


def scratch(t: DiceTables, turn_size: int, size: int, threads: int = 0) -> Scratch:
    """The :class:`~pfeffer.dice.solver.kernels.Scratch` of :func:`sweep_policy` (``threads`` >
    0: one of each per thread, for :func:`sweep_policy_threads`): ``M`` twice the turn (a lane
    past its turn's end may spread a weight of 0 up to the largest keep past it, see
    :func:`_spread_lanes`), ``arg`` ``LANES`` lanes wide (:func:`kernels.choice_array`)."""
    lead = (threads,) if threads else ()
    return Scratch(
        V=np.zeros((*lead, LANES * 6 * turn_size)),
        roll=np.zeros((*lead, turn_size, 7, LANES), dtype=np.bool_),
        arg=choice_array(t, turn_size, threads, LANES),
        M=np.zeros((*lead, LANES * 6 * 2 * turn_size)),
        dist=np.zeros((*lead, LANES, size)),
        out=np.zeros((*lead, LANES, 3)),
    )


@jit(slp=True)
def _forward_lanes(
    own: I64,
    other: I64,
    rv: I64,
    fin: FinalTables,
    dice: Dice,
    limits: I64,
    p_only_hot: float,
    sc: Scratch,
) -> None:
    """:func:`kernels.turn_forward` for the lanes of :func:`turn_policy_lanes` at once (``M``
    ``LANES`` wide, ``M[LANES * (6 t + slot) + lane]``; ``limits``: each lane's
    :func:`kernels.turn_limits`, one row each): ``sc.dist[lane]``, and ``sc.out[lane, 1]``,
    ``sc.out[lane, 2]`` = (const, p_bust). A lane that does not throw somewhere spreads a weight
    of 0 there, which changes no sum (the chances are never negative), so each lane's sums are
    :func:`kernels.turn_forward`'s, in the same order."""
    F, Q = fin
    roll, M, dist, out = sc.roll, sc.M, sc.dist, sc.out
    bust, gs = dice.bust, dice.group_start
    lower, target = rv[S_LOWER], rv[S_TARGET]
    final_round, must_roll = rv[S_FINAL_ROUND] != 0, rv[S_MUST_ROLL] != 0
    tc5, tc6, top, end, free = limits[0], limits[1], limits[2], limits[3], limits[4]
    dlast = F.shape[0] - 1
    last = end.max()
    for k in range(LANES * 6 * (last + 1)):
        M[k] = 0.0
    for lane in range(LANES):
        for k in range(dist.shape[1]):
            dist[lane, k] = 0.0
        M[LANES * 5 + lane] = 1.0
    const = np.zeros(LANES)
    pb = np.zeros(LANES)
    to_bank = np.empty(LANES)
    w = np.empty(LANES)
    chain = np.empty(LANES)
    for t in range(last + 1):
        at = 6 * t
        for lane in range(LANES):
            to_bank[lane] = 0.0
        for n in range(1, 6):
            spread = False
            for lane in range(LANES):
                mn = M[LANES * (at + n - 1) + lane]
                w[lane] = 0.0
                if t > end[lane] or mn == 0.0:
                    continue
                if t >= tc5[lane] or not roll[t, n, lane]:
                    to_bank[lane] += mn
                else:
                    pb[lane] += mn * bust[n]
                    w[lane] = mn
                    spread = True
            if spread:
                _spread_lanes(t, gs[n], gs[n + 1], w, w, False, dice, sc)
        spread = False
        for lane in range(LANES):
            m = M[LANES * (at + 5) + lane]
            w[lane] = 0.0
            chain[lane] = 0.0
            if t > end[lane] or m == 0.0:
                continue
            if t >= tc6[lane]:
                if not must_roll or t >= free[lane]:
                    to_bank[lane] += m
                    continue
                d = min(own[lane] + t - other[lane], dlast) if final_round else dlast
                if t > top[lane]:
                    pb[lane] += m * bust[6] / (1.0 - p_only_hot)
                    const[lane] += m * Q[d] / (1.0 - p_only_hot)
                else:
                    pb[lane] += m * bust[6]
                    const[lane] += m * Q[d]
                    chain[lane] = m
                    spread = True
            elif not roll[t, 6, lane]:
                to_bank[lane] += m
            else:
                pb[lane] += m * bust[6]
                w[lane] = m
                spread = True
        if spread:
            _spread_lanes(t, gs[6], gs[7], w, chain, True, dice, sc)
        for lane in range(LANES):
            b = to_bank[lane]
            if b == 0.0 or t > end[lane]:
                continue
            s = own[lane] + t
            if s < target:
                dist[lane, s + lower] += b
            elif not final_round:
                const[lane] += b
            else:
                const[lane] += b * (1.0 - F[min(s - other[lane], dlast)])
    for lane in range(LANES):
        out[lane, 1] = const[lane]
        out[lane, 2] = pb[lane]


@jit(inline=True)
def _spread_lanes(
    t: int, g_lo: int, g_hi: int, w: F64, chain: F64, six: bool, dice: Dice, sc: Scratch
) -> None:
    """Spread each lane's weight over the menus ``g_lo .. g_hi`` to their best options: ``w``
    over every menu, ``chain`` (a closed-form six-dice throw's hot dice) over the menus that
    only score with all six dice (``six``: the menus are six dice's; one of the two weights is 0
    in each lane). Every lane's best options are written wherever one lane throws (the backward
    pass writes every lane, :func:`_expect_lanes`), and an offset not written in this turn is one
    of an earlier turn: a lane of weight 0 adds 0 at a valid place. ``M`` is long enough for
    every offset past the turn's end (:func:`scratch`)."""
    gp, six_nonhot, arg, M = dice.group_prob, dice.six_nonhot, sc.arg, sc.M
    at = 6 * t
    for g in range(g_lo, g_hi):
        q = gp[g]
        a = LANES * g
        hot = six and six_nonhot[g] < 0
        for lane in range(LANES):
            x = w[lane] + chain[lane] if hot else w[lane]
            M[LANES * (at + arg[t, a + lane]) + lane] += x * q
