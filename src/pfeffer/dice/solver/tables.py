"""The dice of one rule set as flat arrays for the compiled kernels (all points in scoring steps).

A throw of ``n`` dice is grouped with every other throw that offers the same *keep results*: the
distinct pairs (points, dice left) of its keep options. No option is pruned: the game's values are
not monotone in the totals everywhere (see docs/strategy.md), so fewer points can be better.

>>> from pfeffer.dice.rules import DiceRules
>>> t = build_tables(DiceRules())
>>> t.step, t.target, t.min_bank, t.auto_penalty
(50, 200, 7, 20)
>>> round(float(t.bust[6]), 6), round(float(t.bust[1]), 6)
(0.023148, 0.666667)
>>> int(t.group_start[7] - t.group_start[6])  # distinct six-dice keep menus
124

The kernels take these arrays as one bundle, :class:`Dice`, and a solve's scalars (the rules in
steps and the lower bound) as one integer vector, :func:`solve_vector`:

>>> v = solve_vector(t, lower=10)
>>> int(v[S_TARGET]), int(v[S_LOWER]), int(v[S_MIN_BANK]), int(v[S_FINAL_ROUND])
(200, 10, 7, 1)
"""

from __future__ import annotations

import dataclasses
import math
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from pfeffer.dice.probability import throw_distribution
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import score_table

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


@dataclasses.dataclass(frozen=True)
class DiceTables:
    """Arrays describing throws and keep options of one rule set, in scoring steps.

    ``group_start[n] .. group_start[n + 1]`` are the keep menus of a throw of ``n`` dice; menu
    ``g`` has probability ``group_prob[g]`` and options ``opt_start[g] .. opt_start[g + 1]``, each
    with ``opt_points`` and ``opt_left`` (dice left; 0 means hot dice: all six are thrown next).
    ``bust[n]`` is the chance that ``n`` dice score nothing. For the tail of a turn far past the
    target: ``six_nonhot[g]`` is the best points of a six-dice menu that leaves dice (-1: none).
    """

    rules: DiceRules
    step: int
    target: int
    min_bank: int
    auto_penalty: int
    bust: F64
    group_start: I64
    group_prob: F64
    opt_start: I64
    opt_points: I64
    opt_left: I64
    six_nonhot: I64
    max_points: int
    #: The Pfeffer margin in steps (0 without Pfeffer).
    margin: int = 0

    @property
    def only_hot(self) -> float:
        """Chance that six dice score but only by setting all six aside."""
        lo, hi = int(self.group_start[6]), int(self.group_start[7])
        return float(sum(self.group_prob[g] for g in range(lo, hi) if self.six_nonhot[g] < 0))


class Dice(NamedTuple):
    """A rule set's dice as the kernels read them: the arrays of :class:`DiceTables` (see there)
    and each option's ``opt_offset`` in the flat layout of
    :func:`pfeffer.dice.solver.kernels.turn_policy` (``6 * points`` plus the slot of the state
    it leads to: ``dice left - 1``, or 5 for six dice after hot dice)."""

    bust: F64
    group_start: I64
    group_prob: F64
    opt_start: I64
    opt_points: I64
    opt_left: I64
    opt_offset: I64
    six_nonhot: I64


def kernel_dice(t: DiceTables) -> Dice:
    """The :class:`Dice` bundle of ``t``."""
    slot = np.where(t.opt_left == 0, 5, t.opt_left - 1)
    offset = np.asarray(6 * t.opt_points + slot, dtype=np.int64)
    return Dice(t.bust, t.group_start, t.group_prob, t.opt_start, t.opt_points, t.opt_left,
                offset, t.six_nonhot)  # fmt: skip


#: Positions in the vector of :func:`solve_vector` (the kernels read a solve's scalars from it):
#: the lower bound and the rules in steps (yes/no as 1/0). ``S_CALLS``: the solve values Pfeffer
#: calls in its states (the general path); ``S_STAKE_REWARD``: a called turn that banks the
#: stake wins it (Pfeffer with the stake as reward). numba compiles these numbers into the
#: kernels as constants and keys its cache by each kernel's own file: a change here needs the
#: kernels' ``__pycache__`` emptied.
S_LOWER = 0
S_TARGET = 1
S_MIN_BANK = 2
S_PENALTY = 3
S_AUTO = 4
S_FINAL_ROUND = 5
S_MUST_ROLL = 6
S_MARGIN = 7
S_FACTOR = 8
S_FORBIDDEN = 9
S_STAKE_REWARD = 10
S_CALLS = 11
S_SIZE = 12


def solve_vector(t: DiceTables, lower: int, *, calls: bool = False) -> I64:
    """A solve's scalars at the ``S_*`` positions: the bound ``lower`` (steps), the rules of
    ``t`` in steps and whether the solve values Pfeffer calls (``calls``)."""
    r = t.rules
    v = np.zeros(S_SIZE, dtype=np.int64)
    v[S_LOWER] = lower
    v[S_TARGET] = t.target
    v[S_MIN_BANK] = t.min_bank
    v[S_PENALTY] = t.auto_penalty
    v[S_AUTO] = r.auto_pfeffer
    v[S_FINAL_ROUND] = r.final_round
    v[S_MUST_ROLL] = r.hot_dice_must_roll
    v[S_MARGIN] = t.margin
    v[S_FACTOR] = r.pfeffer_penalty_factor
    v[S_FORBIDDEN] = r.pfeffer_short_bank == "forbidden"
    v[S_STAKE_REWARD] = r.pfeffer and r.pfeffer_reward == "stake"
    v[S_CALLS] = calls
    v.flags.writeable = False
    return v


def _units(points: int, step: int, *, up: bool = True) -> int:
    """``points`` in steps, rounded up (a minimum) or down."""
    return -(-points // step) if up else points // step


def build_tables(rules: DiceRules) -> DiceTables:
    """The :class:`DiceTables` of ``rules``."""
    table = score_table(rules)
    # Totals stay on one lattice: the scoring step, refined by the Auto-Pfeffer penalty and, with
    # Pfeffer, by the margin and the penalty of a call (a stake is a bank plus the margin).
    step = math.gcd(table.step, rules.auto_pfeffer_penalty if rules.auto_pfeffer else 0)
    if rules.pfeffer:
        step = math.gcd(step, rules.pfeffer_margin)
    bust = np.zeros(7)
    group_start = [0] * 8
    probs: list[float] = []
    opt_start: list[int] = [0]
    pts: list[int] = []
    left: list[int] = []
    six_nonhot: list[int] = []
    for n in range(1, 7):
        group_start[n] = len(probs)
        menus: dict[tuple[tuple[int, int], ...], float] = {}
        for throw, p in throw_distribution(n):
            found = {(n - len(o.dice), o.points // step) for o in table.options[throw]}
            if not found:
                bust[n] += p
                continue
            menu = tuple(sorted(found))
            menus[menu] = menus.get(menu, 0.0) + p
        for menu, p in sorted(menus.items()):
            probs.append(p)
            nonhot = -1
            for dice_left, v in menu:
                pts.append(v)
                left.append(dice_left)
                if dice_left > 0:
                    nonhot = max(nonhot, v)
            opt_start.append(len(pts))
            six_nonhot.append(nonhot)
    group_start[7] = len(probs)
    # A throw's fractions are exact multiples of 6**-n; renormalise the float sums to 1 per n.
    for n in range(1, 7):
        lo, hi = group_start[n], group_start[n + 1]
        total = sum(probs[lo:hi]) + bust[n]
        assert math.isclose(total, 1.0, rel_tol=1e-12)
    return DiceTables(
        rules=rules,
        step=step,
        target=_units(rules.target, step),
        min_bank=max(_units(rules.min_bank, step), 1),
        auto_penalty=rules.auto_pfeffer_penalty // step if rules.auto_pfeffer else 0,
        bust=bust,
        group_start=np.array(group_start, dtype=np.int64),
        group_prob=np.array(probs),
        opt_start=np.array(opt_start, dtype=np.int64),
        opt_points=np.array(pts, dtype=np.int64),
        opt_left=np.array(left, dtype=np.int64),
        six_nonhot=np.array(six_nonhot, dtype=np.int64),
        max_points=max(pts),
        margin=rules.pfeffer_margin // step if rules.pfeffer else 0,
    )
