"""The Glicko-2 rating system (Mark E. Glickman, "Example of the Glicko-2 system", 2012), for
the trainer's players and puzzles (issue 23).

Written here rather than taken from PyPI: the package ``glicko2`` (2.1.0, January 2024, MIT)
has no types, and its volatility step uses the rating where the paper has the deviation
(``_f``: ``rating**2`` for φ²), which shows as soon as a rating is not 1500; ``glicko2-py``
(0.1.0, April 2026, MIT) is right but has had one beta release and installs a module of the same
name. This module follows the paper step by step; the tests check it against the paper's example
and against ``glicko2-py``'s values for a player away from 1500.

>>> r = update(Rating(1500, 200), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                                (Rating(1700, 300), 0.0)])
>>> round(r.rating, 2), round(r.rd, 2), round(r.vol, 5)
(1464.05, 151.52, 0.06)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable

#: The paper's scale: a Glicko-2 μ of 0 is a rating of 1500, and 173.7178 rating points are 1.
SCALE = 173.7178
#: The system constant τ (the paper suggests 0.3 to 1.2): how much the volatility may change.
TAU = 0.5
#: The deviation of a new player, and the largest a deviation grows to.
NEW_RD = 350.0
#: The volatility of a new player.
NEW_VOL = 0.06
#: The convergence tolerance of the volatility's iteration (the paper's ε).
EPSILON = 1e-6


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Glicko scale (1500 an average), its deviation and volatility."""

    rating: float = 1500.0
    rd: float = NEW_RD
    vol: float = NEW_VOL

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale."""
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on the Glicko-2 scale."""
        return self.rd / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(player: Rating, opponent: Rating) -> float:
    """The chance that ``player`` beats ``opponent`` (the paper's E, with the opponent's
    deviation).

    >>> expected(Rating(1500), Rating(1500))
    0.5
    >>> expected(Rating(1700, 50), Rating(1500, 50)) > 0.7
    True
    """
    return 1.0 / (1.0 + math.exp(-_g(opponent.phi) * (player.mu - opponent.mu)))


def _volatility(phi: float, vol: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(vol * vol)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(big_c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2.0
        big_b, fb = big_c, fc
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Iterable[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with ``results``: (opponent, score) with a
    score of 1 for a win, 0 for a loss, 0.5 for a draw. A period without results only widens
    the deviation (step 6).

    >>> update(Rating(1500, 200), []).rd > 200
    True
    """
    games = list(results)
    mu, phi, vol = player.mu, player.phi, player.vol
    if not games:
        return Rating(player.rating, min(math.sqrt(phi * phi + vol * vol) * SCALE, NEW_RD), vol)
    v_inv = 0.0
    gain = 0.0
    for opponent, score in games:
        g = _g(opponent.phi)
        e = 1.0 / (1.0 + math.exp(-g * (mu - opponent.mu)))
        v_inv += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / v_inv
    new_vol = _volatility(phi, vol, v, v * gain, tau)
    phi_star = math.sqrt(phi * phi + new_vol * new_vol)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating(new_mu * SCALE + 1500.0, new_phi * SCALE, new_vol)
