"""Compiled kernel of the truncation bound (docs/strategy.md, "Truncation: a proof"): one
Gauss-Seidel sweep over a *pair* of start-of-turn tables ``(Lo, Hi)`` in the general layout of
:mod:`pfeffer.dice.solver.gsweep`.

The game's totals have no lower bound; the tables stop at ``-lower`` steps. A bust that would take
the mover below that is an *edge* transition: its true value is unknown but lies in ``[0, 1]``.
Every solution ``W`` of the untruncated optimality equations satisfies ``W = max E[1 - W']``
(``W'`` the opponent's chance at the next start). So if ``Lo <= W <= Hi`` on the table's states,
then ``max E[1 - Hi']`` (edge busts worth 0 to the mover) is again a lower bound and
``max E[1 - Lo']`` (edge busts worth 1) again an upper bound. Started from ``Lo = 0``, ``Hi = 1``
the sweeps keep ``Lo <= W <= Hi`` at every step, in place, whatever the order: so ``Hi - Lo``
bounds both the truncation error and the convergence error of any table between them.
"""

from __future__ import annotations

from pfeffer.core.compiled import jit
from pfeffer.dice.solver.gkernels import turn_dp
from pfeffer.dice.solver.gsweep import main_bank
from pfeffer.dice.solver.tables import F64, I64


@jit
def edge_turn(
    oo: int,
    ot: int,
    i: int,
    j: int,
    need: int,
    pen: int,
    stake: int,
    bonus: bool,
    edge: float,
    RN: F64,
    RA: F64,
    CL: F64,
    lower: int,
    target: int,
    auto: bool,
    calls: bool,
    final_round: bool,
    must_roll: bool,
    G: F64,
    need0s: I64,
    m: int,
    reach: F64,
    calls_fin: bool,
    bust: F64,
    gs: I64,
    gp: F64,
    os_: I64,
    op: I64,
    ol: I64,
    six_nonhot: I64,
    consts: F64,
    b: F64,
    D: F64,
    H: F64,
    R: F64,
) -> float:
    """:func:`gsweep.state_turn` reading the successor values from ``RN``/``RA``/``CL``, with a
    bust below the table's bound worth ``edge`` to the mover."""
    F = RN.shape[0]
    own = i - lower
    other = j - lower
    if i - pen < 0:
        beta = edge
    else:
        beta = 1.0 - (RA[ot, oo, j, i - pen] if auto else RN[ot, oo, j, i - pen])
    tcut, top = main_bank(b, own, other, need, stake, bonus, lower, target, final_round, RN, CL,
                          calls, ot, F - 1, G, need0s[ot], m, reach, calls_fin, beta, bust,
                          int(consts[0]))  # fmt: skip
    return turn_dp(b, beta, must_roll, tcut, top, bust, gs, gp, os_, op, ol, six_nonhot, consts,
                   D, H, R, False)  # fmt: skip


@jit
def bound_sweep(
    RNl: F64,
    RAl: F64,
    CLl: F64,
    RNh: F64,
    RAh: F64,
    CLh: F64,
    lower: int,
    target: int,
    auto: bool,
    apen: int,
    calls: bool,
    bonus: bool,
    forbidden: bool,
    m: int,
    f: int,
    final_round: bool,
    must_roll: bool,
    G: F64,
    need0s: I64,
    reach: F64,
    calls_fin: bool,
    bust: F64,
    gs: I64,
    gp: F64,
    os_: I64,
    op: I64,
    ol: I64,
    six_nonhot: I64,
    consts: F64,
    b: F64,
    D: F64,
    H: F64,
    R: F64,
    sum_hi: int,
    sum_lo: int,
) -> float:
    """One Gauss-Seidel pass of the pair over the index sums ``[sum_lo, sum_hi]`` (highest first,
    as :func:`gsweep.gsweep`): each state's lower bound from the upper table and its upper bound
    from the lower table. Returns the largest gap ``Hi - Lo`` of the states swept."""
    F = RNl.shape[0]
    size = RNl.shape[2]
    gap = 0.0
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
                        need0 = need0s[oo]
                        if kind == 0:
                            if calls and (F == 1 or ot == 1):
                                _bound_calls(oo, ot, i, j, need0, RNl, RAl, CLl, RNh, RAh, CLh,
                                             lower, target, auto, bonus, forbidden, m, f,
                                             final_round, must_roll, G, need0s, reach, calls_fin,
                                             bust, gs, gp, os_, op, ol, six_nonhot, consts, b, D,
                                             H, R)  # fmt: skip
                            if auto:
                                lo = edge_turn(oo, ot, i, j, need0, apen, 0, False, 0.0, RNh, RAh,
                                               CLh, lower, target, auto, calls, final_round,
                                               must_roll, G, need0s, m, reach, calls_fin, bust,
                                               gs, gp, os_, op, ol, six_nonhot, consts, b, D, H,
                                               R)  # fmt: skip
                                hi = edge_turn(oo, ot, i, j, need0, apen, 0, False, 1.0, RNl, RAl,
                                               CLl, lower, target, auto, calls, final_round,
                                               must_roll, G, need0s, m, reach, calls_fin, bust,
                                               gs, gp, os_, op, ol, six_nonhot, consts, b, D, H,
                                               R)  # fmt: skip
                                RAl[oo, ot, i, j] = lo
                                RAh[oo, ot, i, j] = hi
                                gap = max(gap, hi - lo)
                        else:
                            lo = edge_turn(oo, ot, i, j, need0, 0, 0, False, 0.0, RNh, RAh, CLh,
                                           lower, target, auto, calls, final_round, must_roll, G,
                                           need0s, m, reach, calls_fin, bust, gs, gp, os_, op,
                                           ol, six_nonhot, consts, b, D, H, R)  # fmt: skip
                            hi = edge_turn(oo, ot, i, j, need0, 0, 0, False, 1.0, RNl, RAl, CLl,
                                           lower, target, auto, calls, final_round, must_roll, G,
                                           need0s, m, reach, calls_fin, bust, gs, gp, os_, op,
                                           ol, six_nonhot, consts, b, D, H, R)  # fmt: skip
                            RNl[oo, ot, i, j] = lo
                            RNh[oo, ot, i, j] = hi
                            gap = max(gap, hi - lo)
    return gap


@jit
def _bound_calls(
    oo: int,
    ot: int,
    i: int,
    j: int,
    need0: int,
    RNl: F64,
    RAl: F64,
    CLl: F64,
    RNh: F64,
    RAh: F64,
    CLh: F64,
    lower: int,
    target: int,
    auto: bool,
    bonus: bool,
    forbidden: bool,
    m: int,
    f: int,
    final_round: bool,
    must_roll: bool,
    G: F64,
    need0s: I64,
    reach: F64,
    calls_fin: bool,
    bust: F64,
    gs: I64,
    gp: F64,
    os_: I64,
    op: I64,
    ol: I64,
    six_nonhot: I64,
    consts: F64,
    b: F64,
    D: F64,
    H: F64,
    R: F64,
) -> None:
    """Both bounds of every Pfeffer call of one start state (every call solved: no pruning, so
    each stored call value is a bound of the call itself)."""
    for r in range(1, min(j, CLl.shape[4] - 1) + 1):
        s = r + m
        pen = f * s
        need = max(need0, s) if forbidden else need0
        CLl[oo, ot, i, j, r] = edge_turn(oo, ot, i, j, need, pen, s, bonus, 0.0, RNh, RAh, CLh,
                                         lower, target, auto, True, final_round, must_roll, G,
                                         need0s, m, reach, calls_fin, bust, gs, gp, os_, op, ol,
                                         six_nonhot, consts, b, D, H, R)  # fmt: skip
        CLh[oo, ot, i, j, r] = edge_turn(oo, ot, i, j, need, pen, s, bonus, 1.0, RNl, RAl, CLl,
                                         lower, target, auto, True, final_round, must_roll, G,
                                         need0s, m, reach, calls_fin, bust, gs, gp, os_, op, ol,
                                         six_nonhot, consts, b, D, H, R)  # fmt: skip
