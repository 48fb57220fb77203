"""A plain reference recursion for the three-player solver's tests: one turn over (total, dice,
hot dice) with every keep option of scoring.py and vector values (each player's chance), the
player on turn maximising their own chance — independent of the solver's kernels and tables."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable

from pfeffer.dice.probability import throw_distribution
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import score_table

Vec = tuple[float, float, float]


def _add(a: Vec, b: Vec, p: float) -> Vec:
    return (a[0] + p * b[0], a[1] + p * b[1], a[2] + p * b[2])


def turn_vec(
    rules: DiceRules,
    bank: Callable[[int], Vec],
    beta: Vec,
    need: int,
    settled: Callable[[int], bool],
) -> Vec:
    """The vector at a turn's start (entry 0: the player on turn, who maximises it): ``bank(t)``
    after banking ``t`` points (allowed from ``need`` on), ``beta`` after a bust. From a total
    where ``settled`` holds on, ``bank`` is constant and banking is best after every keep that
    leaves dice, so six dice after hot dice are summed in closed form. Equal values: bank rather
    than throw, and the keep with fewer dice left, then fewer points (the solver's order)."""
    table = score_table(rules)
    p_bust = {n: sum(p for throw, p in throw_distribution(n) if not table.options[throw])
              for n in range(1, 7)}  # fmt: skip
    p_only_hot = sum(
        p for throw, p in throw_distribution(6)
        if table.options[throw] and all(len(o.dice) == 6 for o in table.options[throw])
    )  # fmt: skip

    @functools.cache
    def value(t: int, dice: int, hot: bool) -> Vec:
        if hot and rules.hot_dice_must_roll and settled(t):
            b = bank(t)
            q = 1 - p_bust[6] - p_only_hot
            return tuple((p_bust[6] * beta[c] + q * b[c]) / (1 - p_only_hot)  # type: ignore[return-value]
                         for c in range(3))  # fmt: skip
        can_bank = t >= need and t > 0 and not (hot and rules.hot_dice_must_roll)
        b = bank(t) if can_bank else (-1.0, 0.0, 0.0)
        if can_bank and 1 - b[0] <= p_bust[dice] * (1 - beta[0]):
            return b
        roll: Vec = (0.0, 0.0, 0.0)
        for throw, p in throw_distribution(dice):
            options = table.options[throw]
            if not options:
                roll = _add(roll, beta, p)
                continue
            results = sorted({(dice - len(o.dice), o.points) for o in options})
            best: Vec | None = None
            for left, points in results:
                v = value(t + points, left or 6, left == 0)
                if best is None or v[0] > best[0]:
                    best = v
            assert best is not None
            roll = _add(roll, best, p)
        return b if can_bank and b[0] >= roll[0] else roll

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 50_000))
    try:
        return value(0, 6, False)
    finally:
        sys.setrecursionlimit(limit)


def final_round(rules: DiceRules, d1: int, e: int, cap: int) -> Vec:
    """The final round's chances ``(X, X+1, X+2)`` when ``X`` has reached the target ``d1``
    points above ``X+1`` and ``e`` above ``X+2``, who each have one last turn (ties shared).
    A player ``cap`` points or more behind the leading total counts as unable to catch up (the
    solver's final-round table ends there)."""

    @functools.cache
    def last(a: int, gap: int) -> Vec:
        """``(X, X+1, X+2)`` when ``X+1`` ended ``a`` points above ``X`` and ``X+2``, ``gap``
        points below ``X``, plays last."""
        lead = max(0, a)

        def outcome(mine: int | None) -> Vec:
            totals = [0, a, mine if mine is not None else -(10**9)]
            best = max(totals)
            if mine is not None and best - mine >= cap:
                totals[2] = -(10**9)
                best = max(totals)
            win = [x == best for x in totals]
            k = sum(win)
            return (win[0] / k, win[1] / k, win[2] / k)

        if lead + gap >= cap:
            return outcome(None)

        def bank(t: int) -> Vec:
            x, y, z = outcome(-gap + t)
            return (z, x, y)

        bu = outcome(None)
        z = turn_vec(rules, bank, (bu[2], bu[0], bu[1]), rules.min_bank,
                     lambda t: -gap + t > lead)  # fmt: skip
        return (z[1], z[2], z[0])

    def bank1(t: int) -> Vec:
        x, y, z = last(t - d1, e)
        return (y, z, x)

    bu = last(-d1, e)
    y = turn_vec(rules, bank1, (bu[1], bu[2], bu[0]), rules.min_bank,
                 lambda t: t - d1 + e >= cap)  # fmt: skip
    return (y[2], y[0], y[1])
