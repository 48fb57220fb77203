"""Dice people can trust: how often each face came up at a table, against what fair dice give.

Computed from a game's record (its actions, where every throw is written out as ``roll 415236``),
so the numbers are the table's own and anyone can check them from the downloaded record. A
Pearson chi-square test with five degrees of freedom says how usual the spread is for fair
dice: a p-value is the chance that fair dice spread at least this unevenly.

>>> s = face_stats(["roll 415236", "keep 15", "roll 1111", "bank"])
>>> s.counts, s.dice, s.throws, s.expected
((5, 1, 1, 1, 1, 1), 10, 2, 1.6666666666666667)
>>> round(s.chi_square, 2), round(s.p_value, 3)
(8.0, 0.156)
>>> face_stats([]).p_value is None
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from typing import Any

from pfeffer.dice.game import DiceAction

FACES = 6
#: Below this p-value the spread counts as unusual for fair dice (one table in a hundred).
UNUSUAL = 0.01
_FACE_DIGITS = frozenset("123456")
#: Fewer dice than this say too little for the test (the usual rule: five expected per face).
MIN_DICE = 5 * FACES


def chi_square_sf5(x: float) -> float:
    """The chance that a chi-square variable with 5 degrees of freedom is at least ``x``.

    The closed form for odd degrees of freedom: erfc(√(x/2)) + √(2/π)·e^(−x/2)·(√x + x^(3/2)/3).

    >>> round(chi_square_sf5(11.0705), 4), chi_square_sf5(0.0)
    (0.05, 1.0)
    """
    if x <= 0:
        return 1.0
    r = math.sqrt(x)
    return math.erfc(r / math.sqrt(2)) + math.sqrt(2 / math.pi) * math.exp(-x / 2) * (r + r**3 / 3)


@dataclasses.dataclass(frozen=True, slots=True)
class FaceStats:
    """Faces thrown at a table: ``counts[f - 1]`` dice showed face ``f``; ``dice`` in all, in
    ``throws`` throws; fair dice give ``expected`` of each face. ``chi_square`` and ``p_value``
    (None before the first throw) test the counts against fair dice; ``unusual`` is True when
    the p-value is below :data:`UNUSUAL` with at least :data:`MIN_DICE` dice thrown."""

    counts: tuple[int, ...]
    dice: int
    throws: int
    expected: float
    chi_square: float | None
    p_value: float | None
    unusual: bool
    enough: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON data (the fields)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


def face_stats(actions: Iterable[str]) -> FaceStats:
    """The face counts of every throw in ``actions`` (a record's actions) and the chi-square
    test against fair dice. Only thrown faces count (``roll 415236``, also written ``roll 4,1``);
    other actions are skipped."""
    return stats_of(*count_faces(actions))


def count_faces(
    actions: Iterable[str], counts: Sequence[int] = (0,) * FACES, throws: int = 0
) -> tuple[tuple[int, ...], int]:
    """The face counts and the number of throws of ``actions``, added to ``counts`` and
    ``throws`` (those of the actions before them: a table's record only grows, so its
    statistics are counted on from where they stood).

    >>> count_faces(["roll 66", "bank"], *count_faces(["roll 415236"]))
    ((1, 1, 1, 1, 1, 3), 2)
    """
    out = list(counts)
    for text in actions:
        low = text.lstrip().lower()
        if not low.startswith("roll"):
            continue
        faces = low[4:].strip()
        if not (faces.isdigit() and set(faces) <= _FACE_DIGITS):  # not as the engine writes it
            faces = "".join(map(str, DiceAction.parse(text).dice))
        if faces:
            throws += 1
            for ch in faces:
                out[int(ch) - 1] += 1
    return tuple(out), throws


def stats_of(counts: Sequence[int], throws: int) -> FaceStats:
    """The statistics of face counts ``counts`` thrown in ``throws`` throws."""
    n = sum(counts)
    expected = n / FACES
    if n == 0:
        return FaceStats(tuple(counts), 0, throws, 0.0, None, None, False, False)
    chi = sum((c - expected) ** 2 for c in counts) / expected
    p = chi_square_sf5(chi)
    enough = n >= MIN_DICE
    return FaceStats(tuple(counts), n, throws, expected, chi, p, enough and p < UNUSUAL, enough)
