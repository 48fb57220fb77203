"""Advice at the table for any solved strategy: every legal decision of the player to act, with
its chance to win. The advice itself is the strategy's own: two players
(:mod:`.two_advice`), three (:mod:`.three_advice`) or the approximation for 3 to 8
(:mod:`.approx`); this module only picks it, so that none of them imports another's strategy.

>>> from pfeffer.dice import DiceGame, DiceRules
>>> from pfeffer.dice.solver.solve import solve_small
>>> g = DiceGame(2, DiceRules(target=1000), seed=1)
>>> [a.action for a in advise(solve_small(), g)]
['roll']
"""

from __future__ import annotations

from pfeffer.dice.game import DiceGame, DiceView
from pfeffer.dice.solver.approx import ApproxStrategy
from pfeffer.dice.solver.strategy import DiceStrategy
from pfeffer.dice.solver.three import ThreeStrategy
from pfeffer.dice.solver.three_advice import advise_three
from pfeffer.dice.solver.two_advice import Advice, advise_two

__all__ = ["Advice", "advise"]


def advise(
    strategy: DiceStrategy | ThreeStrategy | ApproxStrategy, game_or_view: DiceGame | DiceView
) -> list[Advice]:
    """Every legal decision of the player to act, best first (ties plainest first, a Pfeffer
    call last: :func:`~pfeffer.dice.solver.two_advice.rank`): from a
    :class:`~pfeffer.dice.solver.strategy.DiceStrategy` for two players
    (:func:`~pfeffer.dice.solver.two_advice.advise_two`, which lists what is advised), a
    :class:`~pfeffer.dice.solver.three.ThreeStrategy` for three
    (:func:`~pfeffer.dice.solver.three_advice.advise_three`), an
    :class:`~pfeffer.dice.solver.approx.ApproxStrategy` for 3 to 8.
    """
    if isinstance(strategy, ApproxStrategy):
        return strategy.advise(game_or_view)
    if isinstance(strategy, ThreeStrategy):
        return advise_three(strategy, game_or_view)
    return advise_two(strategy, game_or_view)
