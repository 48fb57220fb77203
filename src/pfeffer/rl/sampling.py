"""Worlds consistent with what one Pepper seat knows: the deal of the current hand, sampled
uniformly among all deals that agree with the seat's view, every revealed void respected.

A seat that did not follow the suit led holds no card of that suit (under the trump: the left
bower is a trump, not a card of its printed suit), then and for the rest of the hand. Counting the
deals per suit and holder makes the draw exact, with no rejection:

>>> import random
>>> from pfeffer.pepper import PepperGame
>>> g = PepperGame(players=4, seed=1, dealer=0)
>>> g.deal([["9C", "TC", "JC", "QC", "KC", "AC"], ["9D", "TD", "JD", "QD", "KD", "AD"],
...         ["9H", "TH", "JH", "QH", "KH", "AH"], ["9S", "TS", "JS", "QS", "KS", "AS"]])
>>> for a in ("small", "pass", "pass", "pass", "D", "JD", "JH", "9S", "9C"):
...     g.apply(a)
>>> view = g.view(1)
>>> suit_voids(view, 4)   # seats 3 and 0 showed out of diamonds; JH is a diamond here
(2, 0, 0, 2)
>>> deal = sample_deal(view, 4, random.Random(5))
>>> deal[1] == ["9D", "TD", "JD", "QD", "KD", "AD"], "JH" in deal[2], "9S" in deal[3]
(True, True, True)
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator

from pfeffer.pepper import PepperView, cards_per_hand
from pfeffer.pepper.cards import CARD_INDEX, CARD_STR, EFFECTIVE_SUIT, parse_trump
from pfeffer.rl.observations import text

DECK = 24


def _tricks(view: PepperView) -> list[tuple[int, tuple[str, ...]]]:
    rows = [(t.leader, t.cards) for t in view.tricks]
    if view.current_trick:
        rows.append((view.current_trick[0][0], tuple(c for _, c in view.current_trick)))
    return rows


def suit_voids(view: PepperView, players: int) -> tuple[int, ...]:
    """Per seat, a bit mask of the (effective) suits C D H S = bits 0..3 it showed out of."""
    eff = EFFECTIVE_SUIT[parse_trump(view.trump)]
    out = [0] * players
    for leader, cards in _tricks(view):
        led = eff[CARD_INDEX[cards[0]]]
        for i, c in enumerate(cards[1:], 1):
            if eff[CARD_INDEX[c]] != led:
                out[(leader + i) % players] |= 1 << led
    return tuple(out)


def played_by_seat(view: PepperView, players: int) -> list[list[str]]:
    """The cards each seat has played in this hand, in order."""
    out: list[list[str]] = [[] for _ in range(players)]
    for leader, cards in _tricks(view):
        for i, c in enumerate(cards):
            out[(leader + i) % players].append(c)
    return out


def _splits(m: int, caps: tuple[int, ...], allowed: tuple[bool, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to hand ``m`` cards to the holders within ``caps`` (0 where not allowed)."""
    if not caps:
        if m == 0:
            yield ()
        return
    top = min(m, caps[0]) if allowed[0] else 0
    for k in range(top + 1):
        for rest in _splits(m - k, caps[1:], allowed[1:]):
            yield (k, *rest)


def sample_deal(view: PepperView, players: int, rng: random.Random) -> list[list[str]]:
    """A deal of the current hand (one card list per seat, plus the dead hand with 2 players),
    drawn uniformly among the deals consistent with ``view``: the viewer's cards and every card
    played stay where they are, every other seat gets its current number of unknown cards and no
    card of a suit it showed out of. Each list holds the seat's cards at the deal, deck order.

    ``view`` must be a seat's view of a dealt hand (auction, declare or play phase).
    """
    me = view.seat
    if me is None or text(view.phase) not in ("auction", "declare", "play"):
        raise ValueError("sample_deal needs a seat's view of a dealt hand")
    eff = EFFECTIVE_SUIT[parse_trump(view.trump)]
    played = played_by_seat(view, players)
    known = set(view.hand).union(*map(set, played))
    unknown = [c for c in CARD_STR if c not in known]
    voids = suit_voids(view, players)
    holders = [s for s in range(players) if s != me]
    caps = [view.hand_sizes[s] for s in holders]
    masks = [voids[s] for s in holders]
    if players == 2:  # the dead hand: never seen, never plays
        holders.append(-1)
        caps.append(cards_per_hand(2))
        masks.append(0)
    if sum(caps) != len(unknown):
        raise ValueError("the view's hand sizes do not add up to the unknown cards")
    by_suit: list[list[str]] = [[] for _ in range(4)]
    for c in unknown:
        by_suit[eff[CARD_INDEX[c]]].append(c)
    allowed = [tuple(not (m >> u) & 1 for m in masks) for u in range(4)]

    def weight(u: int, split: tuple[int, ...]) -> int:
        w = math.factorial(len(by_suit[u]))
        for k in split:
            w //= math.factorial(k)
        return w

    @functools.cache
    def count(u: int, left: tuple[int, ...]) -> int:
        if u == 4:
            return 1 if not any(left) else 0
        return sum(
            weight(u, d) * count(u + 1, tuple(a - b for a, b in zip(left, d, strict=True)))
            for d in _splits(len(by_suit[u]), left, allowed[u])
        )

    left = tuple(caps)
    if count(0, left) == 0:
        raise ValueError("no deal is consistent with this view")
    dealt: list[list[str]] = [[] for _ in holders]
    for u in range(4):
        options = []
        for d in _splits(len(by_suit[u]), left, allowed[u]):
            nxt = tuple(a - b for a, b in zip(left, d, strict=True))
            w = weight(u, d) * count(u + 1, nxt)
            if w:
                options.append((w, d, nxt))
        pick = rng.randrange(sum(w for w, _, _ in options))
        i = 0
        while pick >= options[i][0]:
            pick -= options[i][0]
            i += 1
        _, d, nxt = options[i]
        cards = by_suit[u][:]
        rng.shuffle(cards)
        at = 0
        for h, k in enumerate(d):
            dealt[h].extend(cards[at : at + k])
            at += k
        left = nxt
    hands = [list(view.hand) + played[s] if s == me else [] for s in range(players)]
    for h, s in enumerate(holders):
        if s >= 0:
            hands[s] = dealt[h] + played[s]
    if players == 2:
        hands.append(dealt[-1])
    return [sorted(h, key=CARD_INDEX.__getitem__) for h in hands]


def deal_order(players: int, dealer: int) -> tuple[int, ...]:
    """Who gets the k-th card of a deal (P4): one at a time clockwise from the left of the dealer;
    with 2 players the dead hand (index 2) takes its turn after the dealer.

    >>> deal_order(2, 0)[:6], deal_order(4, 3)[:5]
    ((1, 0, 2, 1, 0, 2), (0, 1, 2, 3, 0))
    """
    order = [(dealer + 1 + j) % players for j in range(players)]
    if players == 2:
        order.append(2)
    return tuple(order[k % len(order)] for k in range(DECK))


def hands_of(cards: list[int], players: int, dealer: int) -> list[list[str]]:
    """The hands (plus the dead hand with 2 players) when ``cards`` (card numbers, the order
    dealt) are dealt by ``dealer``, each in deck order.

    >>> hands_of(list(range(24)), 4, 0)[1]
    ['9C', 'KC', 'JD', '9H', 'KH', 'JS']
    """
    hands: list[list[int]] = [[] for _ in range(3 if players == 2 else players)]
    for card, seat in zip(cards, deal_order(players, dealer), strict=True):
        hands[seat].append(card)
    return [[CARD_STR[c] for c in sorted(h)] for h in hands]


def deal_action(hands: list[list[str]]) -> str:
    """The engine's explicit deal action for ``hands``.

    >>> deal_action([["9C", "TC"], ["AS"]])
    'deal 9C TC / AS'
    """
    return "deal " + " / ".join(" ".join(h) for h in hands)


__all__ = [
    "DECK",
    "deal_action",
    "deal_order",
    "hands_of",
    "played_by_seat",
    "sample_deal",
    "suit_voids",
]
