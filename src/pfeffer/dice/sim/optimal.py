"""Perfect play in the simulator's compiled loop: a :class:`~pfeffer.dice.solver.DiceStrategy`'s
turn decisions, recomputed from its stored start-of-turn values exactly as the advice does.

:func:`~pfeffer.dice.solver.advise` (and so :class:`~pfeffer.dice.bots.OptimalBot`) values a turn
by one backward pass over (turn total, dice to throw) from the chance to win after banking each
total and after a bust (``DiceStrategy.turn``). :func:`turn_tables` does the very same floating
point operations in the same order (the flat layout of the solver's ``turn_policy``: the six
values of a total side by side), so the kernel's decisions are the bot's bit for bit, ties
included: a keep goes to the first best option in the game's order, ``bank`` only when it is
strictly better than ``roll`` (the game lists ``roll`` first), ``pfeffer`` when it is at least as
good as ``roll`` (listed first).

The tables of a turn depend on (own, other, need, penalty, bonus); :func:`lookup` keeps recent
ones in a direct-mapped cache, since the same start states come back game after game.

Calling Pfeffer costs a second turn solve; :func:`pfeffer_dominated` skips it when the call is
provably worse (its bank values are never higher and its bust value is lower by a margin that
survives the rounding of the sums; see the function).

Compiled arrays of kind ``KIND_OPTIMAL`` (:class:`~pfeffer.dice.sim.policies.PerfectPolicy`):

=====================  ===========================================================================
``ints[0:18]``         header: the ``O_*`` positions below
``ints[18:26]``        ``group_start`` of the solver's tables (throws of n dice: menus)
then                   ``opt_start`` (one more than the menus), each option's flat offset, and
                       for the six-dice menus: the most points leaving dice (-1: none), where
                       their hot-dice options start (one more) and those options' offsets
``floats[0]``          the value of a tie in a last turn
``floats[1:8]``        ``bust`` chances by dice
then                   the menus' probabilities, ``normal``, ``auto`` (row-major), ``final``
=====================  ===========================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from numba import njit

F = TypeVar("F", bound=Callable[..., Any])


def _jit(func: F) -> F:
    """``numba.njit(cache=True)`` keeping the function's type for mypy."""
    return cast(F, njit(cache=True)(func))


# Header positions in ``ints``.
O_LOWER = 0  # totals below -lower steps count as -lower
O_TARGET = 1  # the target in steps
O_STEP = 2  # points of one step
O_NFINAL = 3  # entries of the final-round table
O_MAXP = 4  # the most steps one keep scores
O_MUST_ROLL = 5  # hot dice must be thrown
O_FINAL_ROUND = 6
O_AUTO = 7  # Auto-Pfeffer is played (the bust value reads the Auto-Pfeffer table)
O_GROUPS = 8  # menus
O_OPTIONS = 9  # options of all menus
O_F_GP = 10  # where the menus' probabilities start in ``floats``
O_F_NORMAL = 11
O_F_AUTO = 12
O_F_FINAL = 13
O_I_OS = 14  # where ``opt_start`` starts in ``ints``
O_I_OO = 15  # where the options' offsets start
O_I_SIX = 16  # where the six-dice menus' short-cut arrays start (see ``backward``)
O_RISING = 17  # the final-round table never rises (so bank values past the target never fall)
O_HEADER = 18

#: Values per total in the flat layout: deciding with 1-5 dice (bank or throw), then six dice.
SLOTS = 6


@_jit
def table_size(ip: Any, own: int) -> int:
    """Rows of a turn's tables for a start at ``own`` steps (as ``DiceStrategy.bank_values``)."""
    return int(max(ip[O_TARGET] - own, 1) + ip[O_NFINAL] + ip[O_MAXP] + 2)


@_jit
def bust_value(ip: Any, fp: Any, own: int, other: int, penalty: int) -> float:
    """``DiceStrategy.bust_value``: the mover's chance after a bust costing ``penalty`` steps."""
    target = ip[O_TARGET]
    if other >= target:
        return 0.0
    lower = ip[O_LOWER]
    n = lower + target
    down = max(own - penalty, -lower)
    base = ip[O_F_AUTO] if ip[O_AUTO] != 0 else ip[O_F_NORMAL]
    return float(1.0 - fp[base + (other + lower) * n + down + lower])


@_jit
def bank_values(ip: Any, fp: Any, own: int, other: int, need: int, bonus: int, out: Any) -> int:
    """``DiceStrategy.bank_values`` into ``out``; returns the number of rows."""
    target = ip[O_TARGET]
    lower = ip[O_LOWER]
    n = lower + target
    size = table_size(ip, own)
    nfinal = ip[O_NFINAL]
    tie = fp[0]
    row = ip[O_F_NORMAL] + (other + lower) * n + lower
    final_turn = other >= target
    for i in range(size):
        s = own + i + bonus
        if final_turn:
            v = 1.0 if s > other else (tie if s == other else 0.0)
        elif s < target:
            v = 1.0 - fp[row + s]
        elif ip[O_FINAL_ROUND] != 0:
            v = 1.0 - fp[ip[O_F_FINAL] + min(s - other, nfinal - 1)]
        else:
            v = 1.0
        if i < need or i < 1:
            v = -1.0
        out[i] = v
    return size


@_jit
def backward(ip: Any, fp: Any, size: int, beta: float, past: int, B: Any, W: Any, R: Any) -> None:
    """One turn's backward pass (``kernels.turn_explicit`` in the flat layout): ``W[6 t + k]``
    is the value of deciding with ``k + 1`` dice at total ``t`` (``k`` < 5) or of throwing six
    (``k`` = 5) as the pass uses it; ``R[6 t + n - 1]`` the value of throwing ``n`` dice.
    ``past``: the first row past the target (from there on the bank values do not fall).

    Two short cuts give the same values bit for bit. (1) Where banking ``b`` beats any throw of
    ``n`` dice by a bound (every value is at most 1 plus rounding, so a throw is worth at most
    ``1 - bust[n] (1 - beta)``; margin 1e-9), the pass's ``max(e, b)`` is ``b``: it is taken
    without summing (``R`` gets -1, which decides the same: bank). (2) From the row ``k0`` on
    where that holds for every ``n`` ≤ 5 and the bank values do not fall (past the target, with
    a final-round table that does not rise), every value leaving dice is the bank value of its
    row, so a six-dice menu's best option leaving dice is its one with the most points
    (``six_nonhot``); only its hot-dice options are looked up.
    """
    must_roll = ip[O_MUST_ROLL] != 0
    maxp = ip[O_MAXP]
    gs = ip[O_HEADER : O_HEADER + 8]
    os_ = ip[ip[O_I_OS] : ip[O_I_OS] + ip[O_GROUPS] + 1]
    oo = ip[ip[O_I_OO] : ip[O_I_OO] + ip[O_OPTIONS]]
    g6 = gs[7] - gs[6]
    nonhot = ip[ip[O_I_SIX] : ip[O_I_SIX] + g6]
    hot_start = ip[ip[O_I_SIX] + g6 : ip[O_I_SIX] + 2 * g6 + 1]
    hot_off = ip[ip[O_I_SIX] + 2 * g6 + 1 :]
    bust = fp[1:8]
    gp = fp[ip[O_F_GP] : ip[O_F_GP] + ip[O_GROUPS]]
    top = size - maxp - 1
    worst = 1.0
    for n in range(1, 6):
        worst = min(worst, bust[n])
    safe = 1.0 - worst * (1.0 - beta) + 1e-9
    k0 = top
    if ip[O_RISING] != 0:
        while k0 > past and B[k0 - 1] > safe:
            k0 -= 1
    for t in range(size - 1, -1, -1):
        b = B[t]
        base = SLOTS * t
        if t >= top:
            b = max(b, 0.0)
            for n in range(5):
                W[base + n] = b
                R[base + n] = b
            h = bust[6] * beta + (1.0 - bust[6]) * b
            W[base + 5] = h
            R[base + 5] = h
            continue
        for n in range(1, 6):
            if b > 1.0 - bust[n] * (1.0 - beta) + 1e-9:
                W[base + n - 1] = b
                R[base + n - 1] = -1.0
                continue
            e = bust[n] * beta
            for g in range(gs[n], gs[n + 1]):
                best = -1.0
                for o in range(os_[g], os_[g + 1]):
                    best = max(best, W[base + oo[o]])
                e += gp[g] * best
            R[base + n - 1] = e
            W[base + n - 1] = max(e, b)
        e = bust[6] * beta
        if t >= k0:
            for j in range(g6):
                best = -1.0
                if nonhot[j] >= 0:
                    best = W[base + SLOTS * nonhot[j]]
                for h in range(hot_start[j], hot_start[j + 1]):
                    best = max(best, W[base + hot_off[h]])
                e += gp[gs[6] + j] * best
        else:
            for g in range(gs[6], gs[7]):
                best = -1.0
                for o in range(os_[g], os_[g + 1]):
                    best = max(best, W[base + oo[o]])
                e += gp[g] * best
        R[base + 5] = e
        W[base + 5] = e if (must_roll or t == 0) else max(e, b)


@_jit
def lookup(
    ip: Any,
    fp: Any,
    sid: int,
    own: int,
    other: int,
    need: int,
    penalty: int,
    bonus: int,
    keys: Any,
    cW: Any,
    cR: Any,
    cB: Any,
) -> int:
    """The cache slot holding the tables of the turn (own, other, need, penalty, bonus) of
    strategy ``sid`` (computed there first if they are not); totals in steps, ``own`` and
    ``other`` already raised to the lower bound."""
    slots = keys.shape[0]
    h = (((sid * 1_000_003 + own) * 1_000_003 + other) * 8191 + need * 127 + penalty) * 31 + bonus
    slot = (h & 0x7FFFFFFFFFFF) % slots
    k = keys[slot]
    if (
        k[0] == 1
        and k[1] == sid
        and k[2] == own
        and k[3] == other
        and k[4] == need
        and k[5] == penalty
        and k[6] == bonus
    ):
        return int(slot)
    size = bank_values(ip, fp, own, other, need, bonus, cB[slot])
    beta = bust_value(ip, fp, own, other, penalty)
    backward(ip, fp, size, beta, max(ip[O_TARGET] - own, 0), cB[slot], cW[slot], cR[slot])
    k[0] = 1
    k[1] = sid
    k[2] = own
    k[3] = other
    k[4] = need
    k[5] = penalty
    k[6] = bonus
    k[7] = size
    return int(slot)


#: Columns of a cache key: used, strategy, own, other, need, penalty, bonus, rows.
KEY_COLUMNS = 8


@_jit
def keep_value(ip: Any, W: Any, B: Any, size: int, after: int, left: int) -> float:
    """The advice's value of setting aside to ``after`` steps with ``left`` dice left (0: hot
    dice): ``V[after, left or 6]`` of ``DiceStrategy.turn``."""
    if left == 0:
        v = W[SLOTS * after + 5]
        if ip[O_MUST_ROLL] == 0 and after >= size - ip[O_MAXP] - 1:
            v = max(v, B[after], 0.0)  # the pass keeps the plain throw; the advice the max
        return float(v)
    return float(W[SLOTS * after + left - 1])


@_jit
def pfeffer_dominated(
    ip: Any, fp: Any, own: int, other: int, need: int, penalty: int, call_need: int,
    call_penalty: int, call_bonus: int,
) -> bool:  # fmt: skip
    """True when calling Pfeffer is provably worth less than rolling, without solving the call.

    A call with no bonus and a need at least the plain turn's banks no total the plain turn
    could not bank, at the same value; everything in the pass is monotone (sums with positive
    weights, maxima), also after rounding. So only the bust value can make the call better, and
    if it is lower by ``delta``, the start value is lower by at least ``bust[6] * delta`` less
    the rounding of at most 130 additions (3e-14): a margin of 1e-12 makes it strictly lower.
    """
    if call_bonus != 0 or call_need < need:
        return False
    beta = bust_value(ip, fp, own, other, penalty)
    call_beta = bust_value(ip, fp, own, other, call_penalty)
    return bool(fp[7] * (beta - call_beta) > 1e-12)
