"""A Würfel-Pfeffer turn as a value, and the score-sheet rows that finished turns make.

These are plain values with no rule in them: :class:`~pfeffer.dice.game.DiceGame` makes them, views
and sheets show them. They live apart from the game so that the game's views can offer their
sheet rows while :mod:`pfeffer.dice.sheet` builds on the game (no import circle).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import NamedTuple


class Phase(enum.StrEnum):
    """Where a turn stands: what kind of action comes next (equal to its string: ``"keep"``)."""

    START = "start"  # before the first throw of a turn: call Pfeffer, or roll
    KEEP = "keep"  # a scoring throw lies on the table: set dice aside (or declare it void)
    DECIDE = "decide"  # after setting aside: roll on, or bank
    OVER = "over"

    def __repr__(self) -> str:
        # Shown like the plain string it equals, so views and doctests read naturally.
        return repr(self.value)


class PfefferMode(enum.Enum):
    """Whether a Pfeffer bet is on for the turn (D10, D11)."""

    NONE = "none"
    CALLED = "called"
    AUTO = "auto"


class Throw(NamedTuple):
    """One throw of a turn: the faces thrown and the faces set aside from it (empty on a bust)."""

    faces: tuple[int, ...]
    kept: tuple[int, ...] = ()
    points: int = 0


class Turn(NamedTuple):
    """A finished turn: one row of the score sheet.

    ``points`` is what the turn banked (0 on a bust); ``penalty`` what was subtracted (Pfeffer or
    Auto-Pfeffer on a bust); ``bonus`` a Pfeffer reward (house rule ``pfeffer_reward="stake"``).
    The player's total changed by ``points + bonus - penalty``.
    """

    seat: int
    points: int
    busted: bool
    pfeffer: PfefferMode
    stake: int
    penalty: int
    bonus: int
    throws: tuple[Throw, ...]
    total_after: int

    @property
    def change(self) -> int:
        """How much the player's total moved in this turn."""
        return self.points + self.bonus - self.penalty


_MARKS = {PfefferMode.NONE: "", PfefferMode.CALLED: "P ", PfefferMode.AUTO: "A "}


def turn_text(turn: Turn) -> str:
    """One score-sheet cell: the turn's result with its marks.

    ``P`` marks a turn with Pfeffer called, ``A`` one with Auto-Pfeffer on; a penalty is shown
    as ``-800`` after "bust", a Pfeffer reward as ``+450`` after the points.

    >>> from pfeffer.dice.game import DiceGame
    >>> g = DiceGame(["Anna", "Ben"], sheet=True)
    >>> g.enter_turn(400); g.call_pfeffer(); g.enter_turn(None); g.enter_turn(None)
    >>> [turn_text(t) for t in g.history]
    ['400', 'P bust -900', 'A bust -1000']
    """
    mark = _MARKS[turn.pfeffer]
    if turn.busted:
        text = "bust" + (f" -{turn.penalty}" if turn.penalty else "")
    else:
        text = str(turn.points) + (f" +{turn.bonus}" if turn.bonus else "")
    return mark + text


@dataclasses.dataclass(frozen=True, slots=True)
class SheetRow:
    """One round of the score sheet: each seat's turn in that round (None where a seat did not
    play in it) and the running totals (Σ) after the round."""

    number: int
    turns: tuple[Turn | None, ...]
    totals: tuple[int, ...]

    def cells(self) -> tuple[str, ...]:
        """The row as text cells, one per seat ("" where the seat did not play)."""
        return tuple("" if t is None else turn_text(t) for t in self.turns)


def turn_rounds(history: Sequence[Turn], players: int) -> list[int]:
    """The round (sheet row, from 1) of each finished turn, in play order.

    A round starts with the seat that played the game's first turn; a new round begins whenever
    play comes round to a seat at or before the previous one (so the final round and a tie
    playoff continue on the sheet just as they would on paper).

    >>> from pfeffer.dice.game import DiceGame
    >>> g = DiceGame(["Anna", "Ben", "Cleo"], first_player=1, sheet=True)
    >>> for points in (400, 400, 400, 400):
    ...     g.enter_turn(points)
    >>> turn_rounds(g.history, 3)
    [1, 1, 1, 2]
    """
    out: list[int] = []
    if not history:
        return out
    first = history[0].seat
    number, last_pos = 1, -1
    for turn in history:
        pos = (turn.seat - first) % players
        if pos <= last_pos:
            number += 1
        out.append(number)
        last_pos = pos
    return out


def sheet_rows(history: Sequence[Turn], players: int) -> list[SheetRow]:
    """Group finished turns into score-sheet rows, one per round (see :func:`turn_rounds`).

    >>> from pfeffer.dice.game import DiceGame
    >>> g = DiceGame(["Anna", "Ben", "Cleo"], sheet=True)
    >>> for points in (400, None, 500, 350):
    ...     g.enter_turn(points)
    >>> [(r.number, r.cells(), r.totals) for r in sheet_rows(g.history, 3)]
    [(1, ('400', 'bust', 'A 500'), (400, 0, 500)), (2, ('350', '', ''), (750, 0, 500))]
    """
    rows: list[SheetRow] = []
    totals = [0] * players
    cells: list[Turn | None] = [None] * players
    for number, turn in zip(turn_rounds(history, players), history, strict=True):
        if number > len(rows) + 1:
            rows.append(SheetRow(len(rows) + 1, tuple(cells), tuple(totals)))
            cells = [None] * players
        cells[turn.seat] = turn
        totals[turn.seat] = turn.total_after
    if history:
        rows.append(SheetRow(len(rows) + 1, tuple(cells), tuple(totals)))
    return rows


def next_round(
    history: Sequence[Turn], players: int, current_player: int | None, last_round: int
) -> int:
    """:func:`round_number` where the round of the last finished turn is known already
    (``last_round``: ``turn_rounds(history, players)[-1]``, 0 without a finished turn), without
    counting the rounds of the whole history again.

    >>> from pfeffer.dice.game import DiceGame
    >>> g = DiceGame(["Anna", "Ben"], sheet=True)
    >>> g.enter_turn(400); g.enter_turn(400)
    >>> next_round(g.history, 2, g.current_player, 1)
    2
    """
    if not history:
        return 1
    first = history[0].seat
    cur = current_player
    if cur is None or (cur - first) % players > (history[-1].seat - first) % players:
        return last_round
    return last_round + 1
