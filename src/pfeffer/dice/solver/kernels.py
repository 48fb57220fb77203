"""Compiled kernels of the dice solver (numba): one turn as an optimal stopping problem with its
policy's result distribution, the final round's last turn, and the linear sweep that evaluates
the stored policies (the optimising sweeps solve eight turns at a time: :mod:`.lanes`).

Notation (all points in scoring steps, see :mod:`pfeffer.dice.solver.tables`): ``D[t, n - 1]`` is
the value of deciding (bank or throw ``n`` dice, ``n`` ≤ 5) with turn total ``t``; ``H[t]`` the
value of throwing all six dice at ``t`` (after hot dice; ``H[0]`` is the start of a turn). Values
are the mover's chance to win the game (a shared win counts one half).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import prange

from pfeffer.core.compiled import jit
from pfeffer.dice.solver.tables import (
    F64,
    I64,
    S_AUTO,
    S_FINAL_ROUND,
    S_LOWER,
    S_MIN_BANK,
    S_MUST_ROLL,
    S_PENALTY,
    S_TARGET,
    Dice,
    DiceTables,
)

#: A turn's choices: each menu's best option offset per turn total, ``arg[t, g]`` (int16 where
#: the offsets fit, see :func:`choice_array`): compact, a few hundred KB a turn, so that two
#: threads do not contend for memory (int64 over (total, dice, widest menu) was 1.5× slower on a
#: slice of a sweep with two threads; the whole solve's time is the same, its memory 130 MB less).
Choices = npt.NDArray[np.signedinteger[Any]]

#: Turn totals past the point where even the six-dice throw is settled in closed form, still
#: solved exactly (hot dice chains of three pairs); beyond, the chain is summed as a series.
TAIL = 60
#: A turn's ``cap`` (see :func:`turn_limits`) that caps nothing.
NO_CAP = 1 << 30


class FinalTables(NamedTuple):
    """What a turn reads of the game's end: ``F`` (:func:`final_round_table`) and ``Q``
    (:func:`tail_table`)."""

    F: F64
    Q: F64


class Scratch(NamedTuple):
    """A turn's work arrays (:func:`scratch`; one turn at a time, or ``LANES`` side by side in
    :mod:`.lanes`): its values ``V``, whether it throws ``roll``, its choices ``arg``, the
    forward pass's chances ``M``, and what the turn returns: the result distribution ``dist``
    and ``out`` (value, const, p_bust; the lanes only)."""

    V: F64
    roll: npt.NDArray[np.bool_]
    arg: Choices
    M: F64
    dist: F64
    out: F64


class Store(NamedTuple):
    """The optimising sweep's policies as result distributions (:func:`turn_policy`,
    :func:`_store_row`): ``C[a, i, j]``, ``PB[a, i, j]`` and the band of bank chances of each
    state, at ``off`` in ``pool`` (one row per thread; ``used[thread]`` entries taken), from
    index ``first``, ``length`` entries long."""

    C: F64
    PB: F64
    pool: F64
    used: I64
    off: I64
    first: I64
    length: I64


def policy_store(kinds: int, size: int, threads: int) -> Store:
    """An empty :class:`Store` for ``kinds`` kinds of states of a ``size × size`` table, one
    pool per thread, each big enough for every band at its longest (a state's band has at most
    ``size - i - 1`` entries). Only the entries written are ever touched (np.zeros maps fresh
    zero pages), so the resident memory is what the bands need, and no pool ever grows or is
    copied."""
    return Store(
        C=np.zeros((kinds, size, size)),
        PB=np.zeros((kinds, size, size)),
        pool=np.zeros((threads, kinds * size * (size * (size - 1) // 2))),
        used=np.zeros(threads, dtype=np.int64),
        off=np.zeros((kinds, size, size), dtype=np.int64),
        first=np.zeros((kinds, size, size), dtype=np.int64),
        length=np.zeros((kinds, size, size), dtype=np.int64),
    )


def scratch(t: DiceTables, turn_size: int, size: int) -> Scratch:
    """The :class:`Scratch` of :func:`turn_policy` (``out`` unused)."""
    return Scratch(np.zeros(6 * turn_size), np.zeros((turn_size, 7), dtype=np.bool_),
                   choice_array(t, turn_size), np.zeros(6 * 2 * turn_size), np.zeros(size),
                   np.zeros(3))  # fmt: skip


@jit(inline=True)
def _expect(t: int, n: int, beta: float, D: F64, H: F64, dice: Dice) -> float:
    """Value of throwing ``n`` dice at turn total ``t``: bust pays ``beta``, else the best keep."""
    gs, os_, op, ol = dice.group_start, dice.opt_start, dice.opt_points, dice.opt_left
    e = dice.bust[n] * beta
    for g in range(gs[n], gs[n + 1]):
        best = -1.0
        for o in range(os_[g], os_[g + 1]):
            left = ol[o]
            v = H[t + op[o]] if left == 0 else D[t + op[o], left - 1]
            best = max(best, v)
        e += dice.group_prob[g] * best
    return float(e)


@jit
def final_round_table(dmax: int, tie_value: float, rv: I64, dice: Dice) -> F64:
    """``F[d]``: the chance that a player's last turn wins when they are ``d`` behind (a win needs
    more than ``d``; exactly ``d`` is a tie worth ``tie_value``). ``F[dmax + 1] = 0`` stands for
    every larger ``d``."""
    min_bank = rv[S_MIN_BANK]
    must_roll = rv[S_MUST_ROLL] != 0
    bust, gs, gp, op, six_nonhot = (dice.bust, dice.group_start, dice.group_prob,
                                    dice.opt_points, dice.six_nonhot)  # fmt: skip
    maxp = 0
    for o in range(op.shape[0]):
        maxp = max(maxp, op[o])
    p_only_hot = 0.0
    for g in range(gs[6], gs[7]):
        if six_nonhot[g] < 0:
            p_only_hot += gp[g]
    h_top = (1.0 - bust[6] - p_only_hot) / (1.0 - p_only_hot) if must_roll else 1.0
    size = max(dmax + 1, min_bank) + maxp + 2
    D = np.zeros((size, 5))
    H = np.zeros(size)
    F = np.zeros(dmax + 2)
    for d in range(dmax + 1):
        top = max(d + 1, min_bank)
        for t in range(top, top + maxp + 1):
            for n in range(5):
                D[t, n] = 1.0
            H[t] = h_top
        for t in range(top - 1, -1, -1):
            bank = -1.0
            if t >= min_bank and t >= 1:
                bank = tie_value if t == d else 0.0
            for n in range(1, 6):
                e = _expect(t, n, 0.0, D, H, dice)
                D[t, n - 1] = max(e, bank)
            e = _expect(t, 6, 0.0, D, H, dice)
            H[t] = e if (must_roll or t == 0) else max(e, bank)
        F[d] = H[0]
    return F


@jit
def tail_table(F: F64, dice: Dice) -> F64:
    """``Q[d]``: the part of a six-dice throw's value that leaves dice, far past the target, when
    the best such keep is banked at once and the opponent's last turn is ``d`` (+ its points)
    behind."""
    gs, gp, six_nonhot = dice.group_start, dice.group_prob, dice.six_nonhot
    dmax = F.shape[0] - 2
    Q = np.zeros(dmax + 2)
    for d in range(dmax + 2):
        q = 0.0
        for g in range(gs[6], gs[7]):
            if six_nonhot[g] >= 0:
                q += gp[g] * (1.0 - F[min(d + six_nonhot[g], dmax + 1)])
        Q[d] = q
    return Q


@jit
def _first_at_most(F: F64, threshold: float) -> int:
    """The smallest ``d`` with ``F[d] <= threshold`` (``F`` falls; its last entry is 0)."""
    lo, hi = 0, F.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if F[mid] <= threshold:
            hi = mid
        else:
            lo = mid + 1
    return lo


@jit(inline=True)
def _bank_value(
    s: int, other: int, W: F64, lower: int, target: int, F: F64, final_round: bool
) -> float:
    """The mover's chance after banking to total ``s``: the opponent starts a turn (not under
    Auto-Pfeffer) from ``W``, or plays the last turn ``s - other`` behind."""
    if s < target:
        return float(1.0 - W[other + lower, s + lower])
    if not final_round:
        return 1.0
    d = s - other
    d = min(d, F.shape[0] - 1)
    return float(1.0 - F[d])


def kernel_args(t: DiceTables) -> tuple[F64, I64, F64, I64, I64, I64, I64]:
    """The table arrays as positional arguments (benchmarks/fit_dice_card.py's kernel takes them;
    the solver's kernels take the :class:`~pfeffer.dice.solver.tables.Dice` bundle)."""
    return (t.bust, t.group_start, t.group_prob, t.opt_start, t.opt_points, t.opt_left,
            t.six_nonhot)  # fmt: skip


# ------------------------------------------------------------------ modified policy iteration


@jit(inline=True)
def _expect_arg(t: int, n: int, beta: float, V: F64, dice: Dice, arg: Choices) -> float:
    """:func:`_expect` on the flat layout (``V[6 t + n - 1]`` decide, ``V[6 t + 5]`` six dice;
    option ``o`` leads to ``V[6 t + oo[o]]``), recording each menu's best offset in
    ``arg[t, g]``."""
    gs, gp, os_, oo = dice.group_start, dice.group_prob, dice.opt_start, dice.opt_offset
    e = dice.bust[n] * beta
    base = 6 * t
    for g in range(gs[n], gs[n + 1]):
        pick = oo[os_[g]]
        best = V[base + pick]
        for o in range(os_[g] + 1, os_[g + 1]):
            v = V[base + oo[o]]
            if v > best:
                best = v
                pick = oo[o]
        arg[t, g] = pick
        e += gp[g] * best
    return float(e)


def choice_array(t: DiceTables, turn_size: int, threads: int = 0, lanes: int = 1) -> Choices:
    """The turn's choices for :func:`turn_policy` (``lanes`` > 1: for
    :func:`pfeffer.dice.solver.lanes.turn_policy_lanes`, ``arg[t, lanes g + lane]``;
    ``threads`` > 0: one per thread), int16 unless an option's offset does not fit (steps of a
    few points and big scores)."""
    fits = 6 * t.max_points + 5 <= np.iinfo(np.int16).max
    shape = (turn_size, lanes * int(t.group_start[7]))
    return np.zeros((threads, *shape) if threads else shape, np.int16 if fits else np.int32)


@jit(inline=True)
def turn_constants(dice: Dice) -> tuple[float, float, int]:
    """What every turn of a rule set shares: the smallest bust chance of one to five dice, the
    chance that six dice score only with all six, and the largest keep in steps."""
    bust, gs, gp, oo = dice.bust, dice.group_start, dice.group_prob, dice.opt_offset
    six_nonhot = dice.six_nonhot
    pmin5 = 1.0
    for n in range(1, 6):
        pmin5 = min(pmin5, bust[n])
    p_only_hot = 0.0
    for g in range(gs[6], gs[7]):
        if six_nonhot[g] < 0:
            p_only_hot += gp[g]
    maxp = 0
    for o in range(oo.shape[0]):
        maxp = max(maxp, oo[o] // 6)
    return pmin5, p_only_hot, maxp


@jit(inline=True)
def turn_limits(
    own: int,
    other: int,
    beta: float,
    cap: int,
    rv: I64,
    F: F64,
    bust6: float,
    pmin5: float,
    maxp: int,
) -> tuple[int, int, int, int, int]:
    """Where a turn's closed forms begin (turn totals): ``tc5`` (from here on up to five dice
    bank), ``tc6`` (six dice too, or only their hot-dice chains are solved), ``top`` (the
    chains summed as a series beyond), ``end`` (the last total a keep reaches) and ``free``
    (from here on even six dice after hot dice bank: a turn capped at ``cap`` (an
    approximation for the first sweeps, see :data:`pfeffer.dice.solver.solve.CAP_POINTS`), else
    past ``end``). ``bust6``: the chance that six dice bust; ``pmin5`` and ``maxp`` from
    :func:`turn_constants`."""
    min_bank = rv[S_MIN_BANK]
    base = max(rv[S_TARGET] - own, min_bank, 1)
    if rv[S_FINAL_ROUND] != 0:
        d5 = _first_at_most(F, pmin5 * (1.0 - beta))
        d6 = _first_at_most(F, bust6 * (1.0 - beta))
        tc5 = max(base, d5 + other - own)
        tc6 = max(tc5, d6 + other - own)
    else:
        tc5 = base
        tc6 = base
    cap = max(cap, min_bank, 1)
    if cap < tc6:
        return min(tc5, cap), cap, cap, cap + maxp, cap
    top = tc6 + TAIL
    return tc5, tc6, top, top + maxp, top + maxp + 1


@jit
def turn_policy(
    own: int,
    other: int,
    beta: float,
    W: F64,
    rv: I64,
    fin: FinalTables,
    dice: Dice,
    sc: Scratch,
    cap: int = NO_CAP,
) -> tuple[float, float, float]:
    """Solve the turn of the mover with total ``own`` against ``other`` (both below the target;
    a bust is worth ``beta``, banking ``t >= min_bank`` moves to ``own + t``; values in the flat
    layout ``sc.V`` of :func:`_expect_arg`) and return its optimal policy as a result
    distribution: ``(value, const, p_bust)`` with ``sc.dist[k]`` the chance of banking to the
    total of index ``k`` below the target (overwritten). The rules and the bound are read from
    ``rv`` (:func:`pfeffer.dice.solver.tables.solve_vector`). Under that policy the turn
    is worth ``const + p_bust * beta + sum_k dist[k] * (1 - W[other + lower, k])``; ``const``
    collects the banks at or past the target (their values depend only on ``F``).

    Far past the target, banking is provably best once the opponent's last-turn chance
    ``F[d] <= p_bust(n) * (1 - beta)`` (a throw can gain at most ``1 - p_bust(n)`` and loses
    ``p_bust(n) * (1 - beta)``): there the values are written in closed form. The optimising
    sweeps run eight of these side by side (:func:`pfeffer.dice.solver.lanes.turn_policy_lanes`, the
    same arithmetic); this one is their reference.

    ``cap``: every choice from that turn total on banks (see :func:`turn_limits`)."""
    F, Q = fin
    V, roll, arg = sc.V, sc.roll, sc.arg
    bust, gs, gp, os_, oo = (dice.bust, dice.group_start, dice.group_prob, dice.opt_start,
                             dice.opt_offset)  # fmt: skip
    six_nonhot = dice.six_nonhot
    min_bank, lower, target = rv[S_MIN_BANK], rv[S_LOWER], rv[S_TARGET]
    final_round, must_roll = rv[S_FINAL_ROUND] != 0, rv[S_MUST_ROLL] != 0
    pmin5, p_only_hot, maxp = turn_constants(dice)
    dlast = F.shape[0] - 1
    limits = turn_limits(own, other, beta, cap, rv, F, bust[6], pmin5, maxp)
    tc5, tc6, top, end, free = limits
    # Backward: the values (the turn solved backwards) and the choices.
    for t in range(end, -1, -1):
        s = own + t
        at = 6 * t
        bank = -1.0
        if t >= min_bank and t >= 1:
            bank = _bank_value(s, other, W, lower, target, F, final_round)
        if t >= tc5:
            for n in range(5):
                V[at + n] = bank
            if t >= tc6:
                if not must_roll or t >= free:
                    V[at + 5] = bank
                    continue
                d = min(s - other, dlast) if final_round else dlast
                h = bust[6] * beta + Q[d]
                if t > top:
                    V[at + 5] = h / (1.0 - p_only_hot)
                    continue
                for g in range(gs[6], gs[7]):
                    if six_nonhot[g] < 0:
                        pick = oo[os_[g]]
                        best = V[at + pick]
                        for o in range(os_[g] + 1, os_[g + 1]):
                            if V[at + oo[o]] > best:
                                best = V[at + oo[o]]
                                pick = oo[o]
                        arg[t, g] = pick
                        h += gp[g] * best
                V[at + 5] = h
                continue
        else:
            for n in range(1, 6):
                e = _expect_arg(t, n, beta, V, dice, arg)
                roll[t, n] = e > bank
                V[at + n - 1] = max(e, bank)
        e = _expect_arg(t, 6, beta, V, dice, arg)
        roll[t, 6] = must_roll or e > bank
        V[at + 5] = e if must_roll else max(e, bank)
    const, pb = turn_forward(own, other, rv, fin, dice, limits, p_only_hot, sc)
    return float(V[5]), const, pb


@jit
def turn_forward(
    own: int,
    other: int,
    rv: I64,
    fin: FinalTables,
    dice: Dice,
    limits: tuple[int, int, int, int, int],
    p_only_hot: float,
    sc: Scratch,
) -> tuple[float, float]:
    """The forward pass of :func:`turn_policy`: where the chance of the turn's start goes under
    the choices of its backward pass (``sc.roll[t, n]``, each menu's best offset in
    ``sc.arg[t, g]``), the turn's closed forms beginning at ``limits`` (:func:`turn_limits`).
    Fills ``sc.dist`` (banks below the target) and returns ``(const, p_bust)``."""
    F, Q = fin
    roll, arg, M, dist = sc.roll, sc.arg, sc.M, sc.dist
    bust, gs, gp, six_nonhot = dice.bust, dice.group_start, dice.group_prob, dice.six_nonhot
    lower, target = rv[S_LOWER], rv[S_TARGET]
    final_round, must_roll = rv[S_FINAL_ROUND] != 0, rv[S_MUST_ROLL] != 0
    tc5, tc6, top, end, free = limits
    dlast = F.shape[0] - 1
    for k in range(dist.shape[0]):
        dist[k] = 0.0
    for k in range(6 * (end + 1)):
        M[k] = 0.0
    M[5] = 1.0
    const = 0.0
    pb = 0.0
    for t in range(end + 1):
        s = own + t
        at = 6 * t
        to_bank = 0.0
        m = M[at + 5]
        if t >= tc5:
            for n in range(5):
                to_bank += M[at + n]
            if t >= tc6 and m != 0.0:
                if not must_roll or t >= free:
                    to_bank += m
                else:
                    d = min(s - other, dlast) if final_round else dlast
                    if t > top:
                        pb += m * bust[6] / (1.0 - p_only_hot)
                        const += m * Q[d] / (1.0 - p_only_hot)
                    else:
                        pb += m * bust[6]
                        const += m * Q[d]
                        for g in range(gs[6], gs[7]):
                            if six_nonhot[g] < 0:
                                M[at + arg[t, g]] += m * gp[g]
                m = 0.0
        else:
            for n in range(1, 6):
                mn = M[at + n - 1]
                if mn == 0.0:
                    continue
                if not roll[t, n]:
                    to_bank += mn
                    continue
                pb += mn * bust[n]
                for g in range(gs[n], gs[n + 1]):
                    M[at + arg[t, g]] += mn * gp[g]
        if m != 0.0:
            if not roll[t, 6]:
                to_bank += m
            else:
                pb += m * bust[6]
                for g in range(gs[6], gs[7]):
                    M[at + arg[t, g]] += m * gp[g]
        if to_bank != 0.0:
            if s < target:
                dist[s + lower] += to_bank
            elif not final_round:
                const += to_bank
            else:
                const += to_bank * (1.0 - F[min(s - other, dlast)])
    return const, pb


#: Policy storage: a result distribution's entries below this at either end of its band are not
#: stored (their share, valued at the sweep's table, goes into the constant). Only the policy
#: evaluation between optimising sweeps uses the stored rows, so this changes how fast the
#: iteration gets there, never the stopping rule (a full exact optimising sweep).
BAND_EPS = 1e-13


@jit(inline=True)
def _store_row(
    kind: int, i: int, j: int, Wn: F64, dist: F64, c: float, store: Store, thread: int
) -> float:
    """Store ``dist`` (banks to the totals of index ``> i``) as a band in
    ``store.pool[thread]``; returns the constant with the cut-off ends added."""
    pool, used = store.pool, store.used
    size = dist.shape[0]
    lo = i + 1
    while lo < size and dist[lo] <= BAND_EPS:
        c += dist[lo] * (1.0 - Wn[j, lo])
        lo += 1
    hi = size - 1
    while hi >= lo and dist[hi] <= BAND_EPS:
        c += dist[hi] * (1.0 - Wn[j, hi])
        hi -= 1
    n = hi - lo + 1
    at = used[thread]
    for k in range(n):
        pool[thread, at + k] = dist[lo + k]
    used[thread] = at + n
    store.off[kind, i, j] = thread * pool.shape[1] + at
    store.first[kind, i, j] = lo
    store.length[kind, i, j] = n
    return c


@jit(inline=True)
def bust_value(auto_state: bool, i: int, j: int, Wn: F64, Wa: F64, rv: I64) -> float:
    """What a bust is worth to the mover of start state ``(i, j)`` (table indices): the
    opponent then starts a turn under Auto-Pfeffer (if the rules have it; else a normal turn),
    with the mover the Auto-Pfeffer penalty lower if the mover was under Auto-Pfeffer itself
    (``auto_state``; a total below the bound counts as the bound)."""
    lower = rv[S_LOWER]
    if auto_state:
        penalty = rv[S_PENALTY]
        down = max(i - lower - penalty, -lower)
        return float(1.0 - Wa[j, down + lower])
    return float(1.0 - (Wa[j, i] if rv[S_AUTO] != 0 else Wn[j, i]))


@jit(inline=True)
def _row_value(kind: int, i: int, j: int, Wn: F64, flat: F64, store: Store) -> float:
    """``sum_k row[k] * (1 - Wn[j, k])`` over the stored band of state ``(kind, i, j)``
    (``flat``: the pools as one row)."""
    at = store.off[kind, i, j]
    lo = store.first[kind, i, j]
    v = 0.0
    for k in range(store.length[kind, i, j]):
        v += flat[at + k] * (1.0 - Wn[j, lo + k])
    return v


@jit(inline=True)
def _fixed_state(
    kind: int, i: int, j: int, Wn: F64, Wa: F64, rv: I64, store: Store, flat: F64
) -> float:
    """One state's linear update under its stored policy (``kind`` 1: under Auto-Pfeffer);
    returns its change."""
    beta = bust_value(kind == 1, i, j, Wn, Wa, rv)
    v = store.C[kind, i, j] + store.PB[kind, i, j] * beta
    v += _row_value(kind, i, j, Wn, flat, store)
    table = Wa if kind == 1 else Wn
    change = abs(v - table[i, j])
    table[i, j] = v
    return float(change)


@jit
def sweep_fixed(Wn: F64, Wa: F64, rv: I64, store: Store) -> float:
    """One Gauss-Seidel pass of the fixed policies stored by the optimising sweep
    (:func:`pfeffer.dice.solver.lanes.sweep_policy`): a linear update, in the same order.
    Returns the largest change."""
    size = Wn.shape[0]
    flat = store.pool.reshape(-1)
    change = 0.0
    for total in range(2 * size - 2, -1, -1):
        i0 = max(0, total - size + 1)
        i1 = min(size - 1, total)
        if rv[S_AUTO] != 0:
            for i in range(i0, i1 + 1):
                change = max(change, _fixed_state(1, i, total - i, Wn, Wa, rv, store, flat))
        for i in range(i0, i1 + 1):
            change = max(change, _fixed_state(0, i, total - i, Wn, Wa, rv, store, flat))
    return change


@jit(parallel=True)
def sweep_fixed_threads(Wn: F64, Wa: F64, rv: I64, store: Store, chunks: int) -> float:
    """:func:`sweep_fixed` under Auto-Pfeffer with the states of each sum and kind spread over
    ``chunks`` threads, the same values: an Auto-Pfeffer state reads only other sums, except the
    one at the lower bound (``i`` = 0), which reads its partner and goes first, alone; a normal
    state reads other sums and its partner's Auto-Pfeffer value, done in the pass before."""
    size = Wn.shape[0]
    flat = store.pool.reshape(-1)
    change = 0.0
    found = np.zeros(chunks)
    for total in range(2 * size - 2, -1, -1):
        i0 = max(0, total - size + 1)
        i1 = min(size - 1, total)
        for kind in (1, 0):
            start = i0
            if kind == 1 and i0 == 0:
                change = max(change, _fixed_state(1, 0, total, Wn, Wa, rv, store, flat))
                start = 1
            for c in prange(chunks):
                for i in range(start + c, i1 + 1, chunks):
                    found[c] = max(found[c], _fixed_state(kind, i, total - i, Wn, Wa, rv, store,
                                                          flat))  # fmt: skip
    return float(max(change, found.max()))
