"""The contract both engines keep (issue 19, "one convention for both engines").

Every test runs on the dice game and on Pepper: the members of the protocol, the error raised for
each kind of mistake (the same class, and the same template where the mistake is the same), the
record (its common fields, round trips, and the checks made on replay), what views hide, and that
no public attribute hands out state that changes the game.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

from pfeffer.core.errors import (
    ActionError,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    RecordError,
    SetupError,
)
from pfeffer.core.game import Game, GameView
from pfeffer.dice import DiceGame, DiceRules
from pfeffer.pepper import PepperGame, PepperRules

AnyGame = DiceGame | PepperGame
NAMES = ["Ann", "Bob", "Cy"]


def new_dice(seed: int = 5) -> DiceGame:
    return DiceGame(NAMES, DiceRules(target=2000), seed=seed, first_player=1)


def new_pepper(seed: int = 5) -> PepperGame:
    return PepperGame(NAMES, PepperRules(target=15), seed=seed, dealer=1)


MAKERS: dict[str, Callable[[int], AnyGame]] = {"dice": new_dice, "pepper": new_pepper}
KINDS = sorted(MAKERS)


def play(game: AnyGame, rng: random.Random, steps: int = 100_000) -> AnyGame:
    """Legal actions at random, each sent by the seat to act; passing and banking where legal
    and never betting Pfeffer, so that scores climb and the game ends."""
    for _ in range(steps):
        seat = game.current_player
        if seat is None:
            break
        legal = game.legal_actions()
        easy = [a for a in legal if a in ("pass", "bank")]
        calm = [a for a in legal if a not in ("pfeffer", "void")] or legal
        game.apply(easy[0] if easy else rng.choice(calm), seat=seat)
    return game


def dice_started() -> DiceGame:
    game = new_dice()
    game.apply("roll 115234")
    return game


def pepper_started() -> PepperGame:
    game = new_pepper()
    game.apply("deal")
    return game


def started(kind: str) -> AnyGame:
    """A game a few actions in, where the seat to act has a real choice (dice: a throw lies on
    the table; Pepper: the auction runs)."""
    return dice_started() if kind == "dice" else pepper_started()


def finished(kind: str, seed: int = 3) -> AnyGame:
    game = play(MAKERS[kind](seed), random.Random(seed))
    assert game.is_over
    return game


def state(game: AnyGame) -> tuple[Any, ...]:
    """What a refused action must leave exactly as it was."""
    return (
        game.to_record(),
        game.actions,
        game.scores,
        game.current_player,
        game.phase,
        game.legal_actions(),
        game.view(None),
        [game.view(s) for s in range(len(game.players))],
    )


def refused(game: AnyGame, call: Callable[[], object], error: type[ActionError]) -> ActionError:
    """Run a call that must raise ``error`` and change nothing; the error, checked for style."""
    before = state(game)
    with pytest.raises(error) as info:
        call()
    assert state(game) == before
    exc = info.value
    assert type(exc) is error
    assert_sentence(str(exc))
    return exc


def assert_sentence(message: str) -> None:
    """Messages are full sentences: a capital (or a quoted value, a name, a number) first, a
    full stop last."""
    assert message.endswith("."), message
    assert message[0].isupper() or message[0] in "'\"[({0123456789-", message


# ---------------------------------------------------------------------------------- protocol


def protocol_members(proto: type) -> list[str]:
    return sorted(n for n in vars(proto) if not n.startswith("_"))


def test_the_protocol_has_the_members_this_contract_checks() -> None:
    assert protocol_members(Game) == [
        "actions",
        "apply",
        "clone",
        "current_player",
        "first_player",
        "from_record",
        "history",
        "is_over",
        "legal_actions",
        "phase",
        "players",
        "scores",
        "side_of",
        "to_record",
        "view",
        "winners",
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_every_protocol_member_is_there_and_means_the_same(kind: str) -> None:
    game = started(kind)
    assert isinstance(game, Game)
    for name in protocol_members(Game):
        assert hasattr(game, name), name
        member = inspect.getattr_static(type(game), name)
        assert callable(member) == callable(inspect.getattr_static(Game, name)), name
    assert game.players == tuple(NAMES)
    assert game.current_player in range(3) and not game.is_over and game.winners == []
    assert game.phase == str(game.phase) and game.legal_actions()
    assert game.scores == [0, 0, 0] and [game.side_of(s) for s in range(3)] == [0, 1, 2]
    assert len(game.actions) == 1 and game.history == []
    clone = game.clone()
    assert type(clone) is type(game) and clone.to_record() == game.to_record()
    view = game.view(0)
    assert isinstance(view, GameView)
    for name in protocol_members(GameView):
        assert hasattr(view, name), name
    assert (view.seat, view.players, view.phase) == (0, game.players, game.phase)
    assert view.scores == tuple(game.scores) and view.winners == () and view.is_over is False
    assert game.first_player == game.to_record()["first_player"] == 1


# ---------------------------------------------------------------------------- errors by kind


def both(make: Callable[[str], AnyGame]) -> Iterator[tuple[str, AnyGame]]:
    for kind in KINDS:
        yield kind, make(kind)


def other_seat(game: AnyGame) -> int:
    seat = game.current_player
    assert seat is not None
    return (seat + 1) % len(game.players)


@pytest.mark.parametrize("bad", [None, 5, 1.5, ["roll"], ("JD",), b"pass", {"action": "x"}])
def test_an_action_that_is_no_string_is_invalid_in_the_same_words(bad: Any) -> None:
    templates = {
        refused(game, partial(game.apply, bad), InvalidAction).template for _, game in both(started)
    }
    assert templates == {"An action is a string, not {action} (for example {examples})."}


@pytest.mark.parametrize("text", ["jump over the table", "", "   ", "keep 7", "8C", "deal 1X"])
def test_malformed_text_is_invalid(text: str) -> None:
    for _, game in both(started):
        refused(game, partial(game.apply, text), InvalidAction)


def test_an_action_of_another_moment_is_illegal() -> None:
    dice, pepper = started("dice"), started("pepper")
    refused(dice, lambda: dice.apply("bank"), IllegalAction)  # a throw waits to be set aside
    refused(pepper, lambda: pepper.apply("JD"), IllegalAction)  # the auction runs
    refused(pepper, lambda: pepper.apply("H"), IllegalAction)
    refused(pepper, lambda: pepper.apply("deal"), IllegalAction)


def test_a_seat_that_is_no_number_is_invalid_in_the_same_words() -> None:
    wrong: list[Any] = ["0", 1.0, True, [1]]
    for bad in wrong:
        templates = set()
        for _, game in both(started):
            action = game.legal_actions()[0]
            exc = refused(game, partial(game.apply, action, seat=bad), InvalidAction)
            templates.add(exc.template)
        assert templates == {"There is no seat {seat}."}


@pytest.mark.parametrize("seat", [3, 9, -1])
def test_a_seat_out_of_range_is_not_your_turn_in_the_same_words(seat: int) -> None:
    templates = set()
    for _, game in both(started):
        action = game.legal_actions()[0]
        exc = refused(game, partial(game.apply, action, seat=seat), NotYourTurn)
        templates.add((exc.template, exc.params["seat"]))
    assert templates == {("There is no seat {seat}.", seat)}


def test_another_seats_turn_is_not_your_turn_in_the_same_words() -> None:
    templates = set()
    for _, game in both(started):
        action, seat = game.legal_actions()[0], other_seat(game)
        exc = refused(game, partial(game.apply, action, seat=seat), NotYourTurn)
        assert exc.params == {"player": game.players[game.current_player or 0],
                              "seat_player": game.players[seat]}  # fmt: skip
        templates.add(exc.template)
        game.apply(action, seat=game.current_player)  # and the seat to act may
    assert templates == {"It is {player}'s turn, not {seat_player}'s."}


def test_after_the_end_every_well_formed_action_is_illegal_in_the_same_words() -> None:
    templates = set()
    for kind, game in both(finished):
        fresh = started(kind)
        for action in [*fresh.legal_actions(), *MAKERS[kind](1).legal_actions()]:
            templates.add(refused(game, partial(game.apply, action), IllegalAction).template)
            over = refused(game, partial(game.apply, action, seat=0), IllegalAction)
            templates.add(over.template)
        refused(game, partial(game.apply, "jump"), InvalidAction)
    assert templates == {"The game is over."}


def test_a_named_method_given_no_value_is_invalid_never_a_type_error() -> None:
    dice, pepper, fresh, dealer = dice_started(), pepper_started(), new_dice(), new_pepper()
    values: list[Any] = [None, 5, "115234", [7], [0], ["2"], "8", [None, None, None]]
    none, five, text, seven, zero, listed, eight, empty_hands = values
    calls: list[tuple[AnyGame, Callable[[], object]]] = [
        (dice, partial(dice.keep, none)),
        (dice, partial(dice.keep, five)),
        (dice, partial(dice.keep, seven)),
        (fresh, partial(fresh.roll, five)),
        (fresh, partial(fresh.roll, text)),
        (fresh, partial(fresh.roll, zero)),
        (pepper, partial(pepper.bid, none)),
        (pepper, partial(pepper.bid, listed)),
        (pepper, partial(pepper.bid, eight)),
        (dealer, partial(dealer.deal, five)),
        (dealer, partial(dealer.deal, empty_hands)),
    ]
    for game, call in calls:
        refused(game, call, InvalidAction)


def test_named_methods_check_the_seat_as_apply_does() -> None:
    dice, pepper = dice_started(), pepper_started()
    refused(dice, lambda: dice.keep([1], seat=other_seat(dice)), NotYourTurn)
    refused(pepper, lambda: pepper.pass_bid(seat=other_seat(pepper)), NotYourTurn)
    refused(pepper, lambda: pepper.bid(2, seat=9), NotYourTurn)
    pepper.pass_bid(seat=pepper.current_player)
    dice.keep([1], seat=dice.current_player)


@pytest.mark.parametrize("seat", [3, -1, "0", 1.0])
def test_a_view_of_a_seat_that_does_not_exist_is_a_setup_error_in_the_same_words(
    seat: Any,
) -> None:
    templates = set()
    for _, game in both(started):
        with pytest.raises(SetupError) as info:
            game.view(seat)
        assert_sentence(str(info.value))
        templates.add(info.value.template)
    assert templates == {"There is no seat {seat}."}
    with pytest.raises(SetupError, match=r"^There is no seat 3\.$"):
        pepper_started().hand(3)


# ------------------------------------------------------------------------------------ records

COMMON = {"format", "version", "game", "rules", "seed", "players", "first_player", "actions"}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_records_have_one_shape_and_round_trip(kind: str, seed: int) -> None:
    cls = type(MAKERS[kind](0))
    partial = MAKERS[kind](seed)
    rng = random.Random(seed)
    for _ in range(7):
        partial.apply(rng.choice(partial.legal_actions()), seat=partial.current_player)
    for game in (MAKERS[kind](seed), partial, finished(kind, seed)):
        record = game.to_record()
        assert set(record) >= COMMON and record["game"] == kind
        assert record["first_player"] == game.first_player
        assert record["result"] == {
            "scores": game.scores,
            "winners": game.winners,
            "over": game.is_over,
            "actions": len(game.actions),
        }
        text = json.dumps(record)
        again = cls.from_record(text)
        assert again.to_record() == record and again.history == game.history
        assert again.view(0) == game.view(0) and again.legal_actions() == game.legal_actions()


def tampered(record: dict[str, Any], **result: object) -> dict[str, Any]:
    return {**record, "result": {**record["result"], **result}}


@pytest.mark.parametrize("kind", KINDS)
def test_a_record_whose_result_is_not_its_replays_is_refused(kind: str) -> None:
    game = finished(kind)
    cls = type(game)
    record = game.to_record()
    scores = [s + 50 for s in game.scores]
    loser = next(s for s in range(len(game.scores)) if s not in game.winners)
    for bad in (
        tampered(record, scores=scores),
        tampered(record, winners=[loser]),
        tampered(record, over=False),
        {**record, "result": "won"},
        {**record, "first_player": (record["first_player"] + 1) % 3},
    ):
        with pytest.raises(RecordError) as info:
            cls.from_record(bad)
        assert_sentence(str(info.value))


@pytest.mark.parametrize("kind", KINDS)
def test_a_record_cut_short_replays_up_to_its_last_action(kind: str) -> None:
    """A review replays a game step by step from its whole record: the result written for all
    the actions is not the cut record's, and is not checked."""
    game = finished(kind)
    cls = type(game)
    # Pepper's older field, the final scores, is checked as it always was: a review drops it.
    record = {k: v for k, v in game.to_record().items() if k != "scores"}
    step = len(record["actions"]) // 2
    cut = cls.from_record({**record, "actions": record["actions"][:step]})
    assert cut.actions == game.actions[:step] and not cut.is_over
    with pytest.raises(RecordError):  # the count is right, the scores are not
        cls.from_record(tampered({**record, "actions": record["actions"][:step]}, actions=step))


@pytest.mark.parametrize("kind", KINDS)
def test_records_without_the_common_fields_still_load(kind: str) -> None:
    """Records written before first_player and result: a dice record without first_player
    started with seat 0, a Pepper record names its first dealer "dealer"."""
    game: AnyGame = (
        play(DiceGame(NAMES, DiceRules(target=2000), seed=3), random.Random(3))
        if kind == "dice"
        else finished(kind)
    )
    record = game.to_record()
    old = {k: v for k, v in record.items() if k not in ("first_player", "result")}
    assert type(game).from_record(old).to_record() == record
    if isinstance(game, PepperGame):
        with pytest.raises(RecordError, match="disagree"):
            PepperGame.from_record({**record, "dealer": (record["dealer"] + 1) % 3})


# ---------------------------------------------------------------------------------- views hide


def strings_in(value: object) -> Iterator[str]:
    """Every string inside a view (its fields, tuples, nested values), for what must not be
    there."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from strings_in(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from strings_in(item)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pepper_views_hide_other_hands_the_dead_hand_and_the_seed(players: int) -> None:
    game = PepperGame(players, seed=123_456_789)
    rng = random.Random(players)
    checked = 0
    while not game.is_over and checked < 60:
        for seat in [None, *range(players)]:
            view = game.view(seat)
            seen = set(strings_in(view))
            hidden = set(game.dead_hand())
            for other in range(players):
                if other != seat:
                    hidden |= set(game.hand(other))
            assert not seen & hidden, (seat, seen & hidden)
            own = set(game.hand(seat)) if seat is not None else set()
            assert set(view.hand) == own
            assert not hasattr(view, "seed") and game.seed not in dataclasses.astuple(view)
        seat_to_act = game.current_player
        game.apply(rng.choice(game.legal_actions()), seat=seat_to_act)
        checked += 1
    assert checked >= 20  # the check saw deals, auctions and play


def test_dice_views_hide_the_future() -> None:
    game = new_dice()
    for seat in [None, 0, 1, 2]:
        view = game.view(seat)
        assert not hasattr(view, "seed") and "seed" not in view._fields


# ----------------------------------------------------------------------------- read-only state


def public_properties(game: AnyGame) -> list[str]:
    return sorted(
        n
        for n, member in inspect.getmembers(type(game))
        if not n.startswith("_") and isinstance(member, property)
    )


@pytest.mark.parametrize("kind", KINDS)
def test_no_public_attribute_can_be_set(kind: str) -> None:
    game = started(kind)
    names = public_properties(game)
    assert {"players", "scores", "actions", "history", "winners", "rules", "seed"} <= set(names)
    before = state(game)
    for name in names:
        with pytest.raises(AttributeError):
            setattr(game, name, getattr(game, name))
    with pytest.raises(AttributeError):
        setattr(game, "anything_new", 1)  # noqa: B010 (a name the class does not have)
    assert state(game) == before


def mutate(value: object) -> bool:
    """Change a mutable value in place; False if it is immutable."""
    if isinstance(value, list):
        value.append(99999)
        if len(value) > 1:
            value[0] = 99999
        return True
    if isinstance(value, dict | set):
        value.clear()
        return True
    return False


def queries(game: AnyGame) -> dict[str, Callable[[], object]]:
    """Every public property and query method without arguments (and Pepper's hands)."""
    out: dict[str, Callable[[], object]] = {
        name: partial(getattr, game, name) for name in public_properties(game)
    }
    for name in ("legal_actions", "keep_choices", "chance_outcomes", "legal_cards", "dead_hand"):
        if hasattr(game, name):
            out[name] = getattr(game, name)
    if isinstance(game, PepperGame):
        for seat in range(len(game.players)):
            out[f"hand({seat})"] = partial(game.hand, seat)
    return out


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("moment", ["start", "started", "later", "over"])
def test_what_a_game_hands_out_is_a_copy(kind: str, moment: str) -> None:
    game: AnyGame
    if moment == "start":
        game = MAKERS[kind](5)
    elif moment == "started":
        game = started(kind)
    elif moment == "later":
        game = play(MAKERS[kind](5), random.Random(5), steps=40)
    else:
        game = finished(kind)
    before = state(game)
    mutable = []
    for name, query in queries(game).items():
        value = query()
        if mutate(value):
            mutable.append(name)
            assert query() != value, name  # a fresh copy, not the one changed
        assert state(game) == before, name
    assert {"scores", "actions", "history", "winners", "legal_actions"} <= set(mutable)


@pytest.mark.parametrize("kind", KINDS)
def test_changing_the_scores_one_got_changes_nothing(kind: str) -> None:
    game = play(MAKERS[kind](4), random.Random(4), steps=60)
    scores = game.scores
    record, view = game.to_record(), game.view(None)
    game.scores[0] = 99999
    scores[1] = -99999
    assert game.scores == record["result"]["scores"] != [99999, -99999, 0]
    assert game.view(None) == view and game.to_record() == record
    assert game.view(0).scores == tuple(record["result"]["scores"])


def test_each_engines_own_value_types_are_frozen() -> None:
    dice, pepper = finished("dice"), finished("pepper")
    assert isinstance(dice, DiceGame) and isinstance(pepper, PepperGame)
    values: list[Any] = [dice.history[0], pepper.history[-1], dice.rules.triples]
    turn, hand, triples = values
    with pytest.raises(AttributeError):
        turn.points = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        hand.scores = ()
    with pytest.raises(TypeError):
        triples[2] = 0
    for view in (dice.view(0), pepper.view(0)):
        with pytest.raises((AttributeError, dataclasses.FrozenInstanceError)):
            setattr(view, "scores", ())  # noqa: B010 (a frozen field)
