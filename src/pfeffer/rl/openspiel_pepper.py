"""Pepper as an OpenSpiel Python game, ``pfeffer_pepper`` (registered by
:func:`pfeffer.rl.openspiel.register`).

Parameters: ``players`` (2–4, default 4), ``max_hands`` (deals before the game is cut off, redeals
included, default 30), ``target`` (default 30).

- Player actions are the ids of :class:`~pfeffer.rl.spaces.PepperActionSpace` (38 with 4 players,
  40 with 2–3); ``deal`` (id 0) is never legal: dealing is chance.
- Chance is explicit: first the first dealer (outcomes 0..n−1, uniform, P3), then every deal card
  by card, 24 chance steps, each outcome a card number 0–23 (deck order) uniform over the cards not
  dealt yet; card k goes to the k-th seat of the deal order (one at a time clockwise from the left
  of the dealer; with 2 players the dead hand takes its turn after the dealer). Once all 24 are out
  the engine gets the explicit deal ``"deal 9C … / …"``.
- The game ends when the engine's game ends (P11), or when ``max_hands`` deals are finished (the
  cap). Returns (terminal only) are zero-sum per side: the winning sides (the highest scores at the
  cap) share +1, the other sides share −1; a seat gets its side's value (with 4 players, both
  partners get their team's).
- Information state and observation come from :mod:`pfeffer.rl.observations`, built from the
  engine's ``view(seat)`` only. :meth:`PepperOpenSpielState.resample_from_infostate` draws the
  hidden cards uniformly among the deals consistent with the seat's view
  (:func:`pfeffer.rl.sampling.sample_deal`: every revealed void respected).
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from pfeffer.pepper import CARD_STR, PepperGame, PepperRules, bid_ladder, cards_per_hand
from pfeffer.rl.engine_box import EngineBox, SnapshotBox
from pfeffer.rl.observations import (
    FloatArray,
    fill_pepper,
    pepper_layout,
    pepper_string,
    side_returns,
)
from pfeffer.rl.sampling import DECK, deal_action, hands_of, sample_deal
from pfeffer.rl.spaces import PepperActionSpace

SPACES = {n: PepperActionSpace(n) for n in (2, 3, 4)}
CHANCE, TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
DEFAULT_MAX_HANDS = 30

GAME_TYPE = pyspiel.GameType(
    short_name="pfeffer_pepper",
    long_name="Pepper (pfeffer)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 4, "max_hands": DEFAULT_MAX_HANDS, "target": 30},
)


class PepperOpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The ``pfeffer_pepper`` game: parameters ``players``, ``max_hands``, ``target``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 4))
        max_hands = int(params.get("max_hands", DEFAULT_MAX_HANDS))
        if players not in (2, 3, 4):
            raise ValueError(f"pfeffer_pepper is for 2, 3 or 4 players, not {players}")
        if max_hands < 1:
            raise ValueError(f"max_hands must be at least 1, not {max_hands}")
        rules = PepperRules(target=int(params.get("target", 30)))
        decisions = len(bid_ladder(players)) + players + 1 + players * cards_per_hand(players)
        info = pyspiel.GameInfo(
            num_distinct_actions=SPACES[players].size,
            max_chance_outcomes=DECK,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_hands * (decisions + DECK) + 1,
        )
        super().__init__(GAME_TYPE, info, params)
        self.players = players
        self.max_hands = max_hands
        self.rules = rules

    def new_initial_state(self) -> PepperOpenSpielState:
        """A new game: the first dealer is chance."""
        return PepperOpenSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PepperObserver:
        """Observation (``perfect_recall`` False) or information state (True)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PepperObserver(self.players, recall)


class PepperOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A state of ``pfeffer_pepper``: the engine game, the cards dealt so far of a deal in
    progress, and a snapshot of the engine before the current hand's deal (for resampling)."""

    _box: EngineBox[PepperGame]

    def __init__(self, game: PepperOpenSpielGame) -> None:
        super().__init__(game)
        self._n = game.players
        self._max_hands = game.max_hands
        self._rules = game.rules
        self._box = EngineBox(PepperGame(players=self._n, rules=game.rules, seed=0, dealer=0))
        self._choosing_dealer = True
        self._dealt: list[int] = []  # cards of the deal in progress, in the order dealt
        self._start: SnapshotBox[PepperGame] | None = None  # the engine before this hand's deal
        self._hand_actions: list[str] = []  # actions of the current hand after the deal
        self._cut = False
        self._player = CHANCE  # cached current_player(), refreshed after every action

    @property
    def engine(self) -> PepperGame:
        """The engine game (read it; changing it bypasses the adapter)."""
        return self._box.game

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while the dealer is chosen or cards are dealt, else
        ``TERMINAL``."""
        return self._player

    def _refresh(self) -> None:
        g = self._box.game
        if self._cut or g.is_over:
            self._player = TERMINAL
        elif self._choosing_dealer or g.phase == "deal":
            self._player = CHANCE
        else:
            self._player = int(g.current_player)  # type: ignore[arg-type, unused-ignore]

    def _legal_actions(self, player: int) -> list[int]:
        return SPACES[self._n].legal_ids(self._box.game.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The first dealer (seats) or the next card (cards not dealt yet), uniform."""
        if self._choosing_dealer:
            return [(s, 1.0 / self._n) for s in range(self._n)]
        dealt = self._dealt
        p = 1.0 / (DECK - len(dealt))
        return [(c, p) for c in range(DECK) if c not in dealt]

    def _apply_action(self, action: int) -> None:
        g = self._box.game
        if self._choosing_dealer:
            self._box = EngineBox(
                PepperGame(players=self._n, rules=self._rules, seed=0, dealer=action)
            )
            self._choosing_dealer = False
        elif g.phase == "deal":
            if action in self._dealt or not 0 <= action < DECK:
                raise ValueError(f"card {action} cannot be dealt now")
            self._dealt.append(action)
            if len(self._dealt) == DECK:
                self._finish_deal(g)
        else:
            a = SPACES[self._n].action_of(action)
            g.apply(a)
            self._hand_actions.append(a)
            if g.phase == "deal" and g.hand_number >= self._max_hands:
                self._cut = True
        self._refresh()

    def _finish_deal(self, g: PepperGame) -> None:
        self._start = SnapshotBox(g.clone())
        g.apply(deal_action(hands_of(self._dealt, self._n, g.dealer)))
        self._dealt = []
        self._hand_actions = []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer {action}" if self._choosing_dealer else f"card {CARD_STR[action]}"
        return SPACES[self._n].action_of(action)

    def is_terminal(self) -> bool:
        """True when the game is over or cut off at ``max_hands``."""
        return self._player == TERMINAL

    def returns(self) -> list[float]:
        """Zero-sum returns per seat at the end (see the module docstring); zeros before."""
        g = self._box.game
        if g.is_over:
            sides = range(len(g.scores))
            return side_returns([1 if s in g.winners else 0 for s in sides], self._n, teams=True)
        if self._cut:
            return side_returns(g.scores, self._n, teams=True)
        return [0.0] * self._n

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state that ``player_id`` cannot tell from this one, the hidden cards drawn uniformly
        among the deals consistent with the seat's view (every revealed void respected).

        ``probability_sampler()`` (e.g. ``pyspiel.UniformProbabilitySampler(0., 1.)``) seeds the
        draw.
        """
        rng = random.Random(int(probability_sampler() * 2**52) ^ int(probability_sampler() * 2**26))
        new = self.clone()
        g = self._box.game
        if self._choosing_dealer or self.is_terminal():
            return new
        if g.phase == "deal":  # nobody has seen any card of a deal in progress
            new._dealt = rng.sample(range(DECK), len(self._dealt))
            return new
        assert self._start is not None
        hands = sample_deal(g.view(player_id), self._n, rng)
        engine = self._start.game.clone()
        engine.apply(deal_action(hands))
        for a in self._hand_actions:
            engine.apply(a)
        new._box = EngineBox(engine)
        new._refresh()
        return new

    def __str__(self) -> str:
        g = self._box.game
        hands = " / ".join(" ".join(g.hand(s)) for s in range(self._n))
        dealing = " dealt " + "".join(CARD_STR[c] for c in self._dealt) if self._dealt else ""
        head = pepper_string(g.view(None), self._n, recall=True)
        return f"{head} hands {hands}{dealing}" + (" cut" if self._cut else "")


class PepperObserver:
    """OpenSpiel observer (PyObserver protocol) over :func:`.observations.fill_pepper`."""

    def __init__(self, players: int, recall: bool) -> None:
        self.players = players
        self.recall = recall
        layout = pepper_layout(players, recall)
        self.tensor: FloatArray = layout.zeros()
        self.dict: dict[str, FloatArray] = layout.views(self.tensor)

    def set_from(self, state: PepperOpenSpielState, player: int) -> None:
        """Fill the tensor from ``state.engine.view(player)``."""
        self.tensor.fill(0)
        fill_pepper(state.engine.view(player), self.players, self.recall, self.dict)

    def string_from(self, state: PepperOpenSpielState, player: int) -> str:
        """The observation or information-state string of ``state.engine.view(player)``."""
        return pepper_string(state.engine.view(player), self.players, self.recall)


__all__ = ["GAME_TYPE", "PepperObserver", "PepperOpenSpielGame", "PepperOpenSpielState"]
