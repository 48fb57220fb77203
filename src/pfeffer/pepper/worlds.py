"""Worlds consistent with what one Pepper seat knows: the deal of the current hand, sampled
uniformly among all deals that agree with the seat's view, every revealed void respected.

A seat that did not follow the suit led holds no card of that suit (under the trump: the left
bower is a trump, not a card of its printed suit), then and for the rest of the hand. Counting the
deals per suit and holder makes the draw exact, with no rejection. :class:`WorldSampler` counts
once and then draws many worlds cheaply (the expert player's card play and bidding);
:func:`sample_deal` draws one.

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

import functools
import math
import random
from collections.abc import Iterator

from pfeffer.pepper.cards import CARD_INDEX, CARD_STR, EFFECTIVE_SUIT, parse_trump
from pfeffer.pepper.game import PepperView
from pfeffer.pepper.rules import cards_per_hand


def _tricks(view: PepperView) -> list[tuple[int, tuple[str, ...]]]:
    rows = [(t.leader, t.cards) for t in view.tricks]
    if view.current_trick:
        rows.append((view.current_trick[0][0], tuple(c for _, c in view.current_trick)))
    return rows


def suit_voids(view: PepperView, players: int) -> tuple[int, ...]:
    """Per seat, a bit mask of the (effective) suits C D H S = bits 0..3 it showed out of."""
    eff = EFFECTIVE_SUIT[parse_trump(view.trump)]
    out = [0] * players
    for leader, cards in _tricks(view):
        led = eff[CARD_INDEX[cards[0]]]
        for i, c in enumerate(cards[1:], 1):
            if eff[CARD_INDEX[c]] != led:
                out[(leader + i) % players] |= 1 << led
    return tuple(out)


def played_by_seat(view: PepperView, players: int) -> list[list[str]]:
    """The cards each seat has played in this hand, in order."""
    out: list[list[str]] = [[] for _ in range(players)]
    for leader, cards in _tricks(view):
        for i, c in enumerate(cards):
            out[(leader + i) % players].append(c)
    return out


def _splits(m: int, caps: tuple[int, ...], allowed: tuple[bool, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to hand ``m`` cards to the holders within ``caps`` (0 where not allowed)."""
    if not caps:
        if m == 0:
            yield ()
        return
    top = min(m, caps[0]) if allowed[0] else 0
    for k in range(top + 1):
        for rest in _splits(m - k, caps[1:], allowed[1:]):
            yield (k, *rest)


Option = tuple[int, tuple[int, ...], tuple[int, ...]]


class WorldSampler:
    """Draws the unseen cards of a seat's view, uniformly among the consistent deals.

    ``holders`` are the other seats (then -1 for the 2-player dead hand); :meth:`draw` gives
    each holder's unknown cards (the cards it still holds; for the dead hand, all of it).

    >>> import random
    >>> from pfeffer.pepper import PepperGame
    >>> g = PepperGame(players=3, seed=2, dealer=0)
    >>> g.apply("deal")
    >>> w = WorldSampler(g.view(1), 3)
    >>> w.holders, [len(h) for h in w.draw(random.Random(1))]
    ([0, 2], [8, 8])
    """

    def __init__(self, view: PepperView, players: int) -> None:
        me = view.seat
        if me is None or view.phase not in ("auction", "declare", "play"):
            raise ValueError("a world sampler needs a seat's view of a dealt hand")
        self.me = me
        eff = EFFECTIVE_SUIT[parse_trump(view.trump)]
        self.played = played_by_seat(view, players)
        known = set(view.hand).union(*map(set, self.played))
        unknown = [c for c in CARD_STR if c not in known]
        voids = suit_voids(view, players)
        self.holders = [s for s in range(players) if s != me]
        caps = [view.hand_sizes[s] for s in self.holders]
        masks = [voids[s] for s in self.holders]
        if players == 2:  # the dead hand: never seen, never plays
            self.holders.append(-1)
            caps.append(cards_per_hand(2))
            masks.append(0)
        if sum(caps) != len(unknown):
            raise ValueError("the view's hand sizes do not add up to the unknown cards")
        self.by_suit: list[list[str]] = [[] for _ in range(4)]
        for c in unknown:
            self.by_suit[eff[CARD_INDEX[c]]].append(c)
        self._allowed = [tuple(not (m >> u) & 1 for m in masks) for u in range(4)]
        self._options: dict[tuple[int, tuple[int, ...]], tuple[list[Option], int]] = {}
        self._start = tuple(caps)
        if self._count(0, self._start) == 0:
            raise ValueError("no deal is consistent with this view")

    def _weight(self, u: int, split: tuple[int, ...]) -> int:
        w = math.factorial(len(self.by_suit[u]))
        for k in split:
            w //= math.factorial(k)
        return w

    def _count(self, u: int, left: tuple[int, ...]) -> int:
        # memoised per sampler in ``_options`` (a functools.cache on the method would be one
        # cache for the class, keeping every sampler alive)
        if u == 4:
            return 1 if not any(left) else 0
        return self._opts(u, left)[1]

    def _opts(self, u: int, left: tuple[int, ...]) -> tuple[list[Option], int]:
        key = (u, left)
        got = self._options.get(key)
        if got is None:
            opts: list[Option] = []
            for d in _splits(len(self.by_suit[u]), left, self._allowed[u]):
                nxt = tuple(a - b for a, b in zip(left, d, strict=True))
                w = self._weight(u, d) * self._count(u + 1, nxt)
                if w:
                    opts.append((w, d, nxt))
            got = (opts, sum(w for w, _, _ in opts))
            self._options[key] = got
        return got

    def draw(self, rng: random.Random) -> list[list[str]]:
        """One world: the unknown cards of each holder, in the order of :attr:`holders`."""
        dealt: list[list[str]] = [[] for _ in self.holders]
        left = self._start
        for u in range(4):
            opts, total = self._opts(u, left)
            pick = rng.randrange(total)
            i = 0
            while pick >= opts[i][0]:
                pick -= opts[i][0]
                i += 1
            _, d, left = opts[i]
            cards = self.by_suit[u][:]
            rng.shuffle(cards)
            at = 0
            for h, k in enumerate(d):
                if k:
                    dealt[h].extend(cards[at : at + k])
                    at += k
        return dealt


@functools.lru_cache(maxsize=16)
def _sampler(view: PepperView, players: int) -> WorldSampler:
    return WorldSampler(view, players)


def sample_deal(view: PepperView, players: int, rng: random.Random) -> list[list[str]]:
    """A deal of the current hand (one card list per seat, plus the dead hand with 2 players),
    drawn uniformly among the deals consistent with ``view``: the viewer's cards and every card
    played stay where they are, every other seat gets its current number of unknown cards and no
    card of a suit it showed out of. Each list holds the seat's cards at the deal, deck order.

    ``view`` must be a seat's view of a dealt hand (auction, declare or play phase). The counts
    for a view are kept for the next call with an equal view (a search resamples the same
    position many times).
    """
    w = _sampler(view, players)
    dealt = w.draw(rng)
    hands = [list(view.hand) + w.played[s] if s == w.me else [] for s in range(players)]
    for h, s in enumerate(w.holders):
        if s >= 0:
            hands[s] = dealt[h] + w.played[s]
    if players == 2:
        hands.append(dealt[-1])
    return [sorted(h, key=CARD_INDEX.__getitem__) for h in hands]


__all__ = ["WorldSampler", "played_by_seat", "sample_deal", "suit_voids"]
