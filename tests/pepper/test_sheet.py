"""PepperSheet, the score pad, by rule id (docs/rules.md: P3, P5, P10, P11, house rules)."""

from __future__ import annotations

import json

import pytest

from pfeffer.core.errors import ActionError, IllegalAction, RecordError, RulesError, SetupError
from pfeffer.pepper import PepperGame, PepperRules, winners_of
from pfeffer.pepper.bots import HeuristicBot, RandomBot
from pfeffer.pepper.rules import side_names
from pfeffer.pepper.sheet import PepperSheet, parse_bid

FOUR = ["Ann", "Bob", "Cy", "Di"]


def pad(n: int = 4, **rules: object) -> PepperSheet:
    return PepperSheet(FOUR[:n], PepperRules(**rules))  # type: ignore[arg-type]


# ------------------------------------------------------------------------ P5 bid ladder


@pytest.mark.parametrize(
    ("n", "good", "bad"),
    [(4, ["1", "5", "small", "big"], ["0", "6", "7", "pass"]),
     (3, ["1", "7", "small", "big"], ["0", "8", "pass"]),
     (2, ["1", "7", "small", "big"], ["0", "8", "huge"])],
)  # fmt: skip
def test_p5_bid_ladder_per_player_count(n: int, good: list[str], bad: list[str]) -> None:
    total = 6 if n == 4 else 8
    tricks = [total] + [0] * ((2 if n == 4 else n) - 1)
    for bid in good:
        s = pad(n)
        s.enter(0, bid, "H", tricks)
        assert s.rows()[-1].bid == bid
    for bid in bad:
        with pytest.raises(IllegalAction, match=f"not a bid with {n} players"):
            pad(n).enter(0, bid, "H", tricks)


def test_bid_spellings() -> None:
    assert [parse_bid(b, 3) for b in (2, "2", "S", "Small Pepper", "BIG")] == [
        "2", "2", "small", "small", "big"
    ]  # fmt: skip
    with pytest.raises(IllegalAction):
        parse_bid(True, 4)


# ------------------------------------------------------------------------ P10 scoring


@pytest.mark.parametrize(
    ("n", "bidder", "bid", "tricks", "points"),
    [
        (4, 1, 3, [2, 4], (2, 4)),  # made: the tricks won, not the bid
        (4, 2, 4, [3, 3], (-6, 3)),  # set with 4 players: -6; seat 2 plays for team 0
        (3, 1, 5, [1, 4, 3], (1, -8, 3)),  # set with 3 players: -8
        (2, 0, 7, [7, 1], (7, 1)),
        (2, 1, 1, [8, 0], (8, -8)),
        (4, 3, "small", [0, 6], (0, 6)),  # Small Pepper made: 6
        (4, 3, "small", [1, 5], (1, -6)),  # Small Pepper needs every trick
        (3, 2, "small", [0, 0, 8], (0, 0, 8)),
        (4, 0, "big", [6, 0], (12, 0)),  # Big Pepper +12 / -12 with 4
        (4, 0, "big", [5, 1], (-12, 1)),
        (3, 0, "big", [8, 0, 0], (16, 0, 0)),  # +16 / -16 with 2 or 3
        (2, 1, "big", [1, 7], (1, -16)),
    ],
)
def test_p10_scoring_cases(
    n: int, bidder: int, bid: int | str, tricks: list[int], points: tuple[int, ...]
) -> None:
    row = pad(n).enter(bidder, bid, "NT", tricks)
    assert row.points == points
    assert row.scores == points
    assert row.made is (points[bidder % 2 if n == 4 else bidder] >= 0)


def test_p10_set_penalty_and_big_pepper_factor_house_rules() -> None:
    assert pad(4, set_penalty=3).enter(0, 2, "C", [1, 5]).points == (-3, 5)
    assert pad(3, set_penalty=0).enter(0, 2, "C", [1, 4, 3]).points == (0, 4, 3)
    # set_penalty does not touch Big Pepper; big_pepper_factor does
    assert pad(4, set_penalty=3).enter(0, "big", "C", [5, 1]).points == (-12, 1)
    assert pad(4, big_pepper_factor=3).enter(1, "big", "C", [0, 6]).points == (0, 18)
    assert pad(2, big_pepper_factor=1).enter(0, "big", "C", [7, 1]).points == (-8, 1)


def test_sheet_agrees_with_a_played_game() -> None:
    """Every hand of seeded games, entered on a pad, gives the engine's own points."""
    for n in (2, 3, 4):
        g = PepperGame(players=n, seed=n, dealer=1)
        s = PepperSheet([f"P{i}" for i in range(n)], dealer=1)
        bots = [HeuristicBot() if i % 2 else RandomBot(seed=i) for i in range(n)]
        for _ in range(10_000):
            if g.is_over:
                break
            seat = g.current_player
            assert seat is not None
            g.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
        for r in g.results:
            assert r.bidder is not None and r.bid is not None
            row = s.enter(r.bidder, r.bid, r.trump, list(r.tricks))
            assert (row.points, row.scores, row.dealer) == (r.points, r.scores, r.dealer)
        assert s.is_over and s.winners == list(g.winners)


# ------------------------------------------------------------------------ P11 end


def test_p11_end_at_target_and_nothing_after() -> None:
    s = pad(4)
    for _ in range(4):
        s.enter(0, "small", "H", [6, 0])
    assert (s.totals, s.is_over) == ([24, 0], False)
    s.enter(1, 1, "H", [6, 0])  # team 0 reaches 30 on the other team's failed bid
    assert s.totals == [30, -6] and s.is_over and s.winners == [0]
    with pytest.raises(IllegalAction, match="game is over"):
        s.enter(0, 1, "H", [6, 0])
    with pytest.raises(IllegalAction, match="game is over"):
        s.enter_passed()


def test_p11_highest_wins_and_ties_are_shared() -> None:
    s = pad(3, target=10)
    s.enter(0, 3, "S", [3, 3, 2])
    s.enter(1, 3, "S", [3, 3, 2])
    s.enter(2, 6, "S", [2, 2, 4])  # set: -8
    assert s.totals == [8, 8, -4] and not s.is_over
    s.enter(0, 2, "S", [4, 4, 0])
    assert s.totals == [12, 12, -4] and s.winners == [0, 1]
    s.undo()
    s.enter(0, 2, "S", [5, 3, 0])
    assert s.winners == [0]  # 13 beats 11, both above the target
    assert winners_of([-3, 40, 40], 30) == [1, 2] and winners_of([29, 29], 30) == []


def test_scores_may_go_negative() -> None:
    s = pad(2)
    s.enter(0, "big", "D", [0, 8])
    assert s.totals == [-16, 8]


# ------------------------------------------------------------------------ P3 dealer, redeal


def test_p3_dealer_rotates_every_hand() -> None:
    s = PepperSheet(FOUR, dealer=3)
    assert s.dealer == 3
    s.enter(0, 1, "C", [3, 3])
    assert s.dealer == 0 and s.rows()[0].dealer == 3
    s.undo()
    assert s.dealer == 3


def test_redeal_entry_only_moves_the_dealer() -> None:
    s = PepperSheet(FOUR[:3], PepperRules(all_pass="redeal"), dealer=1)
    s.enter(0, 2, "C", [3, 3, 2])
    s.enter_passed()
    assert s.dealer == 0 and s.totals == [3, 3, 2]
    row = s.rows()[-1]
    assert (row.bidder, row.bid, row.points, row.made) == (None, None, (0, 0, 0), None)
    with pytest.raises(IllegalAction, match="all_pass=redeal"):
        pad(3).enter_passed()


# ------------------------------------------------------------------------ bad entries


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((4, 1, "H", [3, 3]), "bidder is a seat from 0 to 3"),
        ((-1, 1, "H", [3, 3]), "bidder is a seat"),
        ((True, 1, "H", [3, 3]), "bidder is a seat"),
        ((0, 1, "X", [3, 3]), "not a trump"),
        ((0, 1, "H", [3, 2]), "add up to 6, not 5"),
        ((0, 1, "H", [7, -1]), "from 0 up, not -1"),
        ((0, 1, "H", [3, 2, 1]), "2 numbers, one per team"),
        ((0, 1, "H", "33"), "2 numbers"),
        ((0, 1, "H", [3.0, 3]), "whole numbers"),
    ],
)
def test_bad_entries_raise_and_leave_the_sheet_unchanged(args: tuple, message: str) -> None:  # type: ignore[type-arg]
    s = pad(4)
    s.enter(0, 2, "D", [4, 2])
    before = s.to_json()
    with pytest.raises(ActionError, match=message):
        s.enter(*args)
    assert s.to_json() == before and len(s.rows()) == 1


def test_no_trump_only_when_allowed() -> None:
    assert pad(4).enter(0, 1, None, [3, 3]).trump == "NT"
    with pytest.raises(IllegalAction, match="No trump is not allowed"):
        pad(4, no_trump=False).enter(0, 1, "NT", [3, 3])


def test_bad_set_up() -> None:
    for players in (["A"], [*FOUR, "E"], ["A", "A"], ["A", ""]):
        with pytest.raises(SetupError):
            PepperSheet(players)
    with pytest.raises(SetupError, match="first dealer"):
        PepperSheet(FOUR, dealer=4)


# ------------------------------------------------------------------------ undo, records


def test_undo_takes_back_the_last_hand_and_reopens_the_game() -> None:
    s = pad(2, target=8)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        s.undo()
    s.enter(0, 1, "C", [3, 5])
    s.enter(1, "small", "C", [0, 8])
    assert s.is_over
    assert s.undo().points == (0, 8)
    assert (s.totals, s.is_over, s.winners, len(s.rows())) == ([3, 5], False, [], 1)


def test_save_and_resume_round_trip() -> None:
    s = PepperSheet(FOUR, PepperRules(target=20, all_pass="redeal"), dealer=2)
    s.enter(1, "big", "S", [0, 6])
    s.enter_passed()
    s.enter(2, 3, "NT", [4, 2])
    text = s.to_json()
    rec = json.loads(text)
    assert (rec["format"], rec["version"], rec["game"]) == ("pfeffer-record", 1, "pepper-sheet")
    assert rec["actions"] == ["hand 1 big S 0 6", "redeal", "hand 2 3 NT 4 2"]
    back = PepperSheet.from_json(text)
    assert back.rows() == s.rows() and back.totals == s.totals and back.dealer == s.dealer
    assert back.rules == s.rules and back.to_json() == text
    back.enter(3, 1, "H", [0, 6])
    assert back.is_over and back.winners == [1]


@pytest.mark.parametrize(
    "change",
    [
        {"game": "pepper"},
        {"version": 2},
        {"actions": ["hand 0 9 H 6 0"]},
        {"actions": ["nonsense"]},
        {"scores": [1, 2]},
        {"players": ["solo"]},
        {"rules": {"target": 0}},
    ],
)
def test_bad_records_raise_record_error(change: dict[str, object]) -> None:
    rec = pad(4).to_record()
    with pytest.raises(RecordError):
        PepperSheet.from_json({**rec, **change})


def test_side_names() -> None:
    assert side_names(FOUR) == ["Ann & Cy", "Bob & Di"]
    assert pad(2).side_names == ["Ann", "Bob"]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((5,), SetupError),
        (("ABCD",), SetupError),
        ((["A"],), SetupError),
        (([1, 2],), SetupError),
        ((["A", "A"],), SetupError),
        ((["A", "B"], "x"), RulesError),
    ],
)
def test_a_pad_that_cannot_be_set_up_raises_a_value_error_not_type_error(
    args: tuple[object, ...], error: type[Exception]
) -> None:
    with pytest.raises(error):
        PepperSheet(*args)  # type: ignore[arg-type]
    with pytest.raises(SetupError):
        PepperSheet(["A", "B"], dealer=2)


def test_check_says_whether_a_hand_ends_the_game_and_changes_nothing() -> None:
    pad = PepperSheet(["Ann", "Bob", "Cy", "Di"], PepperRules(target=12))
    pad.enter(0, 4, "H", [5, 1])
    before = pad.to_json()
    assert not pad.check(1, 3, "S", [2, 4]).needs_confirmation
    end = pad.check(0, "big", "H", [6, 0])
    assert (
        end.ends_game and end.winners == ("Ann & Cy",) and end.winners_total == pad.totals[0] + 12
    )
    with pytest.raises(IllegalAction):
        pad.check(0, 3, "H", [5, 2])  # as enter() would: 7 tricks
    assert pad.to_json() == before
