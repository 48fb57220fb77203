"""Perfect play in the simulator: the kernel's turn tables are the advice's bit for bit, and its
games are the games :class:`~pfeffer.dice.bots.OptimalBot` plays in :class:`DiceGame`."""

from __future__ import annotations

import numpy as np
import pytest

from pfeffer.dice import DiceRules
from pfeffer.dice.sim import optimal, simulate, simulate_records
from pfeffer.dice.sim.policies import HeuristicPolicy, PerfectPolicy, _compile_optimal
from pfeffer.dice.solver import DiceStrategy, solve
from pfeffer.dice.solver import gkernels as gk
from pfeffer.dice.solver.solve import solve_small, solve_tables
from pfeffer.dice.solver.tables import kernel_dice
from tests.dice.test_simulate import cross_check, play_bots, same_game


@pytest.fixture(scope="module")
def small() -> DiceStrategy:
    return solve_small()


@pytest.fixture(scope="module")
def banked_hot_dice() -> DiceStrategy:
    """Hot dice may be banked and no final round: the other branches of the turn."""
    rules = DiceRules(target=1000, hot_dice_must_roll=False, final_round=False, min_bank=200)
    return solve_tables(rules, lower=20, final_steps=300, tolerance=1e-10)


def check_tables(s: DiceStrategy, states: int, seed: int) -> int:
    """Compare the kernel's tables of random turns with ``DiceStrategy.turn``; the number of
    decisions seen past the total from which banking is provably best (the cut must be
    exercised)."""
    c = _compile_optimal(s)
    t = s.tables
    rows = 4 * optimal.table_size(c.ints, -2 * s.lower, t.target + t.max_points, 2 * t.min_bank, 0)
    keys = np.zeros((2, optimal.KEY_COLUMNS), dtype=np.int64)
    cd, ch = np.zeros((2, rows, 5)), np.zeros((2, rows))
    cr, cb = np.zeros((2, rows, 7)), np.zeros((2, rows))
    rng = np.random.default_rng(seed)
    banked = 0
    reach = gk.reach_table(2 * rows, s.rules.hot_dice_must_roll, kernel_dice(t),
                           s.model.consts)  # fmt: skip
    for k in range(states):
        # Totals below the lower bound too (a last turn counts the true lead).
        own = int(rng.integers(-2 * s.lower, t.target))
        late = k % 4 == 0 and s.rules.final_round  # some last turns (none without a final round)
        other = int(rng.integers(-s.lower - 3, t.target + (40 if late else 0)))
        need = int(rng.choice([0, t.min_bank, t.min_bank + 5]))
        penalty = int(rng.choice([0, t.auto_penalty, 9]))
        # (the kernel raises a total below the bound to it in the main game, as the advice)
        kown = own if other >= t.target else max(own, -s.lower)
        slot = optimal.lookup(c.ints, c.floats, 7, kown, other, need, penalty, 0,
                              optimal.TurnCache(keys, cd, ch, cr, cb))  # fmt: skip
        assert slot >= 0
        R, V, bank = s.turn(own, other, need, penalty)
        size = optimal.table_size(c.ints, kown, other, need, 0)
        solved = int(keys[slot, 7])
        # The same arrays: the kernel's whole bank array, and every solved row bit for bit.
        assert size == len(bank) and np.array_equal(cb[slot, :size], bank)
        assert np.array_equal(cd[slot, :solved], V[:solved, 1:6])
        assert np.array_equal(ch[slot, :solved], V[:solved, 6])
        assert np.array_equal(cr[slot, :solved, 1:], R[:solved, 1:])
        for after in range(solved):
            for left in range(6):
                v = optimal.keep_value(cd[slot], ch[slot], after, left)
                assert v == V[after, left or 6]
        # Past the solved rows the advice has no values either (zeros; the kernel refuses to
        # read there). A keep reads there only from a total within two keeps of their end (a
        # hot-dice throw that must be made, then the keep): a turn total past the target and
        # the whole last-turn table, which one turn reaches with a chance below 1e-8 here (the
        # 300-step final round; about 1e-14 with the default table's 600): never played.
        assert not V[solved:].any() and not R[solved:].any()
        y = solved - 2 * t.max_points
        assert y > t.target - kown + s.final.shape[0]
        assert reach[min(y, len(reach) - 1)] < 1e-8
        rolls = R[:solved, 1:6] < np.maximum(bank[:solved, None], 0.0)
        banked += int(rolls.sum())
    return banked


def test_kernel_turn_tables_are_the_advice_bit_for_bit(
    small: DiceStrategy, banked_hot_dice: DiceStrategy
) -> None:
    assert check_tables(small, 40, seed=1) > 0
    assert check_tables(banked_hot_dice, 40, seed=2) > 0
    assert check_tables(solve(DiceRules()), 6, seed=3) > 0


def test_perfect_play_is_optimalbot_game_by_game(small: DiceStrategy) -> None:
    perfect = PerfectPolicy(small)
    sims = cross_check(small.rules, [perfect, perfect], 1200, seed=3)
    sims += cross_check(small.rules, [perfect, HeuristicPolicy()], 400, seed=4)
    sims += cross_check(small.rules, [HeuristicPolicy(), perfect], 400, seed=5)
    # The perfect player banks, keeps and goes bust like the bot, and some turns run into hot
    # dice and the final round (the games are not trivial).
    assert sum(t.busted for s in sims for t in s.turns) > 500
    assert sum(a == "keep 111111" or len(a) == 11 for s in sims for a in s.actions) > 0


def test_perfect_play_under_other_rules_and_the_defaults(banked_hot_dice: DiceStrategy) -> None:
    perfect = PerfectPolicy(banked_hot_dice)
    cross_check(banked_hot_dice.rules, [perfect, perfect], 400, seed=6)
    cross_check(banked_hot_dice.rules, [HeuristicPolicy(), perfect], 200, seed=7)
    default = PerfectPolicy(solve(DiceRules()))
    cross_check(DiceRules(), [default, default], 12, seed=8)
    cross_check(DiceRules(), [HeuristicPolicy(), default], 8, seed=9)


def test_simulated_first_player_share_is_the_solved_chance(small: DiceStrategy) -> None:
    r = simulate(small.rules, [small, small], games=20_000, seed=11)
    assert r.policies == ("perfect", "perfect")
    expected = small.win_probability(0, 0)
    assert abs(r.win_rate(0) - expected) < 3 * r.stderr(0)


def test_perfect_policy_checks_its_rules(small: DiceStrategy) -> None:
    with pytest.raises(ValueError, match="two players"):
        simulate(small.rules, [small] * 3, games=1, seed=1)
    with pytest.raises(ValueError, match="other rules"):
        simulate(DiceRules(target=2000), [small, "heuristic"], games=1, seed=1)
    s = simulate_records(small.rules, ["perfect", "heuristic"], games=2, seed=1)
    g = play_bots(small.rules, [PerfectPolicy(), HeuristicPolicy()], s[0].seed)
    assert same_game(s[0], g)
