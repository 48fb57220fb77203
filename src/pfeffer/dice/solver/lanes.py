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

import numpy as np
import numpy.typing as npt
from numba import prange

from pfeffer.core.compiled import jit
from pfeffer.dice.solver.kernels import (
    Choices,
    _bank_value,
    _store_row,
    bust_value,
    turn_constants,
    turn_limits,
)
from pfeffer.dice.solver.residual import residual_bound
from pfeffer.dice.solver.tables import F64, I64

#: Start states solved side by side (:func:`_expect_lanes` is written out for exactly eight).
LANES = 8


@jit(inline=True)
def _expect_lanes(
    t: int,
    n: int,
    beta: F64,
    V: F64,
    bust: F64,
    gs: I64,
    gp: F64,
    os_: I64,
    oo: I64,
    arg: Choices,
    e: F64,
) -> None:
    """``kernels._expect_arg`` for the lanes (bust values ``beta``): the value of throwing ``n``
    dice at ``t`` in each lane into ``e``, each menu's best offset per lane in
    ``arg[t, LANES g + lane]``. Written out lane by lane (no loop, no small arrays) so that the
    lanes stay in registers and the vectorizer packs them (two 256-bit registers of four).
    """
    bn = bust[n]
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
    min_bank: int,
    W: F64,
    lower: int,
    target: int,
    final_round: bool,
    must_roll: bool,
    F: F64,
    Q: F64,
    bust: F64,
    gs: I64,
    gp: F64,
    os_: I64,
    oo: I64,
    six_nonhot: I64,
    V: F64,
    roll: npt.NDArray[np.bool_],
    arg: Choices,
    M: F64,
    dist: F64,
    out: F64,
    cap: int,
) -> None:
    """:func:`kernels.turn_policy` for the ``LANES`` start states ``(own[l], other[l])`` with bust
    values ``beta[l]``: ``out[l]`` = (value, const, p_bust) and ``dist[l]`` the result
    distribution of lane ``l``. Scratch: ``V``, ``roll``, ``M`` of :func:`scratch`, ``arg``
    (``turn_size × LANES menus``); ``cap`` as in :func:`kernels.turn_limits`."""
    pmin5, p_only_hot, maxp = turn_constants(bust, gs, gp, oo, six_nonhot)
    dlast = F.shape[0] - 1
    tc5 = np.empty(LANES, np.int64)
    tc6 = np.empty(LANES, np.int64)
    top = np.empty(LANES, np.int64)
    end = np.empty(LANES, np.int64)
    free = np.empty(LANES, np.int64)
    for lane in range(LANES):
        tc5[lane], tc6[lane], top[lane], end[lane], free[lane] = turn_limits(
            own[lane], other[lane], beta[lane], min_bank, target, final_round, F, bust, pmin5,
            maxp, cap)  # fmt: skip
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
                _expect_lanes(t, n, beta, V, bust, gs, gp, os_, oo, arg, e)
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
            _expect_lanes(t, 6, beta, V, bust, gs, gp, os_, oo, arg, e)
        for lane in range(LANES):
            slot = LANES * (at + 5) + lane
            if t < tc6[lane]:
                roll[t, 6, lane] = must_roll or e[lane] > bank[lane]
                V[slot] = e[lane] if must_roll else max(e[lane], bank[lane])
            elif t <= end[lane]:
                V[slot] = _closed_six(t, lane, own[lane], other[lane], beta[lane], bank[lane],
                                      top[lane], must_roll and t < free[lane], final_round, dlast,
                                      p_only_hot, Q, bust, gs, gp, os_, oo, six_nonhot, V,
                                      arg)  # fmt: skip
    _forward_lanes(own, other, lower, target, final_round, must_roll, F, Q, bust, gs, gp, oo,
                   six_nonhot, tc5, tc6, top, end, free, p_only_hot, roll, arg, M, dist,
                   out)  # fmt: skip
    for lane in range(LANES):
        out[lane, 0] = V[LANES * 5 + lane]


@jit(inline=True)
def _closed_six(
    t: int,
    lane: int,
    own: int,
    other: int,
    beta: float,
    bank: float,
    top: int,
    must_roll: bool,
    final_round: bool,
    dlast: int,
    p_only_hot: float,
    Q: F64,
    bust: F64,
    gs: I64,
    gp: F64,
    os_: I64,
    oo: I64,
    six_nonhot: I64,
    V: F64,
    arg: Choices,
) -> float:
    """Six dice at ``t`` past the point where the lane's throw is settled (``t >= tc6``): the
    bank, or (hot dice must roll) the bust, the closed-form banks of ``Q`` and the hot-only
    chains, as in :func:`kernels.turn_policy`."""
    if not must_roll:
        return bank
    d = min(own + t - other, dlast) if final_round else dlast
    h = bust[6] * beta + Q[d]
    if t > top:
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
    auto: bool,
    i_first: int,
    i_last: int,
    total: int,
    Wn: F64,
    Wa: F64,
    lower: int,
    target: int,
    min_bank: int,
    penalty: int,
    final_round: bool,
    must_roll: bool,
    F: F64,
    Q: F64,
    bust: F64,
    gs: I64,
    gp: F64,
    os_: I64,
    oo: I64,
    six_nonhot: I64,
    V: F64,
    roll: npt.NDArray[np.bool_],
    arg: Choices,
    M: F64,
    dist: F64,
    out: F64,
    C: F64,
    PB: F64,
    pool: F64,
    used: I64,
    thread: int,
    off: I64,
    first: I64,
    count: I64,
    mode: int,
    skip_tol: float,
    snap: F64,
    reach: F64,
    skipped: npt.NDArray[np.bool_],
    cap: int,
) -> float:
    """The start states ``i_first .. i_last`` (at most ``LANES``) of score sum ``total``, solved
    side by side, their policies stored (``pool[thread]``) and their values written to the
    table: the Auto-Pfeffer states (``auto_state``) or the normal ones (``auto``: the rules have
    Auto-Pfeffer, so a bust leaves the opponent an Auto-Pfeffer turn). A short group fills its
    lanes with copies of its last state. Every state the group reads is read as the table stood
    before the group: the caller keeps a state and what it reads out of one group. Returns the
    largest change.

    ``mode`` 1: a group whose every state's residual is bounded by at most ``skip_tol``
    (:func:`residual.residual_bound`, from the last sweep's tables ``snap``) is not solved but
    marked in ``skipped``, and its largest bound is returned as its change; mode 2: only the
    groups marked are solved (after a mode-1 sweep that did not end the solve: their bands were
    not stored); mode 0: every group is solved."""
    kind = 1 if auto_state else 0
    if mode == 2 and not skipped[kind, i_first, total - i_first]:
        return 0.0
    if mode == 1:
        worst = 0.0
        for i in range(i_first, i_last + 1):
            worst = max(worst, residual_bound(auto_state, auto, i, total - i, Wn, Wa, snap,
                                              reach, min_bank, penalty))  # fmt: skip
            if worst > skip_tol:
                break
        if worst <= skip_tol:
            for i in range(i_first, i_last + 1):
                skipped[kind, i, total - i] = True
            return worst
    own = np.empty(LANES, np.int64)
    other = np.empty(LANES, np.int64)
    beta = np.empty(LANES)
    for lane in range(LANES):
        i = min(i_first + lane, i_last)
        j = total - i
        beta[lane] = bust_value(auto_state, auto, i, j, Wn, Wa, lower, penalty)
        own[lane] = i - lower
        other[lane] = j - lower
    turn_policy_lanes(own, other, beta, min_bank, Wn, lower, target, final_round, must_roll, F, Q,
                 bust, gs, gp, os_, oo, six_nonhot, V, roll, arg, M, dist, out, cap)  # fmt: skip
    table = Wa if auto_state else Wn
    change = 0.0
    for lane in range(i_last - i_first + 1):
        i = i_first + lane
        j = total - i
        C[kind, i, j] = _store_row(kind, i, j, Wn, dist[lane], out[lane, 1], pool, used, thread,
                                   off, first, count)  # fmt: skip
        PB[kind, i, j] = out[lane, 2]
        change = max(change, abs(out[lane, 0] - table[i, j]))
        table[i, j] = out[lane, 0]
    return change


@jit(slp=True)
def sweep_policy(
    Wn: F64,
    Wa: F64,
    lower: int,
    target: int,
    min_bank: int,
    penalty: int,
    auto: bool,
    final_round: bool,
    must_roll: bool,
    F: F64,
    Q: F64,
    bust: F64,
    gs: I64,
    gp: F64,
    os_: I64,
    oo: I64,
    six_nonhot: I64,
    V: F64,
    roll: npt.NDArray[np.bool_],
    arg: Choices,
    M: F64,
    dist: F64,
    out: F64,
    C: F64,
    PB: F64,
    pool: F64,
    used: I64,
    off: I64,
    first: I64,
    count: I64,
    sum_hi: int,
    sum_lo: int,
    mode: int,
    skip_tol: float,
    snap: F64,
    reach: F64,
    skipped: npt.NDArray[np.bool_],
    cap: int,
) -> float:
    """An optimising Gauss-Seidel pass over the sums ``sum_hi .. sum_lo`` (highest first; the
    Auto-Pfeffer states of a sum before its normal ones) that re-solves every start state's turn,
    ``LANES`` at a time (:func:`turn_policy_lanes`), and stores its policy as its result
    distribution: ``C[a, i, j]``, ``PB[a, i, j]`` and the band of bank chances (``a`` = 1 under
    Auto-Pfeffer, see :func:`kernels.turn_policy` and :func:`kernels._store_row`). The same
    values as solving the states one by one in the order of ``i``. Returns the largest change.

    Within a sum and kind the states read only other sums, except: an Auto-Pfeffer state at the
    lower bound (``i`` = 0) reads its partner's Auto-Pfeffer value, which comes later in the
    order (so it reads the old value, as the group does); without Auto-Pfeffer a normal state
    reads its partner's normal value, new where the partner comes first (``j < i``): so the
    normal states' groups end at the middle of the sum, and no group holds a state and its
    partner."""
    size = Wn.shape[0]
    change = 0.0
    for total in range(sum_hi, sum_lo - 1, -1):
        i0 = max(0, total - size + 1)
        i1 = min(size - 1, total)
        if auto:
            for i in range(i0, i1 + 1, LANES):
                change = max(change, _lane_group(
                    True, True, i, min(i + LANES - 1, i1), total, Wn, Wa, lower, target,
                    min_bank, penalty, final_round, must_roll, F, Q, bust, gs, gp, os_, oo,
                    six_nonhot, V, roll, arg, M, dist, out, C, PB, pool, used, 0, off, first,
                    count, mode, skip_tol, snap, reach, skipped, cap))  # fmt: skip
        mid = i1 if auto else min(total // 2, i1)
        for lo, hi in ((i0, mid), (max(i0, mid + 1), i1)):
            for i in range(lo, hi + 1, LANES):
                change = max(change, _lane_group(
                    False, auto, i, min(i + LANES - 1, hi), total, Wn, Wa, lower, target,
                    min_bank, penalty, final_round, must_roll, F, Q, bust, gs, gp, os_, oo,
                    six_nonhot, V, roll, arg, M, dist, out, C, PB, pool, used, 0, off, first,
                    count, mode, skip_tol, snap, reach, skipped, cap))  # fmt: skip
    return change


@jit(parallel=True, slp=True)
def sweep_policy_threads(
    Wn: F64,
    Wa: F64,
    lower: int,
    target: int,
    min_bank: int,
    penalty: int,
    final_round: bool,
    must_roll: bool,
    F: F64,
    Q: F64,
    bust: F64,
    gs: I64,
    gp: F64,
    os_: I64,
    oo: I64,
    six_nonhot: I64,
    V: F64,
    roll: npt.NDArray[np.bool_],
    arg: Choices,
    M: F64,
    dist: F64,
    out: F64,
    C: F64,
    PB: F64,
    pool: F64,
    used: I64,
    off: I64,
    first: I64,
    count: I64,
    sum_hi: int,
    sum_lo: int,
    mode: int,
    skip_tol: float,
    snap: F64,
    reach: F64,
    skipped: npt.NDArray[np.bool_],
    cap: int,
) -> float:
    """:func:`sweep_policy` under Auto-Pfeffer with the groups of one score sum spread over the
    threads (one per row of ``pool``; ``V``, ``roll``, ``M``, ``dist``, ``out``: one
    :func:`scratch` per thread; ``arg``: one :func:`kernels.choice_array` per thread, ``LANES``
    lanes wide). The same values: within a sum an Auto-Pfeffer state reads only other sums and
    (at the lower bound, ``i`` = 0 only) its partner, so the first group of each sum is done
    alone first; a normal state reads its partner's Auto-Pfeffer value, done in the pass
    before."""
    size = Wn.shape[0]
    chunks = pool.shape[0]
    change = 0.0
    for total in range(sum_hi, sum_lo - 1, -1):
        i0 = max(0, total - size + 1)
        i1 = min(size - 1, total)
        found = np.zeros(chunks)
        for kind in range(2):
            auto_state = kind == 0
            start = i0
            if auto_state:
                change = max(change, _lane_group(
                    True, True, i0, min(i0 + LANES - 1, i1), total, Wn, Wa, lower, target,
                    min_bank, penalty, final_round, must_roll, F, Q, bust, gs, gp, os_, oo,
                    six_nonhot, V[0], roll[0], arg[0], M[0], dist[0], out[0], C, PB, pool, used,
                    0, off, first, count, mode, skip_tol, snap, reach, skipped, cap))  # fmt: skip
                start = i0 + LANES
            for c in prange(chunks):
                for i in range(start + c * LANES, i1 + 1, chunks * LANES):
                    found[c] = max(found[c], _lane_group(
                        auto_state, True, i, min(i + LANES - 1, i1), total, Wn, Wa, lower,
                        target, min_bank, penalty, final_round, must_roll, F, Q, bust, gs, gp,
                        os_, oo, six_nonhot, V[c], roll[c], arg[c], M[c], dist[c], out[c], C, PB,
                        pool, used, c, off, first, count, mode, skip_tol, snap, reach,
                        skipped, cap))  # fmt: skip
        change = max(change, found.max())
    return change


def scratch(
    turn_size: int, size: int, threads: int = 0
) -> tuple[F64, npt.NDArray[np.bool_], F64, F64, F64]:
    """The scratch arrays of :func:`sweep_policy` (``threads`` > 0: one of each per thread, for
    :func:`sweep_policy_threads`): ``V``, ``roll``, ``M``, ``dist``, ``out`` (``M`` twice the
    turn: a lane past its turn's end may spread a weight of 0 up to the largest keep past it,
    see :func:`_spread_lanes`)."""
    lead = (threads,) if threads else ()
    return (
        np.zeros((*lead, LANES * 6 * turn_size)),
        np.zeros((*lead, turn_size, 7, LANES), dtype=np.bool_),
        np.zeros((*lead, LANES * 6 * 2 * turn_size)),
        np.zeros((*lead, LANES, size)),
        np.zeros((*lead, LANES, 3)),
    )


@jit(slp=True)
def _forward_lanes(
    own: I64,
    other: I64,
    lower: int,
    target: int,
    final_round: bool,
    must_roll: bool,
    F: F64,
    Q: F64,
    bust: F64,
    gs: I64,
    gp: F64,
    oo: I64,
    six_nonhot: I64,
    tc5: I64,
    tc6: I64,
    top: I64,
    end: I64,
    free: I64,
    p_only_hot: float,
    roll: npt.NDArray[np.bool_],
    arg: Choices,
    M: F64,
    dist: F64,
    out: F64,
) -> None:
    """:func:`kernels.turn_forward` for the lanes of :func:`turn_policy_lanes` at once (``M``
    ``LANES`` wide, ``M[LANES * (6 t + slot) + lane]``): ``dist[lane]``, and ``out[lane, 1]``,
    ``out[lane, 2]`` = (const, p_bust). A lane that does not throw somewhere spreads a weight
    of 0 there, which changes no sum (the chances are never negative), so each lane's sums are
    :func:`kernels.turn_forward`'s, in the same order."""
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
                _spread_lanes(t, gs[n], gs[n + 1], w, w, False, six_nonhot, gp, arg, M)
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
            _spread_lanes(t, gs[6], gs[7], w, chain, True, six_nonhot, gp, arg, M)
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
    t: int,
    g_lo: int,
    g_hi: int,
    w: F64,
    chain: F64,
    six: bool,
    six_nonhot: I64,
    gp: F64,
    arg: Choices,
    M: F64,
) -> None:
    """Spread each lane's weight over the menus ``g_lo .. g_hi`` to their best options: ``w``
    over every menu, ``chain`` (a closed-form six-dice throw's hot dice) over the menus that
    only score with all six dice (``six``: the menus are six dice's; one of the two weights is 0
    in each lane). Every lane's best options are written wherever one lane throws (the backward
    pass writes every lane, :func:`_expect_lanes`), and an offset not written in this turn is one
    of an earlier turn: a lane of weight 0 adds 0 at a valid place. ``M`` is long enough for
    every offset past the turn's end (:func:`scratch`)."""
    at = 6 * t
    for g in range(g_lo, g_hi):
        q = gp[g]
        a = LANES * g
        hot = six and six_nonhot[g] < 0
        for lane in range(LANES):
            x = w[lane] + chain[lane] if hot else w[lane]
            M[LANES * (at + arg[t, a + lane]) + lane] += x * q
