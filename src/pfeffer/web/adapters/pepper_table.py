"""What the browser's Pepper table says about cards: the name of each of the 24 cards (msgids of
the catalogues, given to the scripts by ``js_strings`` as ``card_<code>``), so that a screen
reader says "ace of hearts" ("Herz-Ass", "srdcové eso") and not "A ♥".

>>> CARD_NAMES["TH"], len(CARD_NAMES)
('ten of hearts', 24)
"""

from __future__ import annotations

from pfeffer.pepper.cards import CARD_STR

_RANKS = {"9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}

#: Every card's English name by its code ("9C": "nine of clubs"), in deck order. Each name is a
#: msgid of its own: Czech names agree in gender ("srdcové eso", "srdcová dáma"), so a name is not
#: put together from a rank and a suit.
CARD_NAMES: dict[str, str] = {c: f"{_RANKS[c[0]]} of {_SUITS[c[1]]}" for c in CARD_STR}
