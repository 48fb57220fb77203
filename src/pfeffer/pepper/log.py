"""The table's log for Pepper: what happened, as structured events a front end turns into text.

Built from what a seat may see: the :class:`~pfeffer.pepper.game.PepperView` (the deal, auction,
trump and tricks of the hand on the table, which stay visible until the next deal) and the
results of the finished hands (the public score pad). Earlier hands appear as their results;
the hand on the table card by card. Nobody's hand is in it, only cards played.

>>> from pfeffer.pepper import PepperGame
>>> g = PepperGame(["Ann", "Bob", "Cy"], seed=3, dealer=0)
>>> g.apply("deal"); g.apply("2"); g.apply("pass"); g.apply("pass"); g.apply("H")
>>> card = g.legal_actions()[0]; g.apply(card)
>>> [e.to_dict()["kind"] for e in pepper_log(g.view(None), g.history)]
['deal', 'bid', 'pass', 'pass', 'trump', 'play']
>>> pepper_log(g.view(None), g.history)[-1] == PepperEvent("play", 1, value=card)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from pfeffer.pepper.game import HandResult, PepperView, Phase

PepperEventKind = Literal["deal", "bid", "pass", "trump", "play", "trick", "hand", "redeal", "win"]


@dataclasses.dataclass(frozen=True, slots=True)
class PepperEvent:
    """One line of the log.

    ``kind`` and what it carries:

    - ``deal``: ``seat`` dealt hand ``number``.
    - ``bid`` / ``pass``: ``seat`` bid ``value`` ("3", "small", "big") / passed.
    - ``trump``: ``seat`` (the bidder) named ``value`` ("H", …, "NT") trump.
    - ``play``: ``seat`` played the card ``value`` ("KH").
    - ``trick``: ``seat`` won the trick.
    - ``hand``: hand ``number`` ended: ``seat`` bid ``value`` with trump ``trump``; ``made``
      says whether the contract was made; ``points`` and ``tricks`` per side.
    - ``redeal``: everyone passed in hand ``number``; the next dealer deals again.
    - ``win``: ``side`` won the game with ``points`` (one number: the side's score).
    """

    kind: PepperEventKind
    seat: int | None = None
    value: str | None = None
    number: int | None = None
    trump: str | None = None
    made: bool | None = None
    points: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()
    side: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON data, without the fields it does not use."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in ("seat", "value", "number", "trump", "made", "side"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.points:
            out["points"] = list(self.points)
        if self.tricks:
            out["tricks"] = list(self.tricks)
        return out


def _result(r: HandResult) -> PepperEvent:
    if r.bidder is None:
        return PepperEvent("redeal", number=r.hand_number)
    return PepperEvent(
        "hand",
        r.bidder,
        value=r.bid,
        number=r.hand_number,
        trump=r.trump,
        made=r.made,
        points=r.points,
        tricks=r.tricks,
    )


def _table_events(view: PepperView, dealer: int, number: int) -> list[PepperEvent]:
    """The hand on the table: deal, auction, trump, tricks, the trick in progress."""
    out = [PepperEvent("deal", dealer, number=number)]
    for seat, bid in view.auction:
        out.append(PepperEvent("pass", seat) if bid == "pass" else PepperEvent("bid", seat, bid))
    if view.trump is not None and view.bidder is not None:
        out.append(PepperEvent("trump", view.bidder, view.trump))
    for trick in view.tricks:
        out += [PepperEvent("play", s, c) for s, c in zip(trick.seats, trick.cards, strict=True)]
        out.append(PepperEvent("trick", trick.winner))
    out += [PepperEvent("play", s, c) for s, c in view.current_trick]
    return out


def pepper_log(view: PepperView, results: Sequence[HandResult]) -> list[PepperEvent]:
    """Every event so far as ``view`` shows it, oldest first: the results of the earlier hands,
    the hand on the table action by action (with its result once it is over) and the winners.
    ``results`` are the finished hands (``PepperGame.history``, the public score pad)."""
    out: list[PepperEvent] = []
    last = results[-1] if results else None
    # Between hands (and at the end) the table still shows the hand just played.
    finished_on_table = (
        view.phase in (Phase.DEAL, Phase.OVER)
        and last is not None
        and last.bidder is not None
        and last.hand_number == view.hand_number
    )
    earlier = results[:-1] if finished_on_table else results
    out += [_result(r) for r in earlier]
    if finished_on_table:
        assert last is not None
        out += _table_events(view, last.dealer, last.hand_number)
        out.append(_result(last))
    elif view.phase not in (Phase.DEAL, Phase.OVER):
        out += _table_events(view, view.dealer, view.hand_number)
    for side in view.winners:
        out.append(PepperEvent("win", side=side, points=(view.scores[side],)))
    return out
