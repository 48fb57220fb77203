"""The general solver (issue 10): every house rule, checked at small targets against the plain
reference recursion (tests/dice/solver_reference.py), Monte Carlo games through DiceGame, the
fast path, a fresh Bellman sweep (the residual) and the advice's reading of the tables."""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from pathlib import Path

import numpy as np
import pytest

from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.bots import OptimalBot
from pfeffer.dice.solver import DiceStrategy, advise, solve
from pfeffer.dice.solver.cache import DATA_DIR_ENV
from pfeffer.dice.solver.check import residual, truncation_bounds
from pfeffer.dice.solver.general import solve_general
from pfeffer.dice.solver.solve import calls_never_pay, solve_tables

from .solver_reference import last_turn, main_start, turn_value

RULE_SETS = {
    "opening-only": DiceRules(target=300, min_bank=150, min_bank_opening_only=True),
    "stake": DiceRules(target=250, min_bank=100, pfeffer_reward="stake", auto_pfeffer_penalty=200),
    "stake-short-playoff": DiceRules(target=250, min_bank=100, pfeffer_reward="stake",
                                     auto_pfeffer_penalty=200,
                                     pfeffer_short_bank="allowed", tie="playoff",
                                     pfeffer_penalty_factor=1, pfeffer_margin=100),
    "playoff": DiceRules(target=300, min_bank=150, tie="playoff"),
    # Every scoring option away from its default, and another Auto-Pfeffer penalty (fast path).
    "scores": DiceRules(target=300, min_bank=150, single_one=150, single_five=100,
                        triples={2: 250, 6: 700}, extra_dice="fixed", fixed_four=1200,
                        four_and_pair_is_three_pairs=False, straight=1000, three_pairs=750,
                        auto_pfeffer_penalty=500),
    "no-final-round": DiceRules(target=300, min_bank=150, final_round=False, auto_pfeffer=False,
                                hot_dice_must_roll=False),
}  # fmt: skip
#: Small instances (CI time: every solve takes seconds): totals down to -600, last turns and the
#: final round's table to 150 steps (7,500 points). The checks compare the solver with itself
#: (recursion, residual) or with games of these very rules, so the cut-offs stay consistent.
LOWER = 12
#: The stake reward's table has a dimension more (the predecessor's bank): kept smaller.
LOWERS = {"stake": 8, "stake-short-playoff": 8}
FINAL = 150


@functools.cache
def solved(name: str) -> DiceStrategy:
    """The rule set's table, solved once per test session."""
    lower = LOWERS.get(name, LOWER)
    return solve_tables(RULE_SETS[name], lower=lower, final_steps=FINAL, tolerance=1e-12)


@pytest.fixture(scope="module", params=sorted(RULE_SETS))
def strategy(request: pytest.FixtureRequest) -> DiceStrategy:
    return solved(request.param)


def test_converged_and_a_fresh_sweep_changes_nothing(strategy: DiceStrategy) -> None:
    assert strategy.residuals[-1] <= 1e-12
    assert residual(strategy) <= 1e-9


def test_residual_sees_a_wrong_value(strategy: DiceStrategy) -> None:
    at = (strategy.lower + 2, strategy.lower + 3)
    if "roll" in strategy.extra:
        RN = strategy.extra["roll"].copy()
        RN[-1, -1][at] += 1e-6
        wrong = dataclasses.replace(strategy, extra={**strategy.extra, "roll": RN})
    else:
        normal = strategy.normal.copy()
        normal[at] += 1e-6
        wrong = dataclasses.replace(strategy, normal=normal)
    assert residual(wrong) >= 5e-7


STATES = [(0, 0), (100, 150), (150, -200), (-300, 200), (200, -250), (200, 200)]


@pytest.mark.parametrize(("own", "other"), STATES)
def test_reference_recursion_recomputes_start_values(
    strategy: DiceStrategy, own: int, other: int
) -> None:
    r = strategy.rules
    if max(own, other) >= r.target:
        pytest.skip("past this rule set's target")
    flag_sets = [(True, True)]
    if r.min_bank_opening_only:
        flag_sets += [(o, t) for o in (False, True) for t in (False, True)
                      if (o or own <= 0) and (t or other <= 0)
                      and (o, t) != (True, True)]  # fmt: skip
    for opened in flag_sets:
        if (not opened[0] and own > 0) or (not opened[1] and other > 0):
            continue
        for auto in (False, True):
            ref = main_start(strategy, own, other, auto=auto, opened=opened)
            got = strategy.win_probability(own, other, auto, opened=opened)
            assert ref == pytest.approx(got, abs=1e-9), (opened, auto)
        if r.pfeffer and opened[1]:
            for pred in (r.min_bank, 400):
                roll = main_start(strategy, own, other, opened=opened)
                call = main_start(strategy, own, other, predecessor=pred, opened=opened, call=True)
                got = strategy.win_probability(own, other, predecessor=pred, opened=opened)
                assert max(roll, call) == pytest.approx(got, abs=1e-9), (opened, pred)


@pytest.mark.parametrize("behind", [100, 300, 600, 1200])
def test_reference_recursion_recomputes_last_turns(strategy: DiceStrategy, behind: int) -> None:
    r = strategy.rules
    if not r.final_round:
        pytest.skip("no final round")
    other = r.target + 50
    own = other - behind
    for opened in (True, False) if r.min_bank_opening_only else (True,):
        if not opened and own > 0:
            continue
        for pred in (r.min_bank, 450):
            ref = last_turn(strategy, own, other, predecessor=pred, opened=opened)
            if r.pfeffer and r.pfeffer_reward == "stake":
                ref = max(ref, last_turn(strategy, own, other, predecessor=pred, opened=opened,
                                         call=True))  # fmt: skip
            got = strategy.win_probability(own, other, predecessor=pred, opened=(opened, True))
            assert ref == pytest.approx(got, abs=1e-9)


def test_reference_recursion_recomputes_the_playoff(strategy: DiceStrategy) -> None:
    r = strategy.rules
    m = strategy.model
    if r.tie != "playoff" or not r.final_round:
        pytest.skip("ties are shared")
    step = strategy.step
    need = 0 if r.min_bank_opening_only else r.min_bank
    pen_b = r.auto_pfeffer_penalty if r.auto_pfeffer else 0

    def after_bust(pen: int) -> float:
        # The other's last turn, ahead by the first player's penalty: any bank wins.
        down = -pen
        beta = 1.0 if -pen_b > down else m.tie_value(0) if -pen_b == down else 0.0
        return 1.0 - turn_value(r, lambda t: 1.0, beta, need, lambda t: True)

    def first(pen: int, pred: int | None) -> float:
        stake, bonus, need_now = 0, False, need
        if pred is not None:
            stake = pred + r.pfeffer_margin
            pen = r.pfeffer_penalty_factor * stake
            bonus = r.pfeffer_reward == "stake"
            if r.pfeffer_short_bank == "forbidden":
                need_now = max(need, stake)

        top = r.target  # the other's last turn, ``lead`` behind
        beyond = (len(strategy.final) - 1) * step

        def bank(t: int) -> float:
            lead = t + (stake if bonus and t >= stake else 0)
            return 1.0 - strategy.win_probability(top - lead, top, predecessor=t,
                                                  opened=(True, True))  # fmt: skip

        return turn_value(r, bank, after_bust(pen), need_now, lambda t: t >= beyond)

    roll = first(0, None)
    assert roll == pytest.approx(m.P[-1], abs=1e-9)
    assert first(pen_b, None) == pytest.approx(m.P[0], abs=1e-9)
    if r.pfeffer and r.pfeffer_reward == "stake":
        for pred in (200, 350):
            want = max(roll, first(0, pred))
            assert want == pytest.approx(m.P[pred // step], abs=1e-9)


def play(s: DiceStrategy, seed: int, cap: int = 3000) -> list[int] | None:
    """One game of optimal against optimal play; None if it takes more than ``cap`` decisions
    (below the table's bound busts cost nothing in the model, so a game there can run on)."""
    bot = OptimalBot(s)
    g = DiceGame(2, s.rules, seed=seed)
    for _ in range(cap):
        seat = g.current_player
        if seat is None:
            return g.winners
        g.apply(bot.choose(g.view(seat), g.legal_actions()), seat=seat)
    return None


def test_monte_carlo_agrees(strategy: DiceStrategy) -> None:
    games = 400
    first = 0.0
    played = 0
    for seed in range(games):
        winners = play(strategy, 50_000 + seed)
        if winners is None:
            continue
        played += 1
        first += 1.0 if winners == [0] else 0.5 if len(winners) == 2 else 0.0
    assert played >= 0.99 * games
    p = strategy.win_probability(0, 0)
    se = math.sqrt(p * (1 - p) / played)
    assert abs(first / played - p) < 3 * se


def test_advice_lists_the_legal_actions_and_reads_the_right_tables(
    strategy: DiceStrategy,
) -> None:
    rng = random.Random(3)
    r = strategy.rules
    step = strategy.step
    for seed in range(12):
        g = DiceGame(2, r, seed=seed)
        for _ in range(120):
            seat = g.current_player
            if seat is None:
                break
            legal = g.legal_actions()
            tips = advise(strategy, g)
            assert sorted(t.action for t in tips) == sorted(legal)
            by = {t.action: t.win_probability for t in tips}
            view = g.view(seat)
            if "bank" in by and not view.final_round and not view.playoff:
                # Banking hands the other player their turn: read from the right table. A total
                # below the table's bound counts as the bound (the model's totals never go
                # lower), and the turn banks from there: then the turn's start is worth
                # win_probability at that total, as everywhere else.
                total = max(view.scores[seat], -strategy.lower * step) + view.turn_total
                if view.pfeffer.value == "called" and r.pfeffer_reward == "stake":
                    total += view.stake if view.turn_total >= view.stake else 0
                banked = {t.seat for t in view.history if not t.busted}
                other = view.scores[1 - seat]
                if total < r.target:
                    want = 1 - strategy.win_probability(
                        other, total, predecessor=view.turn_total, opened=(1 - seat in banked, True)
                    )
                    assert by["bank"] == pytest.approx(want, abs=1e-12)
            start = view.turn_total == 0 and view.dice_to_roll == 6 and "roll" in by
            main = not view.final_round and not view.playoff and view.pfeffer.value != "called"
            if start and main:
                # A turn's start is the table's value (also below the table's bound).
                banked = {t.seat for t in view.history if not t.busted}
                want = strategy.win_probability(
                    view.scores[seat], view.scores[1 - seat], view.pfeffer.value == "auto",
                    opened=(seat in banked, 1 - seat in banked),
                )  # fmt: skip
                assert by["roll"] == pytest.approx(want, abs=1e-9)
            assert view.turn_total % step == 0
            g.apply(rng.choice(legal), seat=seat)


def test_general_path_agrees_with_the_fast_path() -> None:
    r = DiceRules(target=300, min_bank=150)
    a = solve_tables(r, lower=LOWER, final_steps=FINAL, tolerance=1e-13)
    b = solve_general(r, lower=LOWER, final_steps=FINAL, tolerance=1e-13)
    assert "roll" not in a.extra and "roll" in b.extra
    assert np.abs(a.normal - b.normal).max() <= 1e-9
    assert np.abs(a.auto - b.auto).max() <= 1e-9
    # With every Pfeffer call valued (the predecessor in the state), nothing changes: the
    # certificate that calls never pay under reward "none" holds.
    c = solve_general(r, lower=LOWER, final_steps=FINAL, tolerance=1e-13, calls=True)
    assert calls_never_pay(b) and calls_never_pay(c)
    assert np.abs(c.normal - b.normal).max() <= 1e-12
    CL = c.extra["calls"][0, 0]
    assert np.all(c.normal[:, :, None] + 1e-12 >= CL)


def test_certificate_fails_when_a_lower_total_would_pay() -> None:
    s = solved("playoff")
    auto = s.auto.copy()
    auto[LOWER + 2, 0] = auto[LOWER + 2, LOWER + 4] + 0.01  # being far lower made better
    assert calls_never_pay(s)
    assert not calls_never_pay(DiceStrategy(s.rules, s.lower, s.normal, auto, s.final,
                                            extra=s.extra))  # fmt: skip


def test_stake_reward_makes_calls_pay_somewhere() -> None:
    s = solved("stake")
    CL = s.extra["calls"][0, 0]
    assert np.any(s.normal[:, :, None] + 1e-6 < CL)
    # A desperate player calls: far behind, the other near the target.
    assert s.win_probability(-300, 450, predecessor=400) > s.win_probability(-300, 450) + 1e-3


def test_stored_general_tables_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    from pfeffer.dice.solver import cache

    s = solved("stake")
    cache.save(s)
    t = cache.load(s.rules)
    assert t is not None and set(t.extra) == set(s.extra)
    assert t.win_probability(0, 300, predecessor=300) == s.win_probability(0, 300, predecessor=300)
    assert solve(s.rules).win_probability(-100, 0) == s.win_probability(-100, 0)


def test_win_probability_flags() -> None:
    s = solved("opening-only")
    start = s.win_probability(0, 0)
    assert start == s.win_probability(0, 0, opened=(False, False))
    assert start != s.win_probability(0, 0, opened=(True, True))
    with pytest.raises(ValueError, match="not banked"):
        s.win_probability(100, 0, opened=(False, False))


def test_reach_table_is_the_chance_to_bank_enough() -> None:
    s = solved("playoff")
    m = s.model
    for points in (350, 1000, 2000):

        def settled(t: int, p: int = points) -> bool:
            return t >= p

        want = turn_value(s.rules, lambda t: 1.0, 0.0, points, settled)
        assert m.reach[points // s.step] == pytest.approx(want, abs=1e-12)
    assert np.all(np.diff(m.reach[1:]) <= 1e-15)


def test_truncation_bounds_bracket_the_solved_table() -> None:
    """The rigorous bounds (check.truncation_bounds: busts below the table's bound worth 0 and 1)
    hold the solved table between them, and deeper tables narrow the gap."""
    r = DiceRules(target=200, min_bank=100)
    s = solve_tables(r, lower=20, final_steps=120, tolerance=1e-13)
    lo, hi, gaps = truncation_bounds(r, lower=20, final_steps=120, gap=1e-12)
    table = np.stack([s.normal, s.auto])
    assert np.all(lo[0, 0] <= table + 1e-12)
    assert np.all(hi[0, 0] + 1e-12 >= table)
    assert gaps[-1] < 1e-2
    k = 20
    # The bounds are tight enough to catch a value off by 0.01 on the states from 0 up.
    narrow = (hi - lo)[0, 0, :, k:, k:] < 0.01
    assert narrow.all()
    assert not np.all(table[:, k:, k:] + 0.01 <= hi[0, 0, :, k:, k:] + 1e-12)
    # One Auto-Pfeffer penalty (1000) deeper: at target 300 measured 8.2e-3 -> 1.9e-4 (500
    # deeper: 7.7e-3).
    deep = truncation_bounds(r, lower=40, final_steps=120, gap=1e-12)
    assert (deep[1] - deep[0])[..., 40:, 40:].max() < 0.05 * (hi - lo)[..., k:, k:].max()


def test_main_bank_reads_the_rules_vector_of_the_advice() -> None:
    """The advice's bank array of a main-game turn comes from ``main_bank`` with the strategy's
    rules vector (issue 19 §4): the bound, and the calls read where the strategy has them."""
    import inspect

    from pfeffer.dice.solver import context, gsweep
    from pfeffer.dice.solver.tables import S_CALLS, S_LOWER, S_STAKE_REWARD, solve_vector

    m = solved("stake").model
    assert int(m.vector[S_LOWER]) == m.lower
    assert m.vector[S_CALLS] == 1 and m.vector[S_STAKE_REWARD] == 1
    plain = solved("opening-only").model
    assert np.array_equal(plain.vector, solve_vector(plain.tables, plain.lower))
    # One turn's numbers, the rules, the tables, the bust chances: six arguments.
    assert len(inspect.signature(gsweep.main_bank).parameters) == 6
    s = context.Situation("main", 2, 1, 0, 0, 1, 0, stake=3, bonus=True)
    advice = context.bank_array(m, s)[0]
    b = np.full(len(advice), -1.0)
    turn = gsweep.BankTurn(2, 1, 1, 3, True, 0, np.inf, 0)
    gsweep.main_bank(b, turn, m.vector, gsweep.Starts(m.RN, m.RA, m.CL),
                     gsweep.Ends(m.G, m.needs, m.reach), m.tables.bust)  # fmt: skip
    assert np.array_equal(b, advice)
    assert (b[3:] > 0).any()  # banks from the stake on (a bonus) read the tables
