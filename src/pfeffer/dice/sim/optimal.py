"""Perfect play in the simulator's compiled loop: a :class:`~pfeffer.dice.solver.DiceStrategy`'s
turn decisions, recomputed from its stored start-of-turn values exactly as the advice does.

:func:`~pfeffer.dice.solver.advise` (and so :class:`~pfeffer.dice.bots.OptimalBot`) values a turn
from the chance to win after banking each total and after a bust
(:func:`pfeffer.dice.solver.context.solve_turn`). :func:`lookup` builds the same bank array (the
same length, :func:`~pfeffer.dice.solver.gkernels.bank_length`; the same entries, the main game's
through :func:`~pfeffer.dice.solver.gsweep.main_bank`) and solves it with the very function the
advice calls (:func:`~pfeffer.dice.solver.gkernels.table_turn`), so the kernel's decisions are the
bot's bit for bit, ties included, as :func:`~pfeffer.dice.solver.two_advice.rank` breaks them
(values within ``TIE`` = 1e-12 count as equal, the plainer option goes first): a keep goes to the
first option in the game's order within ``TIE`` of the best, ``bank`` unless ``roll`` is better
by more than ``TIE``, ``pfeffer`` only when it beats ``roll`` by more than ``TIE``.

The tables of a turn depend on (own, other, need, penalty, stake); :func:`lookup` keeps recent
ones in a direct-mapped cache, since the same start states come back game after game. Totals are
as the advice takes them: in the main game a total below the lower bound counts as the bound, in a
last turn the true lead counts.

Calling Pfeffer costs a second turn solve; :func:`pfeffer_dominated` skips it when the call is
provably worse (its bank values are never higher and its bust value is lower by a margin that
survives the rounding of the sums; see the function).

Compiled arrays of kind ``KIND_OPTIMAL`` (:class:`~pfeffer.dice.sim.policies.PerfectPolicy`):

=====================  ===========================================================================
``ints[0:O_HEADER]``   header: the ``O_*`` positions below
then                   ``group_start`` (8), ``opt_start`` (one more than the menus),
                       ``opt_points``, ``opt_left`` (per option), ``six_nonhot`` (per menu),
                       ``opt_offset`` (per option; :class:`~pfeffer.dice.solver.tables.Dice`)
``floats[0]``          the value of a tie in a last turn
``floats[1:8]``        ``bust`` chances by dice
then                   the menus' probabilities, the dice constants
                       (:func:`~pfeffer.dice.solver.gkernels.dice_consts`), ``normal``, ``auto``
                       (row-major), ``final``
=====================  ===========================================================================
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from pfeffer.core.compiled import jit
from pfeffer.dice.solver import gkernels as gk
from pfeffer.dice.solver import gsweep
from pfeffer.dice.solver.tables import S_FINAL_ROUND, S_LOWER, S_MARGIN, S_SIZE, S_TARGET, Dice

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
O_I_OS = 14  # where ``opt_start`` starts in ``ints`` (then opt_points, opt_left, six_nonhot)
O_F_CONSTS = 15  # where the dice constants start in ``floats``
O_MIN_BANK = 16  # the minimum in steps
O_MARGIN = 17  # the Pfeffer margin in steps
O_HEADER = 18

#: Columns of a cache key: used, strategy, own, other, need, penalty, stake, rows solved.
KEY_COLUMNS = 8


class TurnCache(NamedTuple):
    """The perfect players' recent turns (:func:`lookup`): a slot's ``keys`` row
    (``KEY_COLUMNS``) and its turn's ``D`` (rows × 5), ``H``, ``R`` (rows × 7) and bank values
    ``B`` as :func:`pfeffer.dice.solver.context.solve_turn` has them."""

    keys: Any
    D: Any
    H: Any
    R: Any
    B: Any


@jit
def table_size(ip: Any, own: int, other: int, need: int, stake: int) -> int:
    """Entries of the arrays of the turn (own, other, need, stake): the advice's length."""
    return int(
        gk.bank_length(ip[O_TARGET], ip[O_LOWER], ip[O_MARGIN], ip[O_NFINAL], ip[O_MAXP], own,
                       other, need, stake, 0)
    )  # fmt: skip


@jit
def bust_value(ip: Any, fp: Any, own: int, other: int, penalty: int) -> float:
    """The mover's chance after a bust costing ``penalty`` steps (0 in a last turn), as the
    advice's ``bank_array``: the other starts under Auto-Pfeffer (if played) against the lower
    total."""
    target = ip[O_TARGET]
    if other >= target and ip[O_FINAL_ROUND] != 0:
        return 0.0
    lower = ip[O_LOWER]
    n = lower + target
    other = max(other, -lower)
    down = max(own - penalty, -lower)
    base = ip[O_F_AUTO] if ip[O_AUTO] != 0 else ip[O_F_NORMAL]
    return float(1.0 - fp[base + (other + lower) * n + down + lower])


@jit
def _dice(ip: Any, fp: Any) -> Dice:
    """The :class:`~pfeffer.dice.solver.tables.Dice` of the compiled tables."""
    groups = ip[O_GROUPS]
    options = ip[O_OPTIONS]
    gs = ip[O_HEADER : O_HEADER + 8]
    a = ip[O_I_OS]
    os_ = ip[a : a + groups + 1]
    op = ip[a + groups + 1 : a + groups + 1 + options]
    ol = ip[a + groups + 1 + options : a + groups + 1 + 2 * options]
    six = ip[a + groups + 1 + 2 * options : a + 2 * groups + 1 + 2 * options]
    oo = ip[a + 2 * groups + 1 + 2 * options : a + 2 * groups + 1 + 3 * options]
    f_gp = ip[O_F_GP]
    return Dice(fp[1:8], gs, fp[f_gp : f_gp + groups], os_, op, ol, oo, six)


@jit
def bank_array(ip: Any, fp: Any, own: int, other: int, need: int, b: Any) -> int:
    """The advice's bank array (``context.bank_array``, no stake bonus) into ``b`` (its whole
    length); returns ``first``, from where it is non-decreasing and bankable."""
    target = ip[O_TARGET]
    lower = ip[O_LOWER]
    size = b.shape[0]
    b[:] = -1.0
    if other >= target and ip[O_FINAL_ROUND] != 0:
        first = size - 1
        for t in range(size):
            lead = own + t - other
            allowed = t >= need and t >= 1
            if allowed:
                b[t] = 1.0 if lead > 0 else (fp[0] if lead == 0 else 0.0)
                if lead > 0 and first == size - 1:
                    first = t
        return int(max(first, need, 1))
    n = lower + target
    nfinal = ip[O_NFINAL]
    RN = fp[ip[O_F_NORMAL] : ip[O_F_NORMAL] + n * n].reshape((1, 1, n, n))
    G = fp[ip[O_F_FINAL] : ip[O_F_FINAL] + nfinal].reshape((1, nfinal))
    CL = np.full((1, 1, 1, 1, 1), -1.0)
    # The rules main_bank reads: no Pfeffer calls (the tables have none), one flag.
    rv = np.zeros(S_SIZE, dtype=np.int64)
    rv[S_LOWER] = lower
    rv[S_TARGET] = target
    rv[S_FINAL_ROUND] = ip[O_FINAL_ROUND] != 0
    rv[S_MARGIN] = ip[O_MARGIN]
    needs = np.full(1, ip[O_MIN_BANK], dtype=np.int64)
    turn = gsweep.BankTurn(own, max(other, -lower), need, 0, False, 0, np.inf, 0)
    gsweep.main_bank(b, turn, rv, gsweep.Starts(RN, RN, CL), gsweep.Ends(G, needs, np.ones(1)),
                     fp[1:8])  # fmt: skip
    first = max(target - own, 0)
    if first >= size:
        first = size - 1
    return int(max(first, need, 1))


@jit
def lookup(
    ip: Any,
    fp: Any,
    sid: int,
    own: int,
    other: int,
    need: int,
    penalty: int,
    stake: int,
    cache: TurnCache,
) -> int:
    """The cache slot holding the tables of the turn (own, other, need, penalty, stake) of
    strategy ``sid`` (computed there first if they are not; ``stake``: a Pfeffer call's, which
    only lengthens the advice's arrays); totals in steps (``own`` raised to the lower bound in
    the main game). ``-rows`` if the cache has fewer rows than the turn needs."""
    keys = cache.keys
    slots = keys.shape[0]
    h = (((sid * 1_000_003 + own) * 1_000_003 + other) * 8191 + need * 127 + penalty) * 31 + stake
    slot = (h & 0x7FFFFFFFFFFF) % slots
    k = keys[slot]
    if (
        k[0] == 1
        and k[1] == sid
        and k[2] == own
        and k[3] == other
        and k[4] == need
        and k[5] == penalty
        and k[6] == stake
    ):
        return int(slot)
    size = table_size(ip, own, other, need, stake)
    if size > cache.B.shape[1]:
        return -size
    k[0] = 0
    b = cache.B[slot, :size]
    first = bank_array(ip, fp, own, other, need, b)
    beta = bust_value(ip, fp, own, other, penalty)
    consts = fp[ip[O_F_CONSTS] : ip[O_F_CONSTS] + 3]
    solved = gk.table_turn(b, beta, first, ip[O_MUST_ROLL] != 0, _dice(ip, fp), consts,
                           cache.D[slot], cache.H[slot], cache.R[slot])  # fmt: skip
    k[0] = 1
    k[1] = sid
    k[2] = own
    k[3] = other
    k[4] = need
    k[5] = penalty
    k[6] = stake
    k[7] = solved
    return int(slot)


@jit
def keep_value(D: Any, H: Any, after: int, left: int) -> float:
    """The advice's value of setting aside to ``after`` steps with ``left`` dice left (0: hot
    dice): ``V[after, left or 6]`` of ``DiceStrategy.turn``."""
    if left == 0:
        return float(H[after])
    return float(D[after, left - 1])


@jit
def pfeffer_dominated(
    ip: Any, fp: Any, own: int, other: int, need: int, penalty: int, call_need: int,
    call_penalty: int,
) -> bool:  # fmt: skip
    """True when calling Pfeffer (no stake bonus) is provably worth less than rolling, without
    solving the call.

    The call banks no total the plain turn could not bank (its need is at least the plain
    turn's), at the same value; everything in the turn's solve is monotone in the bank values
    and the bust value (sums with positive weights, maxima; the cut where banking is provably
    best moves only where banking and throwing agree to rounding). So only the bust value can
    make the call better, and if it is lower by ``delta``, the start value is lower by at least
    ``bust[6] * delta`` less the rounding of a few hundred additions (about 1e-13): a margin of
    1e-12 makes it strictly lower.
    """
    if call_need < need:
        return False
    beta = bust_value(ip, fp, own, other, penalty)
    call_beta = bust_value(ip, fp, own, other, call_penalty)
    return bool(fp[7] * (beta - call_beta) > 1e-12)
