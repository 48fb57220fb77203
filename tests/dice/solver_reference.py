"""A plain reference recursion for the solver's tests: one turn over (total, dice, hot dice) with
every keep option of scoring.py, against bank and bust values read from a strategy's stored
successor values — independent of the solver's kernels, tables and tail closures."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable

from pfeffer.dice.probability import throw_distribution
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import score_table
from pfeffer.dice.solver import DiceStrategy


def turn_value(
    rules: DiceRules,
    bank: Callable[[int], float],
    beta: float,
    need: int,
    settled: Callable[[int], bool],
) -> float:
    """The value of a turn's start: ``bank(t)`` is the chance after banking ``t`` points
    (allowed from ``need`` on), ``beta`` after a bust. ``settled(t)``: from turn total ``t`` on
    every bank wins outright (value 1), so a throw of six dice after hot dice there is summed in
    closed form (every keep that leaves dice banks a win; only-hot throws repeat)."""
    table = score_table(rules)
    p_bust = {n: sum(p for throw, p in throw_distribution(n) if not table.options[throw])
              for n in range(1, 7)}  # fmt: skip
    p_only_hot = sum(
        p for throw, p in throw_distribution(6)
        if table.options[throw] and all(len(o.dice) == 6 for o in table.options[throw])
    )  # fmt: skip

    @functools.cache
    def value(t: int, dice: int, hot: bool) -> float:
        if hot and settled(t) and rules.hot_dice_must_roll:
            return float((p_bust[6] * beta + 1 - p_bust[6] - p_only_hot) / (1 - p_only_hot))
        can_bank = t >= need and t > 0 and not (hot and rules.hot_dice_must_roll)
        b = bank(t) if can_bank else -1.0
        # Banking is provably best once a throw risks more than it can gain.
        if can_bank and 1 - b <= p_bust[dice] * (1 - beta):
            return b
        roll = 0.0
        for throw, p in throw_distribution(dice):
            options = table.options[throw]
            if not options:
                roll += p * beta
                continue
            roll += p * max(
                value(t + o.points, dice - len(o.dice) or 6, dice == len(o.dice)) for o in options
            )
        return max(b, roll)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 50_000))
    try:
        return value(0, 6, False)
    finally:
        sys.setrecursionlimit(limit)


def main_start(
    s: DiceStrategy,
    own: int,
    other: int,
    *,
    auto: bool = False,
    predecessor: int | None = None,
    opened: tuple[bool, bool] = (True, True),
    call: bool = False,
) -> float:
    """A turn's start in the main game (points), recomputed from the stored values: throwing,
    or with ``call`` calling Pfeffer on ``predecessor`` (its stake, minimum, penalty, reward)."""
    r = s.rules
    step = s.step
    low = -s.lower * step
    need = 0 if (r.min_bank_opening_only and opened[0]) else r.min_bank
    pen = r.auto_pfeffer_penalty if (auto and r.auto_pfeffer) else 0
    stake, bonus = 0, False
    if call:
        assert predecessor is not None
        stake = predecessor + r.pfeffer_margin
        pen = r.pfeffer_penalty_factor * stake
        bonus = r.pfeffer_reward == "stake"
        if r.pfeffer_short_bank == "forbidden":
            need = max(need, stake)
    target = s.tables.target * step

    def bank(t: int) -> float:
        total = own + t + (stake if bonus and t >= stake else 0)
        if total >= target and not r.final_round:
            return 1.0
        return 1.0 - s.win_probability(other, total, predecessor=t, opened=(opened[1], True))

    beta = 1.0 - s.win_probability(other, max(own - pen, low), auto_pfeffer=True,
                                   opened=(opened[1], opened[0]))  # fmt: skip
    beyond = (len(s.final) - 1) * step

    def settled(t: int) -> bool:
        if not r.final_round:
            return own + t >= target
        return own + t - other >= beyond and t >= beyond

    return turn_value(r, bank, beta, need, settled)


def last_turn(s: DiceStrategy, own: int, other: int, *, predecessor: int, opened: bool,
              call: bool = False) -> float:  # fmt: skip
    """The last turn of the final round (points; ``other`` has reached the target): a bank wins
    when it ends above ``other``, ties at ``other`` (worth the stored tie value), else loses."""
    r = s.rules
    m = s.model
    need = 0 if (r.min_bank_opening_only and opened) else r.min_bank
    stake, bonus = 0, False
    if call:
        stake = predecessor + r.pfeffer_margin
        bonus = r.pfeffer_reward == "stake"
        if r.pfeffer_short_bank == "forbidden":
            need = max(need, stake)

    def bank(t: int) -> float:
        total = own + t + (stake if bonus and t >= stake else 0)
        if total == other:
            return m.tie_value(t // s.step)
        return 1.0 if total > other else 0.0

    return turn_value(r, bank, 0.0, need, lambda t: own + t > other)
