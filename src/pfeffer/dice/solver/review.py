"""A game review: every decision of a finished (or running) dice game, valued afterwards by the
solver, with the chance to win it gave away. Pure: the terminal (``pfeffer dice review``) and
the web server's replay page draw it each in their own way.

>>> from pfeffer.dice import DiceGame, DiceRules
>>> from pfeffer.dice.solver import advise
>>> from pfeffer.dice.solver.solve import solve_small
>>> s = solve_small()
>>> g = DiceGame(2, DiceRules(target=1000), seed=3)
>>> for _ in range(6):  # seat 0 takes the worst option, seat 1 the best
...     tips = advise(s, g)
...     g.apply((tips[-1] if g.current_player == 0 else tips[0]).action)
>>> found = decisions(s, g, {0, 1})
>>> [d.step for d in found] == sorted(d.step for d in found)  # in the order played
True
>>> all(d.cost == 0 for d in found if d.seat == 1) and ranked(found)[0].seat == 0
True
>>> mine = summary(found, 0)
>>> mine.decisions == sum(d.seat == 0 for d in found) and mine.lost > 0
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from pfeffer.dice.game import DiceAction, DiceGame
from pfeffer.dice.sheet import round_number
from pfeffer.dice.solver.advice import Advice, advise
from pfeffer.dice.solver.approx import ApproxStrategy
from pfeffer.dice.solver.strategy import DiceStrategy

#: A decision that costs less than this (in win probability) counts as the best one: the
#: advice's values are exact to far better, so a smaller difference is a tie in all but name.
BEST = 5e-5

#: The decisions a review values (a void throw or a score sheet's whole-turn entry is none).
DECISION_KINDS = frozenset({"roll", "keep", "bank", "pfeffer"})


@dataclasses.dataclass(frozen=True)
class Decision:
    """One decision of a game, as advised afterwards.

    ``step``: how many actions of the record came before it (a replay at that step shows the
    table as the player saw it); ``options``: every choice with its chance to win, best first.
    The situation's facts (``own``, ``other``, ``turn_total``, ``phase``, ``roll``,
    ``dice_to_roll``, ``pfeffer``, ``final_round``) are the view's; ``situation`` is what the
    caller's ``situation`` function said of it (the terminal's line), else empty.
    """

    seat: int
    round: int
    situation: str
    played: str
    best: str
    played_win: float
    best_win: float
    step: int = 0
    options: tuple[Advice, ...] = ()
    own: int = 0
    other: int = 0
    turn_total: int = 0
    phase: str = "start"
    roll: tuple[int, ...] = ()
    dice_to_roll: int = 6
    pfeffer: str = "none"
    final_round: bool = False

    @property
    def cost(self) -> float:
        """The chance to win that the decision gave away (0 for a best one)."""
        return max(self.best_win - self.played_win, 0.0)

    @property
    def is_best(self) -> bool:
        """Whether the decision was (as good as) the best one."""
        return self.cost < BEST


def decisions(
    strategy: DiceStrategy | ApproxStrategy,
    record: DiceGame,
    seats: Iterable[int],
    *,
    situation: Callable[[DiceGame], str] | None = None,
) -> list[Decision]:
    """Every decision with a choice (two or more options) that a player in ``seats`` made in
    ``record``, replayed action by action and valued by the solver; in the order played.

    ``situation(game)`` describes the state before each decision (the terminal's line); the
    game passed is the replay's, not to be changed. Two players with a
    :class:`~pfeffer.dice.solver.strategy.DiceStrategy`; more (up to 8) with the approximation
    (:class:`~pfeffer.dice.solver.approx.ApproxStrategy`, as :func:`advise`), where ``other`` is
    the highest total of the others (the total the approximation plays against).
    """
    wanted = set(seats)
    g = record
    game = DiceGame(list(g.players), g.rules, seed=g.seed, first_player=g.first_player,
                    sheet=g.is_sheet, hand_dice=g.hand_dice)  # fmt: skip
    out: list[Decision] = []
    for step, action in enumerate(g.actions):
        kind = DiceAction.parse(action).kind
        seat = game.current_player
        if kind in DECISION_KINDS and seat in wanted:
            tips = advise(strategy, game)
            played = "roll" if kind == "roll" else action
            mine = next((t for t in tips if t.action == played), None)
            if len(tips) > 1 and mine is not None:
                v = game.view(seat)
                out.append(
                    Decision(
                        seat=seat,
                        round=round_number(game),
                        situation=situation(game) if situation is not None else "",
                        played=played,
                        best=tips[0].action,
                        played_win=mine.win_probability,
                        best_win=tips[0].win_probability,
                        step=step,
                        options=tuple(tips),
                        own=v.scores[seat],
                        other=max(x for i, x in enumerate(v.scores) if i != seat),
                        turn_total=v.turn_total,
                        phase=str(v.phase),
                        roll=tuple(v.roll or ()),
                        dice_to_roll=v.dice_to_roll,
                        pfeffer=str(v.pfeffer.value),
                        final_round=v.final_round,
                    )
                )
        game.apply(action)
    return out


def ranked(found: Iterable[Decision]) -> list[Decision]:
    """The decisions, the costliest first (ties in the order played)."""
    return sorted(found, key=lambda d: (-d.cost, d.step))


@dataclasses.dataclass(frozen=True)
class Summary:
    """One player's decisions in a review: how many, how many were the best, the win
    probability given away in all (the sum of the costs)."""

    seat: int
    decisions: int
    best: int
    lost: float


def summary(found: Iterable[Decision], seat: int) -> Summary:
    """The totals of ``seat``'s decisions among ``found``."""
    mine = [d for d in found if d.seat == seat]
    return Summary(seat, len(mine), sum(d.is_best for d in mine), sum(d.cost for d in mine))
