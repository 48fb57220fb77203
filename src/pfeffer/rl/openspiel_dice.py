"""Würfel-Pfeffer as an OpenSpiel Python game, ``pfeffer_dice`` (registered by
:func:`pfeffer.rl.openspiel.register`).

Parameters: ``players`` (2–8, default 2), ``max_turns`` (turns per player before the game is cut
off, default 100), ``target`` (the score that starts the final round, default 10000).

- Player actions are the ids of :class:`~pfeffer.rl.spaces.DiceActionSpace` (927). ``void``
  (Brandenburg, a throw declared invalid at a real table) is never legal here: it would let a
  player take back any throw.
- Chance is explicit: after ``roll`` the state is a chance node whose outcomes are the distinct
  throws of the dice in play (ids of :data:`~pfeffer.rl.spaces.KEEP_MULTISETS`, sorted faces) with
  the engine's probabilities; the outcome is applied to the engine as ``"roll 115234"``.
- The game ends when the engine's game ends (D14), or at the cap: when ``players × max_turns``
  turns are finished, or the history reaches ``max_game_length()`` moves (a safety bound that a
  game practically never meets). Returns (terminal only) are zero-sum: the winners (the highest
  totals at the cap) share +1, the others share −1; all tied: all 0.
- The game has perfect information (the seed is never used: every throw is a chance node). The
  observation is :func:`~pfeffer.rl.observations.dice_observation` of the acting seat's view; the
  information-state string is the history of action ids.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from pfeffer.dice import DiceGame, DiceRules, throw_distribution
from pfeffer.rl.engine_box import EngineBox
from pfeffer.rl.observations import (
    FloatArray,
    dice_layout,
    dice_string,
    fill_dice,
    side_returns,
    text,
)
from pfeffer.rl.spaces import NUM_THROWS, DiceActionSpace, throw_id, throw_of

SPACE = DiceActionSpace()
ROLL, BANK, VOID = SPACE.action_id("roll"), SPACE.action_id("bank"), SPACE.action_id("void")
CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
DEFAULT_MAX_TURNS = 100
#: A bound on the average moves of a turn (decisions and throws) for ``max_game_length``.
MOVES_PER_TURN = 40
_KEEP_PHASE = "keep"

#: Chance outcomes per number of dice: (throw id, probability), ids ascending.
_OUTCOMES = {n: [(throw_id(faces), p) for faces, p in throw_distribution(n)] for n in range(1, 7)}

GAME_TYPE = pyspiel.GameType(
    short_name="pfeffer_dice",
    long_name="Würfel-Pfeffer (pfeffer)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "max_turns": DEFAULT_MAX_TURNS, "target": 10000},
)


class DiceOpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The ``pfeffer_dice`` game: parameters ``players``, ``max_turns``, ``target``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 2))
        max_turns = int(params.get("max_turns", DEFAULT_MAX_TURNS))
        if not 2 <= players <= 8:
            raise ValueError(f"pfeffer_dice is for 2 to 8 players, not {players}")
        if max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, not {max_turns}")
        info = pyspiel.GameInfo(
            num_distinct_actions=SPACE.size,
            max_chance_outcomes=NUM_THROWS,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=players * max_turns * MOVES_PER_TURN,
        )
        super().__init__(GAME_TYPE, info, params)
        self.players = players
        self.max_turns = max_turns
        self.rules = DiceRules(target=int(params.get("target", 10000)))

    def new_initial_state(self) -> DiceOpenSpielState:
        """A new game: seat 0 to roll."""
        return DiceOpenSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DiceObserver:
        """The observer of :mod:`pfeffer.rl.observations` (see the module docstring)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return DiceObserver(self.players, recall)


class DiceOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A state of ``pfeffer_dice``: an engine :class:`~pfeffer.dice.DiceGame` and a pending
    throw. Only the engine's public API is used."""

    _box: EngineBox[DiceGame]

    def __init__(self, game: DiceOpenSpielGame) -> None:
        super().__init__(game)
        self._n = game.players
        self._turn_cap = game.players * game.max_turns
        self._move_cap = game.max_game_length()
        self._box = EngineBox(DiceGame(game.players, game.rules, seed=0))
        self._rolling = False  # "roll" was chosen: the dice are chance now
        self._turns = 0
        self._cut = False  # the cap was reached
        self._player = 0  # cached current_player(), refreshed after every action

    @property
    def engine(self) -> DiceGame:
        """The engine game (read it; changing it bypasses the adapter)."""
        return self._box.game

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while dice are thrown, ``TERMINAL`` at the end."""
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        ids = SPACE.legal_ids(self._box.game.legal_actions())
        if VOID in ids:
            ids.remove(VOID)
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The throws of the dice in play (throw ids) with their probabilities."""
        return list(_OUTCOMES[self._box.game.dice_to_roll])

    def _apply_action(self, action: int) -> None:
        g = self._box.game
        if self._rolling:
            faces = throw_of(action)
            if len(faces) != g.dice_to_roll:
                raise ValueError(f"{faces} is not a throw of {g.dice_to_roll} dice")
            g.apply("roll " + "".join(map(str, faces)))
            self._rolling = False
            if text(g.phase) != _KEEP_PHASE:  # a bust ends the turn
                self._turns += 1
        elif action == ROLL:
            self._rolling = True
        else:
            g.apply(SPACE.action_of(action))
            if action == BANK:
                self._turns += 1
        if self._turns >= self._turn_cap or self.move_number() + 1 >= self._move_cap:
            self._cut = not g.is_over
        seat = g.current_player
        if self._cut or seat is None:
            self._player = TERMINAL
        else:
            self._player = CHANCE if self._rolling else seat

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "roll " + "".join(map(str, throw_of(action)))
        return SPACE.action_of(action)

    def is_terminal(self) -> bool:
        """True when the game is over or cut off at the cap."""
        return self._player == TERMINAL

    def returns(self) -> list[float]:
        """Zero-sum returns at the end (winners share +1, the others −1); zeros before."""
        g = self._box.game
        if g.is_over:
            scores = [1 if s in g.winners else 0 for s in range(self._n)]
            return side_returns(scores, self._n)
        if self._cut:
            return side_returns(g.scores, self._n)
        return [0.0] * self._n

    def __str__(self) -> str:
        text = dice_string(self._box.game.view(None))
        return text + (" rolling" if self._rolling else "") + (" cut" if self._cut else "")


class DiceObserver:
    """OpenSpiel observer (PyObserver protocol): ``tensor``, ``dict``, ``set_from``,
    ``string_from``. With ``recall`` (the information state) only the string is offered: the
    history of action ids, which is public in this perfect-information game."""

    def __init__(self, players: int, recall: bool) -> None:
        self.recall = recall
        layout = dice_layout(players)
        self.tensor: FloatArray = layout.zeros() if not recall else np.zeros(0, np.float32)
        self.dict: dict[str, FloatArray] = {} if recall else layout.views(self.tensor)

    def set_from(self, state: DiceOpenSpielState, player: int) -> None:
        """Fill the tensor from ``state.engine.view(player)``."""
        if self.recall:
            return
        self.tensor.fill(0)
        fill_dice(state.engine.view(player), self.dict)

    def string_from(self, state: DiceOpenSpielState, player: int) -> str:
        """The observation string, or the history (information state)."""
        if self.recall:
            return f"p{player} " + " ".join(map(str, state.history()))
        return dice_string(state.engine.view(player))
