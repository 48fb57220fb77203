"""PettingZoo AEC environments for both games (needs the extra ``pfeffer[rl]``).

``dice_env(players=2, max_turns=100, target=10000)`` and ``pepper_env(players=4, max_hands=30,
target=30)``. Agents are ``"player_0"`` … by seat. Each observation is a dict: ``"observation"``,
the seat's tensor from :mod:`pfeffer.rl.observations` (dice: the dice layout; Pepper: the
observation layout, or the information-state layout with ``recall=True``), and ``"action_mask"``,
an int8 mask over the game's :mod:`pfeffer.rl.spaces` ids (all zeros when it is not that agent's
turn). The action space is ``Discrete(space.size)``.

Chance happens inside the environment, from ``reset(seed=...)`` (a ``random.Random``): after the
action ``roll`` the dice are thrown at once with the engine's probabilities, and every Pepper deal
(and the first dealer) is drawn before the next decision. ``void`` and ``deal`` are never legal.
The agent to act follows the engine (a dice player keeps the turn until it ends; the auction skips
seats that passed), not a fixed cycle.

Rewards come at the end only and are the OpenSpiel returns (:func:`~.observations.side_returns`):
the winners share +1, the others −1. The engine's end (D14, P11) sets ``terminations``; the cap
(``max_turns`` turns each, ``max_hands`` deals) sets ``truncations``, with rewards from the scores
at that moment.

>>> env = pepper_env(players=3)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0, env.agent_selection
((238,), True, 'player_1')
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from pfeffer.dice import DiceGame, DiceRules
from pfeffer.pepper import PepperGame, PepperRules
from pfeffer.rl.observations import (
    FloatArray,
    dice_layout,
    dice_string,
    fill_dice,
    fill_pepper,
    pepper_layout,
    pepper_string,
    side_returns,
    text,
)
from pfeffer.rl.sampling import DECK, deal_action, hands_of
from pfeffer.rl.spaces import ActionSpace, DiceActionSpace, PepperActionSpace

DEFAULT_MAX_TURNS = 100
DEFAULT_MAX_HANDS = 30
Int8Array = np.ndarray[Any, np.dtype[np.int8]]


class _PfefferEnv(AECEnv):  # type: ignore[misc]
    """What both environments share: agents, spaces, the AEC bookkeeping, the end."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int, space: ActionSpace, obs_size: int, render_mode: Any) -> None:
        super().__init__()
        self.players = players
        self.space = space
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(-np.inf, np.inf, (obs_size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (space.size,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(space.size) for a in self.possible_agents
        }
        self._rng = random.Random()
        self._start_bookkeeping()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (shared, cached) observation space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(space.size)``."""
        return self.action_spaces[agent]

    def _start_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes every chance outcome that follows."""
        if seed is not None:
            self._rng = random.Random(seed)
        self._start_bookkeeping()
        self._new_game()
        self._select()

    def _mask(self, agent: str) -> Int8Array:
        mask = np.zeros(self.space.size, dtype=np.int8)
        if agent == self.agent_selection and not self._done():
            mask[self.space.legal_ids(self._legal())] = 1
        return mask

    def step(self, action: Any) -> None:
        """Apply ``action`` (an id) for the agent to act; ``None`` for an agent that is done."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._legal()
        name = self.space.action_of(int(action))
        if name not in legal:
            raise ValueError(f"{name!r} (id {int(action)}) is not legal now: {legal}")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._play(name)
        if self._done():
            scores, teams, over = self._result()
            for i, r in enumerate(side_returns(scores, self.players, teams=teams)):
                self.rewards[self.possible_agents[i]] = r
            flags = self.terminations if over else self.truncations
            for a in self.agents:
                flags[a] = True
        else:
            self._select()
        self._accumulate_rewards()

    def _select(self) -> None:
        self.agent_selection = self.possible_agents[self._current()]

    def render(self) -> str | None:
        """The spectator's view as text (render mode ``"ansi"``)."""
        return self._text() if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""

    # Per game: the engine behind the bookkeeping.

    def _new_game(self) -> None:
        raise NotImplementedError

    def _legal(self) -> list[str]:
        raise NotImplementedError

    def _play(self, name: str) -> None:
        raise NotImplementedError

    def _current(self) -> int:
        raise NotImplementedError

    def _done(self) -> bool:
        raise NotImplementedError

    def _result(self) -> tuple[list[int], bool, bool]:
        """Scores (or 1 per winner) per side, whether they are per team, whether the game is
        over (rather than cut off at the cap)."""
        raise NotImplementedError

    def _text(self) -> str:
        raise NotImplementedError


class DiceEnv(_PfefferEnv):
    """Würfel-Pfeffer as an AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {**_PfefferEnv.metadata, "name": "pfeffer_dice_v0"}

    def __init__(
        self,
        players: int = 2,
        max_turns: int = DEFAULT_MAX_TURNS,
        target: int = 10000,
        render_mode: str | None = None,
    ) -> None:
        self.rules = DiceRules(target=target)
        self.max_turns = max_turns
        self._layout = dice_layout(players)
        self.game = DiceGame(players, self.rules, seed=0)
        self._turns = 0
        super().__init__(players, DiceActionSpace(), self._layout.size, render_mode)

    def _new_game(self) -> None:
        self.game = DiceGame(self.players, self.rules, seed=0)
        self._turns = 0

    def _legal(self) -> list[str]:
        return [a for a in self.game.legal_actions() if a != "void"]

    def _play(self, name: str) -> None:
        g = self.game
        if name == "roll":
            outcomes = g.chance_outcomes()
            faces = self._rng.choices([f for f, _ in outcomes], [p for _, p in outcomes])[0]
            g.apply("roll " + "".join(map(str, faces)))
            if text(g.phase) != "keep":
                self._turns += 1  # a bust ends the turn
        else:
            g.apply(name)
            if name == "bank":
                self._turns += 1

    def _current(self) -> int:
        seat = self.game.current_player
        assert seat is not None  # asked only while the game runs
        return seat

    def _done(self) -> bool:
        return self.game.is_over or self._turns >= self.players * self.max_turns

    def _result(self) -> tuple[list[int], bool, bool]:
        g = self.game
        if g.is_over:
            return [1 if s in g.winners else 0 for s in range(self.players)], False, True
        return list(g.scores), False, False

    def _text(self) -> str:
        return dice_string(self.game.view(None))

    def observe(self, agent: str) -> dict[str, Any]:
        """The seat's dice tensor and action mask."""
        flat: FloatArray = self._layout.zeros()
        fill_dice(self.game.view(self.possible_agents.index(agent)), self._layout.views(flat))
        return {"observation": flat, "action_mask": self._mask(agent)}


class PepperEnv(_PfefferEnv):
    """Pepper as an AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {**_PfefferEnv.metadata, "name": "pfeffer_pepper_v0"}

    def __init__(
        self,
        players: int = 4,
        max_hands: int = DEFAULT_MAX_HANDS,
        target: int = 30,
        recall: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.rules = PepperRules(target=target)
        self.max_hands = max_hands
        self.recall = recall
        self._layout = pepper_layout(players, recall)
        self.game = PepperGame(players=players, rules=self.rules, seed=0, dealer=0)
        space = PepperActionSpace(players)
        super().__init__(players, space, self._layout.size, render_mode)

    def _new_game(self) -> None:
        dealer = self._rng.randrange(self.players)
        self.game = PepperGame(players=self.players, rules=self.rules, seed=0, dealer=dealer)
        self._deal()

    def _deal(self) -> None:
        g = self.game
        if g.phase == "deal" and g.hand_number < self.max_hands:
            cards = self._rng.sample(range(DECK), DECK)
            g.apply(deal_action(hands_of(cards, self.players, g.dealer)))

    def _legal(self) -> list[str]:
        return self.game.legal_actions()

    def _play(self, name: str) -> None:
        self.game.apply(name)
        self._deal()

    def _current(self) -> int:
        seat = self.game.current_player
        assert seat is not None  # asked only while the game runs
        return seat  # type: ignore[arg-type, unused-ignore]

    def _done(self) -> bool:
        g = self.game
        return g.is_over or (g.phase == "deal" and g.hand_number >= self.max_hands)

    def _result(self) -> tuple[list[int], bool, bool]:
        g = self.game
        if g.is_over:
            return [1 if s in g.winners else 0 for s in range(len(g.scores))], True, True
        return list(g.scores), True, False

    def _text(self) -> str:
        return pepper_string(self.game.view(None), self.players, recall=True)

    def observe(self, agent: str) -> dict[str, Any]:
        """The seat's Pepper tensor (observation or information state) and action mask."""
        flat: FloatArray = self._layout.zeros()
        view = self.game.view(self.possible_agents.index(agent))
        fill_pepper(view, self.players, self.recall, self._layout.views(flat))
        return {"observation": flat, "action_mask": self._mask(agent)}


def dice_env(**kwargs: Any) -> DiceEnv:
    """A :class:`DiceEnv` (``players``, ``max_turns``, ``target``, ``render_mode``)."""
    return DiceEnv(**kwargs)


def pepper_env(**kwargs: Any) -> PepperEnv:
    """A :class:`PepperEnv` (``players``, ``max_hands``, ``target``, ``recall``,
    ``render_mode``)."""
    return PepperEnv(**kwargs)
