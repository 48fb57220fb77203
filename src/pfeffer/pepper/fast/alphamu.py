"""One step against strategy fusion (after αμ, Cazenave and Ventos 2019): the expert's next own
card is chosen once per information set instead of once per world.

Sampled worlds solved double dummy assume that the player will later know every card (it picks
its next card world by world: strategy fusion). Here, after each candidate card, every world is
played on with double-dummy best moves by the other seats until the player is to move again; there
its next card is solved in every world, and the caller then picks one next card for all worlds
that show the same cards played in between (the same information set) before averaging. Only the
player's own next decision is fixed; later ones stay double dummy.

>>> import numpy as np
>>> from pfeffer.pepper.cards import parse_card, parse_mask
>>> hands = np.array([[parse_mask(h) for h in (["AS", "KH"], ["QS", "AH"], ["JS", "9S"],
...                   ["TS", "QH"])]], dtype=np.int64)
>>> seq, vals = next_move_values(hands, 4, 4, 0b0101, np.zeros(4, dtype=np.int64), 0, 0,
...                              np.array([parse_card("AS")], dtype=np.int64))
>>> int(vals[0, 0, parse_card("KH")])    # AS wins, then KH loses to AH: one trick
1
"""

from __future__ import annotations

import numpy as np

from pfeffer.core.compiled import jit
from pfeffer.pepper.fast.batch import solve_from
from pfeffer.pepper.fast.dd import _GEN, _MAXS, _N, _TRUMP, TT_SIZE
from pfeffer.pepper.fast.kernel import trick_winner
from pfeffer.pepper.fast.tables import EFF, SUIT_MASK, Int64Array


@jit
def _after(
    h: Int64Array, tr: Int64Array, tlen: int, leader: int, card: int, seat: int,
    p: Int64Array, tt: Int64Array,
) -> int:  # fmt: skip
    """The max side's tricks still to play (the current one included) once ``seat`` plays
    ``card`` (``h`` and ``tr`` are restored)."""
    n = p[_N]
    maxs = p[_MAXS]
    h[seat] ^= 1 << card
    tr[tlen] = card
    if tlen + 1 == n:
        win = (leader + trick_winner(tr, n, p[_TRUMP])) % n
        got = maxs >> win & 1
        if h[0] | h[1] | h[2] | h[3]:
            empty = np.zeros(4, dtype=np.int64)
            got += solve_from(h, empty, 0, win, p, tt, 1)
    else:
        got = solve_from(h, tr, tlen + 1, leader, p, tt, 1)
    h[seat] ^= 1 << card
    return int(got)


@jit
def _legal(hand: int, tr: Int64Array, tlen: int, t: int) -> int:
    if tlen == 0:
        return hand
    f = hand & SUIT_MASK[t, EFF[t, tr[0]]]
    return f if f else hand


@jit
def _next_move(
    hands: Int64Array, n: int, trump: int, maxs: int, trick: Int64Array, tlen0: int,
    leader0: int, cards: Int64Array, seq_out: Int64Array, val_out: Int64Array,
) -> None:  # fmt: skip
    p = np.zeros(8, dtype=np.int64)
    p[_N] = n
    p[_TRUMP] = trump
    p[_MAXS] = maxs
    p[_GEN] = 1
    tt = np.zeros(TT_SIZE, dtype=np.int64)
    me = (leader0 + tlen0) % n
    h = np.zeros(4, dtype=np.int64)
    tr = np.zeros(4, dtype=np.int64)
    for w in range(hands.shape[0]):
        for k in range(cards.shape[0]):
            for i in range(4):
                h[i] = hands[w, i]
            for i in range(tlen0):
                tr[i] = trick[i]
            tlen = tlen0
            leader = leader0
            credited = 0
            seq = 0
            seat = me
            card = cards[k]
            while True:
                # play ``card`` for ``seat``
                h[seat] ^= 1 << card
                tr[tlen] = card
                tlen += 1
                if seat != me:
                    seq = seq * 25 + card + 1
                if tlen == n:
                    win = (leader + trick_winner(tr, n, trump)) % n
                    credited += maxs >> win & 1
                    leader = win
                    tlen = 0
                seat = (leader + tlen) % n
                if not (h[0] | h[1] | h[2] | h[3]) or seat == me:
                    break
                # the double-dummy best card of ``seat`` (ties: the lowest card number)
                legal = _legal(h[seat], tr, tlen, trump)
                mine = maxs >> seat & 1
                best = -1
                best_v = -1
                for c in range(24):
                    if legal >> c & 1:
                        v = _after(h, tr, tlen, leader, c, seat, p, tt)
                        if best < 0 or (v > best_v if mine else v < best_v):
                            best = c
                            best_v = v
                card = best
            seq_out[w, k] = seq
            for c in range(24):
                val_out[w, k, c] = -1
            if not (h[0] | h[1] | h[2] | h[3]):
                val_out[w, k, 0] = credited  # nothing left to choose: stored under card 0
                seq_out[w, k] = -1 - seq
                continue
            legal = _legal(h[me], tr, tlen, trump)
            for c in range(24):
                if legal >> c & 1:
                    val_out[w, k, c] = credited + _after(h, tr, tlen, leader, c, me, p, tt)


def next_move_values(
    hands: Int64Array, n: int, trump: int, maxs: int, trick: Int64Array, tlen: int,
    leader: int, cards: Int64Array,
) -> tuple[Int64Array, Int64Array]:  # fmt: skip
    """For each world ``w`` and candidate ``cards[k]`` of the seat to move: ``seq[w, k]``, the
    cards the other seats then play (double dummy) before its next turn, as one number (worlds
    with equal numbers are one information set; negative when the hand ends first), and
    ``vals[w, k, c]``: the max side's tricks from now when it next plays card ``c`` (-1: not
    legal; when the hand ends first, the tricks are at ``c = 0``)."""
    seq = np.zeros((hands.shape[0], cards.shape[0]), dtype=np.int64)
    vals = np.zeros((hands.shape[0], cards.shape[0], 24), dtype=np.int64)
    _next_move(hands, n, trump, maxs, trick, tlen, leader, cards, seq, vals)
    return seq, vals


__all__ = ["next_move_values"]
