"""The Pepper card tables of :mod:`pfeffer.pepper.cards` as numpy arrays for the compiled kernels.

Indexing follows ``cards.py``: a card is ``suit * 6 + rank`` (suits C D H S, ranks 9 T J Q K A),
a trump is 0..3 for a suit or 4 for no trump, a set of cards is a 24-bit mask in an int64.

- ``EFF[trump, card]``: the suit the card belongs to (the left bower is a trump);
- ``SUIT_MASK[trump, suit]``: the cards of that suit;
- ``TRICK_VALUE[trump, led, card]``: higher wins the trick, 0 never wins;
- ``ORDER[trump, suit, i]``: the suit's cards from the highest down (``ORDER_LEN`` of them,
  then -1);
- ``STRENGTH[trump, card]``: the card's value within its own suit (trumps above every side card).

>>> from pfeffer.pepper.cards import parse_card
>>> [int(c) for c in ORDER[2, 2, : ORDER_LEN[2, 2]]] == [parse_card(c) for c in
...     ("JH", "JD", "AH", "KH", "QH", "TH", "9H")]
True
>>> int(EFF[2, parse_card("JD")]), int(ORDER_LEN[2, 1]), int(ORDER_LEN[4, 1])
(2, 5, 6)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pfeffer.pepper.cards import DECK_SIZE, EFFECTIVE_SUIT
from pfeffer.pepper.cards import SUIT_MASK as _SUIT_MASK
from pfeffer.pepper.cards import TRICK_VALUE as _TRICK_VALUE

Int64Array = npt.NDArray[np.int64]

EFF: Int64Array = np.array(EFFECTIVE_SUIT, dtype=np.int64)
SUIT_MASK: Int64Array = np.array(_SUIT_MASK, dtype=np.int64)
TRICK_VALUE: Int64Array = np.array(_TRICK_VALUE, dtype=np.int64)


def _order(trump: int, suit: int) -> list[int]:
    cards = [c for c in range(DECK_SIZE) if EFFECTIVE_SUIT[trump][c] == suit]
    return sorted(cards, key=lambda c: -_TRICK_VALUE[trump][suit][c])


ORDER: Int64Array = np.full((5, 4, 8), -1, dtype=np.int64)
ORDER_LEN: Int64Array = np.zeros((5, 4), dtype=np.int64)
STRENGTH: Int64Array = np.zeros((5, DECK_SIZE), dtype=np.int64)
for _t in range(5):
    for _s in range(4):
        _o = _order(_t, _s)
        ORDER[_t, _s, : len(_o)] = _o
        ORDER_LEN[_t, _s] = len(_o)
        for _c in _o:
            STRENGTH[_t, _c] = _TRICK_VALUE[_t][_s][_c]

__all__ = ["EFF", "ORDER", "ORDER_LEN", "STRENGTH", "SUIT_MASK", "TRICK_VALUE", "Int64Array"]
