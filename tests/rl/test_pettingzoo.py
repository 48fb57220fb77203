"""The PettingZoo environments pass PettingZoo's API test; seeds fix chance; rewards at the end."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip(
    "pettingzoo", reason="pettingzoo (extra pfeffer[rl]) is not installed: pip install -e '.[rl]'"
)

from pettingzoo.test import api_test

from pfeffer.rl.pettingzoo import dice_env, pepper_env


@pytest.mark.filterwarnings("ignore::UserWarning")  # "Observation is not a NumPy array": a dict
@pytest.mark.parametrize(
    "make",
    [
        lambda: dice_env(players=2),
        lambda: dice_env(players=5, max_turns=3),
        lambda: pepper_env(players=2),
        lambda: pepper_env(players=3, recall=True),
        lambda: pepper_env(players=4, max_hands=2),
    ],
)
def test_api(make: Any) -> None:
    api_test(make(), num_cycles=200)


def _play(env: Any, seed: int) -> tuple[list[int], dict[str, float], bool]:
    env.reset(seed=seed)
    actions: list[int] = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    truncated = False
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        truncated |= trunc
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype.name == "int8" and mask.sum() > 0
        action = int(mask.nonzero()[0][len(actions) % int(mask.sum())])
        actions.append(action)
        env.step(action)
    return actions, totals, truncated


def test_seed_fixes_the_game_and_rewards_are_zero_sum() -> None:
    env = pepper_env(players=4, max_hands=3)
    first = _play(env, 7)
    assert first == _play(env, 7)
    assert first[0] != _play(env, 8)[0]
    totals = first[1]
    assert abs(sum(totals.values())) < 1e-9 and totals["player_0"] == totals["player_2"]
    dice = dice_env(players=3, max_turns=2)
    _, totals, truncated = _play(dice, 1)
    assert truncated and abs(sum(totals.values())) < 1e-9 and max(totals.values()) > 0


def test_only_the_agent_to_act_has_a_mask_and_void_is_never_legal() -> None:
    env = dice_env(players=2)
    env.reset(seed=3)
    for _ in range(50):
        agent = env.agent_selection
        for other in env.agents:
            mask = env.observe(other)["action_mask"]
            assert (mask.sum() > 0) == (other == agent)
            assert mask[3] == 0  # void
        env.step(int(env.observe(agent)["action_mask"].nonzero()[0][-1]))
