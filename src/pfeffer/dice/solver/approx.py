"""An approximation for 3 to 8 players (docs/strategy.md, "More players"): the player on turn plays
the exact two-player strategy against the strongest opponent, as if the game had two players: its
own total against the highest total of the others (in the final round: the highest total to
beat). Its loss against exact play is measured against the exact three-player solution
(:mod:`pfeffer.dice.solver.three`).

>>> from pfeffer.dice import DiceGame, DiceRules
>>> from pfeffer.dice.solver.solve import solve_small
>>> a = ApproxStrategy(solve_small())
>>> g = DiceGame(4, DiceRules(target=1000), seed=1)
>>> [t.action for t in a.advise(g)]
['roll']
"""

from __future__ import annotations

import dataclasses

from pfeffer.dice.game import DiceGame, DiceView
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver.strategy import DiceStrategy
from pfeffer.dice.solver.two_advice import Advice, advise_two


def two_player_view(view: DiceView) -> DiceView:
    """``view`` as a two-player game of the player to act (seat 0) against the strongest other
    player (seat 1: the highest total of the others)."""
    seat = view.current_player
    assert seat is not None
    best = max(x for i, x in enumerate(view.scores) if i != seat)
    names = (view.players[seat], "leader")
    return view._replace(seat=0, players=names, scores=(view.scores[seat], best),
                         current_player=0, history=(), turns_left_in_final_round=())  # fmt: skip


@dataclasses.dataclass(frozen=True, eq=False)
class ApproxStrategy:
    """Play for 3 to 8 players from a two-player :class:`DiceStrategy` (see the module)."""

    two: DiceStrategy

    @property
    def rules(self) -> DiceRules:
        """The rules (those of the two-player strategy)."""
        return self.two.rules

    def win_probability(self, own: int, *others: int, auto_pfeffer: bool = False) -> float:
        """The value the approximation plays for: the two-player chance to win against the
        strongest of ``others`` (not the chance to win among all players: with ``n`` players it
        overstates it, roughly by the weaker opponents' share)."""
        return self.two.win_probability(own, max(others), auto_pfeffer=auto_pfeffer)

    def advise(self, game_or_view: DiceGame | DiceView) -> list[Advice]:
        """Every legal decision of the player to act, best first, valued by the two-player
        strategy against the strongest opponent."""
        if isinstance(game_or_view, DiceGame):
            view = game_or_view.view(game_or_view.current_player)
        else:
            view = game_or_view
        if view.current_player is None or view.is_over:
            return []
        if len(view.players) == 2:
            return advise_two(self.two, view)
        return advise_two(self.two, two_player_view(view))
