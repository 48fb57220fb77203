"""The table's log: what happened in a dice game, as structured events a front end turns into text.

Everything comes from a :class:`~pfeffer.dice.game.DiceView` (the finished turns with their
throws, the turn in progress), so a log shows exactly what the seat may see and nothing a front
end has to work out. Each event names its kind, the seat and the numbers it needs; the web page
turns ``DiceEvent("keep", 0, dice=(1, 1, 5), points=250)`` into "Anna sets aside 1-1-5 for 250"
in the page's language.

>>> from pfeffer.dice import DiceGame
>>> g = DiceGame(["Anna", "Ben"], seed=1)
>>> g.roll([1, 1, 5, 2, 3, 3]); g.keep([1, 1, 5]); g.roll([5, 5, 5]); g.keep([5, 5, 5])
(1, 1, 5, 2, 3, 3)
250
(5, 5, 5)
500
>>> g.roll([5, 2, 3, 4, 6, 6]); g.keep([5]); g.bank()
(5, 2, 3, 4, 6, 6)
50
800
>>> g.roll([2, 3, 4, 6, 6, 2])  # Ben busts; Anna's next turn is under Auto-Pfeffer
(2, 3, 4, 6, 6, 2)
>>> for e in dice_log(g.view()):
...     print(e.to_dict())
{'kind': 'round', 'number': 1}
{'kind': 'throw', 'seat': 0, 'dice': [1, 1, 5, 2, 3, 3]}
{'kind': 'keep', 'seat': 0, 'points': 250, 'total': 250, 'dice': [1, 1, 5]}
{'kind': 'throw', 'seat': 0, 'dice': [5, 5, 5]}
{'kind': 'keep', 'seat': 0, 'points': 500, 'total': 750, 'dice': [5, 5, 5]}
{'kind': 'hot_dice', 'seat': 0}
{'kind': 'throw', 'seat': 0, 'dice': [5, 2, 3, 4, 6, 6]}
{'kind': 'keep', 'seat': 0, 'points': 50, 'total': 800, 'dice': [5]}
{'kind': 'bank', 'seat': 0, 'points': 800, 'total': 800}
{'kind': 'throw', 'seat': 1, 'dice': [2, 3, 4, 6, 6, 2]}
{'kind': 'bust', 'seat': 1, 'points': 0, 'total': 0}
{'kind': 'round', 'number': 2}
{'kind': 'auto_pfeffer', 'seat': 0, 'points': 1000}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from pfeffer.dice.game import DiceView, PfefferMode, Throw, Turn
from pfeffer.dice.sheet import next_round, turn_rounds

DiceEventKind = Literal[
    "round", "pfeffer", "auto_pfeffer", "throw", "keep", "hot_dice", "bank", "bonus", "bust", "win"
]


@dataclasses.dataclass(frozen=True, slots=True)
class DiceEvent:
    """One line of the log.

    ``kind`` and what it carries:

    - ``round``: a new round (score-sheet row) begins; ``number``.
    - ``pfeffer``: ``seat`` called Pfeffer; ``points`` is the stake.
    - ``auto_pfeffer``: Auto-Pfeffer is on for ``seat``'s turn; ``points`` is what a bust costs.
    - ``throw``: ``seat`` threw ``dice`` (as thrown).
    - ``keep``: ``seat`` set ``dice`` aside for ``points``; ``total`` is the turn total after it.
    - ``hot_dice``: every die thrown scored: ``seat`` throws all six again.
    - ``bank``: ``seat`` banked ``points``; ``total`` is the player's new total.
    - ``bonus``: ``seat`` made the Pfeffer and earns ``points`` on top.
    - ``bust``: ``seat`` busted and loses ``points`` (0: nothing); ``total`` as after it.
    - ``win``: ``seat`` won the game with ``total``.
    """

    kind: DiceEventKind
    seat: int | None = None
    dice: tuple[int, ...] = ()
    points: int | None = None
    total: int | None = None
    number: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON data, without the fields it does not use."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in ("seat", "points", "total", "number"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.dice:
            out["dice"] = list(self.dice)
        return out


def _throw_events(seat: int, throws: Sequence[Throw]) -> list[DiceEvent]:
    out: list[DiceEvent] = []
    turn_total = 0
    for th in throws:
        out.append(DiceEvent("throw", seat, dice=th.faces))
        if th.kept:
            turn_total += th.points
            out.append(DiceEvent("keep", seat, dice=th.kept, points=th.points, total=turn_total))
            if len(th.kept) == len(th.faces):  # every die thrown was set aside (D7)
                out.append(DiceEvent("hot_dice", seat))
    return out


def _mode_event(seat: int, mode: PfefferMode, stake: int, bust_cost: int) -> list[DiceEvent]:
    if mode is PfefferMode.CALLED:
        return [DiceEvent("pfeffer", seat, points=stake)]
    if mode is PfefferMode.AUTO:
        return [DiceEvent("auto_pfeffer", seat, points=bust_cost)]
    return []


def _turn_events(turn: Turn, auto_cost: int) -> list[DiceEvent]:
    out = _mode_event(turn.seat, turn.pfeffer, turn.stake, auto_cost)
    out += _throw_events(turn.seat, turn.throws)
    if turn.busted:
        out.append(DiceEvent("bust", turn.seat, points=turn.penalty, total=turn.total_after))
    else:
        out.append(DiceEvent("bank", turn.seat, points=turn.points, total=turn.total_after))
        if turn.bonus:
            out.append(DiceEvent("bonus", turn.seat, points=turn.bonus, total=turn.total_after))
    return out


def dice_log(view: DiceView) -> list[DiceEvent]:
    """Every event of the game so far as ``view`` shows it, oldest first: the finished turns
    (with a ``round`` line where a score-sheet row begins), the turn in progress (its Pfeffer,
    its throws and what was set aside, the throw on the table) and the winners.

    It is :func:`finished_turns_log` followed by :func:`current_log` (a server that shows the
    log after every action keeps the first part until the next turn is finished)."""
    events, last_round = finished_turns_log(
        view.history, len(view.players), view.rules.auto_pfeffer_penalty
    )
    return events + current_log(view, last_round)


def finished_turns_log(
    history: Sequence[Turn], players: int, auto_cost: int, *, start: int = 0, last_round: int = 0
) -> tuple[list[DiceEvent], int]:
    """The events of the finished turns ``history`` of a game of ``players`` (with the
    ``round`` lines; ``auto_cost``: the rules' ``auto_pfeffer_penalty``) and the number of the
    last round among them (0: none).

    ``start``: only the events of the turns from ``history[start]`` on, which follow the
    events of the turns before it (whose last round was ``last_round``): a log kept from an
    earlier call grows by what this one gives, equal to the events of the whole history."""
    out: list[DiceEvent] = []
    rounds = turn_rounds(history, players)
    for number, turn in zip(rounds[start:], history[start:], strict=True):
        if number != last_round:
            out.append(DiceEvent("round", number=number))
            last_round = number
        out += _turn_events(turn, auto_cost)
    return out, last_round


def current_log(view: DiceView, last_round: int) -> list[DiceEvent]:
    """The events after the finished turns (``last_round``: the number of the last round
    among them): the turn in progress and the winners."""
    out: list[DiceEvent] = []
    seat = view.current_player
    if seat is not None:
        number = next_round(view.history, len(view.players), seat, last_round)
        if number != last_round:
            out.append(DiceEvent("round", number=number))
        out += _mode_event(seat, view.pfeffer, view.stake, view.bust_penalty)
        out += _throw_events(seat, view.turn_throws)
        if view.roll is not None:
            out.append(DiceEvent("throw", seat, dice=view.roll))
    for w in view.winners:
        out.append(DiceEvent("win", w, total=view.scores[w]))
    return out
