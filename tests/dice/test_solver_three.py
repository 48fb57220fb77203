"""The exact three-player solver (issue 10, "More players"): the start states recomputed by a
plain reference recursion from the stored values, the final round against its own plain
recursion, the chances summing to one, and Monte Carlo games of three optimal players through
``DiceGame(3)``."""

from __future__ import annotations

import functools
import math
import random

import numpy as np
import pytest

from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.bots import OptimalBot
from pfeffer.dice.solver import ApproxStrategy, advise, solve
from pfeffer.dice.solver.solve import solve_tables
from pfeffer.dice.solver.tables import build_tables
from pfeffer.dice.solver.three import MAX_EXACT_TARGET, ThreeStrategy, final_tables3, solve_three

from .three_reference import Vec, final_round, turn_vec

RULES = DiceRules(target=300, min_bank=150)
LOWER = 2
FINAL = 80


@functools.cache
def solved() -> ThreeStrategy:
    return solve_three(RULES, lower=LOWER, final_steps=FINAL, tolerance=1e-12)


def main_start(s: ThreeStrategy, own: int, nxt: int, after: int, auto: bool) -> Vec:
    """A start state (points) recomputed from the stored values ``W`` and ``FR``."""
    r = s.rules
    step = s.tables.step
    target = s.tables.target * step
    low = -s.lower * step
    dl = s.FR.shape[0] - 1

    def at(mode: int, a: int, b: int, c: int) -> Vec:
        v = s.W[mode, (a - low) // step, (b - low) // step, (c - low) // step]
        return float(v[0]), float(v[1]), float(v[2])

    def bank(t: int) -> Vec:
        total = own + t
        if total < target:
            v = at(0, nxt, after, total)
            return v[2], v[0], v[1]
        fr = s.FR[min((total - nxt) // step, dl), min((total - after) // step, dl)]
        return float(fr[0]), float(fr[1]), float(fr[2])

    pen = r.auto_pfeffer_penalty if auto else 0
    v = at(1, nxt, after, max(own - pen, low))
    beta = v[2], v[0], v[1]

    def settled(t: int) -> bool:
        return bool(min(own + t - nxt, own + t - after) >= dl * step)

    return turn_vec(r, bank, beta, r.min_bank, settled)


def test_converged_and_sums_to_one() -> None:
    s = solved()
    assert s.residuals[-1] <= 1e-12
    np.testing.assert_allclose(s.W.sum(axis=-1), 1.0, atol=1e-12)
    a, b, c = s.chances(0, 0, 0)
    assert math.isclose(a + b + c, 1.0, abs_tol=1e-12)
    assert a > b > c


@pytest.mark.parametrize(
    ("own", "nxt", "after", "auto"),
    [(0, 0, 0, False), (0, 0, 0, True), (200, 100, -100, False), (-100, 250, 0, True),
     (250, 250, 200, False)],
)  # fmt: skip
def test_plain_recursion_agrees(own: int, nxt: int, after: int, auto: bool) -> None:
    s = solved()
    want = main_start(s, own, nxt, after, auto)
    got = s.chances(own, nxt, after, auto)
    np.testing.assert_allclose(got, want, atol=1e-9)


@pytest.mark.parametrize(("d1", "e"), [(1, 1), (7, 2), (2, 12)])
def test_final_round_agrees(d1: int, e: int) -> None:
    t = build_tables(RULES)
    dmax = 24
    fr, _ = final_tables3(t, dmax)
    want = final_round(RULES, d1 * t.step, e * t.step, (dmax + 1) * t.step)
    np.testing.assert_allclose(fr[d1, e], want, atol=1e-10)
    assert math.isclose(sum(want), 1.0, abs_tol=1e-12)


def test_advice_lists_exactly_the_legal_actions() -> None:
    s = solved()
    rng = random.Random(5)
    for seed in range(15):
        g = DiceGame(3, RULES, seed=seed)
        while not g.is_over:
            legal = g.legal_actions()
            tips = advise(s, g)
            assert sorted(a.action for a in tips) == sorted(a for a in legal if a != "void")
            values = [a.win_probability for a in tips]
            assert values == sorted(values, reverse=True)
            g.apply(rng.choice(legal))


def test_the_advice_at_the_start_is_the_table() -> None:
    s = solved()
    g = DiceGame(3, RULES, seed=3)
    (tip,) = advise(s, g)
    assert math.isclose(tip.win_probability, s.win_probability(0, 0, 0), abs_tol=1e-12)


#: Without Auto-Pfeffer and Pfeffer no total goes below 0: the model has no lower truncation,
#: so Monte Carlo games can test it (with the -100 bound of RULES a bust under Auto-Pfeffer,
#: -1000, is clamped: 6,000 games show it, docs/strategy.md "More players").
EXACT = DiceRules(target=300, min_bank=150, auto_pfeffer=False, pfeffer=False)


def test_monte_carlo_agrees() -> None:
    s = solve_three(EXACT, lower=0, final_steps=FINAL)
    games = 500
    wins = np.zeros(3)
    for seed in range(games):
        bots = [OptimalBot(s, name=f"o{i}") for i in range(3)]
        g = DiceGame(3, EXACT, seed=seed)
        while not g.is_over:
            seat = g.current_player
            assert seat is not None
            g.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
        for w in g.winners:
            wins[w] += 1 / len(g.winners)
    want = s.chances(0, 0, 0)
    for p in range(3):
        se = math.sqrt(want[p] * (1 - want[p]) / games)
        assert abs(wins[p] / games - want[p]) <= 3 * se, (p, wins / games, want)


def test_solve_names_the_limit_and_gives_the_approximation() -> None:
    with pytest.raises(ValueError, match=str(MAX_EXACT_TARGET)):
        solve(DiceRules(target=MAX_EXACT_TARGET + 50), 3, cache=False)
    with pytest.raises(ValueError, match="2 to 8"):
        solve(RULES, 9, method="approx", cache=False)
    with pytest.raises(NotImplementedError, match="approx"):
        solve(RULES, 4, cache=False)
    a = solve(RULES, 5, method="approx", cache=False)
    assert isinstance(a, ApproxStrategy)
    assert a.win_probability(0, 0, 100, 50) == a.two.win_probability(0, 100)


def test_approximation_plays_four_to_eight_players() -> None:
    a = ApproxStrategy(solve_tables(RULES, lower=LOWER, final_steps=FINAL))
    for players in (3, 4, 8):
        bots = [OptimalBot(a, name=f"a{i}") for i in range(players)]
        g = DiceGame(players, RULES, seed=players)
        while not g.is_over:
            seat = g.current_player
            assert seat is not None
            legal = g.legal_actions()
            tips = advise(a, g)
            assert sorted(t.action for t in tips) == sorted(x for x in legal if x != "void")
            g.apply(bots[seat].choose(g.view(seat), legal))
        assert g.winners
