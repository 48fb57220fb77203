"""The score sheet: a Würfel-Pfeffer game kept as turn results only, like the paper sheet.

People who throw real dice often write down just what each turn banked, or that it busted, and
whether Pfeffer was called. :class:`DiceSheet` takes exactly that and leaves every rule to
:class:`~pfeffer.dice.game.DiceGame`'s whole-turn entry (``turn 450`` / ``bust`` / ``pfeffer``):
the minimum, the Pfeffer stake and penalty, Auto-Pfeffer, the final round and the winner.
A sheet saved with :meth:`DiceSheet.to_json` is an ordinary dice game record.

>>> s = DiceSheet(["Anna", "Ben"])
>>> s.enter(450); s.enter("bust"); s.enter("bust")
>>> s.totals, s.current_player
([-550, 0], 1)
>>> [row.cells() for row in s.rows()]
[('450', 'bust'), ('A bust -1000', '')]
>>> s.rows()[-1].totals
(-550, 0)
>>> s.enter(300)
Traceback (most recent call last):
...
pfeffer.core.errors.IllegalAction: A turn banks at least 350 points; 300 cannot be banked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pfeffer.core.entries import EntryCheck
from pfeffer.core.errors import IllegalAction, RecordError
from pfeffer.dice.game import DiceGame, DiceView, PfefferMode, Phase
from pfeffer.dice.probability import unusual_turn
from pfeffer.dice.rules import DiceRules

# The rows live with the turns they are made of (pfeffer.dice.turns), so that the game can
# offer them without importing this module; they stay part of this module's API.
from pfeffer.dice.turns import SheetRow, Turn, next_round, sheet_rows, turn_rounds, turn_text

__all__ = [
    "DiceSheet",
    "SheetRow",
    "next_round",
    "round_number",
    "sheet_rows",
    "turn_rounds",
    "turn_text",
]


def round_number(game: DiceGame | DiceView) -> int:
    """The number of the round (sheet row) that the turn about to be played belongs to.

    >>> g = DiceGame(["Anna", "Ben"], sheet=True)
    >>> round_number(g)
    1
    >>> g.enter_turn(400); round_number(g)
    1
    >>> g.enter_turn(400); round_number(g)
    2
    """
    history = game.history
    n = len(game.players)
    last = turn_rounds(history, n)[-1] if history else 0
    return next_round(history, n, game.current_player, last)


class DiceSheet:
    """A score sheet for Würfel-Pfeffer played with real dice: one entry per turn.

    >>> s = DiceSheet(["Anna", "Ben"], DiceRules(target=1000))
    >>> s.enter(1000); s.enter(1100, pfeffer=True)
    >>> s.is_over, s.winners, s.totals
    (True, [1], [1000, 1100])
    >>> s.undo(); s.totals, s.current_player
    ([1000, 0], 1)
    >>> DiceSheet.from_json(s.to_json()).totals
    [1000, 0]
    """

    def __init__(
        self,
        players: Sequence[str] | int,
        rules: DiceRules | None = None,
        *,
        first_player: int = 0,
    ) -> None:
        # The sheet never throws computer dice; a fixed seed keeps saved files reproducible.
        self._game = DiceGame(players, rules, seed=0, first_player=first_player, sheet=True)

    # ------------------------------------------------------------------ entries

    def enter(self, points: int | str | None, pfeffer: bool = False) -> None:
        """Enter the current player's turn: ``points`` banked, or ``None`` / ``"bust"``.

        ``pfeffer=True`` says Pfeffer was called before the turn. Raises the engine's
        :class:`IllegalAction` (and changes nothing) if the entry is impossible.

        >>> s = DiceSheet(["Anna", "Ben"])
        >>> s.enter(475)
        Traceback (most recent call last):
        ...
        pfeffer.core.errors.IllegalAction: 475 points cannot be scored: ... multiple of 50 above 0.
        >>> s.enter("400"); s.enter("bust", pfeffer=True); s.totals
        [400, -900]
        """
        value = _points(points)
        game = self._game.clone()
        if pfeffer:
            game.call_pfeffer()
        game.enter_turn(value)
        self._game = game

    def check(self, points: int | str | None, pfeffer: bool = False) -> EntryCheck:
        """What entering ``points`` (as :meth:`enter` takes them) would do, without entering
        it: whether it ends the game, reaches the target (the final round starts) or is more
        than a turn makes once in 100,000 turns (:func:`~pfeffer.dice.probability.unusual_turn`,
        a likely typo). Raises what :meth:`enter` would raise, and changes nothing.

        >>> s = DiceSheet(["Anna", "Ben"], DiceRules(target=1000))
        >>> s.check(400).needs_confirmation
        False
        >>> c = s.check(1000); c.reaches_target, c.ends_game
        (True, False)
        >>> s.enter(1000); c = s.check("bust"); c.ends_game, c.winners
        (True, ('Anna',))
        >>> DiceSheet(["Anna", "Ben"]).check(100_000).unusual
        True
        """
        seat = self.current_player
        if seat is None:
            raise IllegalAction("The game is over: undo the last entry to change it.")
        value = _points(points)
        trial = DiceSheet.__new__(DiceSheet)
        trial._game = self._game.clone()
        trial.enter(value, pfeffer=pfeffer)
        target = self.rules.target
        return EntryCheck(
            ends_game=trial.is_over,
            reaches_target=self.totals[seat] < target <= trial.totals[seat],
            unusual=value is not None and value >= unusual_turn(self.rules),
            points=value or 0,
            total=trial.totals[seat],
            winners=tuple(self.players[w] for w in trial.winners),
            winners_total=trial.totals[trial.winners[0]] if trial.winners else 0,
        )

    def undo(self) -> None:
        """Take back the last entry (the whole last turn), by replaying the record without it.

        >>> s = DiceSheet(["Anna", "Ben"])
        >>> s.undo()
        Traceback (most recent call last):
        ...
        pfeffer.core.errors.IllegalAction: There is nothing to undo.
        """
        actions = self._game.actions
        if not actions:
            raise IllegalAction("There is nothing to undo.")
        record = self._game.to_record()
        record["actions"] = []
        game = DiceGame.from_record(record)
        keep = 0  # the longest prefix that ends at a turn boundary, short of the whole record
        for i, action in enumerate(actions[:-1], start=1):
            game.apply(action)
            if actions[i] == "void":
                continue  # a throw declared void never happened: no boundary before it
            if game.phase is Phase.OVER or (
                game.phase is Phase.START and game.pfeffer is not PfefferMode.CALLED
            ):
                keep = i
        record["actions"] = actions[:keep]
        self._game = DiceGame.from_record(record)

    # ------------------------------------------------------------------ queries

    @property
    def game(self) -> DiceGame:
        """A copy of the game behind the sheet."""
        return self._game.clone()

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names in seat order."""
        return self._game.players

    @property
    def rules(self) -> DiceRules:
        """The house rules in force."""
        return self._game.rules

    @property
    def totals(self) -> list[int]:
        """Each seat's total (Σ)."""
        return list(self._game.scores)

    @property
    def current_player(self) -> int | None:
        """The seat whose turn is to be entered next; None once the game is over."""
        return self._game.current_player

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._game.is_over

    @property
    def winners(self) -> list[int]:
        """The winning seats (several on a shared win); empty while the game runs."""
        return self._game.winners

    @property
    def final_round(self) -> bool:
        """True while the final round runs."""
        return self._game.final_round

    @property
    def history(self) -> list[Turn]:
        """Every entered turn, in order."""
        return self._game.history

    @property
    def round(self) -> int:
        """The round (row) the next entry belongs to."""
        return round_number(self._game)

    def view(self) -> DiceView:
        """The game's public state (Pfeffer mode, predecessor result, final round, …)."""
        return self._game.view()

    def rows(self) -> list[SheetRow]:
        """The score-sheet rows, one per round, each with its running totals."""
        return sheet_rows(self._game.history, len(self._game.players))

    # ------------------------------------------------------------------ files

    def to_record(self) -> dict[str, Any]:
        """The game record of the sheet."""
        return self._game.to_record()

    def to_json(self) -> str:
        """The sheet as JSON text: a valid dice game record."""
        return self._game.to_json()

    @classmethod
    def from_json(cls, data: str | bytes | dict[str, Any]) -> DiceSheet:
        """A sheet from a record (:class:`~pfeffer.core.errors.RecordError` if invalid)."""
        game = DiceGame.from_record(data)
        if not game.is_sheet:
            raise RecordError(
                "This is the record of a played game, not a score sheet: "
                "replay it with 'pfeffer dice replay'."
            )
        sheet = cls.__new__(cls)
        sheet._game = game
        return sheet

    def __repr__(self) -> str:
        totals = ", ".join(f"{p} {s}" for p, s in zip(self.players, self.totals, strict=True))
        return f"<DiceSheet {totals}{'; over' if self.is_over else ''}>"


def _points(points: int | str | None) -> int | None:
    if points is None:
        return None
    if isinstance(points, str):
        text = points.strip().lower()
        if text in ("bust", "b"):
            return None
        if text.isdigit():
            return int(text)
        raise IllegalAction.format(
            "{points}: enter the points banked (e.g. 450) or 'bust'.", points=repr(points)
        )
    if isinstance(points, bool) or not isinstance(points, int):
        raise IllegalAction.format("Points are a whole number, not {points}.", points=repr(points))
    return points
