"""The batch simulator: the compiled kernel plays exactly the games DiceGame plays with the bots.

The cross-check: for every house-rule variant of the property tests (and a few more that set the
other options), thousands of games at small targets and hundreds at the default target are
played twice, once by :func:`pfeffer.dice.sim.simulate_records` and once by
:class:`~pfeffer.dice.DiceGame` with the policies' bots and the same game seeds, and compared
action by action (every throw, keep, bank and Pfeffer call), turn by turn (points, bust, Pfeffer
mode, stake, penalty, bonus, total) and by final totals and winners.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.bots import HeuristicBot, reach_probability
from pfeffer.dice.rules import DICE_RULE_SPECS
from pfeffer.dice.sim import SimGame, game_seed, simulate, simulate_records
from pfeffer.dice.sim.policies import HeuristicPolicy, SimPolicy, ThresholdPolicy, pfeffer_table
from tests.dice.test_properties import RULE_VARIANTS

# The options the property tests' variants leave at their defaults.
EXTRA_VARIANTS = [
    DiceRules(target=1500, pfeffer=False, min_bank=0, tie="playoff"),
    DiceRules(
        target=2000,
        pfeffer_reward="stake",
        pfeffer_penalty_factor=1,
        auto_pfeffer_penalty=0,
        min_bank_opening_only=True,
    ),
    DiceRules(
        target=1500,
        single_one=150,
        single_five=0,
        triples={2: 250, 6: 700},
        four_and_pair_is_three_pairs=False,
        straight=1000,
        three_pairs=750,
    ),
    DiceRules(
        target=1500,
        tie="playoff",
        hot_dice_must_roll=False,
        pfeffer_reward="stake",
        pfeffer_short_bank="allowed",
        pfeffer_margin=0,
        auto_pfeffer_penalty=300,
    ),
]
VARIANTS = RULE_VARIANTS + EXTRA_VARIANTS


def play_bots(rules: DiceRules, policies: Sequence[SimPolicy], seed: int) -> DiceGame:
    bots = [p.bot() for p in policies]
    g = DiceGame(len(bots), rules, seed=seed)
    while (s := g.current_player) is not None:
        g.apply(bots[s].choose(g.view(s), g.legal_actions()), seat=s)
    return g


def same_game(sim: SimGame, game: DiceGame) -> bool:
    turns = [
        (t.seat, t.points, t.busted, t.pfeffer.value, t.stake, t.penalty, t.bonus, t.total_after)
        for t in game.history
    ]
    return (
        sim.actions == game.actions
        and [tuple(t) for t in sim.turns] == turns
        and sim.scores == game.scores
        and sim.winners == game.winners
    )


def cross_check(
    rules: DiceRules, policies: Sequence[SimPolicy], games: int, seed: int
) -> list[SimGame]:
    """Play ``games`` both ways and assert they are the same; returns the simulated games."""
    sims = simulate_records(rules, policies, games=games, seed=seed)
    assert len(sims) == games
    for g, sim in enumerate(sims):
        assert sim.seed == game_seed(seed, g)
        game = play_bots(rules, policies, sim.seed)
        assert same_game(sim, game), f"game {g} (seed {sim.seed}) differs"
    return sims


def events(rules: DiceRules, sims: Sequence[SimGame]) -> Counter[str]:
    """What happened in the games: Pfeffer calls, penalties, shared wins, playoffs."""
    c: Counter[str] = Counter()
    for sim in sims:
        n = len(sim.scores)
        c["pfeffer"] += sim.actions.count("pfeffer")
        c["auto bust"] += sum(t.pfeffer == "auto" and t.busted for t in sim.turns)
        c["bonus"] += sum(t.bonus > 0 for t in sim.turns)
        c["shared"] += len(sim.winners) > 1
        reached = next(i for i, t in enumerate(sim.turns) if t.total_after >= rules.target)
        c["playoff"] += rules.final_round and len(sim.turns) - reached - 1 > n - 1
    return c


HEURISTIC = HeuristicPolicy()
# Banks from 400 with any dice: it ignores the leader, so it ties (the heuristic never does).
THRESHOLD = ThresholdPolicy((400,) * 6)


@pytest.mark.parametrize("rules", VARIANTS, ids=range(len(VARIANTS)))
def test_kernel_plays_the_games_of_dicegame_at_small_targets(rules: DiceRules) -> None:
    sims = []
    for players, games in ((2, 400), (3, 150), (5, 60), (8, 15)):
        sims += cross_check(rules, [HEURISTIC] * players, games, seed=players)
    seen = events(rules, sims)
    if rules.pfeffer_reward == "stake":
        assert seen["pfeffer"] > 0 and seen["bonus"] > 0
    if rules.auto_pfeffer and rules.auto_pfeffer_penalty:
        assert seen["auto bust"] > 0
    ties = cross_check(rules, [THRESHOLD, HEURISTIC], 200, seed=20)
    ties += cross_check(rules, [THRESHOLD] * 3, 200, seed=30)
    seen = events(rules, ties)
    if rules.tie == "playoff" and rules.final_round:
        assert seen["playoff"] > 0 and seen["shared"] == 0
    elif rules.final_round:
        assert seen["shared"] > 0


@pytest.mark.parametrize("rules", [DiceRules(), *(r.replace(target=10000) for r in VARIANTS)])
def test_kernel_plays_the_games_of_dicegame_at_the_default_target(rules: DiceRules) -> None:
    cross_check(rules, [HEURISTIC] * 2, 150 if rules == DiceRules() else 30, seed=10)
    cross_check(rules, [HEURISTIC] * 4, 10, seed=11)


def test_any_seed_and_other_thresholds_also_match() -> None:
    other = HeuristicPolicy(bank_at=(600, 450, 300, 1000, 2500, 10**9), roll_on_worth=(0,) * 6)
    rules = DiceRules(target=2000, pfeffer_reward="stake")
    cross_check(rules, [HEURISTIC, other, HEURISTIC], 100, seed=2**70 + 3)


def test_a_policy_that_differs_from_the_bot_is_caught() -> None:
    class Mislabelled(HeuristicPolicy):
        def bot(self) -> HeuristicBot:
            return HeuristicBot()  # not this policy's thresholds

    rules = DiceRules(target=3000)
    wrong = Mislabelled(bank_at=(600, 450, 300, 1000, 2500, 10**9))
    sims = simulate_records(rules, [HEURISTIC, wrong], games=50, seed=1)
    differ = sum(not same_game(s, play_bots(rules, [HEURISTIC, wrong], s.seed)) for s in sims)
    assert differ > 10


def test_simulate_counts_what_the_records_show() -> None:
    rules = VARIANTS[1]
    policies = ["heuristic"] * 3
    result = simulate(rules, policies, games=300, seed=5)
    sims = simulate_records(rules, policies, games=300, seed=5)
    assert result.games == 300 and result.players == 3 and result.policies == ("heuristic",) * 3
    for seat in range(3):
        mine = [t for s in sims for t in s.turns if t.seat == seat]
        assert result.turns[seat] == len(mine)
        assert result.busts[seat] == sum(t.busted for t in mine)
        assert result.pfeffer_calls[seat] == sum(t.pfeffer == "called" for t in mine)
        shares = sum(1 / len(s.winners) for s in sims if seat in s.winners)
        assert result.wins[seat] == pytest.approx(shares)
        assert 0 < result.stderr(seat) < 0.05
    assert sum(result.wins) == pytest.approx(300)
    assert result.scores.tolist() == [s.scores for s in sims]
    assert result.game_turns.tolist() == [len(s.turns) for s in sims]
    # A later slice of the run is the same games.
    assert simulate_records(rules, policies, games=3, seed=5, first_game=297) == sims[297:]


def test_pfeffer_table_is_the_bots_reach_probability() -> None:
    rules = DiceRules(pfeffer_reward="stake", pfeffer_penalty_factor=3)
    table = pfeffer_table(rules)
    assert table == tuple(reach_probability(rules, 50 * j) for j in range(1, len(table) + 1))
    assert table[-1] < 3 / 4 <= table[-2]
    with pytest.raises(ValueError, match="0 points"):
        pfeffer_table(DiceRules(pfeffer_reward="stake", single_five=0))


def test_simulate_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="2 to 8"):
        simulate(None, ["heuristic"], games=1, seed=1)
    with pytest.raises(ValueError, match="no simulator policy"):
        simulate(None, ["heuristic", "genius"], games=1, seed=1)
    with pytest.raises(ValueError, match="seed"):
        simulate(None, ["heuristic"] * 2, games=1, seed=-1)
    with pytest.raises(ValueError, match="games"):
        simulate(None, ["heuristic"] * 2, games=-1, seed=1)
    with pytest.raises(ValueError, match="whole numbers"):
        HeuristicPolicy(bank_at=(300, 300, 400, 1000, 2500, 1e9))  # type: ignore[arg-type]
    empty = simulate(None, ["heuristic"] * 2, games=0, seed=1)
    assert empty.wins == (0.0, 0.0) and empty.scores.shape == (0, 2)


def random_rules(rng: random.Random) -> DiceRules:
    """House rules drawn from the schema: each option at a bound, its default or in between."""
    values: dict[str, Any] = {}
    for spec in DICE_RULE_SPECS:
        if spec.type == "bool":
            values[spec.name] = rng.random() < 0.5
        elif spec.type == "choice":
            values[spec.name] = rng.choice(spec.choices)
        elif spec.type == "mapping":
            values[spec.name] = {f: rng.choice([0, 100 * f, 250, 1000]) for f in range(1, 7)}
        elif spec.name not in ("target", "min_bank"):
            assert isinstance(spec.default, int) and spec.min is not None
            values[spec.name] = rng.choice([spec.min, spec.default, spec.default * 2])
    values["single_one"] = rng.choice([50, 100, 150])  # something always scores
    values["target"] = rng.choice([500, 1000, 2500])
    values["min_bank"] = rng.choice([0, 50, 350, values["target"]])
    return DiceRules.from_dict(values)


def test_random_house_rules_match() -> None:
    rng = random.Random(2024)
    checked = 0
    for i in range(30):
        rules = random_rules(rng)
        players = rng.choice([2, 3, 4])
        kinds: list[SimPolicy] = [HEURISTIC, THRESHOLD]
        seats = [rng.choice(kinds) for _ in range(players)]
        if HEURISTIC in seats:
            try:
                pfeffer_table(rules)
            except ValueError:  # the bot's reach_probability does not terminate either
                seats = [THRESHOLD] * players
        try:
            simulate(rules, seats, games=25, seed=i)
        except RuntimeError:  # a game ran past a million turns: penalties outrun the points
            continue
        cross_check(rules, seats, 25, seed=i)
        checked += 1
    assert checked >= 25
