"""Both engines speak the one protocol of pfeffer.core.game in the same words (issue 7, item 1).

Every test here runs against both games; the module is also type-checked (mypy --strict), which
checks statically that DiceGame and PepperGame satisfy ``Game`` and their views ``GameView``.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable

import pytest

from pfeffer.core.errors import (
    ActionError,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    RulesError,
    SetupError,
)
from pfeffer.core.game import Game, GameView
from pfeffer.dice import DiceGame, DiceRules, DiceView
from pfeffer.pepper import PepperGame, PepperRules, PepperView

# Static check: mypy refuses these assignments if an engine drifts from the protocol.
_SHORT = DiceRules(target=2000)
_DICE: Callable[[], Game[DiceView]] = lambda: DiceGame(["Ann", "Bob", "Cy"], _SHORT, seed=5)  # noqa: E731
_PEPPER: Callable[[], Game[PepperView]] = lambda: PepperGame(  # noqa: E731
    ["Ann", "Bob", "Cy"], PepperRules(target=15), seed=5
)

FACTORIES: dict[str, Callable[[], Game[GameView]]] = {"dice": _DICE, "pepper": _PEPPER}


def play_random(game: Game[GameView], rng: random.Random, steps: int = 100_000) -> None:
    """Legal actions through the protocol only, each sent by the seat to act: at random, but
    passing and banking where they are legal and never betting Pfeffer (so that scores climb
    and the game ends)."""
    for _ in range(steps):
        seat = game.current_player
        if seat is None:
            return
        legal = game.legal_actions()
        easy = [a for a in legal if a in ("pass", "bank")]
        calm = [a for a in legal if a != "pfeffer"] or legal
        game.apply(easy[0] if easy else rng.choice(calm), seat=seat)


@pytest.fixture(params=sorted(FACTORIES))
def game(request: pytest.FixtureRequest) -> Game[GameView]:
    return FACTORIES[request.param]()


def test_players_are_names_and_views_say_the_same(game: Game[GameView]) -> None:
    assert game.players == ("Ann", "Bob", "Cy")
    view = game.view(0)
    assert isinstance(view, GameView) and isinstance(game, Game)
    assert view.players == game.players and view.seat == 0
    assert view.current_player == game.current_player
    assert view.scores == tuple(game.scores) and view.is_over is False and view.winners == ()


def test_phase_is_a_str_enum_equal_to_its_string(game: Game[GameView]) -> None:
    assert isinstance(game.phase, enum.StrEnum)
    assert game.phase == str(game.phase) == game.phase.value
    assert game.phase in ("start", "deal")
    assert repr(game.phase) == repr(game.phase.value)


def test_views_are_frozen(game: Game[GameView]) -> None:
    view = game.view(1)
    with pytest.raises((AttributeError, dataclasses.FrozenInstanceError)):
        view.scores = ()  # type: ignore[misc]


@pytest.mark.parametrize("bad", [None, ["roll"], 5, b"deal", {"action": "deal"}])
def test_non_actions_are_invalid_and_change_nothing(game: Game[GameView], bad: object) -> None:
    before = game.to_record()
    with pytest.raises(InvalidAction):
        game.apply(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidAction):
        game.apply("jump over the table")
    assert game.to_record() == before


def test_a_seat_acts_only_on_its_turn(game: Game[GameView]) -> None:
    seat = game.current_player
    assert seat is not None
    other = (seat + 1) % len(game.players)
    action = game.legal_actions()[0]
    before = game.to_record()
    with pytest.raises(NotYourTurn):
        game.apply(action, seat=other)
    assert game.to_record() == before
    game.apply(action, seat=seat)
    assert game.actions != before["actions"]


def test_every_error_is_an_action_error_and_a_value_error() -> None:
    for cls in (InvalidAction, IllegalAction, NotYourTurn):
        assert issubclass(cls, ActionError) and issubclass(cls, ValueError)
    assert issubclass(RulesError, ValueError) and issubclass(SetupError, ValueError)


@pytest.mark.parametrize("seed", range(6))
def test_a_whole_game_through_the_protocol(seed: int) -> None:
    for make in FACTORIES.values():
        game = make()
        start = game.clone()
        play_random(game, random.Random(seed))
        assert game.is_over and game.current_player is None and game.legal_actions() == []
        assert game.view(None).is_over and game.view(None).current_player is None
        assert game.winners and all(0 <= w < len(game.scores) for w in game.winners)
        best = max(game.scores)
        assert all(game.scores[w] == best for w in game.winners)
        assert {game.side_of(s) for s in range(len(game.players))} == set(range(len(game.scores)))
        # actions are what the record stores, and the record replays to the same game
        record = game.to_record()
        assert record["actions"] == game.actions
        replay = type(game).from_record(record)
        assert replay.to_record() == record and replay.history == game.history
        # clone() made before the game is untouched by it
        assert start.actions == [] and not start.is_over
        # nothing is accepted after the end, not even what was legal before
        with pytest.raises(ActionError):
            game.apply(start.legal_actions()[0])


def test_history_means_finished_units_in_both() -> None:
    dice = DiceGame(["Ann", "Bob"], seed=1)
    dice.apply("roll 115234")
    dice.apply("keep 11")
    assert dice.history == []  # the turn is not finished
    pepper = PepperGame(players=2, seed=1)
    pepper.apply("deal")
    assert pepper.history == [] and pepper.actions[0].startswith("deal ")
