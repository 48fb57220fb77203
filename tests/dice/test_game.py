"""The turn and game state machine, one class per rule of docs/rules.md (D1–D14)."""

from __future__ import annotations

import pytest

from pfeffer.dice import (
    ActionError,
    DiceGame,
    DiceRules,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    PfefferMode,
    Phase,
    RulesError,
    SetupError,
)
from tests.dice.helpers import bust_turn, state_of

BUST6 = [2, 3, 4, 6, 6, 2]


class TestD1Players:
    @pytest.mark.parametrize("n", [2, 3, 8])
    def test_two_to_eight_players(self, n: int) -> None:
        assert len(DiceGame(n).scores) == n

    @pytest.mark.parametrize("n", [0, 1, 9])
    def test_other_counts_are_refused(self, n: int) -> None:
        with pytest.raises(SetupError, match="2 to 8"):
            DiceGame(n)

    def test_play_passes_in_seat_order_and_wraps(self) -> None:
        g = DiceGame(["A", "B", "C"], seed=1, sheet=True)
        seen = []
        for _ in range(4):
            seen.append(g.current_player)
            g.enter_turn(400)
        assert seen == [0, 1, 2, 0]

    def test_first_player_can_be_chosen(self) -> None:
        assert DiceGame(3, first_player=2).current_player == 2


class TestD2Roll:
    def test_a_turn_starts_with_six_dice(self) -> None:
        g = DiceGame(2, seed=5)
        assert g.dice_to_roll == 6
        assert len(g.roll()) == 6

    def test_exactly_the_dice_in_play_must_be_thrown(self) -> None:
        g = DiceGame(2)
        with pytest.raises(IllegalAction, match="6 dice"):
            g.roll([1, 2, 3])
        g.roll([1, 2, 3, 4, 6, 6])
        g.keep([1])
        with pytest.raises(IllegalAction, match="5 dice"):
            g.roll([1, 2, 3, 4, 6, 6])
        assert len(g.roll([2, 2, 3, 4, 6])) == 5

    def test_seeded_dice_repeat(self) -> None:
        a, b = DiceGame(2, seed=11), DiceGame(2, seed=11)
        assert [a.roll() for _ in range(1)] == [b.roll() for _ in range(1)]


class TestD3Keep:
    def test_must_set_aside_before_throwing_again(self) -> None:
        g = DiceGame(2)
        g.roll([1, 2, 3, 4, 6, 6])
        with pytest.raises(IllegalAction, match="Set aside"):
            g.roll()
        with pytest.raises(IllegalAction):
            g.keep([])

    def test_non_scoring_die_cannot_be_kept(self) -> None:
        g = DiceGame(2)
        g.roll([1, 2, 3, 4, 6, 6])
        with pytest.raises(IllegalAction, match="does not score"):
            g.keep([1, 2])
        with pytest.raises(IllegalAction, match="no more 5s"):
            g.keep([5])

    def test_combinations_never_span_two_throws(self) -> None:
        g = DiceGame(2)
        g.roll([5, 5, 2, 3, 4, 6])
        g.keep([5, 5])
        g.roll([5, 2, 3, 4])
        assert g.keep([5]) == 50  # not a third 5 for 500
        assert g.turn_total == 150

    def test_one_die_from_a_triple(self) -> None:
        g = DiceGame(2)
        g.roll([5, 5, 5, 2, 3, 4])
        assert g.keep([5]) == 50
        assert g.dice_to_roll == 5

    def test_kept_group_scores_its_best_split(self) -> None:
        g = DiceGame(2)
        g.roll([1, 1, 1, 1, 3, 4])
        assert g.keep([1, 1, 1, 1]) == 2000


class TestD5AfterSettingAside:
    def test_bank_or_roll_on(self) -> None:
        g = DiceGame(2)
        g.roll([1, 1, 1, 2, 3, 4])
        g.keep([1, 1, 1])
        assert g.legal_actions() == ["roll", "bank"]
        g.roll([5, 2, 3])
        g.keep([5])
        assert g.turn_total == 1050 and g.dice_to_roll == 2
        assert g.bank() == 1050
        assert g.scores == [1050, 0]


class TestD6Bust:
    def test_bust_ends_the_turn_with_nothing(self) -> None:
        g = DiceGame(2)
        g.roll([1, 1, 1, 2, 3, 4])
        g.keep([1, 1, 1])
        g.roll([2, 3, 4])
        assert g.current_player == 1
        assert g.scores == [0, 0]
        turn = g.history[-1]
        assert turn.busted and turn.points == 0 and turn.seat == 0 and turn.penalty == 0
        assert g.phase is Phase.START and g.turn_total == 0


class TestD7HotDice:
    def test_all_six_scored_must_throw_six_again(self) -> None:
        g = DiceGame(2)
        g.roll([1, 2, 3, 4, 5, 6])
        g.keep([1, 2, 3, 4, 5, 6])
        assert g.dice_to_roll == 6
        assert "bank" not in g.legal_actions()
        with pytest.raises(IllegalAction, match="prove it"):
            g.bank()
        g.roll([1, 2, 3, 4, 6, 6])
        g.keep([1])
        assert g.turn_total == 1600 and g.dice_to_roll == 5
        assert g.bank() == 1600

    def test_hot_dice_over_several_throws(self) -> None:
        g = DiceGame(2)
        g.roll([1, 1, 2, 3, 4, 6])
        g.keep([1, 1])
        g.roll([5, 5, 5, 1])
        g.keep([1, 5, 5, 5])
        assert g.dice_to_roll == 6 and g.turn_total == 800

    def test_house_rule_hot_dice_may_bank(self) -> None:
        g = DiceGame(2, DiceRules(hot_dice_must_roll=False))
        g.roll([1, 2, 3, 4, 5, 6])
        g.keep([1, 2, 3, 4, 5, 6])
        assert g.bank() == 1500


class TestD8Minimum:
    def test_below_350_cannot_bank(self) -> None:
        g = DiceGame(2)
        g.roll([1, 5, 5, 2, 3, 4])
        g.keep([1, 5, 5])
        assert g.turn_total == 200
        assert g.legal_actions() == ["roll"]
        with pytest.raises(IllegalAction, match="at least 350"):
            g.bank()
        g.roll([5, 2, 3])
        g.keep([5])
        g.roll([1, 2])
        g.keep([1])
        assert g.turn_total == 350
        assert g.bank() == 350

    def test_minimum_holds_on_every_turn(self) -> None:
        g = DiceGame(2, sheet=True)
        g.enter_turn(400)
        g.enter_turn(400)
        g.roll([1, 2, 3, 4, 6, 6])
        g.keep([1])
        with pytest.raises(IllegalAction):
            g.bank()

    def test_house_rule_min_bank(self) -> None:
        g = DiceGame(2, DiceRules(min_bank=500), sheet=True)
        with pytest.raises(IllegalAction, match="at least 500"):
            g.enter_turn(450)
        g.enter_turn(500)

    def test_house_rule_minimum_only_until_first_bank(self) -> None:
        g = DiceGame(2, DiceRules(min_bank_opening_only=True), sheet=True)
        g.roll([1, 2, 3, 4, 6, 6])
        g.keep([1])
        with pytest.raises(IllegalAction):
            g.bank()  # not yet on the board
        g.roll([1, 1, 1, 3, 4])
        g.keep([1, 1, 1])
        g.bank()
        g.enter_turn(400)  # Ben
        g.roll([1, 2, 3, 4, 6, 6])
        g.keep([1])
        assert g.bank() == 100  # Anna has banked once: no minimum any more
        g.enter_turn(50)  # so has Ben

    def test_house_rule_minimum_only_until_first_bank_is_per_player(self) -> None:
        g = DiceGame(3, DiceRules(min_bank_opening_only=True), sheet=True)
        g.enter_turn(400)
        with pytest.raises(IllegalAction, match="at least 350"):
            g.enter_turn(100)  # seat 1 has not banked yet

    def test_entered_turn_must_be_a_reachable_total(self) -> None:
        g = DiceGame(2, sheet=True)
        with pytest.raises(IllegalAction, match="multiple of 50"):
            g.enter_turn(475)
        with pytest.raises(IllegalAction, match="at least 350"):
            g.enter_turn(300)
        with pytest.raises(IllegalAction):
            g.enter_turn(0)


class TestD9Predecessor:
    def test_first_turn_has_no_predecessor(self) -> None:
        g = DiceGame(2)
        assert g.predecessor_result is None
        assert "pfeffer" not in g.legal_actions()
        with pytest.raises(IllegalAction, match="Nobody"):
            g.call_pfeffer()
        assert g.pfeffer is PfefferMode.NONE

    def test_predecessor_is_whoever_played_just_before(self) -> None:
        g = DiceGame(["A", "B", "C"], sheet=True)
        g.enter_turn(400)  # A
        g.enter_turn(650)  # B
        assert g.predecessor_result == 650  # C's predecessor is B, not A
        g.call_pfeffer()
        assert g.stake == 700

    def test_busted_predecessor_result_is_zero(self) -> None:
        g = DiceGame(2)
        bust_turn(g)
        assert g.predecessor_result == 0


class TestD10Pfeffer:
    def test_stake_is_result_plus_50_and_bank_needs_it(self) -> None:
        g = DiceGame(2, sheet=True)
        g.enter_turn(350)
        assert g.legal_actions() == ["pfeffer", "roll", "turn", "bust"]
        g.call_pfeffer()
        assert g.pfeffer is PfefferMode.CALLED and g.stake == 400
        g.roll([1, 1, 1, 5, 2, 3])
        g.keep([5])
        g.roll([1, 5, 2, 3, 4])
        g.keep([1, 5])
        g.roll([1, 2, 3])
        g.keep([1])
        assert g.turn_total == 300
        g.roll([5, 2])
        g.keep([5])
        assert g.turn_total == 350 and not g.can_bank()
        with pytest.raises(IllegalAction, match="Pfeffer"):
            g.bank()

    def test_bust_costs_double_the_stake(self) -> None:
        g = DiceGame(2, sheet=True)
        g.enter_turn(350)
        g.call_pfeffer()
        bust_turn(g)
        assert g.scores == [350, -800]
        assert g.history[-1].penalty == 800

    def test_successful_pfeffer_banks_normally(self) -> None:
        g = DiceGame(2, sheet=True)
        g.enter_turn(350)
        g.call_pfeffer()
        g.enter_turn(400)
        assert g.scores == [350, 400]
        assert g.history[-1].pfeffer is PfefferMode.CALLED and g.history[-1].bonus == 0

    def test_stake_above_minimum_applies_to_higher_results(self) -> None:
        g = DiceGame(2, sheet=True)
        g.enter_turn(1200)
        g.call_pfeffer()
        with pytest.raises(IllegalAction, match="1250"):
            g.enter_turn(1200)
        g.enter_turn(1250)

    def test_only_at_the_start_of_a_turn(self) -> None:
        g = DiceGame(2, sheet=True)
        g.enter_turn(400)
        g.roll([1, 2, 3, 4, 6, 6])
        with pytest.raises(IllegalAction, match="start of a turn"):
            g.call_pfeffer()

    def test_cannot_call_twice(self) -> None:
        g = DiceGame(2, sheet=True)
        g.enter_turn(400)
        g.call_pfeffer()
        with pytest.raises(IllegalAction, match="already"):
            g.call_pfeffer()

    def test_house_rule_no_pfeffer(self) -> None:
        g = DiceGame(2, DiceRules(pfeffer=False), sheet=True)
        g.enter_turn(400)
        assert "pfeffer" not in g.legal_actions()
        with pytest.raises(IllegalAction, match="not played"):
            g.call_pfeffer()

    def test_house_rule_margin_and_factor(self) -> None:
        g = DiceGame(2, DiceRules(pfeffer_margin=100, pfeffer_penalty_factor=3), sheet=True)
        g.enter_turn(400)
        g.call_pfeffer()
        assert g.stake == 500
        bust_turn(g)
        assert g.scores[1] == -1500

    def test_house_rule_short_bank_allowed(self) -> None:
        g = DiceGame(2, DiceRules(pfeffer_short_bank="allowed"), sheet=True)
        g.enter_turn(1000)
        g.call_pfeffer()
        g.enter_turn(400)  # below the stake 1050, allowed and free
        assert g.scores == [1000, 400]
        assert g.history[-1].penalty == 0

    def test_house_rule_reward_stake(self) -> None:
        g = DiceGame(2, DiceRules(pfeffer_reward="stake"), sheet=True)
        g.enter_turn(400)
        g.call_pfeffer()
        g.enter_turn(600)
        assert g.scores == [400, 600 + 450]
        assert g.history[-1].bonus == 450

    def test_reward_needs_the_stake_reached(self) -> None:
        g = DiceGame(2, DiceRules(pfeffer_reward="stake", pfeffer_short_bank="allowed"), sheet=True)
        g.enter_turn(1000)
        g.call_pfeffer()
        g.enter_turn(400)
        assert g.scores[1] == 400


class TestD11AutoPfeffer:
    def test_after_a_bust_pfeffer_is_on_and_a_bust_costs_1000(self) -> None:
        g = DiceGame(2)
        bust_turn(g)
        assert g.pfeffer is PfefferMode.AUTO
        assert "pfeffer" not in g.legal_actions()
        with pytest.raises(IllegalAction, match="Auto-Pfeffer"):
            g.call_pfeffer()
        bust_turn(g)
        assert g.scores == [0, -1000]
        assert g.history[-1].penalty == 1000 and g.history[-1].pfeffer is PfefferMode.AUTO

    def test_auto_pfeffer_chains(self) -> None:
        g = DiceGame(2)
        bust_turn(g)
        bust_turn(g)
        bust_turn(g)
        assert g.scores == [-1000, -1000]

    def test_auto_pfeffer_bank_needs_only_the_minimum(self) -> None:
        g = DiceGame(2, sheet=True)
        bust_turn(g)
        g.enter_turn(350)
        assert g.scores == [0, 350]
        assert g.pfeffer is PfefferMode.NONE  # predecessor banked 350

    def test_house_rule_off_and_penalty(self) -> None:
        off = DiceGame(2, DiceRules(auto_pfeffer=False))
        bust_turn(off)
        assert off.pfeffer is PfefferMode.NONE
        bust_turn(off)
        assert off.scores == [0, 0]
        cheap = DiceGame(2, DiceRules(auto_pfeffer_penalty=500))
        bust_turn(cheap)
        bust_turn(cheap)
        assert cheap.scores == [0, -500]


class TestD12Brandenburg:
    def test_void_throw_is_discarded_and_thrown_again(self) -> None:
        g = DiceGame(2, seed=3, hand_dice=True)
        g.roll([1, 1, 1, 2, 3, 4])
        g.keep([1, 1, 1])
        before = (g.turn_total, g.dice_to_roll, g.phase)
        g.roll([5, 2, 3])
        assert "void" in g.legal_actions()
        g.void_roll()
        assert (g.turn_total, g.dice_to_roll, g.phase) == before
        g.roll([1, 2, 3])
        assert g.actions[-3:] == ["roll 523", "void", "roll 123"]

    def test_a_void_busting_throw_is_undone(self) -> None:
        g = DiceGame(2, hand_dice=True)
        g.roll([1, 1, 1, 2, 3, 4])
        g.keep([1, 1, 1])
        g.roll([2, 3, 4])  # busts...
        assert g.current_player == 1
        g.void_roll()  # ...but a die leaned on another
        assert g.current_player == 0 and g.turn_total == 1000 and g.dice_to_roll == 3
        assert g.history == [] and g.scores == [0, 0]

    def test_void_only_right_after_a_throw(self) -> None:
        g = DiceGame(2, hand_dice=True)
        with pytest.raises(IllegalAction, match="no throw"):
            g.void_roll()
        g.roll([1, 2, 3, 4, 6, 6])
        g.keep([1])
        with pytest.raises(IllegalAction, match="no throw"):
            g.void_roll()

    def test_computer_dice_after_a_void_are_new(self) -> None:
        a = DiceGame(2, seed=9, hand_dice=True)
        a.roll([1, 2, 3, 4, 6, 6])
        a.void_roll()
        b = DiceGame(2, seed=9, hand_dice=True)
        b.roll([1, 2, 3, 4, 6, 6])
        b.void_roll()
        assert a.roll() == b.roll()
        # The void throw used up throw number 0: the next computer throw is number 1, as after
        # any other first throw (the first n faces of a throw do not depend on n).
        c = DiceGame(2, seed=9, hand_dice=True)
        c.roll([1, 2, 3, 4, 6, 6])
        c.keep([1])
        d = DiceGame(2, seed=9, hand_dice=True)
        d.roll([1, 2, 3, 4, 6, 6])
        d.void_roll()
        assert d.roll()[:5] == c.roll()

    def test_computer_dice_are_never_void(self) -> None:
        """D12: with computer dice no throw is void, so `void` cannot re-roll a bad throw."""
        g = DiceGame(2, seed=3)
        g.roll()
        assert "void" not in g.legal_actions()
        with pytest.raises(IllegalAction, match="computer dice"):
            g.apply("void")
        g.roll([2, 3, 4, 6, 6, 2]) if g.phase == "start" else None
        assert "void" not in g.legal_actions()

    def test_no_void_after_the_game_is_over(self) -> None:
        """A void throw after the last turn must not reopen a finished game."""
        g = DiceGame(2, DiceRules(target=350, final_round=False), hand_dice=True)
        g.roll([1, 1, 1, 2, 3, 4])
        g.keep([1, 1, 1])
        g.bank()
        assert g.is_over and g.legal_actions() == []
        before = state_of(g)
        with pytest.raises(IllegalAction, match="over"):
            g.apply("void")
        assert state_of(g) == before and g.is_over

    def test_no_void_after_a_final_bust(self) -> None:
        g = DiceGame(2, DiceRules(target=350), hand_dice=True)
        g.roll([1, 1, 1, 2, 3, 4])
        g.keep([1, 1, 1])
        g.bank()
        bust_turn(g)  # the final round's last turn busts: game over
        assert g.is_over
        with pytest.raises(IllegalAction):
            g.void_roll()
        assert g.is_over


class TestD13NegativeTotals:
    def test_totals_go_below_zero(self) -> None:
        g = DiceGame(2, sheet=True)
        g.enter_turn(400)
        g.call_pfeffer()
        bust_turn(g)
        assert g.scores[1] == -900
        assert g.view(1).scores[1] == -900


class TestD14End:
    def test_final_round_gives_everyone_else_one_turn(self) -> None:
        g = DiceGame(["A", "B", "C"], DiceRules(target=1000), sheet=True)
        g.enter_turn(400)  # A
        g.enter_turn(1000)  # B reaches the target
        assert g.final_round and not g.is_over
        assert g.current_player == 2
        g.enter_turn(400)  # C
        assert g.current_player == 0
        g.enter_turn(1050)  # A: 1450
        assert g.is_over
        assert g.winners == [0]
        assert g.scores == [1450, 1000, 400]

    def test_nobody_catches_up(self) -> None:
        g = DiceGame(["A", "B"], DiceRules(target=1000), sheet=True)
        g.enter_turn(1500)
        bust_turn(g)
        assert g.is_over and g.winners == [0]

    def test_equal_highest_share_the_win(self) -> None:
        g = DiceGame(["A", "B"], DiceRules(target=1000), sheet=True)
        g.enter_turn(1000)
        g.enter_turn(1000)
        assert g.is_over and g.winners == [0, 1]

    def test_nothing_after_the_end(self) -> None:
        g = DiceGame(["A", "B"], DiceRules(target=1000), sheet=True)
        g.enter_turn(1000)
        g.enter_turn(400)
        assert g.legal_actions() == []
        for act in ("roll", "bank", "pfeffer", "void", "turn 400", "keep 1"):
            with pytest.raises(IllegalAction):
                g.apply(act)

    def test_house_rule_no_final_round(self) -> None:
        g = DiceGame(["A", "B"], DiceRules(target=1000, final_round=False), sheet=True)
        g.enter_turn(1000)
        assert g.is_over and g.winners == [0]

    def test_house_rule_target(self) -> None:
        g = DiceGame(["A", "B"], DiceRules(target=500), sheet=True)
        g.enter_turn(450)
        assert not g.final_round
        g.enter_turn(500)
        assert g.final_round

    def test_house_rule_tie_playoff(self) -> None:
        g = DiceGame(["A", "B", "C"], DiceRules(target=1000, tie="playoff"), sheet=True)
        g.enter_turn(1000)  # A triggers
        g.enter_turn(1000)  # B ties
        g.enter_turn(400)  # C
        assert not g.is_over
        assert g.current_player == 0  # playoff: A and B, in seat order after C
        g.enter_turn(400)
        g.enter_turn(400)
        assert not g.is_over  # still tied after a full round
        g.enter_turn(500)  # A
        bust_turn(g)  # B busts (Auto-Pfeffer does not apply: A banked)
        assert g.is_over and g.winners == [0]
        assert g.scores == [1900, 1400, 400]

    def test_final_round_after_a_penalty_does_not_end_early(self) -> None:
        g = DiceGame(["A", "B"], DiceRules(target=1000), sheet=True)
        g.enter_turn(1000)
        g.call_pfeffer()
        bust_turn(g)
        assert g.is_over and g.scores == [1000, -2100]


class TestIllegalActionsChangeNothing:
    @pytest.mark.parametrize(
        "action",
        [
            "bank",
            "keep 1",
            "void",
            "pfeffer",
            "roll 12",
            "roll 1234567",
            "dance",
            "keep",
            "turn 475",
        ],
    )
    def test_at_the_start(self, action: str) -> None:
        g = DiceGame(2, seed=4)
        before = state_of(g)
        with pytest.raises(ActionError):
            g.apply(action)
        assert state_of(g) == before

    @pytest.mark.parametrize("action", ["roll", "bank", "keep 2", "keep 55", "pfeffer", "turn 400"])
    def test_with_a_throw_on_the_table(self, action: str) -> None:
        g = DiceGame(2, seed=4)
        g.roll([1, 5, 2, 3, 4, 6])
        before = state_of(g)
        with pytest.raises(IllegalAction):
            g.apply(action)
        assert state_of(g) == before

    def test_wrong_player(self) -> None:
        g = DiceGame(["Anna", "Ben"])
        before = state_of(g)
        with pytest.raises(NotYourTurn, match="Anna's turn, not Ben's"):
            g.apply("roll", seat=1)
        with pytest.raises(NotYourTurn, match="no seat"):
            g.apply("roll", seat=5)
        assert state_of(g) == before
        g.apply("roll 123466", seat=0)


class TestQueriesForFrontEnds:
    def test_bust_penalty_and_stake_previews(self) -> None:
        g = DiceGame(2, first_player=1, sheet=True)
        assert g.first_player == 1
        assert g.bust_penalty() == 0 and g.pfeffer_stake() is None
        g.enter_turn(600)
        assert g.pfeffer_stake() == 650 and g.bust_penalty() == 0
        g.call_pfeffer()
        assert g.bust_penalty() == 1300 and g.view(0).bust_penalty == 1300
        bust_turn(g)
        assert g.bust_penalty() == 1000  # Auto-Pfeffer for the next player

    def test_hot_dice_flag(self) -> None:
        g = DiceGame(2)
        g.roll([1, 2, 3, 4, 5, 6])
        assert not g.hot_dice
        g.keep([1, 2, 3, 4, 5, 6])
        assert g.hot_dice and g.view(0).hot_dice
        g.roll([1, 2, 3, 4, 6, 6])
        g.keep([1])
        assert not g.hot_dice

    def test_void_after_a_bust_is_accepted_from_the_player_now_to_act(self) -> None:
        g = DiceGame(["A", "B", "C"], hand_dice=True)
        bust_turn(g)
        assert "void" in g.legal_actions()
        with pytest.raises(NotYourTurn):
            g.apply("void", seat=2)
        g.apply("void", seat=1)
        assert g.current_player == 0 and g.history == []


class TestOnlyListedActions:
    """A game accepts only what legal_actions() lists (plus thrown faces where roll is listed):
    score-sheet entries belong to the score sheet."""

    @pytest.mark.parametrize("entry", ["turn 10000", "turn 400", "bust"])
    def test_sheet_entries_are_refused_in_a_game(self, entry: str) -> None:
        g = DiceGame(["A", "B"], seed=1)
        assert g.legal_actions() == ["roll"]
        before = state_of(g)
        with pytest.raises(IllegalAction, match="score sheet"):
            g.apply(entry)
        with pytest.raises(IllegalAction):
            g.enter_turn(10000 if entry != "bust" else None)
        assert state_of(g) == before and g.scores == [0, 0] and not g.is_over

    def test_a_sheet_game_lists_and_takes_whole_turns(self) -> None:
        g = DiceGame(["A", "B"], sheet=True)
        assert g.legal_actions() == ["roll", "turn", "bust"]
        g.apply("turn 400")
        assert g.scores == [400, 0]
        assert DiceGame.from_record(g.to_record()).is_sheet

    def test_thrown_faces_are_accepted_where_roll_is_listed(self) -> None:
        g = DiceGame(["A", "B"], seed=1)
        g.apply("roll 115234")
        assert g.roll_faces == (1, 1, 5, 2, 3, 4)
        with pytest.raises(IllegalAction):
            g.apply("roll 115234")  # a throw lies on the table: "roll" is not listed

    @pytest.mark.parametrize("bad", [None, ["roll"], 5, b"roll"])
    def test_non_strings_are_invalid(self, bad: object) -> None:
        g = DiceGame(["A", "B"], seed=1)
        with pytest.raises(InvalidAction):
            g.apply(bad)  # type: ignore[arg-type]

    def test_constructor_errors_are_value_errors(self) -> None:
        with pytest.raises(SetupError):
            DiceGame("AB")
        with pytest.raises(SetupError):
            DiceGame(["A", "B"], first_player="0")  # type: ignore[arg-type]
        with pytest.raises(RulesError):
            DiceGame(["A", "B"], rules={"target": 5})  # type: ignore[arg-type]
        with pytest.raises(SetupError):
            DiceGame(["A", "B"], seed="x")  # type: ignore[arg-type]
