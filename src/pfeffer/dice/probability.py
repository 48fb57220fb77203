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

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import FACES, counts_of, score_table


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


@functools.lru_cache(maxsize=32)
def unusual_turn(rules: DiceRules, chance: float = 1e-5) -> int:
    """The smallest turn total that one turn reaches with less than ``chance`` even when it plays
    for nothing else (rolls on until it gets there): a score sheet questions an entry this high
    (a typo such as 100000, or 5000 for 500). Exact, from the throws' probabilities.

    >>> 8_000 < unusual_turn(DiceRules()) < 15_000
    True
    >>> unusual_turn(DiceRules(), 1e-3) < unusual_turn(DiceRules())
    True
    """
    table = score_table(rules)
    step = table.step
    # Per number of dice: every throw's probability and its options as (points in steps, dice
    # left to throw); an option of 0 points never brings the total closer.
    moves = {
        d: [
            (
                p,
                [
                    (o.points // step, d - len(o.dice) or 6)
                    for o in table.options[t]
                    if o.points > 0
                ],
            )
            for t, p in throw_distribution(d)
        ]
        for d in range(1, 7)
    }
    # reach[k][d]: the chance to add at least k steps to the turn total with d dice to throw
    # (a turn from scratch that plays for a goal of k steps reaches it with reach[k][6]).
    reach: list[list[float]] = [[1.0] * 7]
    limit = max(1, 1_000_000 // step)  # far beyond any target; a turn never needs more
    for k in range(1, limit + 1):
        row = [0.0] * 7
        for d in range(1, 7):
            row[d] = sum(
                p * max((reach[max(0, k - g)][left] for g, left in options), default=0.0)
                for p, options in moves[d]
            )
        reach.append(row)
        if row[6] < chance:
            return k * step
    return limit * step
