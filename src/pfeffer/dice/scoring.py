"""Scoring of set-aside dice (docs/rules.md D3, D4 and the scoring house rules).

A group of dice set aside from one throw scores the best way to split it into combinations; a group
that cannot be split completely into combinations cannot be set aside. Every table here is computed
once per rules object and cached, so scoring a throw is a dictionary look-up.

>>> [(o.dice, o.points) for o in keep_options([1, 1, 5, 2, 3, 3])]
[((1, 1, 5), 250), ((1, 1), 200), ((1, 5), 150), ((1,), 100), ((5,), 50)]
>>> keep_options([2, 3, 4, 6, 6, 2])
[]
>>> score([2, 2, 2, 2, 5, 5])
1500
>>> score([1, 2]) is None
True
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Literal

from pfeffer.core.errors import IllegalAction
from pfeffer.dice.rules import DiceRules

FACES = (1, 2, 3, 4, 5, 6)
_DEFAULT_RULES = DiceRules()


@dataclasses.dataclass(frozen=True, slots=True)
class KeepOption:
    """One way to set aside dice from a throw: the faces (sorted) and the points they score."""

    dice: tuple[int, ...]
    points: int
    #: The action string that sets these dice aside, e.g. ``"keep 155"``.
    action: str = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "action", "keep " + "".join(map(str, self.dice)))

    def __str__(self) -> str:
        return f"{' '.join(map(str, self.dice))} = {self.points}"


def counts_of(dice: Iterable[int]) -> tuple[int, ...]:
    """How many of each face 1..6 a group holds."""
    c = [0] * 6
    for d in dice:
        c[d - 1] += 1
    return tuple(c)


def check_faces(dice: Sequence[int], what: Literal["throw", "group"] = "throw") -> tuple[int, ...]:
    """``dice`` as a tuple of faces, or :class:`IllegalAction` if a face is not 1-6."""
    out = []
    for d in dice:
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise IllegalAction.format(
                "{face} is not a die face: a group holds faces 1 to 6."
                if what == "group"
                else "{face} is not a die face: a throw holds faces 1 to 6.",
                face=repr(d),
            )
        out.append(d)
    return tuple(out)


class ScoreTable:
    """All scoring facts for one rules object: best points of every group of 1-6 dice."""

    def __init__(self, rules: DiceRules) -> None:
        self.rules = rules
        self._face_best = {(f, k): self._best_face(f, k) for f in FACES for k in range(7)}
        # Best points of every group of dice (sorted tuple), None where it cannot be set aside.
        self.group_points: dict[tuple[int, ...], int | None] = {}
        for n in range(1, 7):
            for group in itertools.combinations_with_replacement(FACES, n):
                self.group_points[group] = self._best_group(group)
        # Every turn total is a multiple of this (50 with the default scores).
        values = [rules.single_one, rules.single_five, rules.straight, rules.three_pairs]
        values += [self.kind_points(f, n) for f in FACES for n in range(3, 7)]
        self.step = math.gcd(*values) or 1
        # Every keep option of every throw (sorted tuple of 1-6 dice), best points first; the same
        # by action string; and the keep actions while that throw lies on the table.
        self.options: dict[tuple[int, ...], tuple[KeepOption, ...]] = {}
        self.by_action: dict[tuple[int, ...], dict[str, KeepOption]] = {}
        self.keep_actions: dict[tuple[int, ...], tuple[str, ...]] = {}
        for n in range(1, 7):
            for throw in itertools.combinations_with_replacement(FACES, n):
                options = self._options(throw)
                self.options[throw] = options
                self.by_action[throw] = {o.action: o for o in options}
                self.keep_actions[throw] = tuple(o.action for o in options)

    def kind_points(self, face: int, n: int) -> int:
        """Points of ``n`` (3..6) dice showing ``face``, as one combination."""
        r = self.rules
        triple: int = r.triples[face]
        if n == 3:
            return triple
        if r.extra_dice == "double":
            return int(triple * 2 ** (n - 3))
        if r.extra_dice == "add":
            return triple * (n - 2)
        fixed: dict[int, int] = {4: r.fixed_four, 5: r.fixed_five, 6: r.fixed_six}
        return fixed[n]

    def _best_face(self, face: int, k: int) -> int | None:
        """Best points of ``k`` dice of one face alone, None if they cannot all score."""
        single = {1: self.rules.single_one, 5: self.rules.single_five}.get(face)
        best: list[int | None] = [0] + [None] * k
        for m in range(1, k + 1):
            candidates = []
            if single is not None and best[m - 1] is not None:
                candidates.append(best[m - 1] + single)  # type: ignore[operator]
            for n in range(3, min(m, 6) + 1):
                if best[m - n] is not None:
                    candidates.append(best[m - n] + self.kind_points(face, n))  # type: ignore[operator]
            best[m] = max(candidates) if candidates else None
        return best[k]

    def _best_group(self, group: tuple[int, ...]) -> int | None:
        counts = counts_of(group)
        readings: list[int] = []
        per_face = [self._face_best[(f, counts[f - 1])] for f in FACES]
        if all(p is not None for p in per_face):
            readings.append(sum(p for p in per_face if p is not None))
        if len(group) == 6:
            shape = sorted(c for c in counts if c)
            if shape == [1, 1, 1, 1, 1, 1]:
                readings.append(self.rules.straight)
            if shape == [2, 2, 2] or (
                self.rules.four_and_pair_is_three_pairs and shape in ([2, 4], [6])
            ):
                readings.append(self.rules.three_pairs)
        return max(readings) if readings else None

    def _options(self, throw: tuple[int, ...]) -> tuple[KeepOption, ...]:
        subgroups: set[tuple[int, ...]] = set()
        for n in range(1, len(throw) + 1):
            subgroups.update(itertools.combinations(throw, n))
        found = []
        for sub in subgroups:
            points = self.group_points[sub]
            if points is not None:
                found.append(KeepOption(sub, points))
        found.sort(key=lambda o: (-o.points, len(o.dice), o.dice))
        return tuple(found)


@functools.cache
def ordered_throws(n: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...], str], ...]:
    """All 6**n throws of ``n`` dice in the order of the chance stream, as (faces as thrown,
    faces sorted, action string). Throw number ``i`` has the base-6 digits of ``i`` as faces."""
    out = []
    for index in range(6**n):
        faces, rest = [], index
        for _ in range(n):
            rest, face = divmod(rest, 6)
            faces.append(face + 1)
        out.append((tuple(faces), tuple(sorted(faces)), "roll " + "".join(map(str, faces))))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def score_table(rules: DiceRules = _DEFAULT_RULES) -> ScoreTable:
    """The cached :class:`ScoreTable` of ``rules``."""
    return ScoreTable(rules)


def keep_options(roll: Iterable[int], rules: DiceRules = _DEFAULT_RULES) -> list[KeepOption]:
    """Every distinct group of dice that may be set aside from ``roll``, best points first.

    An empty list means the throw scores nothing: it busts (D6).

    >>> [str(o) for o in keep_options([5, 5, 5])]
    ['5 5 5 = 500', '5 5 = 100', '5 = 50']
    >>> keep_options([1, 2, 3, 4, 5, 6])[0]
    KeepOption(dice=(1, 2, 3, 4, 5, 6), points=1500)
    """
    throw = tuple(sorted(check_faces(list(roll))))
    if not 1 <= len(throw) <= 6:
        raise IllegalAction.format("A throw has 1 to 6 dice, not {n}.", n=len(throw))
    return list(score_table(rules).options[throw])


def score(dice: Iterable[int], rules: DiceRules = _DEFAULT_RULES) -> int | None:
    """Points of setting aside exactly ``dice`` from one throw; None if they do not all score.

    >>> score([1, 1, 1, 1]), score([6, 6, 6, 6, 6, 6]), score([2, 2, 3, 3, 4, 4])
    (2000, 4800, 1500)
    >>> score([1, 1, 1, 1], DiceRules(extra_dice="fixed"))  # 1000 fixed, or 1000 + 100
    1100
    """
    group = tuple(sorted(check_faces(list(dice), "group")))
    if not 1 <= len(group) <= 6:
        return None
    return score_table(rules).group_points[group]
