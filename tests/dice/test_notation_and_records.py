"""Action notation (parse/print), house-rules objects, views and JSON records."""

from __future__ import annotations

import json

import pytest

from pfeffer.core.errors import RecordError
from pfeffer.dice import (
    DiceAction,
    DiceGame,
    DiceRules,
    DiceView,
    InvalidAction,
    RulesError,
    SetupError,
)
from pfeffer.dice.bots import HeuristicBot, RandomBot
from tests.dice.helpers import state_of


class TestNotation:
    @pytest.mark.parametrize(
        ("text", "printed"),
        [
            ("roll", "roll"),
            ("ROLL 4 1 5", "roll 415"),
            ("roll 4,1,5,2,3,6", "roll 415236"),
            ("keep 515", "keep 155"),
            (" bank ", "bank"),
            ("pfeffer", "pfeffer"),
            ("void", "void"),
            ("turn 450", "turn 450"),
            ("bust", "bust"),
        ],
    )
    def test_parse_and_print(self, text: str, printed: str) -> None:
        action = DiceAction.parse(text)
        assert str(action) == printed
        assert DiceAction.parse(str(action)) == action

    @pytest.mark.parametrize(
        "text",
        ["", "fly", "keep", "keep 7", "keep x", "bank 5", "roll 0", "turn", "turn x", "bust 3"],
    )
    def test_malformed(self, text: str) -> None:
        with pytest.raises(InvalidAction):
            DiceAction.parse(text)

    def test_not_a_string(self) -> None:
        with pytest.raises(InvalidAction):
            DiceAction.parse(5)  # type: ignore[arg-type]

    def test_every_legal_action_parses_and_applies(self) -> None:
        g = DiceGame(3, seed=21)
        bot = RandomBot(seed=2)
        for _ in range(300):
            if g.is_over:
                break
            for action in g.legal_actions():
                assert str(DiceAction.parse(action)) == action
                probe = g.clone()
                probe.apply(action)
            g.apply(bot.choose(g.view(g.current_player), g.legal_actions()))


class TestRulesObject:
    def test_defaults_are_the_spec(self) -> None:
        r = DiceRules()
        assert (r.target, r.min_bank, r.single_one, r.single_five) == (10000, 350, 100, 50)
        assert dict(r.triples) == {1: 1000, 2: 200, 3: 300, 4: 400, 5: 500, 6: 600}
        assert (r.straight, r.three_pairs, r.extra_dice) == (1500, 1500, "double")
        assert (r.fixed_four, r.fixed_five, r.fixed_six) == (1000, 2000, 3000)
        assert r.four_and_pair_is_three_pairs and r.hot_dice_must_roll and r.pfeffer
        assert (r.pfeffer_margin, r.pfeffer_penalty_factor) == (50, 2)
        assert (r.pfeffer_short_bank, r.pfeffer_reward) == ("forbidden", "none")
        assert r.auto_pfeffer and r.auto_pfeffer_penalty == 1000
        assert r.final_round and r.tie == "shared" and not r.min_bank_opening_only

    def test_frozen_and_hashable(self) -> None:
        r = DiceRules()
        with pytest.raises(AttributeError):
            r.target = 5  # type: ignore[misc]
        assert hash(r) == hash(DiceRules()) and r == DiceRules()
        assert DiceRules(target=500) != r

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"target": 0},
            {"min_bank": -50},
            {"extra_dice": "triple"},
            {"tie": "coin"},
            {"pfeffer": "yes"},
            {"triples": {7: 100}},
            {"triples": {1: -5}},
            {"pfeffer_penalty_factor": 0},
        ],
    )
    def test_bad_values(self, kwargs: dict[str, object]) -> None:
        with pytest.raises(RulesError):
            DiceRules(**kwargs)  # type: ignore[arg-type]

    def test_dict_round_trip_and_unknown_options(self) -> None:
        r = DiceRules(triples={2: 250}, tie="playoff", extra_dice="fixed")
        assert DiceRules.from_dict(json.loads(json.dumps(r.to_dict()))) == r
        with pytest.raises(RulesError, match="unknown"):
            DiceRules.from_dict({"speed": 3})


def finished_game(seed: int) -> DiceGame:
    g = DiceGame(["Anna", "Ben", "Cleo"], DiceRules(target=2000), seed=seed)
    bots: list[HeuristicBot | RandomBot] = [HeuristicBot(), RandomBot(seed), HeuristicBot()]
    while (s := g.current_player) is not None:
        g.apply(bots[s].choose(g.view(s), g.legal_actions()), seat=s)
    return g


class TestRecords:
    def test_round_trip_and_replay(self) -> None:
        g = finished_game(5)
        text = g.to_json()
        record = json.loads(text)
        assert record["format"] == "pfeffer-record" and record["version"] == 1
        assert record["game"] == "dice" and record["seed"] == 5
        again = DiceGame.from_record(text)
        assert again.to_record() == record
        assert state_of(again) == state_of(g)

    def test_unfinished_game_replays_and_continues_identically(self) -> None:
        g = DiceGame(2, seed=77)
        for _ in range(3):
            g.roll()
            if g.phase.value == "keep":
                g.apply(g.legal_actions()[0])
        copy = DiceGame.from_record(g.to_record())
        assert state_of(copy) == state_of(g)
        if not g.is_over and g.phase.value != "keep":
            assert copy.roll() == g.roll()  # same future dice

    def test_hand_dice_and_void_are_recorded(self) -> None:
        g = DiceGame(2, hand_dice=True)
        g.roll([1, 1, 1, 2, 3, 4])
        g.void_roll()
        g.roll([1, 1, 1, 2, 3, 4])
        g.keep([1, 1, 1])
        assert g.to_record()["actions"] == ["roll 111234", "void", "roll 111234", "keep 111"]

    def test_rules_are_stored(self) -> None:
        g = DiceGame(2, DiceRules(min_bank=500, tie="playoff"), seed=1)
        assert DiceGame.from_record(g.to_json()).rules == g.rules

    @pytest.mark.parametrize(
        "mutate",
        [
            lambda r: r.update(format="chess"),
            lambda r: r.update(version=99),
            lambda r: r.update(game="pepper"),
            lambda r: r.update(actions=["roll 111234", "bank"]),
            lambda r: r.update(actions="roll"),
            lambda r: r.update(players=["solo"]),
            lambda r: r["rules"].update(target=-1),
            lambda r: r.pop("rules"),
        ],
    )
    def test_bad_records(self, mutate: object) -> None:
        record = DiceGame(2, seed=1).to_record()
        mutate(record)  # type: ignore[operator]
        with pytest.raises(RecordError):
            DiceGame.from_record(record)

    def test_not_json(self) -> None:
        with pytest.raises(RecordError):
            DiceGame.from_record("{not json")


class TestView:
    def test_view_hides_the_seed(self) -> None:
        g = DiceGame(2, seed=123456789)
        g.roll()
        view = g.view(0)
        assert not hasattr(view, "seed")
        assert "123456789" not in repr(view)

    def test_view_matches_the_game(self) -> None:
        g = DiceGame(["A", "B"], seed=2)
        g.roll([1, 5, 2, 3, 4, 4])
        v = g.view(1)
        assert v.seat == 1 and v.current_player == 0 and not v.is_my_turn
        assert v.roll == (1, 5, 2, 3, 4, 4)
        assert [o.dice for o in v.keep_options] == [(1, 5), (1,), (5,)]
        assert g.view(0).is_my_turn

    def test_view_has_every_field(self) -> None:
        # view() builds the named tuple from a plain tuple (for speed): field for field.
        g = DiceGame(["A", "B"], seed=2)
        g.roll([1, 1, 1, 5, 2, 3])
        g.apply("keep 1115")
        g.bank()
        v = g.view(1)
        assert len(v) == len(DiceView._fields)
        assert v._asdict() == DiceView(*v)._asdict()
        assert (v.can_call_pfeffer, v.pfeffer_stake, v.points_step, v.is_sheet) == (
            True,
            g.pfeffer_stake(),
            50,
            False,
        )
        assert v.pfeffer_need is not None and v.is_over is False and v.winners == ()

    def test_no_such_seat_of_any_type(self) -> None:
        g = DiceGame(2)
        for seat in (True, 1.0, "0", -1, 2):
            with pytest.raises(SetupError):
                g.view(seat)  # type: ignore[arg-type]

    def test_view_is_a_snapshot(self) -> None:
        g = DiceGame(2, sheet=True)
        v = g.view(0)
        g.enter_turn(400)
        assert v.scores == (0, 0) and v.current_player == 0

    def test_no_such_seat(self) -> None:
        with pytest.raises(SetupError):
            DiceGame(2).view(2)
