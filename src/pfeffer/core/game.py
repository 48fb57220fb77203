"""The one protocol both engines speak; front ends, bots, search and adapters are typed against it.

A game is a state machine driven by small action strings (python-chess's UCI moves, OpenSpiel's
actions): :meth:`Game.legal_actions` lists what may happen now, :meth:`Game.apply` does one of
those, :meth:`Game.view` is what one seat may know. Chance is explicit: the dice game lists its
throws with probabilities (``DiceGame.chance_outcomes()``) and accepts thrown faces
(``"roll 415236"``); a Pepper deal is dealt from the chance stream (``"deal"``) or entered
(``"deal 9C TC … / …"``). Records (:meth:`Game.to_record`) write every chance outcome out, so
they replay without the generator.

The words mean the same in both games:

- ``players``: the names by seat (a tuple; its length is the number of players);
- ``current_player``: the seat to act, ``None`` once the game is over; ``first_player`` the seat
  of the first action (dice: the first turn; Pepper: the first dealer, who deals first);
- ``phase``: a :class:`enum.StrEnum` member, equal to its plain string (``"play"``, ``"keep"``);
- ``scores``: the totals by side (a side is a seat, except in 4-player Pepper: teams 0+2, 1+3),
  ``side_of(seat)`` maps a seat to its side; ``winners`` the winning sides, empty while running;
- ``actions``: every applied action in notation, chance written out (what the record stores);
- ``history``: the finished units of play (dice: turns; Pepper: hands), oldest first.

Refused input raises a :class:`~pfeffer.core.errors.ActionError` and changes nothing:

>>> from pfeffer.dice import DiceGame
>>> from pfeffer.pepper import PepperGame
>>> games: list[Game[Any]] = [DiceGame(["Anna", "Ben"], seed=1), PepperGame(players=3, seed=1)]
>>> [(g.players, g.phase, g.legal_actions()) for g in games]
[(('Anna', 'Ben'), 'start', ['roll']), (('Seat 0', 'Seat 1', 'Seat 2'), 'deal', ['deal'])]
>>> from pfeffer.core.errors import ActionError
>>> for g in games:
...     try:
...         g.apply("bank")
...     except ActionError as exc:
...         print(type(exc).__name__)
IllegalAction
InvalidAction
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

ViewT_co = TypeVar("ViewT_co", covariant=True)


@runtime_checkable
class GameView(Protocol):
    """What every view carries, in both games (each game's view carries much more)."""

    @property
    def seat(self) -> int | None:
        """The seat this view is for; ``None`` for a spectator (public information only)."""
        ...

    @property
    def players(self) -> tuple[str, ...]:
        """The names by seat."""
        ...

    @property
    def phase(self) -> enum.StrEnum:
        """What kind of action comes next."""
        ...

    @property
    def current_player(self) -> int | None:
        """The seat to act; ``None`` once the game is over."""
        ...

    @property
    def scores(self) -> tuple[int, ...]:
        """Totals by side."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        ...

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning sides; empty while the game runs."""
        ...


@runtime_checkable
class Game(Protocol[ViewT_co]):
    """A game of either kind, as front ends, bots, search and research adapters see it."""

    @property
    def players(self) -> tuple[str, ...]:
        """The names by seat."""
        ...

    @property
    def current_player(self) -> int | None:
        """The seat to act; ``None`` once the game is over."""
        ...

    @property
    def first_player(self) -> int:
        """The seat of the game's first action (dice: the first turn; Pepper: the first dealer);
        the record's ``first_player``."""
        ...

    @property
    def phase(self) -> enum.StrEnum:
        """What kind of action comes next."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        ...

    @property
    def winners(self) -> list[int]:
        """The winning sides (several on a shared win); empty while the game runs."""
        ...

    @property
    def scores(self) -> list[int]:
        """Totals by side."""
        ...

    @property
    def actions(self) -> list[str]:
        """Every applied action in notation, chance written out (the record's ``actions``)."""
        ...

    @property
    def history(self) -> Sequence[Any]:
        """The finished units of play (dice: turns, Pepper: hands), oldest first."""
        ...

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for (an index into ``scores``)."""
        ...

    def legal_actions(self) -> list[str]:
        """Every action :meth:`apply` accepts now, in notation, in a stable order."""
        ...

    def apply(self, action: str, seat: int | None = None) -> None:
        """Apply one action; with ``seat``, it must be that seat's turn.

        Raises :class:`~pfeffer.core.errors.InvalidAction`,
        :class:`~pfeffer.core.errors.IllegalAction` or :class:`~pfeffer.core.errors.NotYourTurn`
        (all :class:`~pfeffer.core.errors.ActionError`) and changes nothing when refused.
        """
        ...

    def view(self, seat: int | None = None) -> ViewT_co:
        """What ``seat`` may know (``None``: a spectator); frozen."""
        ...

    def clone(self) -> Self:
        """An independent copy with the same future chance."""
        ...

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record that replays to the identical state."""
        ...

    @classmethod
    def from_record(cls, data: str | bytes | dict[str, Any]) -> Self:
        """Replay a record; :class:`~pfeffer.core.errors.RecordError` if it does not."""
        ...
