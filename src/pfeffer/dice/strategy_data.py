"""The numbers behind the strategy plots, from a solved table (no plotting here: the terminal's
``pfeffer dice plot`` draws them with matplotlib, a browser page can draw the same data).

Every figure is what the advice (:func:`pfeffer.dice.solver.advise`) says at the table: the
turn values come from ``DiceStrategy.turn`` with the minimum, bust penalty and Pfeffer stake the
game sets, and a tie between rolling and banking goes to rolling, as the advice orders them.

>>> from pfeffer.dice.solver.solve import solve_small
>>> s = solve_small()  # target 1000
>>> bank_threshold(s, 0, 0, dice=1) is not None
True
>>> m = bank_map(s, step=250)
>>> m.thresholds.shape, m.scores.tolist()
((5, 4, 4), [0, 250, 500, 750])
>>> d = page_data(s, map_step=250, bank_step=500)  # what the browser's strategy page draws
>>> d["map"]["totals"], d["bank"]["totals"]
([0, 250, 500, 750], [0, 500])
>>> d["bank"]["thresholds"]["2"][0][0] == bank_threshold(s, 0, 0, dice=2)
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver.strategy import DiceStrategy

F64 = npt.NDArray[np.float64]
#: How far past the target a threshold is looked for (steps): far past it the advice banks.
HORIZON = 150


def _up(points: int, step: int) -> int:
    return -(-points // step)


def _turn(strategy: DiceStrategy, own: int, other: int, auto: bool) -> tuple[F64, F64, F64]:
    rules = strategy.rules
    step = strategy.step
    need = _up(rules.min_bank, step)
    penalty = _up(rules.auto_pfeffer_penalty, step) if auto and rules.auto_pfeffer else 0
    a = max(strategy.units(own), -strategy.lower)
    b = max(strategy.units(other), -strategy.lower)
    return strategy.turn(a, b, need, penalty)


def bank_threshold(
    strategy: DiceStrategy, own: int, other: int, *, dice: int, auto: bool = False
) -> int | None:
    """The smallest turn total from which the advice banks at every larger total, with ``dice``
    (1-5, or 6: six dice after hot dice) to throw next, for a player with ``own`` points
    against ``other`` (a normal turn, or under Auto-Pfeffer); None if it does not bank from any
    total in reach (up to 150 steps past the target). Below the minimum no turn can bank."""
    if not 1 <= dice <= 6:
        raise ValueError("the dice to throw next are 1 to 6")
    roll, _, bank = _turn(strategy, own, other, auto)
    t = strategy.tables
    own_u = max(strategy.units(own), -strategy.lower)
    top = min(len(bank) - t.max_points - 2, max(t.target - own_u, 0) + HORIZON)
    banks = bank[: top + 1] > roll[: top + 1, dice]
    if not banks[top]:
        return None
    first = top
    while first > 0 and banks[first - 1]:
        first -= 1
    return int(first * strategy.step)


@dataclasses.dataclass(frozen=True)
class BankMap:
    """Bank thresholds over a grid of scores: ``thresholds[dice - 1, i, j]`` for own total
    ``scores[i]`` against ``scores[j]`` (points; NaN: the advice does not bank there)."""

    scores: npt.NDArray[np.int64]
    thresholds: F64
    auto: bool


def score_grid(rules: DiceRules, step: int) -> npt.NDArray[np.int64]:
    """Totals from 0 up to below the target in ``step`` points.

    >>> score_grid(DiceRules(target=1000), 250).tolist()
    [0, 250, 500, 750]
    """
    return np.arange(0, rules.target, step, dtype=np.int64)


def bank_map(strategy: DiceStrategy, *, step: int = 500, auto: bool = False) -> BankMap:
    """:func:`bank_threshold` for 1-5 dice over a grid of own and other totals ``step`` apart
    (a multiple of the scoring step)."""
    strategy.units(step)
    scores = score_grid(strategy.rules, step)
    out = np.full((5, len(scores), len(scores)), np.nan)
    for i, own in enumerate(scores):
        for j, other in enumerate(scores):
            for dice in range(1, 6):
                found = bank_threshold(strategy, int(own), int(other), dice=dice, auto=auto)
                if found is not None:
                    out[dice - 1, i, j] = found
    return BankMap(scores, out, auto)


def win_map(
    strategy: DiceStrategy, *, step: int = 100, auto: bool = False
) -> tuple[npt.NDArray[np.int64], F64]:
    """``(scores, W)``: the chance to win ``W[i, j]`` of the player about to start a turn with
    ``scores[i]`` against ``scores[j]`` (``win_probability``)."""
    strategy.units(step)
    scores = score_grid(strategy.rules, step)
    w = np.array([[strategy.win_probability(int(a), int(b), auto) for b in scores] for a in scores])
    return scores, w


def pfeffer_value(strategy: DiceStrategy, own: int, other: int, result: int) -> float:
    """What calling Pfeffer adds to the chance to win, against a predecessor who banked
    ``result`` (the advice's value of ``pfeffer`` less that of ``roll``: negative when the call
    costs). A call sets the stake ``result + margin``: the minimum to bank rises to it (unless
    short banks are allowed), a bust costs ``factor × stake``, and under the reward ``stake`` a
    made call earns the stake."""
    rules = strategy.rules
    if not rules.pfeffer or result <= 0:
        raise ValueError("Pfeffer can be called only after a turn that banked points")
    step = strategy.step
    stake = result + rules.pfeffer_margin
    need = rules.min_bank if rules.pfeffer_short_bank == "allowed" else max(rules.min_bank, stake)
    bonus = stake if rules.pfeffer_reward == "stake" else 0
    a = max(strategy.units(own), -strategy.lower)
    b = max(strategy.units(other), -strategy.lower)
    _, roll, _ = strategy.turn(a, b, _up(rules.min_bank, step), 0)
    _, call, _ = strategy.turn(
        a,
        b,
        _up(need, step),
        _up(rules.pfeffer_penalty_factor * stake, step),
        bonus // step if rules.pfeffer_short_bank == "forbidden" else 0,
    )
    return float(call[0, 6] - roll[0, 6])


def pfeffer_values(
    strategy: DiceStrategy,
    situations: Sequence[tuple[int, int]],
    results: Sequence[int],
) -> F64:
    """:func:`pfeffer_value` for each situation (own, other: the predecessor's total after the
    turn) and each predecessor's result: shape ``(situations, results)``."""
    return np.array([[pfeffer_value(strategy, a, b, r) for r in results] for a, b in situations])


@dataclasses.dataclass(frozen=True)
class TargetRow:
    """The first player's chance and the fair head start for the second at one target."""

    target: int
    first_player: float
    compensation: float


def first_player_by_target(
    targets: Sequence[int],
    rules: DiceRules | None = None,
    *,
    solver: Callable[[DiceRules], DiceStrategy] | None = None,
) -> list[TargetRow]:
    """The first player's winning chance and the fair compensation at each target (the other
    rules as ``rules``), from ``solver`` (default: :func:`pfeffer.dice.solve`, which caches)."""
    if solver is None:
        from pfeffer.dice.solver import solve

        solver = solve
    base = DiceRules() if rules is None else rules
    out = []
    for target in targets:
        s = solver(base.replace(target=target))
        out.append(TargetRow(target, s.win_probability(0, 0), s.fair_compensation()))
    return out


def finite(values: F64) -> float:
    """The largest finite value (for colour scales); NaN if there is none."""
    found = values[np.isfinite(values)]
    return float(found.max()) if found.size else math.nan


#: Cells per side of the strategy page's win-probability map and of its threshold grids, about.
MAP_CELLS = 40
BANK_CELLS = 10


def _grid_step(strategy: DiceStrategy, cells: int) -> int:
    """A multiple of the scoring step that cuts the scores below the target in about ``cells``
    pieces."""
    step = strategy.step
    return max(step, -(-strategy.rules.target // cells // step) * step)


def page_data(
    strategy: DiceStrategy, *, map_step: int | None = None, bank_step: int | None = None
) -> dict[str, Any]:
    """What the browser's strategy page draws for ``strategy``'s rules, as plain JSON data: the
    first player's chance, the fair compensation, the win-probability map (``map.win[i][j]``:
    the player about to start a turn with ``map.totals[i]`` against ``map.totals[j]``) and the
    bank thresholds of :func:`bank_threshold` per number of dice (``bank.thresholds[str(n)][i][j]``
    for own ``bank.totals[i]`` against ``bank.totals[j]``; 6: six dice after hot dice).
    ``map_step`` / ``bank_step``: the grids' spacing in points (multiples of the scoring step;
    default: about 40 and 10 cells a side)."""
    target = strategy.rules.target
    map_totals = list(range(0, target, map_step or _grid_step(strategy, MAP_CELLS)))
    bank_totals = list(range(0, target, bank_step or _grid_step(strategy, BANK_CELLS)))
    return {
        "target": target,
        "step": strategy.step,
        "min_bank": strategy.rules.min_bank,
        "first_player": strategy.win_probability(0, 0),
        "fair_compensation": strategy.fair_compensation(),
        "map": {
            "totals": map_totals,
            "win": [[strategy.win_probability(a, b) for b in map_totals] for a in map_totals],
        },
        "bank": {
            "totals": bank_totals,
            "dice": list(range(1, 7)),
            "thresholds": {
                str(n): [
                    [bank_threshold(strategy, a, b, dice=n) for b in bank_totals]
                    for a in bank_totals
                ]
                for n in range(1, 7)
            },
        },
    }
