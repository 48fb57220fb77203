"""What happened at the Pepper table, told from the engine's log events (:mod:`pfeffer.pepper.log`):
deals, bids, trump, cards, tricks and the hands' results. The numbers are the events' (tricks and
points of a hand), the view's (sides, the tricks won so far) and the engine's (what a bid
needs); nothing here works a rule out again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.markup import escape

from pfeffer.cli.pepper_draw import (
    OBJECT,
    WITH,
    bid_text,
    card_markup,
    trump_markup,
    winners_text,
)
from pfeffer.cli.words import _, counted, said, shown
from pfeffer.pepper.game import PepperView
from pfeffer.pepper.log import PepperEvent
from pfeffer.pepper.rules import bid_terms


def _hand_so_far(log: Sequence[PepperEvent], at: int) -> list[PepperEvent]:
    """The events of the hand of ``log[at]`` before it, from its deal on."""
    out: list[PepperEvent] = []
    for e in reversed(log[:at]):
        if e.kind == "deal":
            break
        out.append(e)
    return out[::-1]


def _trick(log: Sequence[PepperEvent], at: int) -> tuple[int, list[str]]:
    """The number of the trick that ``log[at]`` ends (in its hand) and its cards as played."""
    hand = _hand_so_far(log, at)
    ends = [k for k, e in enumerate(hand) if e.kind == "trick"]
    after = ends[-1] + 1 if ends else 0
    return len(ends) + 1, [e.value for e in hand[after:] if e.kind == "play" and e.value]


def _auction_won(log: Sequence[PepperEvent], at: int, view: PepperView) -> tuple[int, str] | None:
    """Who won the auction with which bid, if the bid or pass ``log[at]`` ended it: the bidder
    names trump next, or (nothing after it yet) the table waits for them to."""
    if at + 1 < len(log):
        following = log[at + 1]
        if following.kind != "trump" or following.seat is None:
            return None
        bids = [e.value for e in _hand_so_far(log, at + 1) if e.kind == "bid" and e.value]
        return following.seat, bids[-1]
    if view.phase == "declare" and view.bidder is not None and view.high_bid is not None:
        return view.bidder, view.high_bid
    return None


def tell(log: Sequence[PepperEvent], start: int, view: PepperView) -> Iterator[tuple[str, str]]:
    """The lines for the events ``log[start:]`` (the events before them give the context: the
    number and cards of a trick), each with its event's kind; ``view`` is the table as it stands
    after them. Rich markup. The line of a ``deal`` is its header, of a ``win`` the winners.

    >>> from rich.text import Text
    >>> from pfeffer.pepper import PepperGame
    >>> from pfeffer.pepper.log import pepper_log
    >>> g = PepperGame(["Ann", "Bob", "Cy"], seed=3, dealer=0)
    >>> for a in ("deal", "2", "pass", "pass", "H"):
    ...     g.apply(a)
    >>> for kind, line in tell(pepper_log(g.view(None), g.history), 0, g.view(None)):
    ...     print(f"{kind}: {Text.from_markup(line).plain}")
    deal: Hand 1 · Ann deals
    bid: Bob bid 2.
    pass: Cy passed.
    pass: Ann passed.
    auction: Bob won the auction with 2.
    trump: Bob named ♥ hearts. Contract: Bob needs 2 tricks (2).
    """
    winners = [e.side for e in log[start:] if e.kind == "win" and e.side is not None]
    for i in range(start, len(log)):
        e = log[i]
        if e.kind == "win":
            if e.side == winners[-1]:
                yield e.kind, winners_text(view.players, winners, view.scores)
            continue
        line = _line(log, i, view)
        if line is not None:
            yield e.kind, line
        if e.kind in ("bid", "pass") and (won := _auction_won(log, i, view)) is not None:
            bidder, contract = won
            bidder_name = view.players[bidder]
            yield (
                "auction",
                said(
                    bidder_name,
                    "%(name)s won the auction with %(bid)s.",
                    "You won the auction with %(bid)s.",
                    name=f"[bold]{escape(shown(bidder_name))}[/]",
                    bid=bid_text(contract, WITH),
                ),
            )


def _line(log: Sequence[PepperEvent], i: int, view: PepperView) -> str | None:
    """The line of ``log[i]`` (not a ``win``: the winners are told together)."""
    e = log[i]
    name = view.players[e.seat] if e.seat is not None else ""
    who = f"[bold]{escape(shown(name))}[/]"
    sides = [escape(shown(s)) for s in view.side_names]
    if e.kind == "deal":
        dealer = said(name, "%(name)s deals", "You deal", name=escape(shown(name)))
        return _("Hand %(n)s · %(dealer)s") % {"n": e.number, "dealer": dealer}
    if e.kind == "pass":
        return said(name, "%(name)s passed.", "You passed.", name=who)
    if e.kind == "bid":
        return said(
            name,
            "%(name)s bid %(bid)s.",
            "You bid %(bid)s.",
            name=who,
            bid=bid_text(e.value, OBJECT),
        )
    if e.kind == "trump" and e.seat is not None:
        side = view.side_names[view.side_of(e.seat)]
        bid = [x.value for x in _hand_so_far(log, i) if x.kind == "bid" and x.value][-1]
        need = bid_terms(view.rules, len(view.players), bid).need
        named = said(
            name,
            "%(name)s named %(trump)s.",
            "You named %(trump)s.",
            name=who,
            trump=trump_markup(e.value),
        )
        contract = said(
            side,
            "Contract: %(side)s needs %(tricks)s (%(bid)s).",
            "Contract: You need %(tricks)s (%(bid)s).",
            "Contract: %(side)s need %(tricks)s (%(bid)s).",
            side=escape(shown(side)),
            tricks=counted(need, "%(n)d trick", "%(n)d tricks"),
            bid=bid_text(bid),
        )
        return f"{named} {contract}"
    if e.kind == "play" and e.value is not None:
        return said(
            name,
            "%(name)s played %(card)s.",
            "You played %(card)s.",
            name=who,
            card=card_markup(e.value),
        )
    if e.kind == "trick":
        number, cards = _trick(log, i)
        won = [0] * len(sides)
        for x in [*_hand_so_far(log, i), e]:
            if x.kind == "trick" and x.seat is not None:
                won[view.side_of(x.seat)] += 1
        tricks = " · ".join(f"{sides[s]} {n}" for s, n in enumerate(won))
        played = " ".join(card_markup(c) for c in cards)
        line = said(
            name,
            "%(name)s won trick %(number)d (%(cards)s).",
            "You won trick %(number)d (%(cards)s).",
            name=who,
            number=number,
            cards=played,
        )
        return f"  → {line} " + _("Tricks: %(tricks)s") % {"tricks": tricks}
    if e.kind == "hand" and e.seat is not None:
        bidders = view.side_of(e.seat)
        side = view.side_names[bidders]
        result = counted(
            view.tricks_in_hand,
            "%(verdict)s with %(taken)d of %(n)d trick (%(bid)s): %(points)s.",
            "%(verdict)s with %(taken)d of %(n)d tricks (%(bid)s): %(points)s.",
            verdict=verdict(side, bool(e.made)),
            taken=e.tricks[bidders],
            bid=bid_text(e.value),
            points=points_text(sides, e.points),
        )
        return result
    if e.kind == "redeal":
        return _(REDEAL)
    return None


REDEAL = "Everybody passed: the deal passes on."
"""The line of a hand that everybody passed (a played game's and the score pad's)."""


def verdict(side: str, made: bool) -> str:
    """``Ann & Cy made it`` / ``Bob went set`` (``side``: the side's name, raw; markup)."""
    if made:
        text = said(side, "%(side)s made it", "You made it", side=escape(shown(side)))
        return _markup(text, escape(shown(side)), "bold green")
    text = said(side, "%(side)s went set", "You went set", side=escape(shown(side)))
    return _markup(text, escape(shown(side)), "bold red")


def _markup(text: str, name: str, style: str) -> str:
    """``text`` with all but the name ``name`` in ``style``."""
    if name and text.startswith(name):
        return f"{name} [{style}]{text[len(name) :].strip()}[/]"
    return f"[{style}]{text}[/]"


def points_text(sides: Sequence[str], points: Sequence[int]) -> str:
    """A hand's points by side: ``Ann & Cy +4, Bob & Di +2`` (``sides`` escaped already).

    >>> points_text(["Ann", "Bob"], [-6, 2])
    'Ann -6, Bob +2'
    """
    return ", ".join(f"{name} {p:+d}" for name, p in zip(sides, points, strict=True))
