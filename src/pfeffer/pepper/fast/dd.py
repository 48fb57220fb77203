"""Double-dummy Pepper: with every hand open, the tricks a side takes with best play by all.

The search is a null-window alpha-beta ("can the side take at least ``target`` tricks?") driven
by a binary search on the target, as in DDS. Positions at trick boundaries go into a transposition
table keyed by the cards still out and the leader, holding lower and upper bounds on the tricks
still to come, so the bounds learnt for one target serve the next. Cards that are equivalent
(neighbours in their suit once the cards already played are taken out) are tried once; moves are
ordered (winning cheaply, leading from the top, the top trumps first while the others hold
trumps, discarding low) and the last trick is counted without search.

The side counted is the "max side"; with 4 players it is a partnership (seats ``s`` and
``s + 2``), with 2 and 3 players a single seat against the others together.

>>> from pfeffer.pepper.cards import parse_mask
>>> hands = [parse_mask(h) for h in (["AS", "KH"], ["QS", "AH"], ["JS", "9S"], ["TS", "QH"])]
>>> solve_masks(hands, trump=4, leader=0)          # no trump: AS wins, then KH loses to AH
1
>>> solve_masks(hands, trump=1, leader=0)          # diamonds: the same
1
>>> solve_masks(hands, trump=0, leader=0)          # clubs: JS is the left bower and ruffs
2
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pfeffer.core.compiled import jit
from pfeffer.pepper.fast.kernel import popcount
from pfeffer.pepper.fast.tables import (
    EFF,
    ORDER,
    ORDER_LEN,
    STRENGTH,
    SUIT_MASK,
    TRICK_VALUE,
    Int64Array,
)

TT_BITS = 14
# A table entry is two int64s: the key (:func:`_rel_key`: who holds each card still out, by its
# rank within its suit, and the leader), then lower and upper bounds on the max side's tricks
# still to come (4 bits each) and the generation (the trump and side it was learnt for).
TT_SIZE = 2 << TT_BITS
# p (the search parameters): players, trump, max-side seats (bit mask), table generation, tricks
# still to play.
_N, _TRUMP, _MAXS, _GEN, _TOTAL = range(5)
# st (one row per ply of the search): the node's state and where its move loop is.
(_TL, _LEAD, _BV, _BS, _WON, _LOST, _KEY, _IDX, _LB, _UB, _SEAT, _MINE, _LED, _K, _I, _RES) = range(
    16
)


@jit
def _tt_index(key: int) -> int:
    return ((key * 0x9E3779B97F4A7C15) >> (64 - TT_BITS)) & ((1 << TT_BITS) - 1)


@jit
def _rel_key(hands: Int64Array, t: int, leader: int) -> int:
    """A trick-boundary position by relative ranks: per suit, the holder (2 bits) of each card
    still out from the top down, then the suit's count (3 bits); the leader last. Which cards of
    a suit are gone does not matter, only who holds the rest in which order, so positions that
    differ in the small cards already played share an entry, across worlds too (at most 24 cards
    out: 62 bits)."""
    key = 0
    for s in range(4):
        cnt = 0
        for j in range(ORDER_LEN[t, s]):
            c = ORDER[t, s, j]
            if hands[0] >> c & 1:
                key = key << 2
            elif hands[1] >> c & 1:
                key = key << 2 | 1
            elif hands[2] >> c & 1:
                key = key << 2 | 2
            elif hands[3] >> c & 1:
                key = key << 2 | 3
            else:
                continue
            cnt += 1
        key = key << 3 | cnt
    return key << 2 | leader


@jit
def _last_trick(hands: Int64Array, n: int, t: int, leader: int, maxs: int) -> int:
    """1 if the max side wins the trick where every hand plays its only card, else 0."""
    lead = 0
    while not hands[leader] >> lead & 1:
        lead += 1
    led = EFF[t, lead]
    best = TRICK_VALUE[t, led, lead]
    who = leader
    for i in range(1, n):
        s = (leader + i) % n
        c = 0
        while not hands[s] >> c & 1:
            c += 1
        v = TRICK_VALUE[t, led, c]
        if v > best:
            best = v
            who = s
    return maxs >> who & 1


@jit
def _sure_trumps(hands: Int64Array, t: int, maxs: int) -> int:
    """Tricks the side holding the highest trump is sure of: each card of the top run of trumps
    (all held by that side) wins the trick it is played to, and one hand's cards go to different
    tricks, so the most such cards in one hand. Positive for the max side, negative for the other.
    """
    c0 = c1 = c2 = c3 = 0
    side = -1
    for j in range(ORDER_LEN[t, t]):
        c = ORDER[t, t, j]
        if hands[0] >> c & 1:
            owner = 0
        elif hands[1] >> c & 1:
            owner = 1
        elif hands[2] >> c & 1:
            owner = 2
        elif hands[3] >> c & 1:
            owner = 3
        else:
            continue
        mine = maxs >> owner & 1
        if side < 0:
            side = mine
        elif mine != side:
            break
        if owner == 0:
            c0 += 1
        elif owner == 1:
            c1 += 1
        elif owner == 2:
            c2 += 1
        else:
            c3 += 1
    best = max(c0, c1, c2, c3)
    return best if side == 1 else -best


@jit
def _quick_tricks(hands: Int64Array, n: int, t: int, leader: int, maxs: int) -> int:
    """Tricks the leader takes at once by cashing winners from its own hand: in each side suit
    the run of highest cards still out that it holds, as long as every opponent holding a trump
    still follows (cashing side suits first keeps that true), then its run of top trumps. A lower
    bound for the leader's side: each of these cards is the highest of the trick it leads."""
    mine = maxs >> leader & 1
    hand = hands[leader]
    opp_trumps = 0
    for o in range(n):
        if (maxs >> o & 1) != mine and t < 4 and hands[o] & SUIT_MASK[t, t]:
            opp_trumps |= 1 << o
    q = 0
    for s in range(4):
        if not hand & SUIT_MASK[t, s]:
            continue
        run = 0
        for j in range(ORDER_LEN[t, s]):
            c = ORDER[t, s, j]
            if hand >> c & 1:
                run += 1
            elif (hands[0] | hands[1] | hands[2] | hands[3]) >> c & 1:
                break
        if s != t and opp_trumps:
            for o in range(n):
                if opp_trumps >> o & 1:
                    run = min(run, popcount(hands[o] & SUIT_MASK[t, s]))
        q += run
    return q


@jit
def _moves(
    hands: Int64Array,
    trick: Int64Array,
    ts: int,
    tlen: int,
    leader: int,
    best_v: int,
    best_seat: int,
    p: Int64Array,
    out: Int64Array,
) -> int:
    """Write the moves worth trying for the seat to play into ``out``, best first; return how
    many. One card of each run of equivalent cards; ordered by a cheap heuristic. The cards of
    the current trick are ``trick[ts : ts + tlen]``."""
    n = p[_N]
    t = p[_TRUMP]
    maxs = p[_MAXS]
    seat = (leader + tlen) % n
    hand = hands[seat]
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    for i in range(tlen):
        alive |= 1 << trick[ts + i]
    led = -1
    legal = hand
    if tlen:
        led = EFF[t, trick[ts]]
        f = hand & SUIT_MASK[t, led]
        if f:
            legal = f
    mine = maxs >> seat & 1
    partner_wins = tlen > 0 and (maxs >> best_seat & 1) == mine
    k = 0
    scores = out[8:16]
    for s in range(4):
        if not legal & SUIT_MASK[t, s]:
            continue
        prev_mine = False
        first = True
        top_is_ours = False
        partner_top = False
        for j in range(ORDER_LEN[t, s]):
            c = ORDER[t, s, j]
            if not alive >> c & 1:
                continue
            if first and tlen == 0 and not legal >> c & 1:
                for o in range(4):
                    if hands[o] >> c & 1 and (maxs >> o & 1) == mine:
                        partner_top = True
            if legal >> c & 1:
                if first:
                    top_is_ours = True
                if not prev_mine:
                    if tlen == 0:
                        if top_is_ours and first:
                            sc = 100 - popcount(hand & SUIT_MASK[t, s])
                            if s == t:
                                for o in range(n):  # draw the others' trumps first
                                    if (maxs >> o & 1) != mine and hands[o] & SUIT_MASK[t, t]:
                                        sc = 110
                        elif partner_top:
                            sc = 90 - STRENGTH[t, c]
                        else:
                            sc = 40 + STRENGTH[t, c]
                    else:
                        v = TRICK_VALUE[t, led, c]
                        if partner_wins:
                            sc = 40 - STRENGTH[t, c]
                        elif v > best_v:
                            sc = 100 - v
                        else:
                            sc = 30 - STRENGTH[t, c]
                    # insertion into the sorted list
                    i = k
                    while i > 0 and scores[i - 1] < sc:
                        out[i] = out[i - 1]
                        scores[i] = scores[i - 1]
                        i -= 1
                    out[i] = c
                    scores[i] = sc
                    k += 1
                prev_mine = True
            else:
                prev_mine = False
            first = False
    return k


@jit
def _search(
    hands: Int64Array,
    trick: Int64Array,
    tlen0: int,
    leader0: int,
    best_v0: int,
    best_seat0: int,
    target: int,
    p: Int64Array,
    tt: Int64Array,
    st: Int64Array,
    mv: Int64Array,
) -> bool:
    """Whether the max side takes at least ``target`` of the tricks still to play, with best play
    (an iterative null-window alpha-beta; ``st`` and ``mv`` hold one row per ply). The cards of
    the current trick are ``trick[:tlen0]``; the card played at ply ``d`` goes to
    ``trick[tlen0 + d]``, so a trick's cards stay in place while its subtree is searched."""
    base = tlen0
    total = p[_TOTAL]
    n = p[_N]
    t = p[_TRUMP]
    maxs = p[_MAXS]
    gen = p[_GEN]
    d = 0
    st[0, _TL] = tlen0
    st[0, _LEAD] = leader0
    st[0, _BV] = best_v0
    st[0, _BS] = best_seat0
    st[0, _WON] = 0
    st[0, _LOST] = 0
    entering = True
    res = False
    while True:
        if entering:
            # ---- enter node d: cut-offs, table, moves
            won = st[d, _WON]
            lost = st[d, _LOST]
            tlen = st[d, _TL]
            leader = st[d, _LEAD]
            st[d, _KEY] = -1
            done = False
            if won >= target:
                res = True
                done = True
            elif total - lost < target:
                res = False
                done = True
            else:
                need = target - won
                lb = 0
                ub = total - won - lost
                if tlen == 0:
                    if ub == 1:
                        res = _last_trick(hands, n, t, leader, maxs) >= need
                        done = True
                    else:
                        key = _rel_key(hands, t, leader)
                        idx = 2 * _tt_index(key)
                        e = tt[idx + 1]
                        if tt[idx] == key and e >> 8 == gen:
                            lb = e & 15
                            ub = e >> 4 & 15
                            if lb >= need:
                                res = True
                                done = True
                            elif ub < need:
                                res = False
                                done = True
                        else:
                            if t < 4:
                                sure = _sure_trumps(hands, t, maxs)
                                if sure > 0:
                                    lb = sure
                                elif sure < 0:
                                    ub += sure
                            quick = _quick_tricks(hands, n, t, leader, maxs)
                            if maxs >> leader & 1:
                                lb = max(lb, quick)
                            else:
                                ub = min(ub, total - won - lost - quick)
                            if lb >= need:
                                res = True
                                done = True
                            elif ub < need:
                                res = False
                                done = True
                        st[d, _KEY] = key
                        st[d, _IDX] = idx
                        st[d, _LB] = lb
                        st[d, _UB] = ub
                if not done:
                    seat = (leader + tlen) % n
                    st[d, _SEAT] = seat
                    st[d, _MINE] = maxs >> seat & 1
                    ts = d + base - tlen
                    st[d, _LED] = EFF[t, trick[ts]] if tlen else 0
                    st[d, _K] = _moves(
                        hands, trick, ts, tlen, leader, st[d, _BV], st[d, _BS], p, mv[d]
                    )
                    st[d, _I] = 0
            if done:
                entering = False
                if d == 0:
                    return res
                d -= 1
                hands[st[d, _SEAT]] ^= 1 << mv[d, st[d, _I] - 1]
                continue
            st[d, _RES] = 1 - st[d, _MINE]
        else:
            # ---- back in node d with the child's result ``res``
            mine = st[d, _MINE]
            if (mine == 1) == res:  # cut-off: max found a way / min found a refutation
                st[d, _RES] = 1 if res else 0
                st[d, _I] = st[d, _K]
        # ---- node d: next move, or finish
        i = st[d, _I]
        if i < st[d, _K]:
            c = mv[d, i]
            st[d, _I] = i + 1
            seat = st[d, _SEAT]
            tlen = st[d, _TL]
            hands[seat] ^= 1 << c
            trick[d + base] = c
            if tlen == 0:
                nv = TRICK_VALUE[t, EFF[t, c], c]
                ns = seat
            else:
                v = TRICK_VALUE[t, st[d, _LED], c]
                if v > st[d, _BV]:
                    nv = v
                    ns = seat
                else:
                    nv = st[d, _BV]
                    ns = st[d, _BS]
            won = st[d, _WON]
            lost = st[d, _LOST]
            if tlen + 1 == n:
                if maxs >> ns & 1:
                    won += 1
                else:
                    lost += 1
                st[d + 1, _TL] = 0
                st[d + 1, _LEAD] = ns
                st[d + 1, _BV] = 0
                st[d + 1, _BS] = 0
            else:
                st[d + 1, _TL] = tlen + 1
                st[d + 1, _LEAD] = st[d, _LEAD]
                st[d + 1, _BV] = nv
                st[d + 1, _BS] = ns
            st[d + 1, _WON] = won
            st[d + 1, _LOST] = lost
            d += 1
            entering = True
            continue
        res = bool(st[d, _RES] == 1)
        if st[d, _KEY] >= 0:
            need = target - st[d, _WON]
            lb = st[d, _LB]
            ub = st[d, _UB]
            if res:
                lb = max(lb, need)
            else:
                ub = min(ub, need - 1)
            tt[st[d, _IDX]] = st[d, _KEY]
            tt[st[d, _IDX] + 1] = lb | ub << 4 | gen << 8
        if d == 0:
            return res
        d -= 1
        hands[st[d, _SEAT]] ^= 1 << mv[d, st[d, _I] - 1]
        entering = False


@jit
def _prepare(
    hands: Int64Array, trick: Int64Array, tlen: int, leader: int, p: Int64Array
) -> tuple[int, int, int, Int64Array, Int64Array, Int64Array]:
    """What every search from a position starts with: the tricks still to play (also stored at
    ``p[_TOTAL]``), the best card so far in the current trick (its value and seat), and the
    trick, stack and move scratch arrays."""
    n = p[_N]
    t = p[_TRUMP]
    cards = popcount(hands[0] | hands[1] | hands[2] | hands[3]) + tlen
    total = cards // n
    p[_TOTAL] = total
    best_v = 0
    best_seat = leader
    if tlen:
        led = EFF[t, trick[0]]
        for i in range(tlen):
            v = TRICK_VALUE[t, led, trick[i]]
            if v > best_v:
                best_v = v
                best_seat = (leader + i) % n
    tr = np.zeros(64, dtype=np.int64)
    tr[:tlen] = trick[:tlen]
    st = np.zeros((40, 16), dtype=np.int64)
    mv = np.zeros((40, 16), dtype=np.int64)
    return total, best_v, best_seat, tr, st, mv


@jit
def solve_kernel(
    hands: Int64Array, trick: Int64Array, tlen: int, leader: int, p: Int64Array, tt: Int64Array
) -> int:
    """The tricks the max side takes of those still to play (the current one included).

    ``hands``: 4 masks of unplayed cards (zeros for missing seats); ``trick[:tlen]``: the cards
    played to the current trick, led by ``leader``; ``p``: players, trump, max-side seat mask,
    a fresh TT generation, a node counter (added to) and anything at index 5 (overwritten).
    """
    total, best_v, best_seat, tr, st, mv = _prepare(hands, trick, tlen, leader, p)
    lo = 0
    hi = total
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _search(hands, tr, tlen, leader, best_v, best_seat, mid, p, tt, st, mv):
            lo = mid
        else:
            hi = mid - 1
    return lo


class _Solver:
    """The transposition table and scratch arrays, kept between calls."""

    def __init__(self) -> None:
        self.tt = np.zeros(TT_SIZE, dtype=np.int64)
        self.p = np.zeros(8, dtype=np.int64)
        self.hands = np.zeros(4, dtype=np.int64)
        self.trick = np.zeros(4, dtype=np.int64)
        self.gen = 0

    def solve(
        self, hands: Sequence[int], trump: int, leader: int, trick: Sequence[int], maxs: int
    ) -> int:
        self.gen += 1
        if self.gen >= 1 << 29:
            self.tt[:] = 0
            self.gen = 1
        p = self.p
        p[0] = len(hands)
        p[1] = trump
        p[2] = maxs
        p[3] = self.gen
        h = self.hands
        for i in range(4):
            h[i] = hands[i] if i < len(hands) else 0
        for i, c in enumerate(trick):
            self.trick[i] = c
        return int(solve_kernel(h, self.trick, len(trick), leader, p, self.tt))


_SOLVER: _Solver | None = None


def side_seats(players: int, seat: int) -> int:
    """The seats (bit mask) on ``seat``'s side in a double-dummy count: the partnership with 4
    players, the seat alone with 2 and 3.

    >>> side_seats(4, 1), side_seats(3, 1)
    (10, 2)
    """
    return (1 << seat | 1 << (seat + 2) % 4) if players == 4 else 1 << seat


def solve_masks(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int] = (),
    seat: int | None = None,
) -> int:
    """The tricks still to play (the current one included) that ``seat``'s side (default: the
    leader's) takes with best play by all, every hand open. Unchecked fast path.

    ``hands``: one mask of unplayed cards per seat (2, 3 or 4 seats; no dead hand); ``trump``
    0..3 or 4 (no trump); ``trick``: card numbers already played to the current trick, the first
    led by ``leader``.
    """
    global _SOLVER  # noqa: PLW0603
    if _SOLVER is None:
        _SOLVER = _Solver()
    n = len(hands)
    maxs = side_seats(n, leader if seat is None else seat)
    return _SOLVER.solve(hands, trump, leader, trick, maxs)


__all__ = ["TT_BITS", "TT_SIZE", "side_seats", "solve_kernel", "solve_masks"]
