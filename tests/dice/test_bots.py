"""Computer players: legal, sensible, honest (they see only their view)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pfeffer.dice import DiceGame, DiceRules, DiceView, Phase
from pfeffer.dice.bots import HeuristicBot, RandomBot, reach_probability
from pfeffer.dice.probability import throw_distribution


class Recorder:
    """Wraps a bot and checks every choice it makes is legal."""

    def __init__(self, bot: HeuristicBot | RandomBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.choices: list[tuple[DiceView, str]] = []

    def choose(self, view: DiceView, legal_actions: Sequence[str]) -> str:
        action = self.bot.choose(view, legal_actions)
        assert action in legal_actions
        self.choices.append((view, action))
        return action


def play(bots: Sequence[Recorder], rules: DiceRules, seed: int) -> DiceGame:
    g = DiceGame(len(bots), rules, seed=seed)
    while (s := g.current_player) is not None:
        g.apply(bots[s].choose(g.view(s), g.legal_actions()), seat=s)
    return g


def test_heuristic_beats_random() -> None:
    rules = DiceRules(target=3000)
    wins = 0
    for seed in range(30):
        heuristic, rand = Recorder(HeuristicBot()), Recorder(RandomBot(seed))
        seats = [heuristic, rand] if seed % 2 == 0 else [rand, heuristic]
        g = play(seats, rules, seed)
        wins += seats.index(heuristic) in g.winners
    assert wins >= 27


def test_heuristic_never_calls_pfeffer_without_a_reward() -> None:
    bots = [Recorder(HeuristicBot()) for _ in range(3)]
    for seed in range(5):
        play(bots, DiceRules(target=3000), seed)
    offered = [a for b in bots for v, a in b.choices if v.can_call_pfeffer]
    assert offered  # it had the chance many times
    assert "pfeffer" not in offered


def test_heuristic_calls_a_likely_pfeffer_when_it_pays() -> None:
    rules = DiceRules(pfeffer_reward="stake", pfeffer_penalty_factor=1)
    g = DiceGame(2, rules, sheet=True)
    g.enter_turn(350)  # stake 400: reached about 70% of the time; even odds with factor 1
    assert reach_probability(rules, 400) > 0.5
    assert HeuristicBot().choose(g.view(1), g.legal_actions()) == "pfeffer"
    h = DiceGame(2, rules, sheet=True)
    h.enter_turn(3000)  # stake 3050: hopeless
    assert HeuristicBot().choose(h.view(1), h.legal_actions()) == "roll"


def test_heuristic_declines_pfeffer_with_default_penalty() -> None:
    rules = DiceRules(pfeffer_reward="stake")  # lose 2x stake: needs p > 2/3
    g = DiceGame(2, rules, sheet=True)
    g.enter_turn(800)  # stake 850
    assert reach_probability(rules, 850) < 2 / 3
    assert HeuristicBot().choose(g.view(1), g.legal_actions()) == "roll"


def test_reach_probability_matches_a_direct_count_for_one_throw_goals() -> None:
    # Reaching 50 points: any throw that scores at all does it in one throw.
    rules = DiceRules()
    busts = sum(p for throw, p in throw_distribution(6) if throw_scores_nothing(throw))
    assert reach_probability(rules, 50) == pytest.approx(1 - busts)


def throw_scores_nothing(throw: tuple[int, ...]) -> bool:
    from pfeffer.dice import keep_options

    return not keep_options(throw)


def test_heuristic_keeps_for_value_and_banks_late_game() -> None:
    g = DiceGame(2)
    g.roll([5, 2, 3, 4, 6, 6])
    assert HeuristicBot().choose(g.view(0), g.legal_actions()) == "keep 5"
    g.keep([5])
    g.roll([1, 1, 1, 2, 3])
    g.keep([1, 1, 1])
    # 1050 with two dice left: bank
    assert g.phase is Phase.DECIDE
    assert HeuristicBot().choose(g.view(0), g.legal_actions()) == "bank"


def test_final_round_plays_to_beat_the_leader() -> None:
    g = DiceGame(2, DiceRules(target=1000), sheet=True)
    g.enter_turn(2000)
    g.roll([1, 1, 1, 2, 3, 4])
    g.keep([1, 1, 1])
    g.roll([5, 2, 3])
    g.keep([5])
    # 1050 with two dice would normally bank, but the leader has 2000
    assert HeuristicBot().choose(g.view(1), g.legal_actions()) == "roll"


def random_steps(seed: int, steps: int) -> DiceGame:
    # Random play busts so often that Auto-Pfeffer penalties can keep a game going for ever:
    # play a fixed number of steps instead of a whole game.
    g = DiceGame(2, seed=seed)
    bots = [RandomBot(1), RandomBot(2)]
    for _ in range(steps):
        s = g.current_player
        assert s is not None
        action = bots[s].choose(g.view(s), g.legal_actions())
        assert action in g.legal_actions()
        g.apply(action, seat=s)
    return g


def test_random_bot_is_reproducible_and_never_voids() -> None:
    a, b = random_steps(3, 400), random_steps(3, 400)
    assert a.actions == b.actions
    assert "void" not in a.actions
    assert len(set(a.actions)) > 5
