"""The score-sheet API (pfeffer.dice.sheet), organised by rule id (docs/rules.md, D1–D14)."""

from __future__ import annotations

import json

import pytest

from pfeffer.dice import DiceGame, DiceRules, IllegalAction, PfefferMode, RecordError
from pfeffer.dice.sheet import DiceSheet, round_number, sheet_rows, turn_text


def sheet_of(entries: list[int | str | None], players: int = 2, **rules: object) -> DiceSheet:
    """A sheet with ``entries`` made; a string starting with "p " is a Pfeffer entry."""
    s = DiceSheet([f"P{i}" for i in range(players)], DiceRules(**rules))  # type: ignore[arg-type]
    for e in entries:
        if isinstance(e, str) and e.startswith("p "):
            s.enter(e[2:], pfeffer=True)
        else:
            s.enter(e)
    return s


def state(s: DiceSheet) -> tuple[object, ...]:
    return (s.totals, s.current_player, len(s.history), s.to_json())


# ----------------------------------------------------------------------------- entries


def test_entries_add_up_and_pass_play_clockwise() -> None:
    s = sheet_of([450, 600, 1000])
    assert s.totals == [1450, 600]
    assert s.current_player == 1
    assert [t.points for t in s.history] == [450, 600, 1000]


def test_bust_spellings_are_the_same() -> None:
    a, b, c = sheet_of([400, None]), sheet_of([400, "bust"]), sheet_of([400, "b"])
    assert a.totals == b.totals == c.totals == [400, 0]
    assert a.history[-1].busted and b.history[-1].busted and c.history[-1].busted


def test_points_given_as_text_digits() -> None:
    assert sheet_of(["450"]).totals == [450, 0]


@pytest.mark.parametrize("bad", ["lots", "4 5 0", 4.5, True])
def test_entry_that_is_not_points_is_rejected(bad: object) -> None:
    s = DiceSheet(["A", "B"])
    with pytest.raises(IllegalAction):
        s.enter(bad)  # type: ignore[arg-type]
    assert s.history == []


# ----------------------------------------------------------------------------- D8 minimum


def test_d8_bank_below_minimum_is_rejected_with_clear_message() -> None:
    s = sheet_of([400])
    before = state(s)
    with pytest.raises(IllegalAction, match="at least 350 points; 300 cannot be banked"):
        s.enter(300)
    assert state(s) == before
    s.enter(350)
    assert s.totals == [400, 350]


def test_d8_minimum_holds_for_every_turn_by_default() -> None:
    s = sheet_of([400, 400])
    with pytest.raises(IllegalAction):
        s.enter(100)


def test_d8_house_rule_min_bank() -> None:
    s = sheet_of([], min_bank=500)
    with pytest.raises(IllegalAction, match="500"):
        s.enter(450)
    s.enter(500)
    assert s.totals == [500, 0]


def test_points_not_a_multiple_of_50_are_rejected() -> None:
    s = DiceSheet(["A", "B"])
    with pytest.raises(IllegalAction, match="multiple of 50"):
        s.enter(475)
    with pytest.raises(IllegalAction):
        s.enter(0)
    assert s.history == []


def test_house_rule_min_bank_opening_only() -> None:
    s = sheet_of([], min_bank_opening_only=True)
    with pytest.raises(IllegalAction):
        s.enter(100)  # nobody has banked yet: the minimum holds
    s.enter(400)
    s.enter(350)
    s.enter(100)  # seat 0 has banked once: any score may be banked now
    s.enter(50)
    assert s.totals == [500, 400]


def test_house_rule_min_bank_opening_only_per_player() -> None:
    s = sheet_of([400], min_bank_opening_only=True)
    with pytest.raises(IllegalAction):
        s.enter(100)  # seat 1 has not banked yet
    s.enter(None)
    s.enter(100)  # seat 0 has; (Auto-Pfeffer does not change the minimum)
    assert s.totals == [500, 0]


# ----------------------------------------------------------------------------- D10 Pfeffer


def test_d10_pfeffer_bust_costs_twice_the_stake() -> None:
    s = sheet_of([350, "p bust"])
    assert s.totals == [350, -800]  # stake 400, bust: -800 (the example of D10 in docs/rules.md)
    turn = s.history[-1]
    assert (turn.pfeffer, turn.stake, turn.penalty) == (PfefferMode.CALLED, 400, 800)
    assert s.rows()[0].cells() == ("350", "P bust -800")


def test_d10_pfeffer_bank_below_stake_is_rejected() -> None:
    s = sheet_of([600])
    before = state(s)
    with pytest.raises(IllegalAction, match="Pfeffer was called on 650"):
        s.enter(600, pfeffer=True)
    assert state(s) == before  # the failed entry did not leave Pfeffer called
    s.enter(600)  # without Pfeffer the same result is fine
    assert s.history[-1].pfeffer is PfefferMode.NONE


def test_d10_pfeffer_made_earns_nothing_by_default() -> None:
    s = sheet_of([600, "p 650"])
    assert s.totals == [600, 650]
    assert turn_text(s.history[-1]) == "P 650"


def test_d10_pfeffer_on_the_first_turn_is_rejected() -> None:
    s = DiceSheet(["A", "B"])
    with pytest.raises(IllegalAction, match="Nobody has had a turn"):
        s.enter(400, pfeffer=True)


def test_d10_pfeffer_when_predecessor_busted_is_rejected() -> None:
    s = sheet_of([None])
    with pytest.raises(IllegalAction, match="Auto-Pfeffer is already on"):
        s.enter(400, pfeffer=True)


def test_d10_penalty_factor_house_rule() -> None:
    assert sheet_of([350, "p bust"], pfeffer_penalty_factor=3).totals == [350, -1200]


def test_house_rule_pfeffer_off() -> None:
    s = sheet_of([400], pfeffer=False)
    with pytest.raises(IllegalAction, match="not played"):
        s.enter(450, pfeffer=True)


def test_house_rule_pfeffer_short_bank_allowed() -> None:
    s = sheet_of([600], pfeffer_short_bank="allowed")
    s.enter(400, pfeffer=True)  # below the stake of 650, but at least 350
    assert s.totals == [600, 400]
    with pytest.raises(IllegalAction):
        s.enter(300, pfeffer=True)  # the 350 minimum still holds


def test_house_rule_pfeffer_reward_stake() -> None:
    s = sheet_of([400, "p 450"], pfeffer_reward="stake")
    assert s.totals == [400, 900]
    assert s.history[-1].bonus == 450
    assert s.rows()[0].cells() == ("400", "P 450 +450")
    # the penalty is unchanged
    assert sheet_of([400, "p bust"], pfeffer_reward="stake").totals == [400, -900]


# ----------------------------------------------------------------------------- D11 Auto-Pfeffer


def test_d11_auto_pfeffer_bust_costs_1000() -> None:
    s = sheet_of([None, None])
    assert s.totals == [0, -1000]
    assert s.history[-1].pfeffer is PfefferMode.AUTO
    assert s.rows()[0].cells() == ("bust", "A bust -1000")


def test_d11_auto_pfeffer_follows_a_penalised_bust_too() -> None:
    s = sheet_of([400, "p bust", None])
    assert s.totals == [-600, -900]


def test_d11_auto_pfeffer_banked_is_marked_and_costs_nothing() -> None:
    s = sheet_of([None, 400])
    assert s.totals == [0, 400]
    assert turn_text(s.history[-1]) == "A 400"


def test_d11_house_rules_auto_pfeffer_off_and_penalty() -> None:
    assert sheet_of([None, None], auto_pfeffer=False).totals == [0, 0]
    assert sheet_of([None, None], auto_pfeffer_penalty=500).totals == [0, -500]


# ----------------------------------------------------------------------------- D13, D14


def test_d13_totals_go_negative_and_the_sheet_shows_them() -> None:
    s = sheet_of([None, None, None, None])
    assert s.totals == [-1000, -2000]
    assert s.rows()[-1].totals == (-1000, -2000)
    s.enter(400)
    assert s.totals == [-600, -2000]


def test_d14_final_round_every_other_player_gets_one_turn() -> None:
    s = sheet_of([400, 1000], players=3, target=1000)
    assert s.final_round and not s.is_over
    assert s.current_player == 2
    s.enter(400)
    assert not s.is_over and s.current_player == 0  # seat 0 still has its last turn
    s.enter(450)
    assert s.is_over
    assert s.winners == [1]
    with pytest.raises(IllegalAction, match="over"):
        s.enter(400)


def test_d14_late_player_can_overtake_in_the_final_round() -> None:
    s = sheet_of([1000, 1100], target=1000)
    assert s.is_over and s.winners == [1]


def test_d14_shared_win() -> None:
    s = sheet_of([1000, 1000], target=1000)
    assert s.is_over
    assert s.winners == [0, 1]


def test_d14_house_rule_no_final_round() -> None:
    s = sheet_of([1000], players=3, target=1000, final_round=False)
    assert s.is_over and s.winners == [0]


def test_house_rule_tie_playoff_through_the_sheet() -> None:
    s = sheet_of([1000, 1000], target=1000, tie="playoff")
    assert not s.is_over
    assert s.view().playoff == (0, 1)
    s.enter(400)
    s.enter(350)
    assert s.is_over and s.winners == [0]
    assert [r.cells() for r in s.rows()] == [("1000", "1000"), ("400", "350")]


# ----------------------------------------------------------------------------- rows


def test_rows_one_per_round_with_running_totals() -> None:
    s = sheet_of([400, 500, None, 350, 600], players=2)
    rows = s.rows()
    assert [r.number for r in rows] == [1, 2, 3]
    assert [r.cells() for r in rows] == [("400", "500"), ("bust", "A 350"), ("600", "")]
    assert [r.totals for r in rows] == [(400, 500), (400, 850), (1000, 850)]
    assert s.round == 3


def test_rows_start_with_the_first_player() -> None:
    s = DiceSheet(["A", "B", "C"], first_player=2)
    for points in (400, 500, 600, 350):
        s.enter(points)
    assert [r.cells() for r in s.rows()] == [("500", "600", "400"), ("", "", "350")]
    assert round_number(s.game) == 2


def test_rows_of_empty_sheet() -> None:
    assert DiceSheet(["A", "B"]).rows() == []
    assert sheet_rows([], 2) == []


# ----------------------------------------------------------------------------- undo


def test_undo_takes_back_the_last_turn() -> None:
    s = sheet_of([400, 500])
    s.undo()
    assert s.totals == [400, 0] and s.current_player == 1
    s.undo()
    assert s.totals == [0, 0] and s.history == []
    with pytest.raises(IllegalAction, match="nothing to undo"):
        s.undo()


def test_undo_of_a_pfeffer_turn_takes_the_call_back_too() -> None:
    s = sheet_of([400, "p bust"])
    s.undo()
    assert s.totals == [400, 0]
    assert json.loads(s.to_json())["actions"] == ["turn 400"]
    s.enter(400)  # no Pfeffer now
    assert s.totals == [400, 400]


def test_undo_reopens_a_finished_game() -> None:
    s = sheet_of([1000, 400], target=1000)
    assert s.is_over
    s.undo()
    assert not s.is_over and s.winners == [] and s.final_round


def test_undo_then_enter_matches_a_fresh_sheet() -> None:
    s = sheet_of([400, 500, None])
    s.undo()
    s.enter(650)
    assert s.to_json() == sheet_of([400, 500, 650]).to_json()


# ----------------------------------------------------------------------------- files


def test_json_is_a_valid_game_record_and_round_trips() -> None:
    s = sheet_of([400, "p bust", None, 1000])
    text = s.to_json()
    game = DiceGame.from_record(text)
    assert game.scores == s.totals
    again = DiceSheet.from_json(text)
    assert again.rows() == s.rows()
    assert again.to_json() == text
    again.enter(400)
    assert again.totals == [-200, 100]


def test_a_played_game_is_no_score_sheet() -> None:
    """`dice sheet --resume` on a play record must not turn it into a sheet."""
    g = DiceGame(["A", "B"], seed=1)
    g.roll([1, 1, 1, 2, 3, 4])
    g.keep([1, 1, 1])
    g.bank()
    with pytest.raises(RecordError, match="played game"):
        DiceSheet.from_json(g.to_json())


# ---------------------------------------------------------------- entries to confirm (issue 22)


def test_check_says_what_an_entry_would_do_and_changes_nothing() -> None:
    s = DiceSheet(["Anna", "Ben"], DiceRules(target=2000))
    s.enter(1500)
    before = s.to_json()
    assert not s.check(400).needs_confirmation
    reach = s.check(2000)  # Ben reaches the target: the final round starts
    assert reach.reaches_target and not reach.ends_game and reach.total == 2000
    with pytest.raises(IllegalAction):
        s.check(475)  # as enter() would
    assert s.to_json() == before
    s.enter(2000)
    end = s.check("bust")  # Anna's last turn ends the game, whatever she enters
    assert end.ends_game and end.winners == ("Ben",) and end.winners_total == 2000
    assert s.to_json() != before and not s.is_over


def test_an_entry_far_above_one_turn_is_unusual() -> None:
    from pfeffer.dice.bots import reach_probability
    from pfeffer.dice.probability import unusual_turn

    rules = DiceRules()
    limit = unusual_turn(rules)
    # The limit is where a turn that plays for nothing else reaches it less than once in
    # 100,000 turns (checked against the bots' independent recursion).
    assert reach_probability(rules, limit) < 1e-5 <= reach_probability(rules, limit - 50)
    s = DiceSheet(["Anna", "Ben"])
    assert s.check(100_000).unusual and s.check(limit).unusual
    assert not s.check(limit - 50).unusual and not s.check(5000).needs_confirmation


def test_an_ended_sheet_can_be_undone_and_played_on() -> None:
    s = DiceSheet(["Anna", "Ben"], DiceRules(target=1000, final_round=False))
    assert s.check(100_000).ends_game
    s.enter(100_000)  # the typo
    assert s.is_over
    s.undo()
    assert not s.is_over and s.current_player == 0
    s.enter(500)
    assert s.totals == [500, 0]
