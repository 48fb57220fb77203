"""Compiled kernels of the three-player solver (numba): a turn with vector values, the final
round's last turns and a Gauss-Seidel sweep (docs/strategy.md, "More players").

A value vector has four entries: ``[decision, mover, next, next-next]``. Entry 0 is what the
player on turn maximises (their own chance to win for optimal play; for the approximation under
test, the two-player table's chance); entries 1-3 are each player's chance to win under the
choices that entry 0 makes (equal values: bank rather than throw, the first keep in menu order).
"""

from __future__ import annotations

import numpy as np

from pfeffer.core.compiled import jit
from pfeffer.dice.solver.gkernels import TAIL_EPS
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
)

K = 4


@jit(inline=True)
def _expect_vec(t: int, n: int, beta: F64, D: F64, H: F64, out: F64, dice: Dice) -> None:
    """``out``: the value vector of throwing ``n`` dice at ``t`` (best keep by entry 0)."""
    bust, gs, gp, os_, op, ol = (dice.bust, dice.group_start, dice.group_prob, dice.opt_start,
                                 dice.opt_points, dice.opt_left)  # fmt: skip
    for c in range(K):
        out[c] = bust[n] * beta[c]
    for g in range(gs[n], gs[n + 1]):
        best = -2.0
        bo = os_[g]
        for o in range(os_[g], os_[g + 1]):
            left = ol[o]
            v = H[t + op[o], 0] if left == 0 else D[t + op[o], left - 1, 0]
            if v > best:
                best = v
                bo = o
        left = ol[bo]
        for c in range(K):
            out[c] += gp[g] * (H[t + op[bo], c] if left == 0 else D[t + op[bo], left - 1, c])


@jit
def vturn(
    b: F64, beta: F64, must_roll: bool, top: int, dice: Dice, consts: F64, D: F64, H: F64
) -> None:
    """One turn with vector values: ``b[t]`` the vector after banking ``t`` (``b[t, 0] < 0``: not
    allowed), ``beta`` after a bust; past ``top`` banking must be best for the player on turn
    (the caller checks ``1 - b[t, 0]`` is negligible there). Fills ``D[t, n - 1]`` and ``H[t]``
    (``H[0]``: the turn's start) for ``t <= top + max points``."""
    bust, gs, gp, six_nonhot = dice.bust, dice.group_start, dice.group_prob, dice.six_nonhot
    maxp = int(consts[0])
    poh = consts[1]
    p6 = bust[6]
    e = np.zeros(K)
    for t in range(top + maxp, top, -1):
        for c in range(K):
            q = p6 * beta[c]
            for g in range(gs[6], gs[7]):
                if six_nonhot[g] >= 0:
                    q += gp[g] * b[t + six_nonhot[g], c]
            H[t, c] = q / (1.0 - poh) if must_roll else b[t, c]
            for n in range(5):
                D[t, n, c] = b[t, c]
    for t in range(top, -1, -1):
        bk = b[t, 0]
        for n in range(1, 6):
            if bk >= 0.0 and bk >= 1.0 - bust[n] * (1.0 - beta[0]):
                for c in range(K):
                    D[t, n - 1, c] = b[t, c]
                continue
            _expect_vec(t, n, beta, D, H, e, dice)
            take = bk >= 0.0 and bk >= e[0]
            for c in range(K):
                D[t, n - 1, c] = b[t, c] if take else e[c]
        _expect_vec(t, 6, beta, D, H, e, dice)
        take = (not must_roll) and bk >= 0.0 and bk >= e[0]
        for c in range(K):
            H[t, c] = b[t, c] if take else e[c]


@jit
def last_two(g_max: int, need: int, share: float, must_roll: bool, dice: Dice, consts: F64) -> F64:
    """The last player of a three-player final round, ``g`` steps behind the leading total:
    ``[value, P(win alone), P(tie)]`` for ``g = 0 .. g_max`` (row ``g_max + 1``: zeros), when a
    tie shares the win ``share`` (one half or one third) and the player maximises its value."""
    maxp = int(consts[0])
    size = g_max + need + 2 * maxp + 4
    b = np.zeros((size, K))
    beta = np.zeros(K)
    D = np.zeros((size, 5, K))
    H = np.zeros((size, K))
    out = np.zeros((g_max + 2, 3))
    for g in range(g_max + 1):
        for t in range(size):
            for c in range(K):
                b[t, c] = 0.0
            if t < need or t < 1:
                b[t, 0] = -1.0
            elif t == g:
                b[t, 0] = share
                b[t, 1] = share
                b[t, 3] = 1.0
            elif t > g:
                b[t, 0] = 1.0
                b[t, 1] = 1.0
                b[t, 2] = 1.0
        top = max(g + 1, need, 1)
        vturn(b, beta, must_roll, top, dice, consts, D, H)
        out[g, 0] = H[0, 1]
        out[g, 1] = H[0, 2]
        out[g, 2] = H[0, 3]
    return out


@jit(inline=True)
def _second_bank(u: int, e: int, two: F64, three: F64, dl: int, out: F64) -> None:
    """The vector ``[X+1, X, X+1, X+2]`` when the second-to-last player ends ``u`` steps above
    the leader ``X`` (who is ``e`` steps above the last player)."""
    if u > 0:
        g = min(u + e, dl)
        pw, pt = two[g, 1], two[g, 2]
        out[1] = 0.0
        out[2] = (1.0 - pw - pt) + 0.5 * pt
        out[3] = pw + 0.5 * pt
    elif u == 0:
        g = min(e, dl)
        pw, pt = three[g, 1], three[g, 2]
        out[1] = 0.5 * (1.0 - pw - pt) + pt / 3.0
        out[2] = out[1]
        out[3] = pw + pt / 3.0
    else:
        g = min(e, dl)
        pw, pt = two[g, 1], two[g, 2]
        out[1] = (1.0 - pw - pt) + 0.5 * pt
        out[2] = 0.0
        out[3] = pw + 0.5 * pt
    out[0] = out[2]


@jit
def final_three(
    dmax: int, need: int, must_roll: bool, two: F64, three: F64, dice: Dice, consts: F64
) -> F64:
    """``FR[d1, e]``: the chances ``(X, X+1, X+2)`` when ``X`` has ended the main game ``d1``
    steps above ``X+1`` and ``e`` above ``X+2`` (both ≥ 1; index ``dmax + 1`` stands for every
    larger lead), ``X+1`` and ``X+2`` having one last turn each. For ``d1 >= need`` the second
    player's turn is solved once per ``e`` with totals counted from ``X`` (``u = t - d1``): its
    start at ``-d1`` is worth what six dice to throw there are worth."""
    maxp = int(consts[0])
    dl = two.shape[0] - 1
    U0 = dmax + 1
    size = U0 + dmax + need + 2 * maxp + 6
    b = np.zeros((size, K))
    vec = np.zeros(K)
    beta = np.zeros(K)
    D = np.zeros((size, 5, K))
    H = np.zeros((size, K))
    FR = np.zeros((dmax + 2, dmax + 2, 3))
    for e in range(1, dmax + 2):
        for first in range(0, need + 1):
            # first == need: the shared turn (any bank from u = 0 on allowed); first < need: the
            # turn of d1 = first, banking only from t = need on.
            _second_bank(-1, e, two, three, dl, vec)
            for c in range(K):
                beta[c] = vec[c]
            if first == need:
                start, d1s = U0, -1
            else:
                start, d1s = first, first
            if first < need and first < 1:
                continue
            for t in range(size):
                u = t - start
                if u < 0 or (d1s >= 0 and t < need):
                    b[t, 0] = -1.0
                    for c in range(1, K):
                        b[t, c] = 0.0
                    continue
                _second_bank(u, e, two, three, dl, vec)
                for c in range(K):
                    b[t, c] = vec[c]
            top = start + max(dl - e + 1, 1) + need
            vturn(b, beta, must_roll, top, dice, consts, D, H)
            if first == need:
                for d1 in range(max(need, 1), dmax + 2):
                    for c in range(3):
                        FR[d1, e, c] = H[U0 - d1, c + 1]
            else:
                for c in range(3):
                    FR[first, e, c] = H[0, c + 1]
    return FR


@jit
def three_bank(
    b: F64,
    own: int,
    o1: int,
    o2: int,
    need: int,
    W: F64,
    rv: I64,
    FR: F64,
    reach: F64,
    beta0: float,
    bust6: float,
    maxp: int,
    tmin: int = 0,
) -> int:
    """Fill ``b`` with the mover's vectors after banking (totals in steps, ``own`` against the
    next player's ``o1`` and the one after's ``o2``; the rules from ``rv``,
    :func:`pfeffer.dice.solver.tables.solve_vector`) as far as the turn needs; returns ``top``
    (at least ``tmin``: the advice reads the turn there). ``bust6``: the chance that six dice
    bust."""
    lower, target, final_round = rv[S_LOWER], rv[S_TARGET], rv[S_FINAL_ROUND] != 0
    n = b.shape[0]
    last = n - 2 * maxp - 2
    rl = reach.shape[0] - 1
    dl = FR.shape[0] - 1
    thr = 1.0 - bust6 * (1.0 - beta0)
    j, k = o1 + lower, o2 + lower
    top = -1
    stop = n
    t = 0
    while t < stop:
        if t < need or t < 1:
            b[t, 0] = -1.0
            b[t, 1] = 0.0
            b[t, 2] = 0.0
            b[t, 3] = 0.0
            t += 1
            continue
        s = own + t
        if s < target:
            v = W[0, j, k, s + lower]
            b[t, 0], b[t, 1], b[t, 2], b[t, 3] = v[2], v[2], v[0], v[1]
        else:
            if final_round:
                fr = FR[min(s - o1, dl), min(s - o2, dl)]
                b[t, 0], b[t, 1], b[t, 2], b[t, 3] = fr[0], fr[0], fr[1], fr[2]
            else:
                b[t, 0], b[t, 1], b[t, 2], b[t, 3] = 1.0, 1.0, 0.0, 0.0
            # From here on banking is best after every keep that leaves dice; the hot-dice
            # throws are summed in closed form, exact where ``b`` is constant (both leads past
            # the final-round table), else within TAIL_EPS.
            capped = final_round and s - o1 >= dl and s - o2 >= dl
            if top < 0 and t >= tmin and ((b[t, 0] >= thr and (capped or (1.0 - b[t, 0]) * 2.0
                             * reach[min(t, rl)] <= TAIL_EPS)) or t >= last):  # fmt: skip
                top = t
                stop = min(n, t + 2 * maxp + 1)
        t += 1
    return top


@jit
def sweep3(W: F64, rv: I64, FR: F64, reach: F64, dice: Dice, consts: F64, b: F64, D: F64,
           H: F64, sum_hi: int, sum_lo: int) -> float:  # fmt: skip
    """One Gauss-Seidel pass over the three-player start states ``W[mode, i, j, k]`` (mover,
    next, next-next; mode 1: Auto-Pfeffer) whose index sum lies in ``[sum_lo, sum_hi]``, highest
    sums first, Auto-Pfeffer states before the others of a sum; the rules from ``rv``
    (:func:`pfeffer.dice.solver.tables.solve_vector`), the turn's work arrays ``b``, ``D``,
    ``H``. Returns the largest change."""
    lower, need, apen = rv[S_LOWER], rv[S_MIN_BANK], rv[S_PENALTY]
    auto, must_roll = rv[S_AUTO] != 0, rv[S_MUST_ROLL] != 0
    size = W.shape[1]
    maxp = int(consts[0])
    beta = np.zeros(K)
    change = 0.0
    for total in range(sum_hi, sum_lo - 1, -1):
        for mode in range(1, -1, -1):
            if mode == 1 and not auto:
                continue
            pen = apen if mode == 1 else 0
            for i in range(max(0, total - 2 * (size - 1)), min(size - 1, total) + 1):
                for j in range(max(0, total - i - (size - 1)), min(size - 1, total - i) + 1):
                    k = total - i - j
                    kb = max(i - pen, 0)
                    v = W[1 if auto else 0, j, k, kb]
                    beta[0], beta[1], beta[2], beta[3] = v[2], v[2], v[0], v[1]
                    top = three_bank(b, i - lower, j - lower, k - lower, need, W, rv, FR, reach,
                                     beta[0], dice.bust[6], maxp)  # fmt: skip
                    vturn(b, beta, must_roll, top, dice, consts, D, H)
                    for c in range(3):
                        change = max(change, abs(H[0, c + 1] - W[mode, i, j, k, c]))
                        W[mode, i, j, k, c] = H[0, c + 1]
    return change
