"""Strategy you can see: when to bank and who is ahead, from a solved table, as plain data for a
chart (the web's strategy page draws it as SVG). Pure: numbers in, numbers out.

The bank threshold at (own, other) for ``n`` dice is the smallest turn total from which banking
is at least as good as throwing the ``n`` dice, for every larger total too (a normal turn: no
Pfeffer, no Auto-Pfeffer; the minimum and bust penalty of an ordinary turn, as the engine gives
them). ``n = 6`` is six dice after hot dice.

>>> from pfeffer.dice.solver.strategy import solve_small
>>> s = solve_small()   # target 1000
>>> d = strategy_data(s, map_step=250, bank_step=500)
>>> d["map"]["totals"], d["bank"]["totals"]
([0, 250, 500, 750], [0, 500])
>>> round(d["map"]["win"][0][0], 4) == round(s.win_probability(0, 0), 4)
True
>>> t = d["bank"]["thresholds"]["2"][0][0]     # 2 dice left, both at 0
>>> t is None or t >= d["min_bank"]
True
"""

from __future__ import annotations

from typing import Any

from pfeffer.dice.game import DiceGame
from pfeffer.dice.solver.strategy import DiceStrategy

#: Cells per side of the win-probability map and of the threshold grids, about.
MAP_CELLS = 40
BANK_CELLS = 10


def _grid_step(strategy: DiceStrategy, cells: int) -> int:
    """A step of the scoring step's multiples that cuts the scores below the target in about
    ``cells`` pieces."""
    step = strategy.step
    return max(step, -(-strategy.rules.target // cells // step) * step)


def _up(points: int, step: int) -> int:
    return -(-points // step)


def bank_threshold(strategy: DiceStrategy, own: int, other: int, dice: int) -> int | None:
    """The smallest turn total (points) from which banking is at least as good as throwing
    ``dice`` dice, for every larger total too, at ``own`` against ``other`` in a normal turn;
    None if rolling on is better somewhere all the way up."""
    view = DiceGame(2, strategy.rules, seed=0).view(0)  # an ordinary turn's minimum and penalty
    step = strategy.step
    need, penalty = _up(view.min_to_bank, step), _up(view.bust_penalty, step)
    R, _, bank = strategy.turn(own // step, other // step, need, penalty)
    top = bank.shape[0] - strategy.tables.max_points - 1  # past there the turn banks anyway
    found = None
    for t in range(top - 1, max(need, 1) - 1, -1):
        if bank[t] < 0 or bank[t] < R[t, dice] - 1e-12:
            break
        found = t
    return None if found is None else found * step


def strategy_data(
    strategy: DiceStrategy, *, map_step: int | None = None, bank_step: int | None = None
) -> dict[str, Any]:
    """What the strategy page draws for ``strategy``'s rules: the first player's chance, the
    win-probability map (``map.win[i][j]``: the player about to start a turn with
    ``map.totals[i]`` against ``map.totals[j]``) and the bank thresholds per number of dice
    (``bank.thresholds[str(n)][i][j]`` for own ``bank.totals[i]`` against ``bank.totals[j]``).
    ``map_step`` / ``bank_step``: the grids' spacing in points (multiples of the scoring step;
    default: about 40 and 10 cells a side)."""
    target = strategy.rules.target
    ms = map_step or _grid_step(strategy, MAP_CELLS)
    bs = bank_step or _grid_step(strategy, BANK_CELLS)
    map_totals = list(range(0, target, ms))
    bank_totals = list(range(0, target, bs))
    view = DiceGame(2, strategy.rules, seed=0).view(0)
    return {
        "target": target,
        "step": strategy.step,
        "min_bank": view.min_to_bank,
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
                    [bank_threshold(strategy, a, b, n) for b in bank_totals] for a in bank_totals
                ]
                for n in range(1, 7)
            },
        },
    }
