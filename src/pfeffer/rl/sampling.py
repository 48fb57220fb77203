"""Helpers of the research adapters for dealing card by card: the engine's deal order (P4) turned
into hands and an explicit deal action. The world sampler lives in :mod:`pfeffer.pepper.worlds`;
this module re-exports it for the adapters.

>>> hands_of(list(range(24)), 4, 0)[1]
['9C', 'KC', 'JD', '9H', 'KH', 'JS']
"""

from __future__ import annotations

from pfeffer.pepper.cards import CARD_STR
from pfeffer.pepper.game import deal_order
from pfeffer.pepper.worlds import played_by_seat, sample_deal, suit_voids

DECK = 24


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
