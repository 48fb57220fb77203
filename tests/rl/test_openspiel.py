"""The OpenSpiel games pfeffer_dice and pfeffer_pepper: OpenSpiel's own random simulation test,
chance, caps, returns, serialization, and void-respecting resampling."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open-spiel (extra pfeffer[rl]) is not installed: pip install -e '.[rl]'"
)

from pfeffer.pepper.cards import CARD_INDEX, EFFECTIVE_SUIT, parse_trump  # noqa: E402
from pfeffer.rl.openspiel import register  # noqa: E402
from pfeffer.rl.sampling import played_by_seat, suit_voids  # noqa: E402

register()


def _random_step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def test_load_game_by_name() -> None:
    game = pyspiel.load_game("pfeffer_pepper(players=4)")
    assert game.num_players() == 4 and game.num_distinct_actions() == 38
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert pyspiel.load_game("pfeffer_dice").num_players() == 2


@pytest.mark.parametrize("players", range(2, 9))
def test_dice_random_sim_test(players: int) -> None:
    game = pyspiel.load_game(f"pfeffer_dice(players={players},max_turns=4)")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pepper_random_sim_test(players: int) -> None:
    game = pyspiel.load_game(f"pfeffer_pepper(players={players},max_hands=2)")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_pepper_default_parameters_random_sim_test() -> None:
    pyspiel.random_sim_test(
        pyspiel.load_game("pfeffer_pepper(players=4)"), num_sims=1, serialize=True, verbose=False
    )


def test_dice_chance_and_cap() -> None:
    game = pyspiel.load_game("pfeffer_dice(players=3,max_turns=2)")
    state = game.new_initial_state()
    assert state.legal_actions() == [1]  # roll
    state.apply_action(1)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 462 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    rng = random.Random(2)
    while not state.is_terminal():
        _random_step(state, rng)
    engine = state.engine
    assert len(engine.history) == 6 and not engine.is_over  # the cap: 3 players x 2 turns
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9 and max(returns) > 0
    best = max(engine.scores)
    assert [r > 0 for r in returns] == [s == best for s in engine.scores]


def test_pepper_deal_is_card_by_card_and_teams_share_returns() -> None:
    game = pyspiel.load_game("pfeffer_pepper(players=4,max_hands=1)")
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]  # the first dealer
    state.apply_action(2)
    for k in range(24):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 24 - k
        state.apply_action(k)
    assert state.current_player() == 3  # left of dealer 2
    assert state.engine.hand(3) == ["9C", "KC", "JD", "9H", "KH", "JS"]  # cards 0, 4, 8, ...
    rng = random.Random(1)
    while not state.is_terminal():
        _random_step(state, rng)
    r = state.returns()
    assert r[0] == r[2] and r[1] == r[3] and r[0] == -r[1]


def test_serialize_round_trip_and_clone_independence() -> None:
    game = pyspiel.load_game("pfeffer_pepper(players=3)")
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(40):
        _random_step(state, rng)
    text = pyspiel.serialize_game_and_state(game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert str(back) == str(state) and back.legal_actions() == state.legal_actions()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state) and state.history() == back.history()


def _check_sample(original: Any, sample: Any, player: int) -> None:
    g, s = original.engine, sample.engine
    assert s.hand(player) == g.hand(player)
    assert s.tricks == g.tricks and s.current_trick == g.current_trick
    assert sample.information_state_string(player) == original.information_state_string(player)
    assert sample.legal_actions() == original.legal_actions()
    view = g.view(player)
    voids = suit_voids(view, g.players if isinstance(g.players, int) else len(g.players))
    eff = EFFECTIVE_SUIT[parse_trump(g.trump)]
    for seat, mask in enumerate(voids):
        for card in s.hand(seat):
            assert not mask >> eff[CARD_INDEX[card]] & 1, f"seat {seat} holds {card} of a void"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resample_respects_voids_own_hand_and_played_cards(players: int) -> None:
    game = pyspiel.load_game(f"pfeffer_pepper(players={players})")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(players)
    checked = void_states = 0
    worlds: set[str] = set()
    while checked < 40:
        state = game.new_initial_state()
        while not state.is_terminal() and checked < 40:
            _random_step(state, rng)
            if state.is_chance_node() or state.is_terminal() or rng.random() < 0.5:
                continue
            player = state.current_player()
            voids = suit_voids(state.engine.view(player), players)
            void_states += any(voids)
            for _ in range(15):
                sample = state.resample_from_infostate(player, sampler)
                _check_sample(state, sample, player)
                worlds.add(str(sample))
            checked += 1
    assert void_states > 0  # the check met revealed voids
    assert len(worlds) > checked  # the hidden cards really vary


def test_played_cards_of_a_seat_stay_with_that_seat() -> None:
    game = pyspiel.load_game("pfeffer_pepper(players=4)")
    state = game.new_initial_state()
    rng = random.Random(9)
    while state.is_chance_node() or state.engine.phase != "play" or not state.engine.tricks:
        _random_step(state, rng)
    player = state.current_player()
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    for s in (state, sample):
        assert played_by_seat(s.engine.view(player), 4) == played_by_seat(
            state.engine.view(player), 4
        )
