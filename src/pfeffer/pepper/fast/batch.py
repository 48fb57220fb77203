"""Many double-dummy solves in one compiled call: every candidate card in every sampled world
(the expert player's card play) and every trump in every world (its bidding).

The transposition table is shared by the solves of the different cards and worlds: its entries
hold bounds on the tricks still to come from a position described by relative ranks (who holds
the highest card still out of each suit, the next, ...), whatever led there and whichever small
cards are gone, so what one card's or world's search learnt serves the next.

>>> import numpy as np
>>> from pfeffer.pepper.cards import parse_card, parse_mask
>>> hands = np.array([[parse_mask(h) for h in (["AS", "KH"], ["QS", "AH"], ["JS", "9S"],
...                   ["TS", "QH"])]], dtype=np.int64)
>>> cards = np.array([parse_card("AS"), parse_card("KH")], dtype=np.int64)
>>> solve_cards(hands, 4, 4, 0b0101, np.zeros(4, dtype=np.int64), 0, 0, cards).tolist()
[[1, 1]]
>>> solve_trumps(hands, 4, 0b0101, 0, np.array([4, 0], dtype=np.int64)).tolist()
[[1, 2]]
"""

from __future__ import annotations

import numpy as np

from pfeffer.core.compiled import jit
from pfeffer.pepper.fast.dd import _GEN, _MAXS, _N, _TRUMP, TT_SIZE, _prepare, _search
from pfeffer.pepper.fast.kernel import trick_winner
from pfeffer.pepper.fast.tables import Int64Array


@jit
def solve_from(
    hands: Int64Array,
    trick: Int64Array,
    tlen: int,
    leader: int,
    p: Int64Array,
    tt: Int64Array,
    guess: int,
    upper: int = 99,
) -> int:
    """As :func:`pfeffer.pepper.fast.dd.solve_kernel`, but the null-window searches step from
    ``guess`` (as MTD(f) does) instead of bisecting: when a world's cards are solved one after
    another, the last card's value is usually within a trick of the next one's. ``upper``: a
    known bound on the result (no search beyond it)."""
    total, best_v, best_seat, tr, st, mv = _prepare(hands, trick, tlen, leader, p)
    top = min(total, upper)
    g = min(max(guess, 0), top)
    if g == 0:
        g = 1
    if g > top:
        return top
    if _search(hands, tr, tlen, leader, best_v, best_seat, g, p, tt, st, mv):
        while g < top and _search(hands, tr, tlen, leader, best_v, best_seat, g + 1, p, tt, st, mv):
            g += 1
        return int(g)
    g -= 1
    while g > 0 and not _search(hands, tr, tlen, leader, best_v, best_seat, g, p, tt, st, mv):
        g -= 1
    return int(g)


@jit
def _solve_cards(
    hands: Int64Array,
    n: int,
    trump: int,
    maxs: int,
    trick: Int64Array,
    tlen: int,
    leader: int,
    cards: Int64Array,
    tt: Int64Array,
    upper: Int64Array,
    out: Int64Array,
) -> None:
    p = np.zeros(8, dtype=np.int64)
    p[_N] = n
    p[_TRUMP] = trump
    p[_MAXS] = maxs
    h = np.zeros(4, dtype=np.int64)
    tr = np.zeros(4, dtype=np.int64)
    empty = np.zeros(4, dtype=np.int64)
    seat = (leader + tlen) % n
    guess = 1
    p[_GEN] = 1  # one trump and side for the whole call: the table serves every world
    for w in range(hands.shape[0]):
        ub = upper[w]
        if ub < 99:
            guess = ub  # the best card reaches the bound: one search proves it
        for k in range(cards.shape[0]):
            c = cards[k]
            for i in range(4):
                h[i] = hands[w, i]
            for i in range(tlen):
                tr[i] = trick[i]
            h[seat] ^= 1 << c
            tr[tlen] = c
            if tlen + 1 == n:
                win = (leader + trick_winner(tr, n, trump)) % n
                got = maxs >> win & 1
                if h[0] | h[1] | h[2] | h[3]:
                    got += solve_from(h, empty, 0, win, p, tt, guess - got, ub - got)
                out[w, k] = got
            else:
                out[w, k] = solve_from(h, tr, tlen + 1, leader, p, tt, guess, ub)
            guess = out[w, k]


def solve_cards(
    hands: Int64Array,
    n: int,
    trump: int,
    maxs: int,
    trick: Int64Array,
    tlen: int,
    leader: int,
    cards: Int64Array,
    tt: Int64Array | None = None,
    upper: Int64Array | None = None,
) -> Int64Array:
    """``out[w, k]``: the tricks still to play (the current one included) that the seats in
    ``maxs`` (a bit mask) take with best play when the seat to move plays ``cards[k]`` in world
    ``w``. ``hands[w]``: the 4 unplayed-card masks of world ``w`` (zeros past ``n``, no dead hand),
    the mover's card still in its hand; ``trick[:tlen]`` the current trick, led by ``leader``.
    ``tt``: a transposition table (:func:`new_table`) to reuse between calls for the same
    position, trump and ``maxs``, keeping what earlier worlds taught. ``upper[w]``: the world's
    double-dummy value when known (e.g. from :func:`solve_trumps` before the opening lead, the
    counted seats leading): no card gets more, so the best ones cost one search."""
    out = np.zeros((hands.shape[0], cards.shape[0]), dtype=np.int64)
    if tt is None:
        tt = new_table()
    upper = (
        np.full(hands.shape[0], 99, dtype=np.int64)
        if upper is None
        else np.ascontiguousarray(upper)  # one compiled version: a column slice is not
    )
    _solve_cards(hands, n, trump, maxs, trick, tlen, leader, cards, tt, upper, out)
    return out


def new_table() -> Int64Array:
    """An empty transposition table for :func:`solve_cards`."""
    return np.zeros(TT_SIZE, dtype=np.int64)


@jit
def _solve_trumps(
    hands: Int64Array, n: int, maxs: int, leader: int, trumps: Int64Array, tt: Int64Array,
    out: Int64Array,
) -> None:  # fmt: skip
    p = np.zeros(8, dtype=np.int64)
    p[_N] = n
    p[_MAXS] = maxs
    h = np.zeros(4, dtype=np.int64)
    empty = np.zeros(4, dtype=np.int64)
    guess = 1
    for w in range(hands.shape[0]):
        for k in range(trumps.shape[0]):
            p[_TRUMP] = trumps[k]
            p[_GEN] = k + 1  # the table's entries hold for one trump, in every world
            for i in range(4):
                h[i] = hands[w, i]
            out[w, k] = solve_from(h, empty, 0, leader, p, tt, out[w, k - 1] if k else guess)
        guess = out[w, 0]


def solve_trumps(
    hands: Int64Array, n: int, maxs: int, leader: int, trumps: Int64Array
) -> Int64Array:
    """``out[w, k]``: the tricks of a whole deal (``hands[w]``, 4 masks, zeros past ``n``) that the
    seats in ``maxs`` take with best play under ``trumps[k]`` (0..3, 4 = no trump), ``leader``
    leading."""
    out = np.zeros((hands.shape[0], trumps.shape[0]), dtype=np.int64)
    tt = np.zeros(TT_SIZE, dtype=np.int64)
    _solve_trumps(hands, n, maxs, leader, trumps, tt, out)
    return out


@jit
def _solve_deals(
    hands: Int64Array, n: int, jobs: Int64Array, tt: Int64Array, out: Int64Array
) -> None:
    p = np.zeros(8, dtype=np.int64)
    p[_N] = n
    h = np.zeros(4, dtype=np.int64)
    empty = np.zeros(4, dtype=np.int64)
    guess = 1
    for j in range(jobs.shape[0]):
        w = jobs[j, 0]
        p[_TRUMP] = jobs[j, 2]
        p[_MAXS] = jobs[j, 3]
        p[_GEN] = 1 + jobs[j, 2] * 16 + jobs[j, 3]  # one generation per trump and side
        for i in range(4):
            h[i] = hands[w, i]
        out[j] = solve_from(h, empty, 0, jobs[j, 1], p, tt, guess)
        guess = out[j]


def solve_deals(hands: Int64Array, n: int, jobs: Int64Array) -> Int64Array:
    """``out[j]``: the tricks of a whole deal that the seats in ``maxs`` take with best play, for
    each job ``(world, leader, trump, maxs)`` of ``jobs`` (rows), ``hands[world]`` the deal."""
    out = np.zeros(jobs.shape[0], dtype=np.int64)
    _solve_deals(hands, n, jobs, new_table(), out)
    return out


__all__ = ["new_table", "solve_cards", "solve_deals", "solve_from", "solve_trumps"]
