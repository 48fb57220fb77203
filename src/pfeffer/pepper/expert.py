"""The expert Pepper player: sampled worlds, each solved double dummy, scored against the contract.

For a card it draws worlds (the unseen cards, uniformly among the deals consistent with its view,
:class:`~pfeffer.pepper.worlds.WorldSampler`), solves every world double dummy after each legal
card (:func:`~pfeffer.pepper.fast.batch.solve_cards`, one compiled call), turns the tricks into the
hand's points with the engine's scoring (:func:`~pfeffer.pepper.rules.hand_points`: made, set,
Small and Big Pepper) and plays the card with the best average of "own side's points minus the
others'". It bids and names trump the same way: each contract (a bid with its best trump) is
valued over worlds solved with itself leading, and it bids the one with the best expected score
change (see :meth:`ExpertBot.contract_values`).

>>> from pfeffer.pepper import PepperGame
>>> g = PepperGame(players=4, seed=7, dealer=0)
>>> g.apply("deal")
>>> bot = ExpertBot(worlds=8, seed=1)
>>> bot.choose(g.view(g.current_player), g.legal_actions()) in g.legal_actions()
True
"""

from __future__ import annotations

import functools
import gc
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pfeffer.pepper import auction
from pfeffer.pepper.cards import CARD_INDEX, CARD_STR, EFFECTIVE_SUIT, TRICK_VALUE, parse_trump
from pfeffer.pepper.fast.alphamu import next_move_values
from pfeffer.pepper.fast.batch import new_table, solve_cards, solve_deals, solve_trumps
from pfeffer.pepper.fast.estimate import estimates
from pfeffer.pepper.fast.tables import Int64Array
from pfeffer.pepper.game import PepperView
from pfeffer.pepper.outlook import Outlook
from pfeffer.pepper.rules import PepperRules, bid_ladder, cards_per_hand, hand_points, side_of
from pfeffer.pepper.worlds import WorldSampler

#: Worlds per decision of :class:`ExpertBot` by default (the ``expert`` level).
DEFAULT_WORLDS = 100
#: Card play solves the worlds in batches of this many and drops clearly worse cards in between.
RACE_BATCH = 20
#: How many standard errors behind the best card a card must be to be dropped.
RACE_Z = 2.5
#: With the win model, a point of score difference is worth this much (ties between actions
#: that change the chance to win equally, e.g. once the game is decided).
TIE_WEIGHT = 0.01
#: The chance to win is what counts once a side is this close to the target; before, points do.
#: (Earlier, the model's small spread of hands made a few points' lag look desperate: measured,
#: the expert then gambled on Big Pepper far too often.)
OUTLOOK_NEAR = 12
#: A call is chosen by its mean value less this many standard errors of it over the worlds:
#: with few worlds, a risky call's mean is often high by chance (the winner's curse).
BID_CAUTION = 1.0
#: How many tricks fewer than double dummy says a declaring side takes on average, by player
#: count, for valuing contracts with a trump suit (bidding), in worlds where it takes more than in
#: every world (the part that depends on where the cards lie; double dummy guesses it right, and
#: partners see each other's hand): one trick fewer with this chance (above 1: that many more
#: with the rest of the chance), never below its least over the worlds. Fitted to the contracts
#: of self-play (the make rate the worlds predicted against the one played; docs/pepper-ai.md):
#: with 3 players double dummy was right.
DECLARER_DISCOUNT = {2: 0.2, 3: 0.0, 4: 0.4}
#: The same for no-trump contracts (issue 22: measured with
#: ``benchmarks/pepper_bid_calibration.py``, double dummy overrates no trump more than a suit).
NT_DECLARER_DISCOUNT = {2: 0.6, 3: 0.0, 4: 0.4}
#: Worlds drawn for each world kept when the auction weighs them (:meth:`ExpertBot._worlds`).
OVERSAMPLE = 3
#: With ``alphamu``, the next own card is fixed per information set once the hand holds at most
#: this many cards, by player count (earlier it costs more than 50 ms a card).
ALPHAMU_CARDS = {2: 6, 3: 6, 4: 4}


@functools.cache
def _settle_collector() -> None:
    """Once per process, before the first decision: load every compiled kernel the expert uses
    (a tiny solve each), then move the objects alive by then (numba's and the kernels', about
    110,000) out of the cycle collector's way (:func:`gc.freeze`). Otherwise every full
    collection walks them, which takes about 50 ms, in the middle of whichever decision it falls
    in (measured: the card decisions over 50 ms were these). Reference counting still frees
    frozen objects; only cycles among them are no longer collected."""
    hands = np.array([[0b11, 0b1100, 0b110000, 0b11000000]], dtype=np.int64)
    zeros = np.zeros(4, dtype=np.int64)
    solve_cards(hands, 4, 0, 5, zeros, 0, 0, np.array([0], dtype=np.int64), None, zeros[:1] + 99)
    solve_trumps(hands, 4, 5, 0, np.array([0, 4], dtype=np.int64))
    solve_deals(hands, 4, np.array([[0, 0, 0, 5]], dtype=np.int64))
    estimates(hands, 4, np.zeros((1, 4, 5)))
    gc.collect()
    gc.freeze()


def _survivors(u: npt.NDArray[np.float64], alive: list[int]) -> list[int]:
    """The cards (columns of ``u``, rows are worlds) not clearly behind the best of ``alive``:
    their paired difference to the best card is within :data:`RACE_Z` standard errors of 0.

    >>> u = np.array([[1.0, 3.0, 1.0], [2.0, 4.0, 2.5], [1.0, 3.0, 1.5]])
    >>> _survivors(u, [0, 1, 2])
    [1]
    >>> _survivors(np.array([[1.0, 3.0], [4.0, 1.0], [2.0, 2.0]]), [0, 1])
    [0, 1]
    """
    best = max(alive, key=lambda k: float(u[:, k].mean()))
    keep = []
    for k in alive:
        d = u[:, k] - u[:, best]
        mean = float(d.mean())
        se = float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else 0.0
        if k == best or (mean + RACE_Z * se >= 0 and not (se == 0 and mean < 0)):
            keep.append(k)
    return keep


def _cautious(v: npt.NDArray[np.float64]) -> float:
    """A call's mean value over the worlds less :data:`BID_CAUTION` standard errors.

    >>> _cautious(np.array([1.0, 1.0])), round(_cautious(np.array([0.0, 4.0])), 3)
    (1.0, 0.0)
    """
    if len(v) < 2:
        return float(v.mean())
    return float(v.mean() - BID_CAUTION * v.std(ddof=1) / math.sqrt(len(v)))


def _mask(cards: Sequence[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << CARD_INDEX[c]
    return m


def counted_seats(players: int, me: int, bidder: int | None) -> int:
    """The seats (bit mask) whose tricks the double-dummy solves count for ``me``: its
    partnership with 4 players; with 2 players itself; with 3 itself when it holds the contract
    (or nobody does yet), else both defenders together against the bidder.

    >>> [counted_seats(4, 1, 0), counted_seats(3, 1, 1), counted_seats(3, 1, 0)]
    [10, 2, 6]
    """
    if players == 4:
        return 1 << me | 1 << (me + 2) % 4
    if players == 3 and bidder is not None and bidder != me:
        return 7 & ~(1 << bidder)
    return 1 << me


def utilities(  # noqa: PLR0917 - the hand's facts, in the order hand_points takes them
    rules: PepperRules,
    players: int,
    me: int,
    bidder: int,
    bid: str,
    won: Sequence[int],
    remaining: int,
    scores: Sequence[int] | None = None,
    outlook: Outlook | None = None,
) -> list[float]:
    """``u[x]``: what the hand is worth to ``me`` when the counted seats (:func:`counted_seats`)
    take ``x`` of the ``remaining`` tricks, on top of the tricks ``won`` per side so far: "own
    side's points minus the others' (their mean with 3 players)", or, given the ``scores`` before
    the hand and an ``outlook``, once a side is within :data:`OUTLOOK_NEAR` points of the target,
    100 times the change in ``me``'s chance to win the game (:meth:`Outlook.after_hand`) plus
    :data:`TIE_WEIGHT` times that point difference. Two defenders counted together are assumed to
    share their tricks evenly.

    >>> utilities(PepperRules(), 4, 0, 0, "4", [0, 0], 6)
    [-12, -11, -10, -9, 2, 4, 6]
    >>> utilities(PepperRules(), 4, 1, 0, "big", [0, 0], 6)[:2]
    [-12, 13]
    >>> o = Outlook(4, PepperRules())   # side 1 at 29 against 20: any trick wins the game
    >>> [round(u) for u in utilities(PepperRules(), 4, 1, 0, "1", [0, 0], 6, [20, 29], o)]
    [-25, 4, 4, 4, 4, 4, 4]
    """
    maxs = counted_seats(players, me, bidder)
    bside = side_of(players, bidder)
    mine = side_of(players, me)
    use_outlook = (
        outlook is not None
        and outlook.ready
        and scores is not None
        and max(scores) >= rules.target - OUTLOOK_NEAR
    )
    before = outlook.win_chance(scores, mine) if use_outlook else 0.0  # type: ignore[union-attr, arg-type]
    out: list[float] = []
    for x in range(remaining + 1):
        tricks = [float(w) for w in won]
        if players == 3 and bidder != me:
            tricks[bidder] += remaining - x
            for s in range(3):
                if maxs >> s & 1:
                    tricks[s] += x / 2
        else:
            tricks[mine] += x
            other = next(s for s in range(len(won)) if s != mine)
            tricks[other] += remaining - x  # with 3 players the others' sum is what counts
        pts, _ = hand_points(rules, players, bside, bid, tricks)  # type: ignore[arg-type]
        others = [p for s, p in enumerate(pts) if s != mine]
        diff = pts[mine] - sum(others) / len(others) if players == 3 else pts[mine] - others[0]
        if use_outlook:
            after = outlook.after_hand(scores, pts, mine)  # type: ignore[union-attr, arg-type]
            diff = 100 * (after - before) + TIE_WEIGHT * diff
        out.append(diff)
    return [int(u) if float(u).is_integer() else u for u in out]


def partner_raises(view: PepperView) -> frozenset[str]:
    """The calls the expert does not make: with 4 players, any bid over its partner's standing
    top number bid or Small Pepper. Over the partner's 5, Small Pepper scores the same 6 for all
    six tricks and −6 where 5 tricks would have made; Big Pepper over Small Pepper doubles what
    the side wins or loses for the same six tricks. Measured (docs/pepper-ai.md, "Bidding,
    measured"): 21 of 2,000 hands saw Small Pepper over the partner's 5 (8 made) and 28 Big
    Pepper over its Small Pepper (4 made); the only other gain, naming trump itself, did not pay.

    >>> from pfeffer.pepper import PepperGame
    >>> g = PepperGame(players=4, seed=1, dealer=3)
    >>> for a in ("deal", "5", "pass"):
    ...     g.apply(a)
    >>> sorted(partner_raises(g.view(2)))
    ['big', 'small']
    >>> partner_raises(g.view(1))
    frozenset()
    """
    n = len(view.players)
    me = view.seat
    calls = [(seat, call) for seat, call in view.auction if call != "pass"]
    if n != 4 or me is None or not calls:
        return frozenset()
    seat, standing = calls[-1]
    ladder = bid_ladder(n)
    if seat != (me + 2) % 4 or standing not in ladder[-3:-1]:
        return frozenset()
    return frozenset(ladder[ladder.index(standing) + 1 :])


def equivalent_groups(view: PepperView, cards: Sequence[str]) -> list[list[str]]:
    """``cards`` (the legal ones) in groups that are worth the same in every world: cards of one
    suit with nothing between them but the seat's own cards and cards of finished tricks. A card
    of the current trick splits them (with KH led, AH takes the trick and QH does not).

    >>> from pfeffer.pepper import PepperGame
    >>> g = PepperGame(players=4, seed=1, dealer=0)
    >>> g.deal([["9D", "TD", "JD", "QD", "KD", "AD"], ["9C", "TC", "JC", "QC", "KC", "AS"],
    ...         ["9H", "TH", "JH", "QH", "KH", "AH"], ["9S", "TS", "JS", "QS", "KS", "AC"]])
    >>> for a in ("small", "pass", "pass", "pass", "C"):   # JS (not held) is the left bower
    ...     g.apply(a)
    >>> equivalent_groups(g.view(1), g.legal_actions())
    [['JC'], ['KC', 'QC', 'TC', '9C'], ['AS']]
    """
    t = parse_trump(view.trump)
    mine = {CARD_INDEX[c] for c in view.hand}
    played = {CARD_INDEX[c] for tr in view.tricks for c in tr.cards}
    legal = {CARD_INDEX[c] for c in cards}
    groups: list[list[str]] = []
    for suit in range(4):
        order = sorted(
            (c for c in range(24) if EFFECTIVE_SUIT[t][c] == suit),
            key=lambda c: -TRICK_VALUE[t][suit][c],
        )
        run: list[str] = []
        for c in order:
            if c in legal:
                run.append(CARD_STR[c])
            elif c in played or c in mine:
                continue
            elif run:
                groups.append(run)
                run = []
        if run:
            groups.append(run)
    return groups


class ExpertBot:
    """Plays each card, bid and trump by double-dummy analysis of ``worlds`` sampled worlds.

    ``seed`` seeds its own generator (None: fresh entropy); it sees only its seat's view.
    ``bid_worlds`` (default: ``worlds``) are the worlds per auction or trump decision. ``race``:
    drop clearly worse cards between batches of worlds (:meth:`raced_values`); ``weighted``:
    draw worlds in proportion to how well they fit the auction (:mod:`pfeffer.pepper.auction`);
    ``outlook``: value hands by the change in the chance to win the game
    (:mod:`pfeffer.pepper.outlook`) rather than by points alone; ``alphamu``: late in a hand,
    fix its own next card per information set (:meth:`alphamu_values`); ``discount``: value
    contracts with :data:`DECLARER_DISCOUNT` and :data:`NT_DECLARER_DISCOUNT` (``suit_discount``
    and ``nt_discount``, when given, replace the tables' figure: one for every player count, or
    a mapping by player count for some).
    """

    def __init__(
        self,
        worlds: int = DEFAULT_WORLDS,
        seed: int | None = None,
        name: str = "Expert",
        bid_worlds: int | None = None,
        *,
        race: bool = True,
        weighted: bool = True,
        outlook: bool = True,
        alphamu: bool = False,
        discount: bool = True,
        suit_discount: float | Mapping[int, float] | None = None,
        nt_discount: float | Mapping[int, float] | None = None,
    ) -> None:
        self.name = name
        self.worlds = worlds
        self.race = race
        self.weighted = weighted
        self.use_outlook = outlook
        self.alphamu = alphamu
        self.discount = discount
        self.suit_discount = suit_discount
        self.nt_discount = nt_discount
        self.bid_worlds = worlds if bid_worlds is None else bid_worlds
        self._rng = random.Random(seed)
        self._samples: dict[str, npt.NDArray[np.float64]] = {}
        self._declared: (
            tuple[tuple[int, tuple[str, ...], Any], Int64Array, list[str], Int64Array] | None
        ) = None

    def choose(self, view: PepperView, legal_actions: Sequence[str]) -> str:
        """Pick an action for the seat whose view this is."""
        legal = list(legal_actions)
        self.outlook(view)  # the win table, worked out once: at the first decision, not near 30
        _settle_collector()
        if len(legal) == 1:
            return legal[0]
        if view.phase == "play":
            return self._play(view, legal)
        if view.phase == "auction":
            return self._bid(view, legal)
        if view.phase == "declare":
            values = self.trump_values(view, self.bid_worlds, view.high_bid or "1")
            return max(legal, key=lambda t: values.get(t, -1e9))
        return legal[0]

    # --------------------------------------------------------------------------------- worlds

    def _worlds(self, view: PepperView, count: int) -> Int64Array:
        """``count`` worlds (4 masks of unplayed cards each): drawn uniformly among the deals
        consistent with the view, then, when ``weighted``, :data:`OVERSAMPLE` times as many
        drawn and ``count`` of them kept in proportion to the likelihood of the auction in each
        (:func:`pfeffer.pepper.auction.log_weights`, systematic resampling)."""
        n = len(view.players)
        me = view.seat
        assert me is not None
        sampler = WorldSampler(view, n)
        weigh = self.weighted and any(c.seat != me for c in auction.calls(view))
        drawn = count * OVERSAMPLE if weigh else count
        out = np.zeros((drawn, 4), dtype=np.int64)
        out[:, me] = _mask(view.hand)
        for w in range(drawn):
            for s, cards in zip(sampler.holders, sampler.draw(self._rng), strict=True):
                if s >= 0:
                    out[w, s] = _mask(cards)
        if not weigh:
            return out
        full = out.copy()
        for s, played in enumerate(sampler.played):
            full[:, s] |= _mask(played)
        est = np.zeros((drawn, 4, 5))
        estimates(full, n, est)
        keep = auction.resample(auction.log_weights(view, est), count, self._rng.random())
        picked: Int64Array = out[keep]
        return picked

    def outlook(self, view: PepperView) -> Outlook | None:
        """The win model for the view's table (None when hands are valued by points alone)."""
        return Outlook(len(view.players), view.rules) if self.use_outlook else None

    # ----------------------------------------------------------------------------------- play

    def card_values(self, view: PepperView, cards: Sequence[str], worlds: int) -> list[float]:
        """The average over ``worlds`` sampled worlds of the hand's score change (own side minus
        others, :func:`utilities`) after playing each of ``cards`` and best play by all."""
        u = self._card_utilities(view, cards, self._worlds(view, worlds))
        return [float(v) for v in u.mean(axis=0)]

    def card_tricks(self, view: PepperView, cards: Sequence[str], hands: Int64Array,
                    tt: Int64Array | None = None,
                    upper: Int64Array | None = None) -> Int64Array:  # fmt: skip
        """``x[w, k]``: the tricks still to play that the counted seats (:func:`counted_seats`)
        take in world ``w`` (rows of ``hands``) after ``cards[k]`` and best play by all
        (``tt``: a table kept between calls)."""
        n = len(view.players)
        me = view.seat
        assert me is not None and view.bidder is not None
        trick = view.current_trick
        leader = trick[0][0] if trick else me
        tr = np.zeros(4, dtype=np.int64)
        for i, (_, c) in enumerate(trick):
            tr[i] = CARD_INDEX[c]
        maxs = counted_seats(n, me, view.bidder)
        cs = np.array([CARD_INDEX[c] for c in cards], dtype=np.int64)
        return solve_cards(
            hands, n, parse_trump(view.trump), maxs, tr, len(trick), leader, cs, tt, upper
        )

    def _card_utilities(
        self,
        view: PepperView,
        cards: Sequence[str],
        hands: Int64Array,
        tt: Int64Array | None = None,
        upper: Int64Array | None = None,
    ) -> npt.NDArray[np.float64]:
        """``u[w, k]``: the hand's value (:func:`utilities`) in world ``w`` after ``cards[k]``
        and best play by all."""
        n = len(view.players)
        me = view.seat
        assert me is not None and view.bidder is not None and view.high_bid is not None
        tricks = self.card_tricks(view, cards, hands, tt, upper)
        remaining = view.tricks_in_hand - len(view.tricks)
        u = np.array(
            utilities(
                view.rules, n, me, view.bidder, view.high_bid, view.tricks_won, remaining,
                view.scores, self.outlook(view),
            ),
            dtype=np.float64,
        )  # fmt: skip
        out: npt.NDArray[np.float64] = u[tricks]
        return out

    def raced_values(self, view: PepperView, cards: Sequence[str]) -> list[float | None]:
        """:meth:`card_values` over :attr:`worlds` worlds, but solved in batches of
        :data:`RACE_BATCH` worlds: after each batch a card whose mean is behind the best card's
        by more than :data:`RACE_Z` standard errors of their difference (paired over the same
        worlds) is dropped (None). The cards left are valued over every world; clearly worse
        cards cost a batch or two instead of every world. Once a single card is left the
        decision is made: no more worlds are solved (its value is its mean over the worlds
        solved so far). The declarer's opening lead reuses the worlds of its trump decision,
        whose double-dummy values bound every card's."""
        hands, upper = self._lead_worlds(view)
        alive = list(range(len(cards)))
        u = np.zeros((hands.shape[0], len(cards)), dtype=np.float64)
        done = 0
        tt = new_table()
        while done < hands.shape[0] and (len(alive) > 1 or done == 0):
            end = min(done + RACE_BATCH, hands.shape[0])
            u[done:end, alive] = self._card_utilities(
                view, [cards[k] for k in alive], hands[done:end], tt,
                None if upper is None else upper[done:end],
            )  # fmt: skip
            done = end
            if len(alive) > 1 and done < hands.shape[0]:
                alive = _survivors(u[:done], alive)
        means = u[:done].mean(axis=0)
        return [float(means[k]) if k in alive else None for k in range(len(cards))]

    def _lead_worlds(self, view: PepperView) -> tuple[Int64Array, Int64Array | None]:
        """The worlds for a card decision, and for the declarer's opening lead the double-dummy
        value of each (kept from its trump decision on the same view of the auction)."""
        got = self._declared
        if (
            got is not None
            and not view.tricks
            and not view.current_trick
            and got[0] == (view.hand_number, view.hand, view.auction)
            and view.trump in got[2]
            and got[1].shape[0] == self.worlds
        ):
            return got[1], got[3][:, got[2].index(view.trump)]
        return self._worlds(view, self.worlds), None

    def _play(self, view: PepperView, legal: list[str]) -> str:
        groups = equivalent_groups(view, legal)
        if len(groups) == 1:
            return groups[0][-1]
        reps = [g[-1] for g in groups]  # the lowest card of each group
        values: Sequence[float | None]
        if self.alphamu and len(view.hand) <= ALPHAMU_CARDS[len(view.players)]:
            values = self.alphamu_values(view, reps, self.worlds)
        elif self.race:
            values = self.raced_values(view, reps)
        else:
            values = self.card_values(view, reps, self.worlds)
        t = parse_trump(view.trump)

        def key(i: int) -> tuple[float, int]:  # ties: the cheapest card
            c = CARD_INDEX[reps[i]]
            v = values[i]
            return (-1e18 if v is None else round(v, 9), -TRICK_VALUE[t][EFFECTIVE_SUIT[t][c]][c])

        return reps[max(range(len(reps)), key=key)]

    def alphamu_values(self, view: PepperView, cards: Sequence[str], worlds: int) -> list[float]:
        """:meth:`card_values`, but the seat's next card is chosen once for all worlds that look
        the same to it by then (:func:`pfeffer.pepper.fast.alphamu.next_move_values`), so the
        value no longer assumes that it will know every card. Never above :meth:`card_values`
        on the same worlds."""
        n = len(view.players)
        me = view.seat
        assert me is not None and view.bidder is not None and view.high_bid is not None
        hands = self._worlds(view, worlds)
        trick = view.current_trick
        tr = np.zeros(4, dtype=np.int64)
        for i, (_, c) in enumerate(trick):
            tr[i] = CARD_INDEX[c]
        seq, vals = next_move_values(
            hands, n, parse_trump(view.trump), counted_seats(n, me, view.bidder), tr,
            len(trick), trick[0][0] if trick else me,
            np.array([CARD_INDEX[c] for c in cards], dtype=np.int64),
        )  # fmt: skip
        remaining = view.tricks_in_hand - len(view.tricks)
        u = np.array(
            utilities(
                view.rules, n, me, view.bidder, view.high_bid, view.tricks_won, remaining,
                view.scores, self.outlook(view),
            ),
            dtype=np.float64,
        )  # fmt: skip
        out = []
        for k in range(len(cards)):
            groups: dict[int, list[int]] = {}
            for w in range(hands.shape[0]):
                groups.setdefault(int(seq[w, k]), []).append(w)
            total = 0.0
            for key, ws in groups.items():
                sub = vals[ws, k, :]
                if key < 0:
                    total += float(u[sub[:, 0]].sum())
                    continue
                legal = [c for c in range(24) if sub[0, c] >= 0]
                total += max(float(u[sub[:, c]].sum()) for c in legal)
            out.append(total / hands.shape[0])
        return out

    # -------------------------------------------------------------------------------- auction

    def _trump_tricks(self, view: PepperView, hands: Int64Array) -> tuple[list[str], Int64Array]:
        """The trumps allowed, and per world the tricks of the viewer's side when it names
        each and leads."""
        n = len(view.players)
        me = view.seat
        assert me is not None
        names = list(view.rules.trumps)
        trumps = np.array([parse_trump(None if t == "NT" else t) for t in names], dtype=np.int64)
        return names, solve_trumps(hands, n, counted_seats(n, me, None), me, trumps)

    def trump_values(self, view: PepperView, worlds: int, bid: str) -> dict[str, float]:
        """Per trump (and "NT"), the expected value (:func:`utilities`) of playing ``bid`` with
        it, ``view``'s seat the bidder and on lead, over ``worlds`` sampled worlds."""
        hands = self._worlds(view, worlds)
        names, tricks = self._trump_tricks(view, hands)
        self._declared = ((view.hand_number, view.hand, view.auction), hands, names, tricks)
        u = self._contract_u(view, view.seat or 0, bid)
        n = len(view.players)
        return {
            t: float(self._discounted(u, tricks[:, i], n, declaring=True, nt=t == "NT").mean())
            for i, t in enumerate(names)
        }

    def _discounted(
        self,
        u: npt.NDArray[np.float64],
        x: Int64Array,
        players: int,
        *,
        declaring: bool,
        nt: bool = False,
    ) -> npt.NDArray[np.float64]:
        """``u[x]`` per world, with the declarer's discount (:meth:`discount_of`, ``d``): in a
        world where the declaring side takes more than it takes in every world (the part that
        depends on where the cards lie), it takes ``floor(d)`` tricks fewer, and one more fewer
        with chance ``d - floor(d)``, but never fewer than in every world. ``x``: the counted
        seats' tricks per world, ``declaring``: whether the counted seats declare (else the
        counted seats gain what the declarers lose, up to their most over the worlds), ``nt``:
        a no-trump contract."""
        d = self.discount_of(players, nt=nt)
        plain = u[x]
        if d == 0.0 or len(x) == 0:
            return plain
        k = math.floor(d)
        f = d - k
        if declaring:
            lo = x.min()
            first = u[np.maximum(x - k, lo)]
            second = u[np.maximum(x - k - 1, lo)]
        else:
            hi = x.max()
            first = u[np.minimum(x + k, hi)]
            second = u[np.minimum(x + k + 1, hi)]
        # where both agree (a sure world) the value stays exactly as it was
        out: npt.NDArray[np.float64] = np.where(
            first == second, first, (1 - f) * first + f * second
        )
        return out

    def discount_of(self, players: int, *, nt: bool) -> float:
        """The declarer's discount (tricks, see :meth:`_discounted`) this bot uses.

        >>> ExpertBot(discount=False).discount_of(4, nt=True)
        0.0
        >>> ExpertBot(nt_discount=1.5).discount_of(2, nt=True)
        1.5
        >>> hard = ExpertBot(suit_discount={4: 0.75})
        >>> hard.discount_of(4, nt=False), hard.discount_of(2, nt=False) == DECLARER_DISCOUNT[2]
        (0.75, True)
        """
        if not self.discount:
            return 0.0
        given = self.nt_discount if nt else self.suit_discount
        table = NT_DECLARER_DISCOUNT if nt else DECLARER_DISCOUNT
        if isinstance(given, Mapping):
            return float(given.get(players, table[players]))
        return table[players] if given is None else given

    def _contract_u(self, view: PepperView, bidder: int, bid: str) -> npt.NDArray[np.float64]:
        """:func:`utilities` of a whole hand played in ``bid`` by ``bidder``, for the viewer,
        by the tricks of the counted seats."""
        n = len(view.players)
        me = view.seat
        assert me is not None
        zeros = [0] * len(view.scores)
        return np.array(
            utilities(
                view.rules, n, me, bidder, bid, zeros, cards_per_hand(n), view.scores,
                self.outlook(view),
            ),
            dtype=np.float64,
        )  # fmt: skip

    def contract_values(
        self, view: PepperView, legal: Sequence[str], worlds: int
    ) -> dict[str, float]:
        """The expected value (:func:`utilities`: the change in the chance to win, or in points)
        of each legal call. In each sampled world the rest of the auction is played out by the
        model of :mod:`pfeffer.pepper.auction` (the viewer's later calls too), which ends in a
        contract (or a redeal, worth 0): when the viewer wins it, it is valued with the trump
        best for the viewer over those worlds; when another seat wins it, that seat names its
        modelled trump and leads, and the deal is solved double dummy. So "pass" is worth what
        the others then play, including the last bidder's forced bid (P6), and a bid what it
        makes or loses when it stands."""
        n = len(view.players)
        me = view.seat
        assert me is not None
        hands = self._worlds(view, worlds)
        w_count = hands.shape[0]
        est = np.zeros((w_count, 4, 5))
        estimates(hands, n, est)
        strengths = auction.best_estimates(est, view.rules.no_trump)
        names, mine = self._trump_tricks(view, hands)
        ladder = bid_ladder(n)
        ends = {
            a: [auction.simulate_rest(view, a, strengths[w].tolist()) for w in range(w_count)]
            for a in legal
        }
        jobs: dict[tuple[int, int, int, int], int] = {}
        for outcomes in ends.values():
            for w, end in enumerate(outcomes):
                if end is not None and end[0] != me:
                    b = end[0]
                    t = auction.model_trump(est[w, b], view.rules.no_trump)
                    maxs = 1 << b if n == 3 else counted_seats(n, me, None)
                    jobs.setdefault((w, b, t, maxs), len(jobs))
        solved = solve_deals(hands, n, np.array(list(jobs) or [(0, 0, 0, 1)], dtype=np.int64))
        cache: dict[tuple[int, str], npt.NDArray[np.float64]] = {}

        def u_of(bidder: int, bid: str) -> npt.NDArray[np.float64]:
            if (bidder, bid) not in cache:
                cache[bidder, bid] = self._contract_u(view, bidder, bid)
            return cache[bidder, bid]

        total = cards_per_hand(n)
        # the others' contracts: the counted seats' tricks per world, by (bidder, trump)
        theirs: dict[tuple[int, int], dict[int, int]] = {}
        for (w, b, t, _), j in jobs.items():
            x = int(solved[j])
            theirs.setdefault((b, t), {})[w] = total - x if n == 3 else x
        samples: dict[str, npt.NDArray[np.float64]] = {}
        for a, outcomes in ends.items():
            value = np.zeros(w_count)
            own: dict[str, list[int]] = {}
            other: dict[tuple[int, int, str], list[int]] = {}
            for w, end in enumerate(outcomes):
                if end is None:
                    continue
                b, level = end
                bid = ladder[level - 1]
                if b == me:
                    own.setdefault(bid, []).append(w)
                else:
                    t = auction.model_trump(est[w, b], view.rules.no_trump)
                    other.setdefault((b, t, bid), []).append(w)
            for (b, t, bid), ws in other.items():
                xs = theirs[b, t]
                group = np.array(list(xs.values()), dtype=np.int64)
                here = np.array([xs[w] for w in ws], dtype=np.int64)
                declaring = bool(counted_seats(n, me, b) >> b & 1)
                d = self._discounted(
                    u_of(b, bid), np.concatenate([here, group]), n, declaring=declaring,
                    nt=t == 4,
                )  # fmt: skip
                value[ws] = d[: len(ws)]
            if own:  # one trump for all of them: the viewer names it knowing only its hand
                sums = np.zeros(len(names))
                for bid, ws in own.items():
                    for i in range(len(names)):
                        sums[i] += self._own(u_of(me, bid), mine[:, i], ws, n, names[i]).sum()
                t_best = int(np.argmax(sums))
                for bid, ws in own.items():
                    value[ws] = self._own(u_of(me, bid), mine[:, t_best], ws, n, names[t_best])
            samples[a] = value
        self._samples = samples
        return {a: float(v.mean()) for a, v in samples.items()}

    def _own(
        self,
        u: npt.NDArray[np.float64],
        column: Int64Array,
        ws: list[int],
        players: int,
        trump: str,
    ) -> npt.NDArray[np.float64]:
        """The viewer's own contract in worlds ``ws``, discounted against every world's tricks
        under that ``trump`` (``column``)."""
        d = self._discounted(
            u, np.concatenate([column[ws], column]), players, declaring=True, nt=trump == "NT"
        )
        out: npt.NDArray[np.float64] = d[: len(ws)]
        return out

    def call_values(self, view: PepperView, legal: Sequence[str]) -> dict[str, float]:
        """What the auction decision maximises: each call's :meth:`contract_values` mean over
        :attr:`bid_worlds` worlds less :data:`BID_CAUTION` standard errors."""
        self.contract_values(view, legal, self.bid_worlds)
        return {a: _cautious(v) for a, v in self._samples.items()}

    def _bid(self, view: PepperView, legal: list[str]) -> str:
        never = partner_raises(view)
        legal = [b for b in legal if b not in never] or legal
        if len(legal) == 1:
            return legal[0]
        values = self.call_values(view, legal)
        best = max(values.values())
        for b in legal:  # the cheapest call among the best (pass comes first)
            if values[b] >= best - 1e-9:
                return b
        return legal[0]


__all__ = [
    "DECLARER_DISCOUNT",
    "DEFAULT_WORLDS",
    "NT_DECLARER_DISCOUNT",
    "ExpertBot",
    "counted_seats",
    "utilities",
]
