"""A bound on a start state's Bellman residual without re-solving its turn.

The stopping rule needs an optimising sweep in which no start-of-turn value would move by more
than the tolerance. Near the end most states' inputs have hardly moved since their turn was last
solved, and their residual can be bounded instead of re-solved.

A state ``s`` solved in the last sweep read each table entry ``x`` either as it stood at the
start of that sweep (``S``) or at its end (``E``): every entry changes once per sweep. Its turn's
policy was optimal against what it read, and its value then was ``E[s]``. For any policy ``π``
its value moves by at most ``Σ_x P_π(bank to x) |ΔW(x)| + P_π(bust) |Δβ|`` when the table
moves by ``ΔW`` (``|ΔW(x)| ≤ max(|W(x) - S(x)|, |W(x) - E(x)|)``). So the best value now,
``T(W)[s]``, lies within that much of ``E[s]``, and
``|T(W)[s] - W[s]| ≤ |W[s] - E[s]| + U_s``.

``U_s`` needs no policy. No turn banks ``t`` or more steps with a chance above ``reach[t]`` (the
best chance of any play to get that far, :func:`gkernels.reach_table`). With ``M(t)`` the largest
change among the bank totals up to ``t`` (rising in ``t``), summing by parts gives
``Σ_t P(t) |ΔW| ≤ Σ_t P(t) M(t) = Σ_t P(≥ t) (M(t) - M(t - 1)) ≤ Σ_t reach[t] (M(t) - M(t - 1))``.
The banks and the bust together have a chance of at most 1, so the bust adds its ``|Δβ|``.
Banks at or past the target are valued from the final round's table, which does not move.
"""

from __future__ import annotations

from pfeffer.core.compiled import jit
from pfeffer.dice.solver.tables import F64, I64, S_AUTO, S_MIN_BANK, S_PENALTY


@jit(inline=True)
def _moved(now: F64, snap: F64, kind: int, j: int, x: int) -> float:
    """How far entry ``(j, x)`` of table ``kind`` may have moved since it was read in the last
    sweep (``snap[0]``: the tables at its start, ``snap[1]``: at its end)."""
    v = now[j, x]
    return float(max(abs(v - snap[0, kind, j, x]), abs(v - snap[1, kind, j, x])))


@jit(inline=True)
def residual_bound(
    auto_state: bool, i: int, j: int, Wn: F64, Wa: F64, rv: I64, snap: F64, reach: F64
) -> float:
    """An upper bound on ``|T(W)[s] - W[s]|`` for the start state ``s = (i, j)`` (table indices;
    ``auto_state``: under Auto-Pfeffer; the rules from ``rv``, see
    :func:`pfeffer.dice.solver.tables.solve_vector`) solved in the last sweep, see the module
    docstring; reads as :func:`kernels.bust_value` and the bank values do."""
    kind = 1 if auto_state else 0
    penalty = rv[S_PENALTY]
    now = Wa[i, j] if auto_state else Wn[i, j]
    bound = abs(now - snap[1, kind, i, j])
    if auto_state:
        bound += _moved(Wa, snap, 1, j, max(i - penalty, 0))
    elif rv[S_AUTO] != 0:
        bound += _moved(Wa, snap, 1, j, i)
    else:
        bound += _moved(Wn, snap, 0, j, i)
    size = Wn.shape[0]
    top = 0.0
    for t in range(max(rv[S_MIN_BANK], 1), size - i):
        d = _moved(Wn, snap, 0, j, i + t)
        if d > top:
            bound += reach[t] * (d - top)
            top = d
    return float(bound)
