"""Exact probabilities of throws of 1–6 dice (used by bots, search and the solver).

>>> dist = dict(throw_distribution(2))
>>> round(dist[(1, 1)] * 36), round(dist[(1, 2)] * 36)
(1, 2)
>>> round(sum(p for _, p in throw_distribution(6)), 12)
1.0
"""

from __future__ import annotations

import functools
import itertools
import math

from pfeffer.dice.scoring import FACES, counts_of


@functools.cache
def throw_distribution(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every distinct throw of ``n`` dice (faces sorted) with its probability."""
    if not 1 <= n <= 6:
        raise ValueError(f"a throw has 1 to 6 dice, not {n}")
    total = 6**n
    out = []
    for throw in itertools.combinations_with_replacement(FACES, n):
        ways = math.factorial(n)
        for c in counts_of(throw):
            ways //= math.factorial(c)
        out.append((throw, ways / total))
    return tuple(out)
