"""The review of a Pepper hand just played, at the live table (``{"type": "hand_review"}``, an
addition to protocol v1 like ``hint``; docs/web.md): the double-dummy result of the deal for the
asking seat's side (a spectator: every side) and the cards that cost a trick, from
:func:`pfeffer.pepper.analysis.review_hand`, worded in the page's language and sent to the asking
connection alone. Only at tables that allow hints, and only for a finished hand.

Only what every seat has seen goes into it: a hand is reviewed once it is over, when with 3 and
4 players every card of it has been played to a trick; with 2 players the dead hand never is,
and it takes no part in the double-dummy search (the two hands are played out between
themselves), so the frame names only cards that were played (``tests/web/test_hand_review.py``).

A finished hand never changes: each review (a side of a hand of a table) is worked out once, in
a worker thread, at most :data:`AT_ONCE` at a time in the server, and kept for the :data:`KEEP`
asked last.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Self

from pfeffer.core.errors import TranslatableError
from pfeffer.web.adapters.games import adapter
from pfeffer.web.adapters.hand_review import HandReview, PepperHands, pepper_hands, review_hand
from pfeffer.web.adapters.pepper_table import CARD_NAMES
from pfeffer.web.i18n import translations
from pfeffer.web.services.live import Live
from pfeffer.web.services.looplocal import semaphore

#: Reviews worked out at the same time (a 2-player hand takes about a second).
AT_ONCE = 2
#: Reviews kept in memory: (table, hand number, side) asked last.
KEEP = 256
_cache: OrderedDict[tuple[str, int, int], HandReview] = OrderedDict()

#: The heading of a seat's review (msgid; the terminal's too, ``pfeffer.cli.pepper_advice``).
TITLE = "Review of hand %(hand)d for %(side)s:"
#: The heading of a spectator's review of every side (msgid).
TITLE_ALL = "Review of hand %(hand)d:"
#: A side's result in a spectator's review (msgid and its plural, by the tricks of best play).
SIDE_LINE = (
    "%(side)s: with best play %(best)d trick, taken %(taken)d",
    "%(side)s: with best play %(best)d tricks, taken %(taken)d",
)
#: What "best play" means, under the title (msgid): without it "could have taken 1 trick; it took
#: 2" read as a contradiction (issue 22 §2).
NOTE = (
    '"Best play" means with all cards open and every player playing perfectly (double '
    "dummy). A side can take more tricks than that when the other side gives some away."
)
#: The refusals (code, msgid).
REFUSALS = {
    "hints_off": "Hints are off at this table.",
    "hand_not_finished": "That hand is not finished yet.",
    "hand_not_played": "Everybody passed in that hand: there is nothing to review.",
    "hand_review_game": "Only Pepper hands are reviewed.",
    "malformed": "Say which hand to review by its number.",
}


class HandReviewRefused(TranslatableError):
    """No review for this question; ``code`` is the WebSocket error code."""

    code: str = "hints_off"

    @classmethod
    def coded(cls, code: str) -> Self:
        """The refusal with error ``code`` (its message is the msgid of :data:`REFUSALS`)."""
        exc = cls(REFUSALS[code])
        exc.code = code
        return exc


def sides_of(players: int) -> list[int]:
    """The seat each side is reviewed from: the side's first seat (with 4 players seats 0 and 1,
    else every seat); a side's partners share one review."""
    return [0, 1] if players == 4 else list(range(players))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def words(
    review: HandReview, lang: str, side_name: str | None = None
) -> tuple[list[str], Callable[[str], str]]:
    """The review's lines in ``lang`` (cards by their names); ``side_name`` given: a spectator's
    wording of that side's result ("Ann & Cy: with best play 5 tricks, taken 4"), not "your
    side"."""
    t = translations(lang)

    def card(code: str) -> str:
        return t.gettext(CARD_NAMES[code])

    lines = review.lines(t.gettext, t.ngettext, card)
    if side_name is not None:
        first = t.ngettext(*SIDE_LINE, review.best) % {
            "side": side_name,
            "best": review.best,
            "taken": review.taken,
        }
        lines = [first, *lines[1:]]
    return [_sentence(x) for x in lines], card


async def _reviewed(live: Live, hands: PepperHands, hand: int, seat: int) -> HandReview:
    """The review of ``hand`` for ``seat``'s side, from the cache or worked out now."""
    key = (live.id, hand, hands.side_of(seat))
    found = _cache.get(key)
    if found is None:
        async with semaphore("hand_reviews", AT_ONCE):
            found = _cache.get(key)  # worked out while this one waited
            if found is None:
                found = await asyncio.to_thread(review_hand, hands.game, hand - 1, seat)
                _cache[key] = found
    _cache.move_to_end(key)
    while len(_cache) > KEEP:
        _cache.popitem(last=False)
    return found


async def hand_review_frame(
    live: Live, seat: int | None, hand: object, lang: str
) -> dict[str, Any]:
    """The ``hand_review`` frame of hand number ``hand`` (as the view's ``hands`` number them,
    from 1) for ``seat`` (None: a spectator, every side) in ``lang``;
    :class:`HandReviewRefused` when there is none."""
    if not live.hints:
        raise HandReviewRefused.coded("hints_off")
    if live.kind != "pepper":
        raise HandReviewRefused.coded("hand_review_game")
    if not isinstance(hand, int) or isinstance(hand, bool) or hand < 1:
        raise HandReviewRefused.coded("malformed")
    hands = pepper_hands(live.table)  # a snapshot: the table is replaced, not changed
    assert hands is not None
    if hand > hands.finished:
        raise HandReviewRefused.coded("hand_not_finished")
    if not hands.played(hand):
        raise HandReviewRefused.coded("hand_not_played")
    n = hands.players
    names = adapter(live.kind).side_names(live.names)
    t = translations(lang)
    if seat is None:
        reviewed = sides_of(n)
        title = t.gettext(TITLE_ALL) % {"hand": hand}
    else:
        reviewed = [sides_of(n)[hands.side_of(seat)]]
        title = t.gettext(TITLE) % {"hand": hand, "side": names[hands.side_of(seat)]}
    sides: list[dict[str, Any]] = []
    for s in reviewed:
        review = await _reviewed(live, hands, hand, s)
        side = hands.side_of(s)
        lines, card = words(review, lang, names[side] if seat is None else None)
        data = review.to_dict(t.gettext, t.ngettext, card)
        data["lines"] = lines
        sides.append({"side": side, "name": names[side], **data})
    return {
        "type": "hand_review",
        "hand": hand,
        "seat": seat,
        "title": title,
        "note": t.gettext(NOTE),
        "sides": sides,
        "lines": [line for s in sides for line in s["lines"]],
    }


__all__ = [
    "REFUSALS",
    "HandReviewRefused",
    "hand_review_frame",
    "sides_of",
    "words",
]
