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
from pfeffer.dice.solver.gsweep import Ends, Starts, Work, turn_from
from pfeffer.dice.solver.tables import (
    F64,
    I64,
    S_AUTO,
    S_CALLS,
    S_FACTOR,
    S_FORBIDDEN,
    S_LOWER,
    S_MARGIN,
    S_PENALTY,
    S_STAKE_REWARD,
    Dice,
)


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
    tabs: Starts,
    rv: I64,
    ends: Ends,
    dice: Dice,
    consts: F64,
    work: Work,
) -> float:
    """:func:`gsweep.state_turn` reading the successor values from ``tabs``, with a bust below
    the table's bound worth ``edge`` to the mover."""
    RN, RA = tabs.RN, tabs.RA
    if i - pen < 0:
        beta = edge
    else:
        beta = 1.0 - (RA[ot, oo, j, i - pen] if rv[S_AUTO] != 0 else RN[ot, oo, j, i - pen])
    return turn_from(oo, ot, i, j, need, stake, bonus, beta, tabs, rv, ends, dice, consts, work)


@jit
def bound_sweep(
    lo_tabs: Starts,
    hi_tabs: Starts,
    rv: I64,
    ends: Ends,
    dice: Dice,
    consts: F64,
    work: Work,
    sum_hi: int,
    sum_lo: int,
) -> float:
    """One Gauss-Seidel pass of the pair ``(lo_tabs, hi_tabs)`` over the index sums
    ``[sum_lo, sum_hi]`` (highest first, as :func:`gsweep.gsweep`): each state's lower bound
    from the upper tables and its upper bound from the lower tables. Returns the largest gap
    ``Hi - Lo`` of the states swept."""
    RNl, RAl = lo_tabs.RN, lo_tabs.RA
    RNh, RAh = hi_tabs.RN, hi_tabs.RA
    lower = rv[S_LOWER]
    auto = rv[S_AUTO] != 0
    calls = rv[S_CALLS] != 0
    apen = rv[S_PENALTY]
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
                        need0 = ends.needs[oo]
                        if kind == 0:
                            if calls and (F == 1 or ot == 1):
                                _bound_calls(oo, ot, i, j, need0, lo_tabs, hi_tabs, rv, ends, dice,
                                             consts, work)  # fmt: skip
                            if auto:
                                lo = edge_turn(oo, ot, i, j, need0, apen, 0, False, 0.0, hi_tabs,
                                               rv, ends, dice, consts, work)  # fmt: skip
                                hi = edge_turn(oo, ot, i, j, need0, apen, 0, False, 1.0, lo_tabs,
                                               rv, ends, dice, consts, work)  # fmt: skip
                                RAl[oo, ot, i, j] = lo
                                RAh[oo, ot, i, j] = hi
                                gap = max(gap, hi - lo)
                        else:
                            lo = edge_turn(oo, ot, i, j, need0, 0, 0, False, 0.0, hi_tabs, rv,
                                           ends, dice, consts, work)  # fmt: skip
                            hi = edge_turn(oo, ot, i, j, need0, 0, 0, False, 1.0, lo_tabs, rv,
                                           ends, dice, consts, work)  # fmt: skip
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
    lo_tabs: Starts,
    hi_tabs: Starts,
    rv: I64,
    ends: Ends,
    dice: Dice,
    consts: F64,
    work: Work,
) -> None:
    """Both bounds of every Pfeffer call of one start state (every call solved: no pruning, so
    each stored call value is a bound of the call itself)."""
    CLl, CLh = lo_tabs.CL, hi_tabs.CL
    bonus = rv[S_STAKE_REWARD] != 0
    forbidden = rv[S_FORBIDDEN] != 0
    m, f = rv[S_MARGIN], rv[S_FACTOR]
    for r in range(1, min(j, CLl.shape[4] - 1) + 1):
        s = r + m
        pen = f * s
        need = max(need0, s) if forbidden else need0
        CLl[oo, ot, i, j, r] = edge_turn(oo, ot, i, j, need, pen, s, bonus, 0.0, hi_tabs, rv, ends,
                                         dice, consts, work)  # fmt: skip
        CLh[oo, ot, i, j, r] = edge_turn(oo, ot, i, j, need, pen, s, bonus, 1.0, lo_tabs, rv, ends,
                                         dice, consts, work)  # fmt: skip
