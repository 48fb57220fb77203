"""The expert's model of the other bidders: what their calls say about their hands, and how the
rest of an auction may go.

A bidder is modelled on :class:`~pfeffer.pepper.bots.HeuristicBot`: it estimates its tricks under
its best trump (:func:`pfeffer.pepper.fast.estimate.estimate`, no trump counted 0.2 lower), keeps
:data:`CAUTION` in hand, and bids the cheapest number it expects to make (1.5 more when its
partner holds the bid), Small Pepper with a near-certain hand, else passes. Softened for weighing
worlds: a call is likely in proportion to a logistic curve of the estimate against the level it
needs (width :data:`WIDTH`, never below :data:`FLOOR`, since people and other programs bid in
other ways), and a named trump is likely when it is about the bidder's best. A forced bid (the
last bidder's obligation, P6) says nothing.

>>> from pfeffer.pepper import PepperGame
>>> g = PepperGame(players=4, seed=1, dealer=0)
>>> g.apply("deal")
>>> for a in ("3", "pass"):
...     g.apply(a)
>>> [(c.seat, c.call, c.cheapest, c.partner_high, c.forced) for c in calls(g.view(2))]
[(1, '3', 1, False, False), (2, 'pass', 4, False, False)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pfeffer.pepper.fast.winprob import FloatArray
from pfeffer.pepper.game import PepperView
from pfeffer.pepper.rules import bid_ladder, cards_per_hand

#: Tricks a modelled bidder keeps in hand (HeuristicBot's caution).
CAUTION = 0.35
#: Width (in tricks) of the logistic curve of a call's likelihood.
WIDTH = 0.6
#: The least likelihood of any call, whatever the hand.
FLOOR = 0.05
#: How much more than its number a bidder wants when its partner holds the bid (4 players).
PARTNER_MARGIN = 1.5
#: No trump counted this much lower when a modelled bidder picks its best trump.
NT_DISCOUNT = 0.2


@dataclass(frozen=True, slots=True)
class Call:
    """One call of the auction and what the caller faced: ``cheapest`` the lowest level it could
    bid (1-based index into the bid ladder), whether its partner held the bid, whether it had to
    bid (the last bidder's obligation)."""

    seat: int
    call: str
    cheapest: int
    partner_high: bool
    forced: bool


def calls(view: PepperView) -> list[Call]:
    """The calls of the current hand's auction so far, with what each caller faced."""
    n = len(view.players)
    ladder = bid_ladder(n)
    high = 0
    bidder: int | None = None
    active = n
    out = []
    for seat, call in view.auction:
        partner = n == 4 and bidder is not None and bidder % 2 == seat % 2
        forced = active == 1 and high == 0 and view.rules.all_pass == "last_must_bid"
        out.append(Call(seat, call, high + 1, partner, forced))
        if call == "pass":
            active -= 1
        else:
            high = ladder.index(call) + 1
            bidder = seat
    return out


def _sigmoid(x: FloatArray) -> FloatArray:
    out: FloatArray = 1.0 / (1.0 + np.exp(-x / WIDTH))
    return out


def best_estimates(est: FloatArray, no_trump: bool) -> FloatArray:
    """The estimate under the best trump (``est[..., t]``, no trump discounted), less caution."""
    nt = est[..., 4] - NT_DISCOUNT if no_trump else np.full(est.shape[:-1], -1e9)
    best: FloatArray = np.maximum(est[..., :4].max(axis=-1), nt) - CAUTION
    return best


def _level(players: int, index: int) -> float:
    """The tricks a ladder level (1-based) asks for; Small and Big Pepper a near-certain hand."""
    bid = bid_ladder(players)[index - 1]
    return float(bid) if bid.isdigit() else cards_per_hand(players) - 0.15


def log_weights(view: PepperView, est: FloatArray) -> FloatArray:
    """The log-likelihood of the auction so far (and the named trump) in each world, from the
    calls of every seat but the viewer's. ``est[w, s, t]``: estimates of each seat's whole hand
    as dealt (:func:`pfeffer.pepper.fast.estimate.estimates`)."""
    n = len(view.players)
    logw = np.zeros(est.shape[0])
    best = best_estimates(est, view.rules.no_trump)
    for c in calls(view):
        if c.seat == view.seat or c.forced:
            continue
        strength = best[:, c.seat]
        if c.call == "pass":
            if c.partner_high:
                continue
            need = _level(n, c.cheapest)
            like = 1.0 - _sigmoid(strength - need)
        else:
            need = _level(n, bid_ladder(n).index(c.call) + 1)
            if c.partner_high:
                need += PARTNER_MARGIN
            like = _sigmoid(strength - need)
        logw += np.log(np.maximum(like, FLOOR))
    if view.trump is not None and view.bidder is not None and view.bidder != view.seat:
        t = "CDHS".index(view.trump) if view.trump in "CDHS" else 4
        named = est[:, view.bidder, t] - (NT_DISCOUNT if t == 4 else 0.0)
        top = best[:, view.bidder] + CAUTION
        logw += np.log(np.maximum(_sigmoid(named - top + 0.5), FLOOR))
    return logw


def resample(logw: FloatArray, count: int, u: float) -> list[int]:
    """``count`` indices drawn in proportion to ``exp(logw)`` (systematic resampling, offset
    ``u`` in [0, 1)): low-variance, every index kept about ``count * weight`` times.

    >>> resample(np.log(np.array([0.5, 0.25, 0.25])), 4, 0.5)
    [0, 0, 1, 2]
    """
    w = np.exp(logw - logw.max())
    cum = np.cumsum(w / w.sum())
    out = []
    i = 0
    for k in range(count):
        x = (k + u) / count
        while i < len(cum) - 1 and cum[i] < x:
            i += 1
        out.append(i)
    return out


def model_call(
    players: int,
    strength: float,
    high: int,
    partner_high: bool,
    must_bid: bool,
) -> int:
    """The modelled bidder's call: a ladder level (1-based), or 0 to pass. ``strength``: its
    best estimate less caution; ``high``: the level of the bid to beat (0: none).

    >>> model_call(4, 3.2, 1, False, False), model_call(4, 3.2, 1, True, False)
    (2, 0)
    >>> model_call(4, 0.5, 0, False, True), model_call(4, 5.9, 2, False, False)
    (1, 6)
    """
    ladder = bid_ladder(players)
    small = ladder.index("small") + 1
    if strength >= cards_per_hand(players) - 0.15 and high < small:
        return small
    for level in range(high + 1, small):
        b = int(ladder[level - 1])
        if b <= strength and not (partner_high and b > strength - PARTNER_MARGIN):
            return level
    if must_bid:
        return high + 1
    return 0


def simulate_rest(
    view: PepperView, call: str, strengths: Sequence[float]
) -> tuple[int, int] | None:
    """How the auction ends after the viewer makes ``call``, every later call (the viewer's too)
    by :func:`model_call` with the seats' ``strengths``: (bidder, ladder level), or None when
    everybody passes and the deal passes on (``all_pass="redeal"``).

    >>> from pfeffer.pepper import PepperGame
    >>> g = PepperGame(players=3, seed=1, dealer=0)
    >>> g.apply("deal")
    >>> simulate_rest(g.view(1), "pass", [0.0, 9.0, 0.0])   # seat 1 passes; 2, then 0 must bid
    (0, 1)
    >>> simulate_rest(g.view(1), "2", [0.0, 2.5, 3.1])   # 2 outbids, 0 and then 1 pass
    (2, 3)
    """
    n = len(view.players)
    ladder = bid_ladder(n)
    me = view.seat
    assert me is not None
    high = 0
    bidder = -1
    passed = 0
    for seat, c in view.auction:
        if c == "pass":
            passed |= 1 << seat
        else:
            high = ladder.index(c) + 1
            bidder = seat
    seat = me
    must_rule = view.rules.all_pass == "last_must_bid"
    action = 0 if call == "pass" else ladder.index(call) + 1
    while True:
        active = n - bin(passed).count("1")
        if action < 0:
            partner = n == 4 and bidder >= 0 and bidder % 2 == seat % 2
            must = must_rule and active == 1 and high == 0
            action = model_call(n, strengths[seat], high, partner, must)
        if action == 0:
            passed |= 1 << seat
            active -= 1
            if active == 0:
                return None
            if active == 1 and high:
                return bidder, high
        else:
            high = action
            bidder = seat
            if high == len(ladder) or active == 1:
                return bidder, high
        action = -1
        seat = (seat + 1) % n
        while passed >> seat & 1:
            seat = (seat + 1) % n


def model_trump(est: FloatArray, no_trump: bool) -> int:
    """The modelled bidder's trump (0..3, 4 = no trump) from its estimates ``est[t]``."""
    values = [float(est[t]) for t in range(4)]
    if no_trump:
        values.append(float(est[4]) - NT_DISCOUNT)
    return int(max(range(len(values)), key=values.__getitem__))


__all__ = [
    "CAUTION",
    "FLOOR",
    "WIDTH",
    "Call",
    "best_estimates",
    "calls",
    "log_weights",
    "model_call",
    "model_trump",
    "resample",
    "simulate_rest",
]
