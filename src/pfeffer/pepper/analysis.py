"""Help at the table: what the expert would play and why (:func:`hint`), and after a hand the
double-dummy review of one side's play (:func:`review_hand`).

Pure functions of a seat's view or of a game record: front ends only draw the answers. Reasons
and review lines are English message ids of the gettext catalogues (``pfeffer.web.i18n``), so
each front end shows them in its language: pass ``gettext`` (and ``ngettext``) to
:meth:`Hint.text` and :meth:`HandReview.lines`.

>>> from pfeffer.pepper import PepperGame
>>> g = PepperGame(players=4, seed=1, dealer=0)
>>> g.deal([["JC", "TH", "9H", "AS", "AD", "JS"], ["9C", "JH", "JD", "AH", "KH", "QH"],
...         ["AC", "QC", "9S", "TS", "9D", "TD"], ["KC", "TC", "QS", "KS", "QD", "KD"]])
>>> for a in ("small", "pass", "pass", "pass", "H", "9C"):
...     g.apply(a)
>>> h = hint(g.view(2), worlds=20)
>>> h.action, h.reason            # AC is the top club: it takes the trick, KC cannot
('AC', 'wins the trick cheaply')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pfeffer.pepper.cards import CARD_INDEX, EFFECTIVE_SUIT, TRICK_VALUE, parse_trump
from pfeffer.pepper.game import PepperGame, PepperView
from pfeffer.pepper.rules import bid_ladder

#: Every reason a hint can give (English; the msgids of the catalogues).
REASONS = (
    "the only legal card",
    "saves the contract",
    "sets the contract",
    "draws the last trumps",
    "draws trumps",
    "trumps the trick",
    "wins the trick cheaply",
    "cashes a sure winner",
    "leaves the trick to the partner",
    "plays low: the trick is lost anyway",
    "throws away the least useful card",
    "gives the best result on average",
    "everybody else passed: a bid is a must",
    "the hand should take every trick",
    "bids what the hand should make",
    "leaves the contract to the partner",
    "passes: no bid pays off here",
    "names the trump with the best prospects",
)
#: A card changes the chance to make (or set) the contract by at least this much to be "the"
#: reason.
CONTRACT_SWING = 0.25


@dataclass(frozen=True, slots=True)
class Hint:
    """What the expert would do (``action``, an action string) and why (``reason``, one of
    :data:`REASONS`); ``values`` are its expected values per action considered."""

    action: str
    reason: str
    values: dict[str, float] = field(default_factory=dict)

    def text(self, gettext: Callable[[str], str] = str) -> str:
        """The reason in the language of ``gettext``."""
        return gettext(self.reason)

    def to_dict(self, gettext: Callable[[str], str] = str) -> dict[str, Any]:
        """JSON-ready, for a front end: the action, the reason (msgid) and its text.

        >>> Hint("JD", "draws trumps").to_dict()
        {'action': 'JD', 'reason': 'draws trumps', 'text': 'draws trumps'}
        """
        return {"action": self.action, "reason": self.reason, "text": self.text(gettext)}


def legal_from_view(view: PepperView) -> list[str]:
    """The legal actions of the viewer (the engine's rules, worked out from the view alone).

    >>> from pfeffer.pepper import PepperGame
    >>> g = PepperGame(players=3, seed=2, dealer=0)
    >>> g.apply("deal"); g.apply("pass"); g.apply("pass")
    >>> legal_from_view(g.view(0)) == g.legal_actions()      # seat 0 must bid
    True
    """
    if view.phase == "play":
        t = parse_trump(view.trump)
        cards = sorted(view.hand, key=CARD_INDEX.__getitem__)
        if view.current_trick:
            led = EFFECTIVE_SUIT[t][CARD_INDEX[view.current_trick[0][1]]]
            follow = [c for c in cards if EFFECTIVE_SUIT[t][CARD_INDEX[c]] == led]
            return follow or cards
        return cards
    if view.phase == "declare":
        return list(view.rules.trumps)
    if view.phase == "auction":
        ladder = bid_ladder(len(view.players))
        high = ladder.index(view.high_bid) + 1 if view.high_bid else 0
        passes = sum(1 for _, c in view.auction if c == "pass")
        forced = (
            view.rules.all_pass == "last_must_bid" and high == 0 and passes == len(view.players) - 1
        )
        return ([] if forced else ["pass"]) + list(ladder[high:])
    return []


def hint(
    view: PepperView,
    legal: Sequence[str] | None = None,
    worlds: int | None = None,
    seed: int | None = 0,
) -> Hint:
    """What the expert (:class:`~pfeffer.pepper.expert.ExpertBot`, ``worlds`` worlds, default
    100) would do in ``view`` and a short reason. ``legal`` defaults to the legal actions worked
    out from the view. The same view and seed give the same hint."""
    from pfeffer.pepper.expert import DEFAULT_WORLDS, ExpertBot

    if view.seat is None or view.current_player != view.seat:
        raise ValueError("a hint is for the player whose turn it is")
    actions = list(legal) if legal is not None else legal_from_view(view)
    if not actions:
        raise ValueError("there is nothing to decide in this position")
    bot = ExpertBot(worlds=worlds or DEFAULT_WORLDS, seed=seed)
    if view.phase == "play":
        return _card_hint(bot, view, actions)
    if view.phase == "auction":
        values = bot.call_values(view, actions)
        best = max(values.values())
        action = next(a for a in actions if values[a] >= best - 1e-9)
        return Hint(action, _bid_reason(view, actions, action), values)
    values = bot.trump_values(view, bot.bid_worlds, view.high_bid or "1")
    action = max(actions, key=lambda t: values.get(t, -1e9))
    return Hint(action, "names the trump with the best prospects", values)


def _bid_reason(view: PepperView, actions: list[str], action: str) -> str:
    if "pass" not in actions and action == actions[0]:
        return "everybody else passed: a bid is a must"
    if action in ("small", "big"):
        return "the hand should take every trick"
    if action != "pass":
        return "bids what the hand should make"
    n = len(view.players)
    if n == 4 and view.bidder is not None and view.bidder % 2 == (view.seat or 0) % 2:
        return "leaves the contract to the partner"
    return "passes: no bid pays off here"


def _card_hint(bot: Any, view: PepperView, actions: list[str]) -> Hint:
    from pfeffer.pepper.expert import counted_seats, equivalent_groups, utilities

    if len(actions) == 1:
        return Hint(actions[0], "the only legal card", {})
    groups = equivalent_groups(view, actions)
    reps = [g[-1] for g in groups]
    hands = bot._worlds(view, bot.worlds)  # the same worlds as the expert's play
    tricks = bot.card_tricks(view, reps, hands)
    n = len(view.players)
    me = view.seat
    assert me is not None and view.bidder is not None and view.high_bid is not None
    remaining = view.tricks_in_hand - len(view.tricks)
    u = np.array(
        utilities(
            view.rules, n, me, view.bidder, view.high_bid, view.tricks_won, remaining,
            view.scores, bot.outlook(view),
        )
    )[tricks].mean(axis=0)  # fmt: skip
    t = parse_trump(view.trump)

    def key(i: int) -> tuple[float, int]:
        c = CARD_INDEX[reps[i]]
        return (round(float(u[i]), 9), -TRICK_VALUE[t][EFFECTIVE_SUIT[t][c]][c])

    best = max(range(len(reps)), key=key)
    card = reps[best]
    values = {c: float(u[i]) for i, c in enumerate(reps)}
    # the chance to make the contract after each card
    maxs = counted_seats(n, me, view.bidder)
    bside = view.side_of(view.bidder)
    ours = bool(maxs >> view.bidder & 1)
    won = view.tricks_won[bside]
    bidder_tricks = won + (tricks if ours else remaining - tricks)
    need = view.tricks_needed or 0
    made = (bidder_tricks >= need).mean(axis=0)
    others = [float(made[i]) for i in range(len(reps)) if i != best]
    if ours and others and made[best] - max(others) >= CONTRACT_SWING:
        return Hint(card, "saves the contract", values)
    if not ours and others and min(others) - made[best] >= CONTRACT_SWING:
        return Hint(card, "sets the contract", values)
    return Hint(card, _play_reason(view, card, actions), values)


def _play_reason(view: PepperView, card: str, actions: list[str]) -> str:
    t = parse_trump(view.trump)
    c = CARD_INDEX[card]
    suit = EFFECTIVE_SUIT[t][c]
    gone = {CARD_INDEX[x] for tr in view.tricks for x in tr.cards}
    gone |= {CARD_INDEX[x] for _, x in view.current_trick}
    mine = {CARD_INDEX[x] for x in view.hand}
    n = len(view.players)
    if not view.current_trick:
        if t < 4 and suit == t:
            out = [x for x in range(24) if EFFECTIVE_SUIT[t][x] == t and x not in gone | mine]
            if out:
                return "draws the last trumps" if len(out) <= n - 1 else "draws trumps"
        higher = [
            x
            for x in range(24)
            if EFFECTIVE_SUIT[t][x] == suit
            and TRICK_VALUE[t][suit][x] > TRICK_VALUE[t][suit][c]
            and x not in gone | mine
        ]
        if not higher:
            return "cashes a sure winner"
        return "gives the best result on average"
    led = EFFECTIVE_SUIT[t][CARD_INDEX[view.current_trick[0][1]]]
    row = TRICK_VALUE[t][led]
    best_i = max(
        range(len(view.current_trick)), key=lambda i: row[CARD_INDEX[view.current_trick[i][1]]]
    )
    best_seat, best_card = view.current_trick[best_i]
    best_v = row[CARD_INDEX[best_card]]
    partner = n == 4 and best_seat % 2 == (view.seat or 0) % 2
    if row[c] > best_v:
        if suit != led and t < 4 and suit == t:
            return "trumps the trick"
        last = len(view.current_trick) == n - 1

        def sure(x: int) -> bool:  # no card still out of the suit led beats it (ruffs aside)
            return last or not any(
                row[o] > row[x]
                for o in range(24)
                if o not in gone | mine and EFFECTIVE_SUIT[t][o] == led
            )

        winners = [CARD_INDEX[a] for a in actions if row[CARD_INDEX[a]] > best_v]
        sure_winners = [w for w in winners if sure(w)]
        if sure_winners and c == min(sure_winners, key=lambda w: row[w]):
            return "wins the trick cheaply"
        return "gives the best result on average"
    if partner:
        return "leaves the trick to the partner"
    if suit == led:
        return "plays low: the trick is lost anyway"
    return "throws away the least useful card"


# ---------------------------------------------------------------------------------- review


@dataclass(frozen=True, slots=True)
class CostlyCard:
    """A card of the reviewed side after which its double-dummy total fell by ``lost``."""

    trick: int  # 1-based
    seat: int
    card: str
    lost: int


@dataclass(frozen=True, slots=True)
class HandReview:
    """One hand seen double dummy from ``seat``'s side: the tricks it could have taken with best
    play by all from the opening lead (``best``), those it took (``taken``), and its cards that
    cost tricks (double dummy before and after each of its plays)."""

    hand_index: int
    seat: int
    players: int
    bidder: int
    bid: str
    trump: str
    best: int
    taken: int
    costly: tuple[CostlyCard, ...]

    def lines(
        self,
        gettext: Callable[[str], str] = str,
        ngettext: Callable[[str, str, int], str] | None = None,
        card_text: Callable[[str], str] = str,
    ) -> list[str]:
        """The review in words (``card_text`` draws a card)."""
        ng = ngettext or (lambda one, many, k: one if k == 1 else many)
        team = self.players == 4
        if team:
            first = ng(
                "With best play your side could have taken %(best)d trick; it took %(taken)d.",
                "With best play your side could have taken %(best)d tricks; it took %(taken)d.",
                self.best,
            )
        else:
            first = ng(
                "With best play you could have taken %(best)d trick; you took %(taken)d.",
                "With best play you could have taken %(best)d tricks; you took %(taken)d.",
                self.best,
            )
        out = [first % {"best": self.best, "taken": self.taken}]
        for c in self.costly:
            line = ng(
                "%(card)s in trick %(trick)d cost a trick.",
                "%(card)s in trick %(trick)d cost %(lost)d tricks.",
                c.lost,
            )
            out.append(line % {"card": card_text(c.card), "trick": c.trick, "lost": c.lost})
        if not self.costly and self.best == self.taken:
            out.append(gettext("No card cost a trick."))
        return out

    def to_dict(
        self,
        gettext: Callable[[str], str] = str,
        ngettext: Callable[[str, str, int], str] | None = None,
        card_text: Callable[[str], str] = str,
    ) -> dict[str, Any]:
        """JSON-ready, for a front end: the figures, the costly cards and the lines in words
        (``card_text`` draws a card in them)."""
        return {
            "hand_index": self.hand_index, "seat": self.seat, "bidder": self.bidder,
            "bid": self.bid, "trump": self.trump, "best": self.best, "taken": self.taken,
            "costly": [
                {"trick": c.trick, "seat": c.seat, "card": c.card, "lost": c.lost}
                for c in self.costly
            ],
            "lines": self.lines(gettext, ngettext, card_text),
        }  # fmt: skip


def _hands(game: PepperGame) -> list[tuple[PepperGame, list[str]]]:
    """Per dealt hand: the game just before its deal and the hand's actions (deal first)."""
    record = game.to_record()
    header = {k: v for k, v in record.items() if k not in ("actions", "scores", "winners")}
    g = PepperGame.from_record({**header, "actions": []})
    out: list[tuple[PepperGame, list[str]]] = []
    for action in record["actions"]:
        if action.startswith("deal"):
            out.append((g.clone(), []))
        out[-1][1].append(action)
        g.apply(action)
    return out


def review_hand(
    source: PepperGame | dict[str, Any] | str, hand_index: int, seat: int
) -> HandReview:
    """The double-dummy review of hand ``hand_index`` (0-based, as ``game.results``) of a game
    or record, for ``seat``'s side. Raises ValueError for a hand that was not played out."""
    from pfeffer.pepper.solver import double_dummy_from

    game = source if isinstance(source, PepperGame) else PepperGame.from_record(source)
    hands = _hands(game)
    if not 0 <= hand_index < len(hands):
        raise ValueError(f"there is no hand {hand_index + 1} in this game")
    g, actions = hands[hand_index]
    n = len(g.players)
    side = g.side_of(seat)
    finished = len(g.results)
    best = None
    costly: list[CostlyCard] = []
    for action in actions:
        if g.phase != "play":
            g.apply(action)
            continue
        mover = g.current_player
        assert mover is not None
        before = g.tricks_won[side] + double_dummy_from(g, seat)
        if best is None:
            best = before
        trick_no = len(g.tricks) + 1
        g.apply(action)
        if g.side_of(mover) != side:
            continue
        if len(g.results) > finished:  # the hand's last card
            after = g.results[-1].tricks[side]
        else:
            after = g.tricks_won[side] + double_dummy_from(g, seat)
        if after < before:
            costly.append(CostlyCard(trick_no, mover, action, before - after))
    result = g.results[-1] if g.results else None
    if best is None or result is None or result.bidder is None:
        raise ValueError(f"hand {hand_index + 1} was not played out")
    return HandReview(
        hand_index, seat, n, result.bidder, str(result.bid), str(result.trump), best,
        result.tricks[side], tuple(costly),
    )  # fmt: skip


#: The review's sentences (msgids), for the catalogues.
REVIEW_TEXTS = (
    "With best play your side could have taken %(best)d trick; it took %(taken)d.",
    "With best play your side could have taken %(best)d tricks; it took %(taken)d.",
    "With best play you could have taken %(best)d trick; you took %(taken)d.",
    "With best play you could have taken %(best)d tricks; you took %(taken)d.",
    "%(card)s in trick %(trick)d cost a trick.",
    "%(card)s in trick %(trick)d cost %(lost)d tricks.",
    "No card cost a trick.",
)

__all__ = [
    "REASONS",
    "REVIEW_TEXTS",
    "CostlyCard",
    "HandReview",
    "Hint",
    "hint",
    "legal_from_view",
    "review_hand",
]
