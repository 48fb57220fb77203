"""Compiled kernels of the general solver (numba): one turn against an explicit table of bank
values, the final round's last turns and the tie playoff (docs/strategy.md, "General rules").

A turn is solved from a *bank array* ``b[t]``: the mover's chance to win after banking turn total
``t`` (in scoring steps; -1 where banking is not allowed) and ``beta``, the chance after a bust.
Totals past ``tcut`` must have banking allowed and ``b`` non-decreasing with
``b[t] >= 1 - p_bust(6) (1 - beta)``: there banking is provably best after keeping dice that leave
dice (a throw gains at most ``1 - p_bust`` and loses ``p_bust (1 - beta)``), so only the six-dice
throws after hot dice are still solved; past ``top`` (where ``1 - b`` is below ``TAIL_EPS``) even
those are summed in closed form. Keep options worth 0 points (house rules allow zero scores) make a
total depend on itself: such totals are solved by fixed-point iteration.
"""

from __future__ import annotations

import numpy as np

from pfeffer.core.compiled import jit
from pfeffer.dice.solver.tables import (
    F64,
    I64,
    S_MARGIN,
    S_MUST_ROLL,
    S_PENALTY,
    S_STAKE_REWARD,
    Dice,
)

#: Past the total where ``1 - b`` times the chance to get there falls below this, the hot-dice
#: chain is summed in closed form (its error is below ``TAIL_EPS`` times the chance of an only-hot
#: throw).
TAIL_EPS = 1e-12
#: Fixed-point iterations for totals that depend on themselves (zero-point keeps).
ZERO_ITER = 10_000


@jit
def dice_consts(dice: Dice) -> F64:
    """``(max points, chance of an only-hot six-dice throw, any zero-point keep)`` as floats."""
    gs, gp, op, six_nonhot = dice.group_start, dice.group_prob, dice.opt_points, dice.six_nonhot
    maxp = 0
    zero = 0.0
    for o in range(op.shape[0]):
        maxp = max(maxp, op[o])
        if op[o] == 0:
            zero = 1.0
    poh = 0.0
    for g in range(gs[6], gs[7]):
        if six_nonhot[g] < 0:
            poh += gp[g]
    out = np.zeros(3)
    out[0] = maxp
    out[1] = poh
    out[2] = zero
    return out


@jit(inline=True)
def _expect(t: int, n: int, beta: float, D: F64, H: F64, dice: Dice) -> float:
    """Value of throwing ``n`` dice at ``t``: a bust pays ``beta``, else the best keep."""
    bust, gs, gp, os_, op, ol = (dice.bust, dice.group_start, dice.group_prob, dice.opt_start,
                                 dice.opt_points, dice.opt_left)  # fmt: skip
    e = bust[n] * beta
    for g in range(gs[n], gs[n + 1]):
        best = -1.0
        for o in range(os_[g], os_[g + 1]):
            left = ol[o]
            v = H[t + op[o]] if left == 0 else D[t + op[o], left - 1]
            best = max(best, v)
        e += gp[g] * best
    return float(e)


@jit
def find_cuts(b: F64, beta: float, t0: int, bust: F64, maxp: int, reach: F64) -> tuple[int, int]:
    """``(tcut, top)`` for :func:`turn_dp`: ``b`` must be non-decreasing and bankable from ``t0``
    on. ``tcut`` is the first ``t >= t0`` with ``b[t] >= 1 - p_bust(6) (1 - beta)``, ``top`` the
    first ``t >= tcut`` where ``1 - b[t]`` times twice the chance of reaching ``t`` in one turn
    (``reach``) is at most ``TAIL_EPS`` (at most the array's end less two maximal keeps)."""
    last = b.shape[0] - 2 * maxp - 2
    thr = 1.0 - bust[6] * (1.0 - beta)
    tcut = t0
    while tcut < last and b[tcut] < thr:
        tcut += 1
    top = tcut
    rl = reach.shape[0] - 1
    while top < last and (1.0 - b[top]) * 2.0 * reach[min(top, rl)] > TAIL_EPS:
        top += 1
    return tcut, top


@jit(inline=True)
def _tail_row(t: int, b: F64, beta: float, must_roll: bool, poh: float, dice: Dice, D: F64,
              H: F64, R: F64, want_r: bool) -> None:  # fmt: skip
    """A total past ``top`` (:func:`turn_dp`): bank after keeping dice that leave dice; the
    six-dice throw after hot dice summed in closed form (an only-hot throw taken as a return to
    ``t``; ``poh``: the chance of an only-hot throw)."""
    bust, gs, gp, six_nonhot = dice.bust, dice.group_start, dice.group_prob, dice.six_nonhot
    q = bust[6] * beta
    for g in range(gs[6], gs[7]):
        if six_nonhot[g] >= 0:
            q += gp[g] * b[t + six_nonhot[g]]
    h = q / (1.0 - poh)
    for n in range(5):
        D[t, n] = b[t]
        if want_r:
            # Throwing here can only lose: worth at most a bust's chance of beta, else 1.
            R[t, n + 1] = bust[n + 1] * beta + (1.0 - bust[n + 1])
    H[t] = h if must_roll else b[t]
    if want_r:
        R[t, 6] = h


@jit
def turn_dp(
    b: F64,
    beta: float,
    must_roll: bool,
    tcut: int,
    top: int,
    dice: Dice,
    consts: F64,
    D: F64,
    H: F64,
    R: F64,
    want_r: bool,
) -> float:
    """Solve one turn: fills ``D[t, n - 1]`` (decide with ``n`` ≤ 5 dice left), ``H[t]`` (six dice
    to throw; ``H[0]`` is the turn's start) and, with ``want_r``, ``R[t, n]`` (the value of
    throwing ``n`` dice) for ``t <= top + max points``. Returns ``H[0]``."""
    bust, gs, gp, os_, op = (dice.bust, dice.group_start, dice.group_prob, dice.opt_start,
                             dice.opt_points)  # fmt: skip
    six_nonhot = dice.six_nonhot
    maxp = int(consts[0])
    poh = consts[1]
    zero = consts[2] > 0.0
    p6 = bust[6]
    for t in range(top + maxp, top, -1):
        _tail_row(t, b, beta, must_roll, poh, dice, D, H, R, want_r)
    for t in range(top, tcut - 1, -1):
        for n in range(5):
            D[t, n] = b[t]
        if want_r:
            for n in range(1, 6):
                R[t, n] = _expect(t, n, beta, D, H, dice)
        H[t] = 0.0
        for _ in range(ZERO_ITER if zero else 1):
            h = p6 * beta
            for g in range(gs[6], gs[7]):
                if six_nonhot[g] >= 0:
                    h += gp[g] * b[t + six_nonhot[g]]
                else:
                    best = -1.0
                    for o in range(os_[g], os_[g + 1]):
                        best = max(best, H[t + op[o]])
                    h += gp[g] * best
            old = H[t]
            H[t] = h if must_roll else max(h, b[t])
            if want_r:
                R[t, 6] = h
            if abs(H[t] - old) <= 1e-17:
                break
    for t in range(tcut - 1, -1, -1):
        bk = b[t]
        if zero:
            H[t] = 0.0
            for n in range(5):
                D[t, n] = max(bk, 0.0)
        for _ in range(ZERO_ITER if zero else 1):
            change = 0.0
            for n in range(1, 6):
                if not want_r and not zero and bk >= 0.0 and bk >= 1.0 - bust[n] * (1.0 - beta):
                    D[t, n - 1] = bk  # banking is provably best here
                    continue
                e = _expect(t, n, beta, D, H, dice)
                if want_r:
                    R[t, n] = e
                v = max(e, bk)
                change = max(change, abs(v - D[t, n - 1]))
                D[t, n - 1] = v
            e = _expect(t, 6, beta, D, H, dice)
            if want_r:
                R[t, 6] = e
            v = e if (must_roll or bk < 0.0) else max(e, bk)
            change = max(change, abs(v - H[t]))
            H[t] = v
            if change <= 1e-17:
                break
    return float(H[0])


@jit
def bank_length(target: int, lower: int, margin: int, nlast: int, maxp: int, own: int,
                other: int, need: int, stake: int, span: int) -> int:  # fmt: skip
    """Entries of a turn's bank array at the table (:func:`pfeffer.dice.solver.context.
    bank_array`): past the target and the last turn's table with room for the closed-form tail,
    whatever the totals (``own`` may be below the lower bound). The advice and the simulator's
    perfect player both size their arrays by it, so that they solve the very same turn."""
    n = 2 * (target + lower) + margin + nlast + 3 * maxp + 8
    return n + max(0, other - own) + max(0, -lower - own) + stake + need + span


@jit
def table_turn(b: F64, beta: float, first: int, must_roll: bool, dice: Dice, consts: F64, D: F64,
               H: F64, R: F64) -> int:  # fmt: skip
    """A turn at the table from its bank array ``b`` (non-decreasing and bankable from
    ``first`` on) and bust value: :func:`find_cuts`, then :func:`turn_dp` with every ``R``, and
    the closed-form rows past ``top`` continued to where ``b`` ends (the totals a chain of hot
    dice that must be thrown reaches from there; they change nothing below). Fills ``D``, ``H``
    and ``R`` for the totals below the returned one (past it they are not solved). One function
    for the advice and the simulator's perfect player: the same operations, so the same values
    bit for bit."""
    maxp = int(consts[0])
    tcut, top = find_cuts(b, beta, first, dice.bust, maxp, np.ones(1))
    turn_dp(b, beta, must_roll, tcut, top, dice, consts, D, H, R, True)
    end = b.shape[0] - maxp - 1
    for t in range(top + maxp + 1, end):
        _tail_row(t, b, beta, must_roll, consts[1], dice, D, H, R, True)
    return int(max(end, top + maxp + 1))


@jit
def reach_table(ymax: int, must_roll: bool, dice: Dice, consts: F64) -> F64:
    """``P[y]``: the best chance that one turn can bank a total of at least ``y`` steps (``y`` ≥ 1;
    ``P[0] = P[1]``, ``P[ymax] = 0`` stands for every larger ``y``). One turn towards ``ymax``:
    six dice to throw at ``ymax - y`` are worth what a turn's start is worth towards ``y``."""
    maxp = int(consts[0])
    size = ymax + 2 * maxp + 2
    b = np.full(size, -1.0)
    b[ymax:] = 1.0
    D = np.zeros((size, 5))
    H = np.zeros(size)
    R = np.zeros((1, 7))
    turn_dp(b, 0.0, must_roll, ymax, ymax, dice, consts, D, H, R, False)
    P = np.zeros(ymax + 1)
    for y in range(1, ymax):
        P[y] = H[ymax - y]
    P[0] = P[1]
    return P


@jit
def last_turn_table(need0: int, tie: F64, must_roll: bool, dice: Dice, consts: F64) -> F64:
    """``G[x]``: the chance that a last turn (banking from ``need0``) ends more than ``x`` steps up
    (a win; exactly ``x`` is a tie worth ``tie[x]``, below is a loss; a bust loses), for
    ``x < len(tie)``; ``G[len(tie)] = 0`` stands for every larger ``x``."""
    maxp = int(consts[0])
    dmax = tie.shape[0]
    size = dmax + need0 + 2 * maxp + 3
    b = np.zeros(size)
    D = np.zeros((size, 5))
    H = np.zeros(size)
    R = np.zeros((1, 7))
    G = np.zeros(dmax + 1)
    for x in range(dmax):
        for t in range(size):
            if t < need0 or t < 1:
                b[t] = -1.0
            elif t < x:
                b[t] = 0.0
            elif t == x:
                b[t] = tie[x]
            else:
                b[t] = 1.0
        cut = max(x + 1, need0, 1)
        G[x] = turn_dp(b, 0.0, must_roll, cut, cut, dice, consts, D, H, R, False)
    return G


@jit(inline=True)
def fin_value(G: F64, ob: int, d: int, R: int, calls: bool, need0: int, m: int,
              reach: F64) -> float:  # fmt: skip
    """The chance that a last turn (opened flag ``ob``) ``d`` ≥ 1 steps behind wins when the
    predecessor banked ``R`` steps: the better of throwing (``G``) and, with ``calls`` (Pfeffer
    with the stake as reward), calling Pfeffer on the stake ``S = R + m``: a bank ``t >= S`` then
    counts ``t + S``, so the call is the last turn ``d - S`` behind banking from ``max(need0, S)``
    on (every bank wins if that is more than ``d - S``)."""
    last = G.shape[1] - 1
    g = G[ob, min(d, last)]
    if calls and R > 0:
        s = R + m
        x = d - s
        need = max(need0, s)
        c = G[ob, min(x, last)] if x >= need else reach[min(need, reach.shape[0] - 1)]
        g = max(g, c)
    return float(g)


@jit(inline=True)
def last_ahead(d: int, pen_b: int, tie0: float, reach_need: float) -> float:
    """The chance that a playoff's last turn wins when the first player busted and is now ``-d``
    ≥ 0 steps behind: any bank wins; a bust (costing ``pen_b``) wins if ``-pen_b > d``, ties
    (worth ``tie0``) if equal."""
    if -pen_b > d:
        beta = 1.0
    elif -pen_b == d:
        beta = tie0
    else:
        beta = 0.0
    return beta + (1.0 - beta) * reach_need


@jit
def playoff_turn(
    G: F64,
    need: int,
    pen: int,
    stake: int,
    bonus: bool,
    need_open: int,
    tie0: float,
    rv: I64,
    reach: F64,
    dice: Dice,
    consts: F64,
    work: tuple[F64, F64, F64, F64],
) -> float:
    """The first player's turn of a playoff round (both level): a bank ``t`` puts them ``t`` (plus
    the stake with ``bonus``) ahead of the other's last turn (``G`` row 0, predecessor ``t``); a
    bust (costing ``pen``) leaves the other a last turn ahead (Auto-Pfeffer's bust costs
    ``pen_b``; a tie, worth ``tie0`` to the other, starts the next round). The rules from
    ``rv`` (:func:`pfeffer.dice.solver.tables.solve_vector`: a Pfeffer call in the last turn
    with the stake as reward, the margin ``m``); ``need_open``: the minimum of a player who has
    banked; ``work``: the bank values ``b``, ``D``, ``H``, ``R``."""
    b, D, H, R = work
    calls_fin, must_roll = rv[S_STAKE_REWARD] != 0, rv[S_MUST_ROLL] != 0
    m = rv[S_MARGIN]
    pen_b = rv[S_PENALTY]
    for t in range(b.shape[0]):
        if t < need or t < 1:
            b[t] = -1.0
            continue
        a = t + (stake if (bonus and t >= stake) else 0)
        b[t] = 1.0 - fin_value(G, 0, a, t, calls_fin, need_open, m, reach)
    beta = 1.0 - last_ahead(-pen, pen_b, tie0, reach[need_open])
    tcut, top = find_cuts(b, beta, max(need, 1), dice.bust, int(consts[0]), reach)
    return turn_dp(b, beta, must_roll, tcut, top, dice, consts, D, H, R, False)
