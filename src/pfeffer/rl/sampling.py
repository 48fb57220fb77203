"""Worlds consistent with what one Pepper seat knows: the deal of the current hand, sampled
uniformly among all deals that agree with the seat's view, every revealed void respected
(the sampler lives in :mod:`pfeffer.pepper.worlds`; this module re-exports it).

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

from pfeffer.pepper.cards import CARD_STR
from pfeffer.pepper.worlds import played_by_seat, sample_deal, suit_voids

DECK = 24


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
