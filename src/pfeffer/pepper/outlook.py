"""The game's state near the target: each side's chance to win from a score, so that the expert
values a hand by what it changes in that chance (a point at 27 is worth more than at 5; a side
about to lose gambles, a side about to win plays safe).

The model: a game is a chain of independent hands, each ending as one of the hands counted in
:data:`HAND_OUTCOMES` (how hands between heuristic players end: the bid, the bidder side's tricks
and, with 3 players, the next seat's tricks; ``benchmarks/pepper_hand_outcomes.py`` counts them),
the bidder being any side with equal chance, scored by the table's own rules (penalty, Big Pepper
factor). A hand that leaves a side at or above the target ends the game (P11): the highest score
wins, equal highest share. The chance to win is worked out by value iteration over the scores
(:mod:`pfeffer.pepper.fast.winprob`) once per player count and rules, on first use.

>>> o = Outlook(4, PepperRules())
>>> round(o.win_chance([0, 0], 0), 3), o.win_chance([29, 0], 0) > 0.9
(0.5, True)
>>> o.win_chance([20, 25], 0) < o.win_chance([25, 20], 0)
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from pfeffer.pepper.fast.tables import Int64Array
from pfeffer.pepper.fast.winprob import FloatArray, iterate2, iterate3
from pfeffer.pepper.rules import PepperRules, cards_per_hand, hand_points, sides

#: The lowest score the model tells apart (lower scores count as this) with 2 sides / 3 sides.
LOW = {2: -60, 3: -16}
#: The model is worked out only up to this many score values a side (else :attr:`Outlook.ready`
#: is False and callers fall back to score differences): 3 sides cost the cube of it.
MAX_SPAN = {2: 400, 3: 60}

#: How 20,000 hands between heuristic players ended, per player count: (bid, the bidder side's
#: tricks, the next seat's tricks with 3 players else 0, count). The default rules, the last player
#: must bid.
HAND_OUTCOMES: dict[int, tuple[tuple[str, int, int, int], ...]] = {
    4: (
        ("1", 3, 0, 2),
        ("1", 4, 0, 12),
        ("1", 5, 0, 15),
        ("1", 6, 0, 12),
        ("2", 0, 0, 1),
        ("2", 1, 0, 9),
        ("2", 2, 0, 96),
        ("2", 3, 0, 347),
        ("2", 4, 0, 700),
        ("2", 5, 0, 744),
        ("2", 6, 0, 404),
        ("3", 1, 0, 50),
        ("3", 2, 0, 589),
        ("3", 3, 0, 2112),
        ("3", 4, 0, 3519),
        ("3", 5, 0, 3504),
        ("3", 6, 0, 1778),
        ("4", 1, 0, 1),
        ("4", 2, 0, 54),
        ("4", 3, 0, 317),
        ("4", 4, 0, 1570),
        ("4", 5, 0, 2282),
        ("4", 6, 0, 1550),
        ("5", 3, 0, 1),
        ("5", 4, 0, 9),
        ("5", 5, 0, 152),
        ("5", 6, 0, 170),
    ),
    3: (
        ("1", 5, 0, 1),
        ("1", 5, 1, 1),
        ("1", 5, 2, 3),
        ("1", 6, 0, 1),
        ("1", 6, 1, 3),
        ("1", 6, 2, 1),
        ("1", 7, 0, 1),
        ("1", 7, 1, 3),
        ("1", 8, 0, 1),
        ("2", 1, 4, 2),
        ("2", 1, 5, 1),
        ("2", 2, 1, 4),
        ("2", 2, 2, 10),
        ("2", 2, 3, 20),
        ("2", 2, 4, 20),
        ("2", 2, 5, 1),
        ("2", 3, 0, 4),
        ("2", 3, 1, 36),
        ("2", 3, 2, 102),
        ("2", 3, 3, 91),
        ("2", 3, 4, 43),
        ("2", 3, 5, 3),
        ("2", 4, 0, 42),
        ("2", 4, 1, 142),
        ("2", 4, 2, 259),
        ("2", 4, 3, 157),
        ("2", 4, 4, 40),
        ("2", 5, 0, 112),
        ("2", 5, 1, 267),
        ("2", 5, 2, 279),
        ("2", 5, 3, 100),
        ("2", 6, 0, 150),
        ("2", 6, 1, 241),
        ("2", 6, 2, 137),
        ("2", 7, 0, 86),
        ("2", 7, 1, 89),
        ("2", 8, 0, 72),
        ("3", 1, 2, 1),
        ("3", 2, 0, 1),
        ("3", 2, 1, 5),
        ("3", 2, 2, 12),
        ("3", 2, 3, 8),
        ("3", 2, 4, 18),
        ("3", 2, 5, 11),
        ("3", 2, 6, 1),
        ("3", 3, 0, 54),
        ("3", 3, 1, 188),
        ("3", 3, 2, 265),
        ("3", 3, 3, 277),
        ("3", 3, 4, 177),
        ("3", 3, 5, 58),
        ("3", 4, 0, 371),
        ("3", 4, 1, 915),
        ("3", 4, 2, 1342),
        ("3", 4, 3, 876),
        ("3", 4, 4, 349),
        ("3", 5, 0, 707),
        ("3", 5, 1, 1556),
        ("3", 5, 2, 1435),
        ("3", 5, 3, 608),
        ("3", 6, 0, 745),
        ("3", 6, 1, 1123),
        ("3", 6, 2, 616),
        ("3", 7, 0, 472),
        ("3", 7, 1, 455),
        ("3", 8, 0, 221),
        ("4", 3, 0, 1),
        ("4", 3, 1, 2),
        ("4", 3, 5, 2),
        ("4", 4, 0, 36),
        ("4", 4, 1, 40),
        ("4", 4, 2, 44),
        ("4", 4, 3, 36),
        ("4", 4, 4, 24),
        ("4", 5, 0, 320),
        ("4", 5, 1, 440),
        ("4", 5, 2, 364),
        ("4", 5, 3, 248),
        ("4", 6, 0, 581),
        ("4", 6, 1, 802),
        ("4", 6, 2, 448),
        ("4", 7, 0, 441),
        ("4", 7, 1, 335),
        ("4", 8, 0, 203),
        ("5", 5, 0, 1),
        ("5", 5, 1, 2),
        ("5", 5, 3, 1),
        ("5", 6, 0, 29),
        ("5", 6, 1, 31),
        ("5", 6, 2, 38),
        ("5", 7, 0, 43),
        ("5", 7, 1, 44),
        ("5", 8, 0, 46),
        ("6", 7, 0, 1),
        ("6", 7, 1, 2),
        ("6", 8, 0, 3),
    ),
    2: (
        ("1", 2, 0, 2),
        ("1", 3, 0, 17),
        ("1", 4, 0, 124),
        ("1", 5, 0, 286),
        ("1", 6, 0, 381),
        ("1", 7, 0, 249),
        ("1", 8, 0, 109),
        ("2", 1, 0, 1),
        ("2", 2, 0, 17),
        ("2", 3, 0, 314),
        ("2", 4, 0, 1161),
        ("2", 5, 0, 2081),
        ("2", 6, 0, 2219),
        ("2", 7, 0, 1287),
        ("2", 8, 0, 425),
        ("3", 2, 0, 10),
        ("3", 3, 0, 194),
        ("3", 4, 0, 1221),
        ("3", 5, 0, 2541),
        ("3", 6, 0, 3044),
        ("3", 7, 0, 1885),
        ("3", 8, 0, 648),
        ("4", 3, 0, 1),
        ("4", 4, 0, 42),
        ("4", 5, 0, 312),
        ("4", 6, 0, 520),
        ("4", 7, 0, 510),
        ("4", 8, 0, 305),
        ("5", 5, 0, 5),
        ("5", 6, 0, 21),
        ("5", 7, 0, 33),
        ("5", 8, 0, 33),
        ("6", 8, 0, 1),
        ("7", 7, 0, 1),
    ),
}


def hand_changes(players: int, rules: PepperRules) -> tuple[Int64Array, FloatArray]:
    """The points per side a hand adds (distinct rows) and their probabilities, the bidder any
    side with equal chance.

    >>> pts, prob = hand_changes(4, PepperRules())
    >>> pts.shape[1], round(float(prob.sum()), 9), [int(x) for x in pts[0]]
    (2, 1.0, [-6, 2])
    """
    k = sides(players)
    total = cards_per_hand(players)
    rows = HAND_OUTCOMES[players]
    count = sum(r[3] for r in rows)
    merged: dict[tuple[int, ...], float] = {}
    for bid, won, nxt, c in rows:
        for b in range(k):
            tricks = [0] * k
            tricks[b] = won
            if k == 3:
                tricks[(b + 1) % 3] = nxt
                tricks[(b + 2) % 3] = total - won - nxt
            else:
                tricks[1 - b] = total - won
            pts, _ = hand_points(rules, players, b, bid, tricks)
            key = tuple(pts)
            merged[key] = merged.get(key, 0.0) + c / count / k
    keys = sorted(merged)
    return (
        np.array(keys, dtype=np.int64),
        np.array([merged[key] for key in keys], dtype=np.float64),
    )


@functools.cache
def _table(players: int, rules: PepperRules) -> FloatArray | None:
    k = sides(players)
    lo = LOW[k]
    span = rules.target - lo
    if span > MAX_SPAN[k]:
        return None
    pts, prob = hand_changes(players, rules)
    v = np.full((span,) * k, 1.0 / k)
    (iterate2 if k == 2 else iterate3)(v, lo, rules.target, pts, prob, 500, 1e-7)
    return v


class Outlook:
    """The chance to win from a score for ``players`` players under ``rules`` (a shared table,
    worked out on first use: well under a second with 3 players, at once with 2 and 4)."""

    def __init__(self, players: int, rules: PepperRules) -> None:
        self.players = players
        self.rules = rules
        self.sides = sides(players)
        self._v = _table(players, rules)

    @property
    def ready(self) -> bool:
        """False when the target is too far for the model (see :data:`MAX_SPAN`)."""
        return self._v is not None

    def win_chance(self, scores: Sequence[int], side: int) -> float:
        """``side``'s expected share of the win with ``scores`` per side before the next hand
        (1 or a shared part if the game is already over there)."""
        k = self.sides
        order = [(side + i) % k for i in range(k)]
        s = [int(scores[i]) for i in order]
        if max(s) >= self.rules.target:
            best = max(s)
            return 0.0 if s[0] < best else 1.0 / s.count(best)
        if self._v is None:
            raise ValueError("the win model does not reach this target")
        lo = LOW[k]
        idx = tuple(max(x - lo, 0) for x in s)
        return float(self._v[idx])

    def after_hand(self, scores: Sequence[int], points: Sequence[float], side: int) -> float:
        """``side``'s chance to win once a hand adds ``points`` (per side) to ``scores``;
        fractional points (two defenders sharing tricks evenly) are split both ways and averaged.
        """
        whole = [int(p) for p in points]
        frac = [i for i, p in enumerate(points) if p != int(p)]
        if len(frac) == 2:  # x.5 each: one gets the extra trick, then the other
            i, j = frac
            a, b = whole[:], whole[:]
            a[i] += 1
            b[j] += 1
            return (self._chance_at(scores, a, side) + self._chance_at(scores, b, side)) / 2
        return self._chance_at(scores, whole, side)

    def _chance_at(self, scores: Sequence[int], points: Sequence[int], side: int) -> float:
        return self.win_chance([s + p for s, p in zip(scores, points, strict=True)], side)


__all__ = ["HAND_OUTCOMES", "Outlook", "hand_changes"]
