"""A compiled Pepper hand: cards as bits, hands as masks, integer actions, legal moves, trick
winners and whole random hands (deal, auction, trump, every trick, the score) in numba.

Actions are the integer ids of :class:`pfeffer.rl.spaces.PepperActionSpace`: 0 deal, 1 pass,
``2 … 1+L`` the bids of the ladder (L = 7 with 4 players, 9 with 2–3), then C D H S NT, then the 24
cards in deck order. The hands follow the default rules (``PepperRules()``: the last player must
bid, no trump allowed, penalty by player count, Big Pepper factor 2).

>>> from pfeffer.pepper.cards import parse_card, parse_mask
>>> hand = parse_mask(["9C", "AC", "JD", "9H"])
>>> led = parse_card("KH")                 # hearts led, diamonds are trumps: JD is no heart
>>> follow = int(SUIT_MASK[1, EFF[1, led]])
>>> legal_cards(hand, 1, follow) == parse_mask(["9H"])
True
>>> trick = np.array([parse_card(c) for c in ("AS", "9S", "JH", "KS")], dtype=np.int64)
>>> trick_winner(trick, 4, 1)              # JH is the left bower under diamonds
2
"""

from __future__ import annotations

import numpy as np

from pfeffer.core.compiled import jit
from pfeffer.pepper.fast.tables import EFF, SUIT_MASK, TRICK_VALUE, Int64Array

#: Length of the logs :func:`play_random_hand` writes (more than any hand's decisions).
LOG_SIZE = 64
#: Length of the ``out`` array of :func:`play_random_hand`.
OUT_SIZE = 12


@jit
def popcount(x: int) -> int:
    """The number of set bits of a mask."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@jit
def nth_bit(x: int, k: int) -> int:
    """The index of the ``k``-th (from 0, lowest first) set bit of ``x``."""
    i = 0
    while True:
        if x >> i & 1:
            if k == 0:
                return i
            k -= 1
        i += 1


@jit
def legal_cards(hand: int, trick_len: int, follow: int) -> int:
    """The cards of ``hand`` that may be played (P9): those of the suit led (mask ``follow``)
    when the trick has started and the hand has one, else the whole hand."""
    if trick_len:
        f = hand & follow
        if f:
            return f
    return hand


@jit
def trick_winner(cards: Int64Array, n: int, trump: int) -> int:
    """The index of the card that wins the trick ``cards[:n]`` (``cards[0]`` led) (P8, P9)."""
    led = EFF[trump, cards[0]]
    best = 0
    bv = TRICK_VALUE[trump, led, cards[0]]
    for i in range(1, n):
        v = TRICK_VALUE[trump, led, cards[i]]
        if v > bv:
            bv = v
            best = i
    return best


@jit
def _pick(mask: int) -> int:
    return nth_bit(mask, np.random.randint(0, popcount(mask)))


@jit
def play_random_hand(
    n: int,
    dealer: int,
    deck: Int64Array,
    hands: Int64Array,
    log_action: Int64Array,
    log_legal: Int64Array,
    log: bool,
    out: Int64Array,
) -> int:
    """Deal ``deck`` (24 card numbers: seat k takes ``deck[k*size:(k+1)*size]``, the rest is the
    dead hand with 2 players), then play the hand with uniformly random legal actions.

    ``hands`` (4 long) receives the dealt masks: the ``n`` seats, then the dead hand with 2
    players. With
    ``log`` every decision's action id and legal-action mask (bit = action id) go to
    ``log_action`` / ``log_legal``. ``out``: bidder, bid level (1 = "1"), trump, made (0/1), then
    from index 4 the tricks per side and from index 8 the points per side. Returns the number of
    decisions.
    """
    size = 6 if n == 4 else 8
    lad = 7 if n == 4 else 9
    trump0 = 2 + lad
    card0 = trump0 + 5
    for k in range(4):
        hands[k] = 0
    for k in range(24):
        hands[k // size] |= 1 << deck[k]
    steps = 0
    # auction (P6)
    high = 0
    bidder = -1
    passed = 0
    active = n
    cur = (dealer + 1) % n
    while True:
        legal = 0
        if active != 1:
            legal |= 2
        for lvl in range(high + 1, lad + 1):
            legal |= 1 << (1 + lvl)
        a = _pick(legal)
        if log:
            log_action[steps] = a
            log_legal[steps] = legal
        steps += 1
        if a == 1:
            passed |= 1 << cur
            active -= 1
            if active == 1 and high:
                break
        else:
            high = a - 1
            bidder = cur
            if high == lad or active == 1:
                break
        cur = (cur + 1) % n
        while passed >> cur & 1:
            cur = (cur + 1) % n
    # trump (P7)
    legal = 31 << trump0
    a = _pick(legal)
    if log:
        log_action[steps] = a
        log_legal[steps] = legal
    steps += 1
    trump = a - trump0
    # play (P8, P9)
    sides = 2 if n == 4 else n
    won = np.zeros(3, dtype=np.int64)
    leader = bidder
    for _ in range(size):
        best_v = -1
        best_seat = leader
        follow = 0
        led = 0
        for i in range(n):
            seat = (leader + i) % n
            lc = legal_cards(hands[seat], i, follow)
            c = _pick(lc)
            if log:
                log_action[steps] = c + card0
                log_legal[steps] = lc << card0
            steps += 1
            hands[seat] ^= 1 << c
            if i == 0:
                led = EFF[trump, c]
                follow = SUIT_MASK[trump, led]
            v = TRICK_VALUE[trump, led, c]
            if v > best_v:
                best_v = v
                best_seat = seat
        won[best_seat % 2 if n == 4 else best_seat] += 1
        leader = best_seat
    # score (P10)
    bs = bidder % 2 if n == 4 else bidder
    need = size if high >= lad - 1 else high
    made = won[bs] >= need
    out[0] = bidder
    out[1] = high
    out[2] = trump
    out[3] = 1 if made else 0
    for s in range(sides):
        out[4 + s] = won[s]
        out[8 + s] = won[s]
    if high == lad:
        out[8 + bs] = 2 * size if made else -2 * size
    elif not made:
        out[8 + bs] = -size
    for k in range(24):  # restore the dealt hands for the caller
        hands[k // size] |= 1 << deck[k]
    return steps


@jit
def seed(value: int) -> None:
    """Seed the kernels' random generator (numba keeps its own, apart from numpy's)."""
    np.random.seed(value)


@jit
def shuffle(deck: Int64Array) -> None:
    """Shuffle ``deck`` in place (Fisher-Yates with the kernels' generator)."""
    for i in range(len(deck) - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        deck[i], deck[j] = deck[j], deck[i]


@jit
def random_hands(n: int, count: int, dealer: int) -> int:
    """Play ``count`` random hands (shuffle, deal, auction, trump, tricks, score) with ``n``
    players; returns the sum of all points scored (a checksum)."""
    deck = np.arange(24, dtype=np.int64)
    hands = np.zeros(4, dtype=np.int64)
    log_a = np.zeros(1, dtype=np.int64)
    out = np.zeros(OUT_SIZE, dtype=np.int64)
    total = 0
    for _ in range(count):
        shuffle(deck)
        play_random_hand(n, dealer, deck, hands, log_a, log_a, False, out)
        for s in range(3):
            total += out[8 + s]
        dealer = (dealer + 1) % n
    return total


__all__ = [
    "LOG_SIZE",
    "OUT_SIZE",
    "legal_cards",
    "nth_bit",
    "play_random_hand",
    "popcount",
    "random_hands",
    "seed",
    "shuffle",
    "trick_winner",
]
