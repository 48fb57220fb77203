"""Advice at a two-player table: every legal decision of the player to act, with its chance to
win, from the exact two-player strategy (:func:`pfeffer.dice.solver.advice.advise` picks the
advice for any strategy).

>>> from pfeffer.dice import DiceGame, DiceRules
>>> from pfeffer.dice.solver.solve import solve_small
>>> s = solve_small()
>>> g = DiceGame(2, DiceRules(target=1000), seed=1)
>>> [a.action for a in advise_two(s, g)]
['roll']
>>> _ = g.roll([1, 1, 5, 2, 3, 3])
>>> tips = advise_two(s, g)
>>> sorted(a.action for a in tips) == sorted(g.legal_actions())
True
>>> tips[0].win_probability >= tips[-1].win_probability
True
"""

from __future__ import annotations

import dataclasses

from pfeffer.dice.game import DiceGame, DiceView, PfefferMode, Phase
from pfeffer.dice.solver.context import Situation
from pfeffer.dice.solver.strategy import DiceStrategy

#: Actions that are not decisions: a void throw (D12) is a table event, not a choice.
NOT_DECISIONS = frozenset({"void", "turn", "bust"})


@dataclasses.dataclass(frozen=True, slots=True)
class Advice:
    """One legal action and the chance to win after taking it (then playing optimally)."""

    action: str
    win_probability: float

    def __str__(self) -> str:
        return f"{self.action}: {100 * self.win_probability:.2f}%"


#: Two options whose chances to win differ by at most this are a tie (far below anything the
#: table can tell apart: it is solved to 1e-11, and a Pfeffer call that changes nothing differs
#: from rolling only by rounding).
TIE = 1e-12

#: Among tied options the plainer comes first: bank, roll, the set-asides in the game's order
#: (most points, then fewest dice), a Pfeffer call last (a call that gains nothing only risks).
_PLAIN = {"bank": 0, "roll": 1, "pfeffer": 3}


def rank(values: dict[str, float], legal: list[str]) -> list[Advice]:
    """The options of ``values`` that are in ``legal``, best first; options within :data:`TIE`
    of the best still unlisted count as tied and go plainest first, so that no option is listed
    first only because of a tie.

    >>> [a.action for a in rank({"pfeffer": 0.5 + 1e-15, "roll": 0.5}, ["pfeffer", "roll"])]
    ['roll', 'pfeffer']
    >>> [a.action for a in rank({"pfeffer": 0.6, "roll": 0.5}, ["pfeffer", "roll"])]
    ['pfeffer', 'roll']
    """
    order = {a: i for i, a in enumerate(legal)}
    rest = sorted((a for a in values if a in order), key=lambda a: (-values[a], order[a]))
    out: list[Advice] = []
    while rest:
        top = values[rest[0]]
        tied = [a for a in rest if values[a] >= top - TIE]
        tied.sort(key=lambda a: (_PLAIN.get(a, 2), order[a]))
        out += [Advice(a, values[a]) for a in tied]
        rest = [a for a in rest if a not in tied]
    return out


def _up(points: int, step: int) -> int:
    return -(-points // step)


def situation(strategy: DiceStrategy, view: DiceView, *, call: bool = False) -> Situation:
    """The turn's situation in ``view`` for the player to act (``call``: as if Pfeffer were called
    now): the main game, the last turn of the final round, or a turn of a playoff round."""
    step = strategy.step
    m = strategy.model
    seat = view.current_player
    assert seat is not None
    own = strategy.units(view.scores[seat])
    other = strategy.units(view.scores[1 - seat])
    banked = {turn.seat for turn in view.history if not turn.busted}
    oo, ot = m.flag(seat in banked), m.flag(1 - seat in banked)
    if view.playoff:
        kind = "first" if seat == view.playoff[0] else "second"
    elif view.final_round:
        kind = "final"
    else:
        kind = "main"
    if call:
        assert view.pfeffer_need is not None and view.pfeffer_bust_penalty is not None
        assert view.pfeffer_stake is not None
        need, pen = _up(view.pfeffer_need, step), _up(view.pfeffer_bust_penalty, step)
        stake, bonus = strategy.units(view.pfeffer_stake), bool(view.pfeffer_bonus)
    else:
        need, pen = _up(view.min_to_bank, step), _up(view.bust_penalty, step)
        called = view.pfeffer is PfefferMode.CALLED and view.rules.pfeffer_reward == "stake"
        stake, bonus = (strategy.units(view.stake), True) if called else (0, False)
    return Situation(kind, own, other, oo, ot, need, pen, stake, bonus)


def advise_two(strategy: DiceStrategy, game_or_view: DiceGame | DiceView) -> list[Advice]:
    """Every legal decision of the player to act in a two-player game, best first (ties plainest
    first: :func:`rank`).

    Before the first throw: ``roll`` and, where allowed, ``pfeffer``; after a throw: each
    ``keep`` valued with the best continuation; after setting aside: ``roll`` and ``bank``.
    ``void`` (and a score sheet's whole-turn entries) are not advised. Every house rule is read
    from the game: the final round, a playoff, the opening-only minimum, a Pfeffer bet and its
    reward.
    """
    if isinstance(game_or_view, DiceGame):
        seat = game_or_view.current_player
        view = game_or_view.view(seat)
        legal = game_or_view.legal_actions()
    else:
        view = game_or_view
        seat = view.current_player
        legal = legal_decisions(view)
    if seat is None or view.is_over:
        return []
    if len(view.players) != 2:
        raise NotImplementedError("advice is for two players so far")
    if view.rules != strategy.rules:
        raise ValueError("the strategy was solved for other rules than the game's")
    step = strategy.step
    t = strategy.units(view.turn_total)
    # A turn already far along reads totals past the usual arrays: widen them (in blocks, so
    # that the turns of a game still share their solved arrays).
    span = 0 if t < 100 else 256 * (t // 256 + 1)
    R, V, bank = strategy.solve_turn(dataclasses.replace(situation(strategy, view), span=span))
    values: dict[str, float] = {}
    if view.phase is Phase.START:
        values["roll"] = float(V[0, 6])
        if view.can_call_pfeffer:
            _, Vp, _ = strategy.solve_turn(situation(strategy, view, call=True))
            values["pfeffer"] = float(Vp[0, 6])
    elif view.phase is Phase.KEEP:
        for option in view.keep_options:
            after = t + option.points // step
            left = view.dice_to_roll - len(option.dice)
            values[option.action] = float(V[after, left if left else 6])
    elif view.phase is Phase.DECIDE:
        values["roll"] = float(R[t, view.dice_to_roll])
        if view.can_bank:
            values["bank"] = float(bank[t])
    return rank(values, legal)


def legal_decisions(view: DiceView) -> list[str]:
    """The decisions open to the player to act in ``view`` (as the game lists them)."""
    if view.phase is Phase.KEEP:
        return [o.action for o in view.keep_options]
    if view.phase is Phase.DECIDE:
        return ["roll", "bank"] if view.can_bank else ["roll"]
    if view.phase is Phase.START:
        return ["pfeffer", "roll"] if view.can_call_pfeffer else ["roll"]
    return []
