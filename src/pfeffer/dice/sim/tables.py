"""Arrays the simulation kernel reads: the chance stream's throw order, every keep option of a
rules object, and the house rules as one integer vector.

A throw of ``n`` dice is draw ``k`` of the game's :class:`~pfeffer.core.rng.ChanceStream`
reduced modulo ``6**n``: an index into :func:`~pfeffer.dice.scoring.ordered_throws` (``n``).
:func:`throw_classes` maps that index to the throw's *class* (its faces sorted), and
:func:`keep_tables` lists each class's keep options in the order of
:class:`~pfeffer.dice.scoring.ScoreTable` (best points first), so option ``first[c] + i`` is
option ``i`` of the list a :class:`~pfeffer.dice.DiceGame` offers.

>>> t = keep_tables(DiceRules())
>>> c = t.throw_class[t.throw_base[3] + 0]  # the first throw of three dice: 1 1 1
>>> [(t.actions[o], int(t.points[o])) for o in range(t.first[c], t.first[c + 1])]
[('keep 111', 1000), ('keep 11', 200), ('keep 1', 100)]
>>> c = t.throw_class[t.throw_base[1] + 1]  # one die showing 2: a bust, no options
>>> int(t.first[c + 1] - t.first[c])
0
"""

from __future__ import annotations

import dataclasses
import functools
import itertools

import numpy as np
import numpy.typing as npt

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import FACES, ordered_throws, score_table

I64 = npt.NDArray[np.int64]

#: Positions in the vector of :func:`rules_vector` (the kernel reads the rules from it).
R_TARGET = 0
R_MIN_BANK = 1
R_OPENING_ONLY = 2
R_HOT_MUST_ROLL = 3
R_PFEFFER = 4
R_MARGIN = 5
R_FACTOR = 6
R_SHORT_ALLOWED = 7
R_REWARD_STAKE = 8
R_AUTO = 9
R_AUTO_PENALTY = 10
R_FINAL_ROUND = 11
R_TIE_PLAYOFF = 12
R_SIZE = 13


def rules_vector(rules: DiceRules) -> I64:
    """The rules that are not scoring (scoring is in :func:`keep_tables`) as ``int64`` values at
    the ``R_*`` positions; yes/no and choices become 1/0.

    >>> v = rules_vector(DiceRules(tie="playoff"))
    >>> int(v[R_TARGET]), int(v[R_MIN_BANK]), int(v[R_TIE_PLAYOFF]), int(v[R_SHORT_ALLOWED])
    (10000, 350, 1, 0)
    """
    v = np.zeros(R_SIZE, dtype=np.int64)
    v[R_TARGET] = rules.target
    v[R_MIN_BANK] = rules.min_bank
    v[R_OPENING_ONLY] = rules.min_bank_opening_only
    v[R_HOT_MUST_ROLL] = rules.hot_dice_must_roll
    v[R_PFEFFER] = rules.pfeffer
    v[R_MARGIN] = rules.pfeffer_margin
    v[R_FACTOR] = rules.pfeffer_penalty_factor
    v[R_SHORT_ALLOWED] = rules.pfeffer_short_bank == "allowed"
    v[R_REWARD_STAKE] = rules.pfeffer_reward == "stake"
    v[R_AUTO] = rules.auto_pfeffer
    v[R_AUTO_PENALTY] = rules.auto_pfeffer_penalty
    v[R_FINAL_ROUND] = rules.final_round
    v[R_TIE_PLAYOFF] = rules.tie == "playoff"
    v.flags.writeable = False
    return v


@functools.cache
def throw_classes() -> tuple[I64, I64, tuple[tuple[int, ...], ...]]:
    """``(throw_base, throw_class, classes)``: throw ``i`` of ``n`` dice in the chance stream's
    order has class ``throw_class[throw_base[n] + i]``, and ``classes[c]`` are its faces sorted.

    >>> base, cls, classes = throw_classes()
    >>> len(classes), int(base[6]), len(cls)
    (923, 9330, 55986)
    >>> classes[cls[base[2] + 6]]  # throw 6 of two dice: faces 1, 2
    (1, 2)
    """
    classes = [c for n in range(1, 7) for c in itertools.combinations_with_replacement(FACES, n)]
    index = {c: i for i, c in enumerate(classes)}
    base = np.zeros(7, dtype=np.int64)
    out: list[int] = []
    for n in range(1, 7):
        base[n] = len(out)
        out.extend(index[key] for _, key, _ in ordered_throws(n))
    cls = np.array(out, dtype=np.int64)
    base.flags.writeable = cls.flags.writeable = False
    return base, cls, tuple(classes)


@dataclasses.dataclass(frozen=True, eq=False)
class KeepTables:
    """Every keep option of every throw class under one rules object (see the module text)."""

    throw_base: I64
    throw_class: I64
    #: Options of class ``c`` are ``first[c]`` to ``first[c + 1] - 1`` (none: the throw busts).
    first: I64
    #: Points and number of dice of each option.
    points: I64
    dice: I64
    #: The action string of each option (``"keep 155"``), for records.
    actions: tuple[str, ...]
    #: Every turn total is a multiple of this (:attr:`~pfeffer.dice.scoring.ScoreTable.step`).
    step: int


@functools.lru_cache(maxsize=32)
def keep_tables(rules: DiceRules) -> KeepTables:
    """The cached :class:`KeepTables` of ``rules``."""
    table = score_table(rules)
    base, cls, classes = throw_classes()
    first = [0]
    points: list[int] = []
    dice: list[int] = []
    actions: list[str] = []
    for c in classes:
        for option in table.options[c]:
            points.append(option.points)
            dice.append(len(option.dice))
            actions.append(option.action)
        first.append(len(points))
    first_a, points_a, dice_a = (np.array(a, dtype=np.int64) for a in (first, points, dice))
    for a in (first_a, points_a, dice_a):
        a.flags.writeable = False
    return KeepTables(base, cls, first_a, points_a, dice_a, tuple(actions), table.step)
