"""Computer players for Pepper on the :class:`pfeffer.core.bots.Bot` interface.

Both see only a :class:`~pfeffer.pepper.game.PepperView` and the legal actions, never the game.

>>> from pfeffer.pepper import PepperGame
>>> g = PepperGame(players=4, seed=3, dealer=0)
>>> bots = [HeuristicBot(), RandomBot(1), HeuristicBot(), RandomBot(2)]
>>> while not g.is_over:
...     seat = g.current_player
...     g.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
>>> g.winners in ([0], [1], [0, 1])
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pfeffer.core.bots import Bot, BotKind, BotRegistry
from pfeffer.core.extras import require
from pfeffer.pepper.cards import (
    CARD_INDEX,
    CARD_STR,
    EFFECTIVE_SUIT,
    NO_TRUMP,
    TRICK_VALUE,
    parse_trump,
)
from pfeffer.pepper.game import PepperView

__all__ = ["EasyBot", "ExpertBot", "HeuristicBot", "RandomBot", "estimate_tricks"]


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None, name: str = "Random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def choose(self, view: PepperView, legal_actions: Sequence[str]) -> str:
        """A uniformly random legal action."""
        return self._rng.choice(list(legal_actions))


def _strength(card: int, trump: int) -> int:
    """Rank within the card's own suit under ``trump``: trumps 20..26, others 1..6."""
    led = EFFECTIVE_SUIT[trump][card]
    return TRICK_VALUE[trump][led][card]


def estimate_tricks(hand: Sequence[str], trump: str | None, players: int) -> float:
    """Rough number of tricks a hand takes with ``trump`` (None/"NT" for no trump).

    Counts the bowers, the ace and length in trumps, side aces (and guarded kings), and with 4
    players adds the partner's expected help.

    >>> round(estimate_tricks(["JH", "JD", "AH", "KH", "QH", "AS"], "H", 4), 1) >= 5.5
    True
    >>> estimate_tricks(["9C", "TD", "9H", "TH", "9S", "TS"], None, 4) < 2
    True
    """
    t = parse_trump(trump)
    cards = [CARD_INDEX.get(c, 0) for c in hand]
    total = 6 if players == 4 else 8
    est = 0.0
    if t != NO_TRUMP:
        trumps = sorted((_strength(c, t) for c in cards if EFFECTIVE_SUIT[t][c] == t), reverse=True)
        n_trump = len(trumps)
        # Top trumps: right bower (26), left bower (25), ace (24), king (23) ...
        top = 26
        for s in trumps:
            if s == top:
                est += 1.0
                top -= 1
            elif s >= 23 and n_trump >= 3:
                est += 0.75
            elif n_trump >= 3:
                est += 0.55
            else:
                est += 0.25 if s >= 22 else 0.1
        # Side suits: aces and guarded kings; voids let long trumps ruff.
        for suit in range(4):
            if suit == t:
                continue
            mine = [c for c in cards if EFFECTIVE_SUIT[t][c] == suit]
            ranks = sorted((c % 6 for c in mine), reverse=True)
            if ranks and ranks[0] == 5:
                est += 0.8 if players < 4 else 0.7
                if len(ranks) >= 2 and ranks[1] == 4:
                    est += 0.4
            elif ranks and ranks[0] == 4 and len(ranks) >= 2:
                est += 0.3
            if not mine and n_trump >= 3:
                est += 0.3
    else:
        for suit in range(4):
            ranks = sorted((c % 6 for c in cards if c // 6 == suit), reverse=True)
            expect = 5
            for r in ranks:
                if r == expect:
                    est += 0.95
                    expect -= 1
                elif r == expect - 1 and len(ranks) >= 2:
                    est += 0.4
                    break
                else:
                    break
    if players == 4:
        est += 1.0  # the partner usually takes a trick or so
    return min(est, float(total))


class HeuristicBot:
    """A sensible player: bids from hand strength, picks its best trump, plays cheaply.

    Bidding estimates its tricks for every possible trump (and no trump) and bids the lowest legal
    number up to that estimate; a near-certain hand bids Small Pepper. In play it wins tricks as
    cheaply as it can, leads trumps while it holds the top one, never overtakes or trumps a
    partner's winning card, and discards its lowest card.
    """

    def __init__(self, name: str = "Heuristic", caution: float = 0.35) -> None:
        self.name = name
        self.caution = caution

    def choose(self, view: PepperView, legal_actions: Sequence[str]) -> str:
        """Pick an action for the seat whose view this is."""
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        if view.phase == "auction":
            return self._bid(view, legal)
        if view.phase == "declare":
            return self._declare(view, legal)
        if view.phase == "play":
            return self._play(view, legal)
        return legal[0]

    # ------------------------------------------------------------------------------ auction

    def _best_trump(self, view: PepperView, options: Sequence[str]) -> tuple[str, float]:
        best, best_est = options[0], -1.0
        for t in options:
            est = estimate_tricks(view.hand, None if t == "NT" else t, len(view.players))
            if t == "NT":
                est -= 0.2  # no trump is riskier: a long suit can run against us
            if est > best_est:
                best, best_est = t, est
        return best, best_est

    def _bid(self, view: PepperView, legal: list[str]) -> str:
        options = ["C", "D", "H", "S"] + (["NT"] if view.rules.no_trump else [])
        _, est = self._best_trump(view, options)
        est -= self.caution
        total = 6 if len(view.players) == 4 else 8
        numbers = [b for b in legal if b.isdigit()]
        if est >= total - 0.15 and "small" in legal:
            return "small"
        partner_high = (
            len(view.players) == 4
            and view.bidder is not None
            and view.side_of(view.bidder) == view.side_of(view.seat or 0)
        )
        for b in numbers:  # lowest legal number first
            if int(b) <= est and not (partner_high and int(b) > est - 1.5):
                return b
        if "pass" in legal:
            return "pass"
        return numbers[0] if numbers else legal[0]

    def _declare(self, view: PepperView, legal: list[str]) -> str:
        return self._best_trump(view, legal)[0]

    # --------------------------------------------------------------------------------- play

    def _play(self, view: PepperView, legal: list[str]) -> str:
        t = parse_trump(view.trump)
        cards = [CARD_INDEX[c] for c in legal]
        me = view.seat if view.seat is not None else 0

        def low_key(c: int) -> tuple[int, int]:
            is_trump = t != NO_TRUMP and EFFECTIVE_SUIT[t][c] == t
            return (1 if is_trump else 0, _strength(c, t))

        if not view.current_trick:
            return self._lead(view, cards, t)
        trick = [CARD_INDEX[c] for _, c in view.current_trick]
        led = EFFECTIVE_SUIT[t][trick[0]]
        row = TRICK_VALUE[t][led]
        best_i = max(range(len(trick)), key=lambda i: row[trick[i]])
        best_seat = view.current_trick[best_i][0]
        best_v = row[trick[best_i]]
        last = len(trick) == len(view.players) - 1
        partner_winning = len(view.players) == 4 and view.side_of(best_seat) == view.side_of(me)
        if partner_winning and (last or best_v >= 24 or (best_v >= 6 and best_v < 20 and led != t)):
            return _str(min(cards, key=low_key))
        winners = [c for c in cards if row[c] > best_v]
        if winners and not partner_winning:
            return _str(min(winners, key=lambda c: row[c]))  # win as cheaply as possible
        return _str(min(cards, key=low_key))

    def _lead(self, view: PepperView, cards: list[int], t: int) -> str:
        played = {CARD_INDEX[c] for tr in view.tricks for c in tr.cards}
        mine = set(cards)
        hand = [CARD_INDEX[c] for c in view.hand]
        bidder_side = view.bidder is not None and view.side_of(view.bidder) == view.side_of(
            view.seat or 0
        )
        if t != NO_TRUMP:
            trumps = sorted(
                (c for c in cards if EFFECTIVE_SUIT[t][c] == t), key=lambda c: -_strength(c, t)
            )
            outstanding = [
                c
                for c in range(24)
                if EFFECTIVE_SUIT[t][c] == t and c not in played and c not in mine
            ]
            top_out = max((_strength(c, t) for c in outstanding), default=0)
            strong = trumps and (_strength(trumps[0], t) > top_out or len(trumps) >= 3)
            if strong and bidder_side and outstanding:
                return _str(trumps[0])
        # A side card that is the highest left in its suit.
        for c in sorted(cards, key=lambda c: -(c % 6)):
            suit = EFFECTIVE_SUIT[t][c]
            if t != NO_TRUMP and suit == t:
                continue
            higher = [
                o
                for o in range(24)
                if EFFECTIVE_SUIT[t][o] == suit
                and _strength(o, t) > _strength(c, t)
                and o not in played
                and o not in mine
            ]
            if not higher:
                return _str(c)
        # Otherwise the lowest card of the longest non-trump suit.
        suits: dict[int, list[int]] = {}
        for c in hand:
            if c in mine:
                suits.setdefault(EFFECTIVE_SUIT[t][c], []).append(c)
        side = [s for s in suits if t == NO_TRUMP or s != t]
        if side:
            longest = max(side, key=lambda s: len(suits[s]))
            return _str(min(suits[longest], key=lambda c: _strength(c, t)))
        return _str(min(cards, key=lambda c: _strength(c, t)))


def _str(card: int) -> str:
    return CARD_STR[card]


class EasyBot:
    """The ``easy`` level: :class:`HeuristicBot`'s choice, but one time in three (``blunder``) a
    random legal action instead.

    >>> bot = EasyBot(seed=1)
    >>> bot.name, bot.blunder
    ('Easy', 0.33)
    """

    def __init__(self, seed: int | None = None, name: str = "Easy", blunder: float = 0.33) -> None:
        self.name = name
        self.blunder = blunder
        self._rng = random.Random(seed)
        self._heuristic = HeuristicBot(name=name)

    def choose(self, view: PepperView, legal_actions: Sequence[str]) -> str:
        """Usually the heuristic's action, sometimes a random legal one."""
        if self._rng.random() < self.blunder:
            return self._rng.choice(list(legal_actions))
        return self._heuristic.choose(view, legal_actions)


#: The declarer's discount by world count and player count, where it differs from the expert's
#: (:data:`pfeffer.pepper.expert.DECLARER_DISCOUNT`, for suit and no trump alike): with 12 worlds
#: (the ``hard`` level) the call chosen is more often the one whose few worlds fell luckily (the
#: winner's curse), and with 4 players it bid more than it made (75% of contracts made against
#: 86% forecast, 2,000 hands; docs/pepper-ai.md "Bidding, measured"); 0.75 tricks made 84% of
#: them and won 0.11 ± 0.05 points a hand head to head against 0.4.
WORLDS_DISCOUNT: dict[int, dict[int, float]] = {12: {4: 0.75}}


def ExpertBot(  # noqa: N802 - a class-like factory, so that importing bots stays light
    worlds: int | None = None,
    seed: int | None = None,
    name: str = "Expert",
    discount: dict[int, float] | None = None,
) -> Bot[PepperView]:
    """The expert player (:class:`pfeffer.pepper.expert.ExpertBot`, 100 worlds a decision):
    samples the unseen cards and solves each world double dummy. ``discount``: the declarer's
    discount by player count where it differs from the expert's (default: by the world count,
    :data:`WORLDS_DISCOUNT`).

    >>> ExpertBot().name
    'Expert'
    """
    from pfeffer.pepper.expert import DEFAULT_WORLDS
    from pfeffer.pepper.expert import ExpertBot as _Expert

    count = DEFAULT_WORLDS if worlds is None else worlds
    if discount is None:
        discount = WORLDS_DISCOUNT.get(count)
    return _Expert(worlds=count, seed=seed, name=name, suit_discount=discount, nt_discount=discount)


#: Worlds a decision of the ``hard`` and ``expert`` levels.
LEVEL_WORLDS = {"hard": 12, "expert": 100}
#: What needs the extra 'ai' at a level (msgids: the missing-extra message names it).
LEVEL_NEEDS = {"hard": "The hard computer player", "expert": "The expert computer player"}


def _level_bot(*, name: str, seed: int | None, level: str) -> Bot[PepperView]:
    if level == "easy":
        return EasyBot(seed, name=name)
    if level == "medium":
        return HeuristicBot(name=name)
    require("ai", LEVEL_NEEDS[level])  # double dummy: numba kernels
    return ExpertBot(LEVEL_WORLDS[level], seed=seed, name=name)


def _random_bot(*, name: str, seed: int | None, level: str) -> RandomBot:
    return RandomBot(seed, name=name)


def _heuristic_bot(*, name: str, seed: int | None, level: str) -> HeuristicBot:
    return HeuristicBot(name=name)


#: Pepper's computer players (the terminal, the web server and benchmarks make them here).
PEPPER_BOTS: BotRegistry[PepperView] = BotRegistry(
    "pepper",
    [
        BotKind(
            "heuristic",
            "Heuristic",
            "estimates its tricks per trump, bids and plays by rules of thumb",
            ("normal",),
            _heuristic_bot,
        ),
        BotKind("random", "Random", "any legal card or bid at random", ("random",), _random_bot),
        BotKind(
            "expert",
            "Expert",
            "levels: expert and hard sample the unseen cards and solve each world double dummy "
            "(100 and 12 worlds a decision), medium is the heuristic, easy the heuristic with "
            "random slips",
            ("expert", "hard", "medium", "easy"),
            _level_bot,
        ),
    ],
)
