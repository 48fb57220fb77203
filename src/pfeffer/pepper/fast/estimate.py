""":func:`pfeffer.pepper.bots.estimate_tricks` compiled, for many hands at once: how strong a
hand looks to a simple bidder under each trump (the expert's model of what a bid or a pass says).

>>> from pfeffer.pepper.cards import parse_mask
>>> round(estimate(parse_mask(["JH", "JD", "AH", "KH", "QH", "AS"]), 2, 4), 2)
6.0
"""

from __future__ import annotations

from pfeffer.core.compiled import jit
from pfeffer.pepper.fast.kernel import popcount
from pfeffer.pepper.fast.tables import ORDER, ORDER_LEN, STRENGTH, SUIT_MASK, Int64Array
from pfeffer.pepper.fast.winprob import FloatArray


@jit
def estimate(hand: int, t: int, players: int) -> float:
    """The tricks ``hand`` (a mask) looks worth with trump ``t`` (0..3, 4 = no trump): the
    same counting as ``estimate_tricks``."""
    total = 6 if players == 4 else 8
    est = 0.0
    if t < 4:
        n_trump = popcount(hand & SUIT_MASK[t, t])
        top = 26
        for j in range(ORDER_LEN[t, t]):
            c = ORDER[t, t, j]
            if not hand >> c & 1:
                continue
            s = STRENGTH[t, c]
            if s == top:
                est += 1.0
                top -= 1
            elif s >= 23 and n_trump >= 3:
                est += 0.75
            elif n_trump >= 3:
                est += 0.55
            else:
                est += 0.25 if s >= 22 else 0.1
        for suit in range(4):
            if suit == t:
                continue
            mine = hand & SUIT_MASK[t, suit]
            if not mine:
                if n_trump >= 3:
                    est += 0.3
                continue
            r0 = -1
            r1 = -1
            for j in range(ORDER_LEN[t, suit]):
                c = ORDER[t, suit, j]
                if mine >> c & 1:
                    if r0 < 0:
                        r0 = c % 6
                    elif r1 < 0:
                        r1 = c % 6
            if r0 == 5:
                est += 0.8 if players < 4 else 0.7
                if r1 == 4:
                    est += 0.4
            elif r0 == 4 and r1 >= 0:
                est += 0.3
    else:
        for suit in range(4):
            mine = hand & SUIT_MASK[4, suit]
            length = popcount(mine)
            expect = 5
            for j in range(ORDER_LEN[4, suit]):
                c = ORDER[4, suit, j]
                if not mine >> c & 1:
                    continue
                r = c % 6
                if r == expect:
                    est += 0.95
                    expect -= 1
                elif r == expect - 1 and length >= 2:
                    est += 0.4
                    break
                else:
                    break
    if players == 4:
        est += 1.0
    return min(est, float(total))


@jit
def estimates(hands: Int64Array, n: int, out: FloatArray) -> None:
    """``out[w, s, t]``: :func:`estimate` of seat ``s``'s hand in world ``w`` under trump ``t``
    (``hands[w, s]`` masks of the whole hand as dealt)."""
    for w in range(hands.shape[0]):
        for s in range(n):
            for t in range(5):
                out[w, s, t] = estimate(hands[w, s], t, n)


__all__ = ["estimate", "estimates"]
