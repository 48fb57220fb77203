"""Checks of a solved strategy: one more Bellman sweep over the stored table with the general
solver's operator (the convergence proof of docs/strategy.md), and the Pfeffer-call certificate.

>>> from pfeffer.dice.solver.solve import solve_small
>>> residual(solve_small()) <= 1e-9
True
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import gbounds
from pfeffer.dice.solver.general import dice_consts, final_tables, need_levels, scratch
from pfeffer.dice.solver.gsweep import Ends, Starts, gsweep
from pfeffer.dice.solver.strategy import DiceStrategy
from pfeffer.dice.solver.tables import F64, build_tables, kernel_dice, solve_vector


def residual(s: DiceStrategy, *, final: bool = True) -> float:
    """The largest change one full Gauss-Seidel Bellman sweep makes to the stored start-of-turn
    values (and, with ``final``, how far the stored last-turn and playoff values are from a fresh
    solve of them): 0 for an exact fixed point of the optimality equations.

    The sweep is the general path's (:func:`gsweep.gsweep`): for a table of the fast path it is an
    independent operator (another turn kernel, another closure of the turn past the target), so
    the figure bounds both the convergence and the fast path's own approximations."""
    m = s.model
    t = m.tables
    r = s.rules
    consts = dice_consts(t)
    RN, RA, CL = m.RN.copy(), m.RA.copy(), m.CL.copy()
    G, reach, P = m.G, m.reach, m.P
    worst = 0.0
    if final and r.final_round:
        G2, reach2, P2 = final_tables(t, m.G.shape[1] - 2)
        worst = float(np.abs(G2 - G).max())
        if P.size:
            worst = max(worst, float(np.abs(P2 - P).max()))
        if m.calls_fin:
            worst = max(worst, float(np.abs(reach2[: reach.size] - reach[: reach2.size]).max()))
    size = RN.shape[2]
    work = scratch(2 * size + t.margin + G.shape[1] + 3 * int(consts[0]) + 8)
    change = gsweep(Starts(RN, RA, CL), solve_vector(t, s.lower, calls=m.calls),
                    Ends(G, m.needs, reach), kernel_dice(t), consts, work, 2 * size - 2,
                    0)  # fmt: skip
    return max(worst, float(change))


def truncation_bounds(
    rules: DiceRules,
    *,
    lower: int,
    final_steps: int = 600,
    gap: float = 1e-10,
    region: int | None = None,
    max_sweeps: int = 400,
    progress: Callable[[int, float], None] | None = None,
) -> tuple[F64, F64, list[float]]:
    """Rigorous bounds ``(Lo, Hi, gaps)`` on the untruncated game's start-of-turn values, in the
    general layout (``[flag, flag, kind, i, j]``, kind 0 without and 1 under Auto-Pfeffer; see
    :mod:`pfeffer.dice.solver.gbounds`): the tables go down to ``-lower`` steps and every bust
    below counts 0 for ``Lo`` and 1 for ``Hi``. Started from 0 and 1, Gauss-Seidel sweeps of the
    pair until the largest gap ``Hi - Lo`` on the states with both indices ≥ ``region`` (default:
    ``lower``, both totals ≥ 0) is at most ``gap`` or shrinks by less than 0.1% in a sweep (every
    sweep's pair is a valid bound, so stopping early only widens it). ``gaps``: that figure
    after each sweep.

    >>> lo, hi, gaps = truncation_bounds(DiceRules(target=300, min_bank=100), lower=20,
    ...                                  final_steps=200)
    >>> bool((lo <= hi).all()), gaps[0] > 0.5, gaps[-1] < 0.02  # at -1000 the gap is 0.008
    (True, True, True)
    """
    t = build_tables(rules)
    r = rules
    consts = dice_consts(t)
    needs = need_levels(t)
    G, reach, _ = final_tables(t, final_steps)
    calls = r.pfeffer and r.pfeffer_reward == "stake"
    flags = len(needs)
    size = t.target + lower
    shape = (flags, flags, size, size)
    RNl, RAl, RNh, RAh = np.zeros(shape), np.zeros(shape), np.ones(shape), np.ones(shape)
    cshape = (flags, flags, size, size, size) if calls else (1, 1, 1, 1, 1)
    CLl, CLh = np.zeros(cshape), np.ones(cshape)
    work = scratch(2 * size + t.margin + final_steps + 3 * int(consts[0]) + 8)
    k = lower if region is None else region
    lo_tabs, hi_tabs = Starts(RNl, RAl, CLl), Starts(RNh, RAh, CLh)
    rv, ends, dice = solve_vector(t, lower, calls=calls), Ends(G, needs, reach), kernel_dice(t)
    gaps: list[float] = []
    for sweep in range(max_sweeps):
        gbounds.bound_sweep(lo_tabs, hi_tabs, rv, ends, dice, consts, work, 2 * size - 2, 0)
        width = max(float((RNh - RNl)[..., k:, k:].max()), float((RAh - RAl)[..., k:, k:].max()))
        gaps.append(width)
        if progress is not None:
            progress(sweep + 1, width)
        if width <= gap or (len(gaps) > 1 and gaps[-2] - width <= 1e-3 * width):
            break  # the bound is met, or the gap no longer shrinks (the truncation's share)
    if not r.auto_pfeffer:
        RAl, RAh = RNl, RNh
    return np.stack([RNl, RAl], axis=2), np.stack([RNh, RAh], axis=2), gaps
