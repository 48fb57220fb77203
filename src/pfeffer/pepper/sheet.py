"""The score pad: a Pepper game played with real cards, kept as one line per hand.

People who play with a real deck write down who won the auction, the bid, trump and the tricks
each side took. :class:`PepperSheet` takes exactly that, checks it against the rules (a bid on the
ladder for the player count (P5), trump allowed (P7), tricks adding up to the hand (P4)) and
leaves the arithmetic to the engine's own pure helpers: :func:`~pfeffer.pepper.rules.score_hand`
(P10) for the points and :func:`~pfeffer.pepper.rules.winners_of` (P11) for the end. Rows are the
engine's :class:`~pfeffer.pepper.game.HandResult`, the same type a played game reports.

>>> s = PepperSheet(["Ann", "Bob", "Cy", "Di"])
>>> s.enter(bidder=1, bid=5, trump="NT", tricks=[2, 4]).points
(2, -6)
>>> s.enter(0, "big", "S", [6, 0]).points, s.totals, s.dealer
((12, 0), [14, -6], 2)
>>> s.enter(0, 7, "H", [6, 0])
Traceback (most recent call last):
...
pfeffer.core.errors.IllegalAction: 7 is not a bid with 4 players (bids: 1, 2, 3, 4, 5, small, big)
>>> s.totals   # a refused entry changes nothing
[14, -6]
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from pfeffer.core.entries import EntryCheck
from pfeffer.core.errors import IllegalAction, RecordError, RulesError, SetupError
from pfeffer.core.records import dumps, envelope, load
from pfeffer.pepper.cards import NO_TRUMP, TRUMP_STR, parse_trump
from pfeffer.pepper.game import HandResult
from pfeffer.pepper.rules import (
    PepperRules,
    bid_ladder,
    cards_per_hand,
    score_hand,
    side_names,
    side_of,
    sides,
    winners_of,
)

SHEET_GAME = "pepper-sheet"
"""The ``game`` field of a score-pad record (see docs/pepper.md)."""


def parse_bid(bid: int | str, players: int) -> str:
    """A bid in engine notation ("1".."7", "small", "big"), checked against the ladder (P5).

    Accepts ints, digits, "small"/"big" in any case, "Small Pepper" / "Big Pepper", "s"/"b".

    >>> parse_bid(3, 4), parse_bid("Big Pepper", 3), parse_bid(" S ", 2)
    ('3', 'big', 'small')
    >>> parse_bid(6, 4)
    Traceback (most recent call last):
    ...
    pfeffer.core.errors.IllegalAction: 6 is not a bid with 4 players (bids: 1, 2, 3, 4, 5, ...)
    """
    ladder = bid_ladder(players)
    if isinstance(bid, bool):
        text = ""
    elif isinstance(bid, int):
        text = str(bid)
    elif isinstance(bid, str):
        text = bid.strip().lower().removesuffix(" pepper").strip()
        text = {"s": "small", "b": "big"}.get(text, text)
    else:
        text = ""
    if text not in ladder:
        raise IllegalAction.format(
            "{bid} is not a bid with {players} players (bids: {bids})",
            bid=repr(bid),
            players=players,
            bids=", ".join(ladder),
        )
    return text


class PepperSheet:
    """A score pad for Pepper with 2, 3 or 4 players: one entry per hand (see module doc).

    ``dealer`` is the seat that deals the first hand; the deal passes to the next seat every
    hand, including a hand everybody passed (P3).

    >>> s = PepperSheet(["Ann", "Bob", "Cy"], PepperRules(target=10), dealer=2)
    >>> s.dealer, s.enter(0, "small", "H", [8, 0, 0]).points, s.dealer
    (2, (8, 0, 0), 0)
    >>> _ = s.enter(1, 2, None, [2, 3, 3]); s.is_over, s.winners, s.totals
    (True, [0], [10, 3, 3])
    >>> _ = s.undo(); s.is_over, PepperSheet.from_json(s.to_json()).totals
    (False, [8, 0, 0])
    """

    def __init__(
        self, players: Sequence[str], rules: PepperRules | None = None, *, dealer: int = 0
    ) -> None:
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise SetupError("Pepper is played by 2, 3 or 4 players.")
        if not 2 <= len(players) <= 4:
            raise SetupError("Pepper is played by 2, 3 or 4 players.")
        names = [p.strip() if isinstance(p, str) else p for p in players]
        if not all(isinstance(p, str) and p for p in names):
            raise SetupError("Every player needs a name.")
        if len(set(names)) != len(names):
            raise SetupError("Two players have the same name; tell them apart.")
        rules = PepperRules() if rules is None else rules
        if not isinstance(rules, PepperRules):
            raise RulesError("rules must be a PepperRules")
        n = len(names)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise SetupError.format(
                "The first dealer is a seat from 0 to {last}, not {dealer}.",
                last=n - 1,
                dealer=repr(dealer),
            )
        self._players = tuple(names)
        self._rules = rules
        self._first_dealer = dealer
        self._rows: list[HandResult] = []
        self._totals = [0] * sides(n)
        self._winners: list[int] = []

    # ------------------------------------------------------------------ entries

    def enter(
        self, bidder: int, bid: int | str, trump: str | None, tricks: Sequence[int]
    ) -> HandResult:
        """Enter a played hand and return its row: the seat that won the auction, the bid
        (1.., "small", "big"), trump ("C", "D", "H", "S", or "NT" / None for no trump) and the
        tricks won per side (2 teams with 4 players, else one number per player).

        Raises :class:`IllegalAction` with a message for the players, and changes nothing, if
        the entry is impossible.

        >>> s = PepperSheet(["Ann", "Bob"])
        >>> s.enter(0, 3, "H", [5, 2])
        Traceback (most recent call last):
        ...
        pfeffer.core.errors.IllegalAction: The tricks must add up to 8, not 7.
        >>> s.enter(0, 3, "H", [2, 6]).points   # set: -8 (P10)
        (-8, 6)
        """
        self._check_open()
        n = len(self._players)
        if isinstance(bidder, bool) or not isinstance(bidder, int) or not 0 <= bidder < n:
            raise IllegalAction.format(
                "The bidder is a seat from 0 to {last}, not {bidder}.",
                last=n - 1,
                bidder=repr(bidder),
            )
        bid_text = parse_bid(bid, n)
        t = parse_trump(trump)
        if t == NO_TRUMP and not self._rules.no_trump:
            raise IllegalAction("No trump is not allowed under these rules: name C, D, H or S.")
        won = self._check_tricks(tricks)
        side = side_of(n, bidder)
        need = cards_per_hand(n) if bid_text in ("small", "big") else int(bid_text)
        points = score_hand(self._rules, n, side, bid_text, won)
        return self._add(
            bidder=bidder,
            bid=bid_text,
            trump=TRUMP_STR[t],
            tricks=won,
            points=points,
            made=won[side] >= need,
        )

    def enter_passed(self) -> HandResult:
        """Enter a hand that everybody passed (house rule ``all_pass="redeal"``): nothing is
        scored, the deal passes on.

        >>> s = PepperSheet(["Ann", "Bob"], PepperRules(all_pass="redeal"))
        >>> s.enter_passed().bidder, s.dealer, s.totals
        (None, 1, [0, 0])
        >>> PepperSheet(["Ann", "Bob"]).enter_passed()
        Traceback (most recent call last):
        ...
        pfeffer.core.errors.IllegalAction: Somebody must bid when all the others passed (P6); \
a hand passed by everybody needs the house rule all_pass=redeal.
        """
        self._check_open()
        if self._rules.all_pass != "redeal":
            raise IllegalAction(
                "Somebody must bid when all the others passed (P6); a hand passed by everybody "
                "needs the house rule all_pass=redeal."
            )
        zeros = (0,) * len(self._totals)
        return self._add(bidder=None, bid=None, trump=None, tricks=zeros, points=zeros, made=None)

    def check(
        self, bidder: int, bid: int | str, trump: str | None, tricks: Sequence[int]
    ) -> EntryCheck:
        """What entering this hand (as :meth:`enter` takes it) would do, without entering it:
        whether it ends the game, and the bidder's side's points and total. Raises what
        :meth:`enter` would raise, and changes nothing.

        >>> s = PepperSheet(["Ann", "Bob"], PepperRules(target=10))
        >>> s.check(0, 3, "H", [4, 4]).ends_game
        False
        >>> c = s.check(0, "big", "H", [8, 0]); c.ends_game, c.winners, c.total
        (True, ('Ann',), 16)
        """
        trial = copy.deepcopy(self)
        row = trial.enter(bidder, bid, trump, tricks)
        side = side_of(len(self._players), bidder)
        return EntryCheck(
            ends_game=trial.is_over,
            reaches_target=trial.is_over,
            points=row.points[side],
            total=trial.totals[side],
            winners=tuple(trial.side_names[w] for w in trial.winners),
            winners_total=trial.totals[trial.winners[0]] if trial.winners else 0,
        )

    def undo(self) -> HandResult:
        """Take back the last entry and return it.

        >>> PepperSheet(["Ann", "Bob"]).undo()
        Traceback (most recent call last):
        ...
        pfeffer.core.errors.IllegalAction: There is nothing to undo.
        """
        if not self._rows:
            raise IllegalAction("There is nothing to undo.")
        row = self._rows.pop()
        self._totals = [a - b for a, b in zip(self._totals, row.points, strict=True)]
        self._winners = []
        return row

    def _check_open(self) -> None:
        if self._winners:
            names = [self.side_names[w] for w in self._winners]
            if len(names) == 1:
                raise IllegalAction.format(
                    "The game is over ({winner} won); undo the last hand to change it.",
                    winner=names[0],
                )
            raise IllegalAction.format(
                "The game is over ({winners} and {last} won); undo the last hand to change it.",
                # A list, not English words: the translations write their own "and" ({last}).
                winners=", ".join(names[:-1]),
                last=names[-1],
            )

    def _check_tricks(self, tricks: Sequence[int]) -> tuple[int, ...]:
        n = len(self._players)
        want = sides(n)
        teams = n == 4
        if isinstance(tricks, str | bytes) or not isinstance(tricks, Sequence):
            raise IllegalAction.format(
                "Give the tricks as {want} numbers, one per team."
                if teams
                else "Give the tricks as {want} numbers, one per player.",
                want=want,
            )
        if len(tricks) != want:
            raise IllegalAction.format(
                "Give the tricks as {want} numbers, one per team ({sides}), not {n}."
                if teams
                else "Give the tricks as {want} numbers, one per player ({sides}), not {n}.",
                want=want,
                sides=", ".join(self.side_names),
                n=len(tricks),
            )
        for t in tricks:
            if isinstance(t, bool) or not isinstance(t, int) or t < 0:
                raise IllegalAction.format(
                    "Tricks are whole numbers from 0 up, not {t}.", t=repr(t)
                )
        total = cards_per_hand(n)
        if sum(tricks) != total:
            raise IllegalAction.format(
                "The tricks must add up to {total}, not {sum}.", total=total, sum=sum(tricks)
            )
        return tuple(tricks)

    def _add(
        self,
        *,
        bidder: int | None,
        bid: str | None,
        trump: str | None,
        tricks: tuple[int, ...],
        points: Sequence[int],
        made: bool | None,
    ) -> HandResult:
        totals = [a + b for a, b in zip(self._totals, points, strict=True)]
        row = HandResult(
            hand_number=len(self._rows) + 1,
            dealer=self.dealer,
            bidder=bidder,
            bid=bid,
            trump=trump,
            tricks=tricks,
            points=tuple(points),
            made=made,
            scores=tuple(totals),
        )
        self._rows.append(row)
        self._totals = totals
        # a redeal never ends the game (nothing changed since the last check)
        self._winners = winners_of(totals, self._rules.target) if bidder is not None else []
        return row

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names in seat order."""
        return self._players

    @property
    def rules(self) -> PepperRules:
        """The house rules in force."""
        return self._rules

    @property
    def side_names(self) -> list[str]:
        """Display names of the scoring sides ("Ann & Cy" for a team)."""
        return side_names(self._players)

    @property
    def first_dealer(self) -> int:
        """The seat that dealt the first hand."""
        return self._first_dealer

    @property
    def dealer(self) -> int:
        """The seat dealing the next hand to be entered (P3)."""
        return (self._first_dealer + len(self._rows)) % len(self._players)

    @property
    def totals(self) -> list[int]:
        """Each side's score (Σ)."""
        return list(self._totals)

    @property
    def is_over(self) -> bool:
        """True once a side has reached the target (P11)."""
        return bool(self._winners)

    @property
    def winners(self) -> list[int]:
        """The winning sides (several on a shared win); empty while the game runs."""
        return list(self._winners)

    def rows(self) -> list[HandResult]:
        """One row per entered hand (redeals included, with ``bidder`` None), each with the
        points per side and the running totals (``scores``)."""
        return list(self._rows)

    # ------------------------------------------------------------------ files

    def to_record(self) -> dict[str, Any]:
        """The pad as a versioned record (game ``"pepper-sheet"``, see docs/pepper.md).

        >>> s = PepperSheet(["Ann", "Bob"], PepperRules(all_pass="redeal"))
        >>> _ = s.enter(1, "small", "D", [0, 8]); _ = s.enter_passed()
        >>> s.to_record()["actions"]
        ['hand 1 small D 0 8', 'redeal']
        """
        actions = [
            "redeal"
            if r.bidder is None
            else f"hand {r.bidder} {r.bid} {r.trump} {' '.join(map(str, r.tricks))}"
            for r in self._rows
        ]
        return envelope(
            SHEET_GAME,
            rules=self._rules.to_dict(),
            players=list(self._players),
            dealer=self._first_dealer,
            actions=actions,
            scores=list(self._totals),
            winners=list(self._winners),
        )

    def to_json(self) -> str:
        """The record as canonical JSON text."""
        return dumps(self.to_record())

    @classmethod
    def from_json(cls, data: str | bytes | dict[str, Any]) -> PepperSheet:
        """A pad from its record; :class:`RecordError` if it is not a valid pad record."""
        obj = load(data, SHEET_GAME)
        try:
            sheet = cls(
                obj["players"],
                PepperRules.from_dict(obj["rules"]),
                dealer=obj.get("dealer", 0),
            )
        except (TypeError, ValueError) as exc:
            raise RecordError(f"bad score-pad record: {exc}") from exc
        for i, action in enumerate(obj["actions"], start=1):
            words = action.split()
            try:
                if words == ["redeal"]:
                    sheet.enter_passed()
                elif len(words) >= 4 and words[0] == "hand" and words[1].isdigit():
                    if not all(w.isdigit() for w in words[4:]):
                        raise IllegalAction("tricks are whole numbers")
                    sheet.enter(int(words[1]), words[2], words[3], [int(w) for w in words[4:]])
                else:
                    raise IllegalAction("write 'hand BIDDER BID TRUMP TRICKS…' or 'redeal'")
            except IllegalAction as exc:
                raise RecordError(f"entry {i} ({action!r}) does not replay: {exc}") from exc
        if "scores" in obj and obj["scores"] != sheet._totals:
            raise RecordError(
                f"the record says scores {obj['scores']}, replay gives {sheet.totals}"
            )
        return sheet

    def __repr__(self) -> str:
        totals = ", ".join(f"{p} {s}" for p, s in zip(self.side_names, self._totals, strict=True))
        return f"<PepperSheet {totals}{'; over' if self.is_over else ''}>"
