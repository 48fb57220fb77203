"""The 24-card Pepper deck (P1), card notation, trump ranking (P8) and the trick winner (P9).

Internally a card is a small int ``suit * 6 + rank`` with suits ``C D H S`` = 0..3 and ranks
``9 T J Q K A`` = 0..5, and a set of cards is a 24-bit mask (bit ``c`` = card ``c``). Strings exist
only at the API edge. A trump is 0..3 for a suit or :data:`NO_TRUMP` (4).

>>> parse_card("10♥"), card_str(parse_card("jc")), trick_winner(["AS", "9S", "JD", "KS"], trump="H")
(13, 'JC', 2)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from pfeffer.core.errors import InvalidAction

SUITS = "CDHS"
RANKS = "9TJQKA"
NO_TRUMP = 4
DECK_SIZE = 24
FULL_MASK = (1 << DECK_SIZE) - 1
JACK = 2

#: Canonical notation of every card, indexed by card number: "9C", "TC", … "AS".
CARD_STR: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
#: Pretty notation with suit symbols and "10": "9♣", "10♣", … "A♠".
CARD_PRETTY: tuple[str, ...] = tuple(
    ("10" if r == "T" else r) + sym for sym in "♣♦♥♠" for r in RANKS
)
#: The other suit of the same colour (clubs <-> spades, diamonds <-> hearts).
SAME_COLOUR = (3, 2, 1, 0)
#: Trump notation used in actions and records, indexed by trump number.
TRUMP_STR = ("C", "D", "H", "S", "NT")

_SUIT_ALIASES = {
    "C": 0, "♣": 0, "♧": 0,
    "D": 1, "♦": 1, "♢": 1,
    "H": 2, "♥": 2, "♡": 2,
    "S": 3, "♠": 3, "♤": 3,
}  # fmt: skip
_RANK_ALIASES = {"9": 0, "T": 1, "10": 1, "J": 2, "Q": 3, "K": 4, "A": 5}

#: Fast path of the parser: canonical strings to card numbers.
CARD_INDEX: dict[str, int] = {s: i for i, s in enumerate(CARD_STR)}


def parse_card(text: str) -> int:
    """The card number of ``text``; accepts "JC", "jc", "TH", "10H", "J♣", "10♥".

    Raises :class:`InvalidAction` for anything that is not one of the 24 cards.

    >>> [parse_card(t) for t in ("9C", "AS", "th", "10♦", "Q♠")]
    [0, 23, 13, 7, 21]
    >>> parse_card("7H")
    Traceback (most recent call last):
    pfeffer.core.errors.InvalidAction: '7H' is not a Pepper card (ranks 9 T J Q K A, suits C D H S).
    """
    c = CARD_INDEX.get(text)
    if c is not None:
        return c
    if isinstance(text, str):
        t = text.strip().replace("\ufe0f", "").upper()
        if 2 <= len(t) <= 3:
            rank = _RANK_ALIASES.get(t[:-1])
            suit = _SUIT_ALIASES.get(t[-1])
            if rank is not None and suit is not None:
                return suit * 6 + rank
    raise InvalidAction.format(
        "{text} is not a Pepper card (ranks 9 T J Q K A, suits C D H S).", text=repr(text)
    )


def card_str(card: int) -> str:
    """Canonical notation of card number ``card``.

    >>> card_str(0), card_str(13), card_str(23)
    ('9C', 'TH', 'AS')
    """
    return CARD_STR[card]


def parse_trump(text: str | None) -> int:
    """Trump number of "C", "D", "H", "S" (symbols and lowercase too), or "NT"/None for no trump.

    >>> parse_trump("h"), parse_trump("♠"), parse_trump("NT"), parse_trump(None)
    (2, 3, 4, 4)
    """
    if text is None:
        return NO_TRUMP
    if isinstance(text, str):
        t = text.strip().replace("\ufe0f", "").upper()
        if t in ("NT", "N", "NO TRUMP", "NOTRUMP", "NONE"):
            return NO_TRUMP
        s = _SUIT_ALIASES.get(t)
        if s is not None:
            return s
    raise InvalidAction.format(
        "{text} is not a trump: name C, D, H, S or NT (no trump).", text=repr(text)
    )


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask of a collection of card numbers.

    >>> mask_of([0, 2]) == 0b101
    True
    """
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Card numbers in ``mask``, in deck order (clubs 9..A, diamonds, hearts, spades).

    >>> cards_of(0b1001)
    [0, 3]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _chunk_table(offset: int) -> tuple[tuple[str, ...], ...]:
    return tuple(
        tuple(CARD_STR[offset + i] for i in range(12) if m >> i & 1) for m in range(1 << 12)
    )


_LO = _chunk_table(0)
_HI = _chunk_table(12)


def mask_strs(mask: int) -> list[str]:
    """Canonical strings of the cards in ``mask`` in deck order (table lookup, no loop).

    >>> mask_strs(parse_mask(["AS", "9C", "JD"]))
    ['9C', 'JD', 'AS']
    """
    return list(_LO[mask & 4095] + _HI[mask >> 12])


def parse_mask(cards: Iterable[str]) -> int:
    """Mask of card strings; raises :class:`InvalidAction` on bad notation or a repeated card.

    >>> parse_mask(["9C", "TC"])
    3
    """
    m = 0
    for t in cards:
        c = parse_card(t)
        if m >> c & 1:
            raise InvalidAction.format("The card {card} is listed twice.", card=CARD_STR[c])
        m |= 1 << c
    return m


def _effective_suit(trump: int, card: int) -> int:
    suit, rank = divmod(card, 6)
    if trump < 4 and rank == JACK and suit == SAME_COLOUR[trump]:
        return trump  # the left bower belongs to the trump suit
    return suit


#: EFFECTIVE_SUIT[trump][card]: the suit a card belongs to under that trump (P8).
EFFECTIVE_SUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_effective_suit(t, c) for c in range(DECK_SIZE)) for t in range(5)
)
#: SUIT_MASK[trump][suit]: the cards that belong to ``suit`` under ``trump``.
SUIT_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(mask_of(c for c in range(DECK_SIZE) if EFFECTIVE_SUIT[t][c] == s) for s in range(4))
    for t in range(5)
)


def _trump_rank(trump: int, card: int) -> int:
    """0..6 from the 9 of trumps up to the right bower."""
    suit, rank = divmod(card, 6)
    if rank == JACK:
        return 6 if suit == trump else 5
    return (0, 1, 0, 2, 3, 4)[rank]


def _value(trump: int, led: int, card: int) -> int:
    eff = EFFECTIVE_SUIT[trump][card]
    if trump < 4 and eff == trump:
        return 20 + _trump_rank(trump, card)
    if eff == led:
        return 1 + card % 6
    return 0


#: TRICK_VALUE[trump][led suit][card]: the higher value wins the trick; 0 can never win.
TRICK_VALUE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_value(t, s, c) for c in range(DECK_SIZE)) for s in range(4)) for t in range(5)
)


def trick_winner(cards: Sequence[str], trump: str | None = None) -> int:
    """Index of the card that wins a trick (P8, P9); ``cards[0]`` was led.

    ``trump`` is "C", "D", "H", "S", or None / "NT" for no trump. With a trump suit the jack of
    trumps is highest, then the other jack of the same colour (which counts as a trump, not as a
    card of its printed suit), then A K Q T 9 of trumps.

    >>> trick_winner(["AS", "9S", "JD", "KS"], trump="H")
    2
    >>> trick_winner(["AS", "9S", "JD", "KS"], trump=None)
    0
    >>> trick_winner(["JD", "AD", "9H"], trump="H")   # JD is a heart here; 9H does not beat it
    0
    """
    if not cards:
        raise InvalidAction("A trick needs at least one card.")
    t = parse_trump(trump)
    nums = [parse_card(c) for c in cards]
    if len(set(nums)) != len(nums):
        raise InvalidAction("A trick cannot contain the same card twice.")
    row = TRICK_VALUE[t][EFFECTIVE_SUIT[t][nums[0]]]
    best = 0
    for i, c in enumerate(nums):
        if row[c] > row[nums[best]]:
            best = i
    return best


#: Suits in the order a hand is shown, other things equal: clubs, hearts, spades, diamonds.
_SHOW_SUITS: tuple[int, ...] = (0, 2, 3, 1)


def _suit_blocks(present: set[int], trump: int) -> list[int]:
    """The order of the suits in a hand: trumps first, then the others so that as few
    neighbours as possible share a colour (red: diamonds and hearts)."""
    first = [trump] if trump in present else []
    start = _SHOW_SUITS.index(trump) if trump != NO_TRUMP else 0
    turn = _SHOW_SUITS[start:] + _SHOW_SUITS[:start]  # other things equal, from the trump on
    rest = [s for s in turn if s in present and s != trump]

    def clashes(order: list[int]) -> int:
        return sum((a in (1, 2)) == (b in (1, 2)) for a, b in itertools.pairwise(order))

    best = min(itertools.permutations(rest), key=lambda p: clashes(first + list(p)))
    return first + list(best)


def bower(card: str, trump: str | None) -> str | None:
    """ "right" for the jack of trumps, "left" for the other jack of the same colour (P8), else
    None (and always None under no trump or before trump is named).

    >>> bower("JH", "H"), bower("JD", "H"), bower("JC", "H"), bower("JH", "NT")
    ('right', 'left', None, None)
    """
    t = parse_trump(trump)
    c = parse_card(card)
    suit, rank = divmod(c, 6)
    if t == NO_TRUMP or rank != JACK:
        return None
    if suit == t:
        return "right"
    return "left" if suit == SAME_COLOUR[t] else None


def display_order(cards: Iterable[str], trump: str | None) -> list[str]:
    """``cards`` in the order a player likes to hold them: trumps first from the right bower
    down (the left bower among them, P8), then the other suits, their colours alternating as
    far as the hand allows, each from the ace down. Before trump is named (``trump`` None) the
    suits alternate too.

    >>> display_order(["9C", "JD", "AH", "JH", "TS", "KD"], "H")
    ['JH', 'JD', 'AH', 'TS', 'KD', '9C']
    >>> display_order(["JD", "AH", "9H", "AD", "JC", "TC"], "H")  # no spade: clubs part the reds
    ['JD', 'AH', '9H', 'JC', 'TC', 'AD']
    >>> display_order(["9C", "JD", "AH", "JH", "TS", "KD"], None)
    ['9C', 'AH', 'JH', 'TS', 'KD', 'JD']
    """
    t = parse_trump(trump)
    nums = [parse_card(x) for x in cards]
    suits = _suit_blocks({EFFECTIVE_SUIT[t][c] for c in nums}, t)

    def key(c: int) -> tuple[int, int]:
        eff = EFFECTIVE_SUIT[t][c]
        rank = _trump_rank(t, c) if t != NO_TRUMP and eff == t else c % 6
        return suits.index(eff), -rank

    return [CARD_STR[c] for c in sorted(nums, key=key)]
