"""The dice solver (issue 10): checked against an independent plain recursion, Monte Carlo games
through DiceGame, the legal actions, and the heuristic player — at a small target (1000)."""

from __future__ import annotations

import functools
import math
import random
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.bots import DICE_BOTS, HeuristicBot, OptimalBot, RandomBot, make_optimal_bot
from pfeffer.dice.probability import throw_distribution
from pfeffer.dice.scoring import score_table
from pfeffer.dice.solver import DiceStrategy, advise, solve
from pfeffer.dice.solver.cache import DATA_DIR_ENV
from pfeffer.dice.solver.solve import TOLERANCE, solve_deeper, solve_small, solve_tables

RULES = DiceRules(target=1000)


@pytest.fixture(scope="module")
def strategy() -> DiceStrategy:
    return solve_small()


def reference_start_value(s: DiceStrategy, own: int, other: int, auto: bool) -> float:
    """The value of a turn's start, recomputed by a plain recursion over (total, dice, hot) with
    every keep option of scoring.py, from the stored start-of-turn values (totals in points)."""
    rules = s.rules
    table = score_table(rules)
    step = table.step
    tables = s.auto if rules.auto_pfeffer else s.normal
    pen = rules.auto_pfeffer_penalty if auto else 0
    down = max(own - pen, -s.lower * step)
    beta = 1.0 - tables[(other // step) + s.lower, down // step + s.lower]

    def bank(t: int) -> float:
        total = own + t
        if total < rules.target:
            return float(1.0 - s.normal[other // step + s.lower, total // step + s.lower])
        d = min((total - other) // step, len(s.final) - 1)
        return float(1.0 - s.final[d])

    p_bust = {n: sum(p for throw, p in throw_distribution(n) if not table.options[throw])
              for n in range(1, 7)}  # fmt: skip

    p_only_hot = sum(
        p for throw, p in throw_distribution(6)
        if table.options[throw] and all(len(o.dice) == 6 for o in table.options[throw])
    )  # fmt: skip
    beyond = len(s.final) - 1  # from this lead on the stored last-turn chance is 0

    @functools.cache
    def value(t: int, dice: int, hot: bool) -> float:
        if hot and (own + t - other) // step >= beyond:
            # Every keep that leaves dice banks a sure win; three pairs chain hot dice.
            return float((p_bust[6] * beta + 1 - p_bust[6] - p_only_hot) / (1 - p_only_hot))
        can_bank = t >= rules.min_bank and t > 0 and not (hot and rules.hot_dice_must_roll)
        b = bank(t) if can_bank else -1.0
        # Past the target, banking is best once the opponent's last turn (1 - b) is less likely
        # than what a throw risks: a throw gains at most 1 - p_bust and busts to beta.
        if can_bank and own + t >= rules.target and 1 - b <= p_bust[dice] * (1 - beta):
            return b
        roll = 0.0
        for throw, p in throw_distribution(dice):
            options = table.options[throw]
            if not options:
                roll += p * beta
                continue
            roll += p * max(
                value(t + o.points, dice - len(o.dice) or 6, dice == len(o.dice)) for o in options
            )
        return max(b, roll)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        return value(0, 6, False)
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize(
    ("own", "other", "auto"),
    [(0, 0, False), (0, 0, True), (500, 900, False), (900, 500, True), (-1000, 350, True)],
)
def test_plain_recursion_agrees(strategy: DiceStrategy, own: int, other: int, auto: bool) -> None:
    assert reference_start_value(strategy, own, other, auto) == pytest.approx(
        strategy.win_probability(own, other, auto), abs=1e-8
    )


def test_converged(strategy: DiceStrategy) -> None:
    # The stopping rule; the last turn's chance falls with the lead it must beat.
    assert strategy.residuals[-1] <= 1e-10
    assert np.all(np.diff(strategy.final) <= 1e-15)


def test_final_round(strategy: DiceStrategy) -> None:
    # A last turn 0..6 steps behind must reach the minimum (350) anyway: same chance.
    assert strategy.win_probability(650, 1000) == pytest.approx(strategy.final[7])
    assert strategy.win_probability(0, 2000) < strategy.win_probability(900, 1000)


def play(bots: list[OptimalBot | HeuristicBot | RandomBot], seed: int) -> list[int]:
    g = DiceGame(2, RULES, seed=seed)
    while (seat := g.current_player) is not None:
        g.apply(bots[seat].choose(g.view(seat), g.legal_actions()), seat=seat)
    return g.winners


def test_monte_carlo_agrees(strategy: DiceStrategy) -> None:
    bot = OptimalBot(strategy)
    games = 1500
    first = 0.0
    for seed in range(games):
        winners = play([bot, bot], seed)
        first += 1.0 if winners == [0] else 0.5 if len(winners) == 2 else 0.0
    p = strategy.win_probability(0, 0)
    se = math.sqrt(p * (1 - p) / games)
    assert abs(first / games - p) < 3 * se


def test_advice_lists_exactly_the_legal_actions(strategy: DiceStrategy) -> None:
    rng = random.Random(5)
    for seed in range(30):
        g = DiceGame(2, RULES, seed=seed)
        # Random play may never reach the target: look at the first 200 decisions.
        for _ in range(200):
            seat = g.current_player
            if seat is None:
                break
            legal = g.legal_actions()
            tips = advise(strategy, g)
            assert sorted(t.action for t in tips) == sorted(legal)
            assert tips == advise(strategy, g.view(seat))
            values = [t.win_probability for t in tips]
            assert values == sorted(values, reverse=True)
            if "pfeffer" in legal:  # reward "none": calling never helps
                by = {t.action: t.win_probability for t in tips}
                assert by["pfeffer"] <= by["roll"] + 1e-12
            g.apply(rng.choice(legal), seat=seat)


def test_optimal_beats_heuristic(strategy: DiceStrategy) -> None:
    wins = 0.0
    games = 300
    for seed in range(games):
        bots: list[OptimalBot | HeuristicBot | RandomBot] = [OptimalBot(strategy), HeuristicBot()]
        seat = seed % 2
        if seat:
            bots.reverse()
        winners = play(bots, 10_000 + seed)
        wins += 1.0 if winners == [seat] else 0.5 if len(winners) == 2 else 0.0
    assert wins / games > 0.5


def test_levels() -> None:
    assert "heuristic" in DICE_BOTS and "random" in DICE_BOTS
    bot = make_optimal_bot(name="Optimal", seed=1, level="perfect")
    assert isinstance(bot, OptimalBot)


def test_registry_optimal_falls_back_without_a_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No solve starts from the registry: rules without a table play heuristically, with a warning.
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert DICE_BOTS.keys() == ("heuristic", "random", "optimal")
    bot = DICE_BOTS.create("optimal", name="Opti", seed=1, level="perfect")
    assert isinstance(bot, OptimalBot) and not bot.solve_missing
    g = DiceGame(2, DiceRules(target=1000), seed=3)
    with pytest.warns(UserWarning, match="heuristic"):
        while (seat := g.current_player) is not None:
            g.apply(bot.choose(g.view(seat), g.legal_actions()), seat=seat)
    assert bot.fallback and bot.strategy is None


#: The first player's chance under the default rules, from the shipped table.
SHIPPED_FIRST = 0.5306754361260173


def test_shipped_defaults_load_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))  # no user cache: the shipped table
    start = time.perf_counter()
    s = solve(DiceRules())
    assert time.perf_counter() - start < 2
    assert s.win_probability(0, 0) == pytest.approx(SHIPPED_FIRST, abs=1e-15)
    assert s.residuals[-1] <= TOLERANCE
    # The plain recursion recomputes start states from the stored values.
    for own, other, auto in [(9000, 9500, True), (8500, 6000, False)]:
        assert reference_start_value(s, own, other, auto) == pytest.approx(
            s.win_probability(own, other, auto), abs=1e-9
        )


def test_final_round_cut_off_moves_nothing() -> None:
    # The last-turn table cut at 600 steps instead of 300 (target 1000): no value moves by 1e-10.
    a = solve_small()
    b = solve_tables(a.rules, lower=a.lower, final_steps=600, tolerance=1e-10)
    assert len(b.final) == len(a.final) + 300
    assert np.abs(a.normal - b.normal).max() <= 1e-10
    assert np.abs(a.auto - b.auto).max() <= 1e-10


def test_threads_give_the_same_table() -> None:
    a = solve_small()
    b = solve_tables(a.rules, lower=a.lower, final_steps=len(a.final) - 2, tolerance=1e-10,
                     threads=2)  # fmt: skip
    assert b.residuals == a.residuals
    assert np.array_equal(a.normal, b.normal) and np.array_equal(a.auto, b.auto)


def test_deeper_solve_from_a_stored_table() -> None:
    # The truncation check's deeper solve starts from a shallower table extended downward: the
    # same fixed point as a solve from scratch at that bound (the same stopping rule).
    a = solve_small()
    deep = solve_deeper(a, a.lower + 10, tolerance=1e-11, threads=1)
    scratch = solve_tables(a.rules, lower=a.lower + 10, final_steps=len(a.final) - 2,
                           tolerance=1e-11)  # fmt: skip
    assert deep.lower == scratch.lower and deep.residuals[-1] <= 1e-11
    assert np.abs(deep.normal - scratch.normal).max() <= 1e-10
    assert np.abs(deep.auto - scratch.auto).max() <= 1e-10
    # The common states move by the (small) truncation difference only.
    # solve_small's bound is shallow (-1000): near it the common states move by about 1e-2, on
    # the states with both totals >= 0 by the truncation difference of docs/strategy.md (~1e-3).
    assert np.abs(deep.normal[10:, 10:] - a.normal).max() < 2e-2
    assert np.abs(deep.normal[30:, 30:] - a.normal[20:, 20:]).max() < 2e-3
    assert np.abs(deep.auto[30:, 30:] - a.auto[20:, 20:]).max() < 4e-3
