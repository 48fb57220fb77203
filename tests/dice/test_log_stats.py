"""The table's log (pfeffer.dice.log), the dice statistics (pfeffer.dice.stats) and the keep
previews (pfeffer.dice.preview): what the web table draws, worked out by the engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pfeffer.dice import DiceAction, DiceGame, DiceRules
from pfeffer.dice.bots import HeuristicBot, RandomBot
from pfeffer.dice.log import DiceEvent, dice_log
from pfeffer.dice.preview import KeepPreview, keep_previews
from pfeffer.dice.sheet import sheet_rows
from pfeffer.dice.stats import MIN_DICE, UNUSUAL, chi_square_sf5, face_stats
from tests.dice.helpers import bust_turn, play_turn


def bot_game(seed: int, rules: DiceRules, players: int = 3) -> DiceGame:
    """A whole game between random computer players (they call Pfeffer now and then)."""
    game = DiceGame([f"P{i}" for i in range(players)], rules, seed=seed)
    bots = [RandomBot(seed=seed + i) if i % 2 else HeuristicBot() for i in range(players)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat=seat)
    return game


RULES = [
    DiceRules(target=3000),
    DiceRules(target=2500, pfeffer_reward="stake", min_bank=0),
    DiceRules(target=2000, hot_dice_must_roll=False, final_round=False),
]


# ------------------------------------------------------------------ the log


@pytest.mark.parametrize(("seed", "rules"), [(s, r) for s in (1, 2) for r in RULES])
def test_the_log_retells_a_whole_game(seed: int, rules: DiceRules) -> None:
    game = bot_game(seed, rules)
    log = dice_log(game.view(None))
    # Every throw of the record, in order, and nothing else thrown.
    thrown = [e.dice for e in log if e.kind == "throw"]
    assert thrown == [DiceAction.parse(a).dice for a in game.actions if a.startswith("roll")]
    # Each turn ends in one bank or bust line whose numbers are the score sheet's.
    ends = [e for e in log if e.kind in ("bank", "bust")]
    assert len(ends) == len(game.history)
    for e, turn in zip(ends, game.history, strict=True):
        assert e.seat == turn.seat and e.total == turn.total_after
        assert e.points == (turn.penalty if turn.busted else turn.points)
        assert (e.kind == "bust") == turn.busted
    # Within a turn the set-aside points add up to what it banked.
    running = 0
    for e in log:
        if e.kind == "keep":
            assert e.points is not None
            running += e.points
            assert e.total == running
        elif e.kind in ("bank", "bust"):
            if e.kind == "bank":
                assert e.points == running
            running = 0
    # Rounds are numbered 1, 2, … like the sheet's rows; the winners close the log.
    rounds = [e.number for e in log if e.kind == "round"]
    assert rounds == list(range(1, len(sheet_rows(game.history, 3)) + 1))
    wins = [e for e in log if e.kind == "win"]
    assert [e.seat for e in wins] == game.winners
    assert [e.total for e in wins] == [game.scores[w] for w in game.winners]
    assert log[-len(wins) :] == wins


def test_pfeffer_auto_pfeffer_bonus_and_hot_dice_lines() -> None:
    game = DiceGame(["Anna", "Ben"], DiceRules(pfeffer_reward="stake"), seed=1)
    play_turn(game, [([1, 1, 1, 2, 3, 4], [1, 1, 1])])  # Anna banks 1000
    play_turn(
        game, [([1, 1, 1, 5, 5, 5], [1, 1, 1, 5, 5, 5]), ([1, 2, 3, 4, 6, 6], [1])], pfeffer=True
    )  # Ben: stake 1050, banks 1600, bonus 1050
    bust_turn(game)  # Anna busts: Ben plays under Auto-Pfeffer
    log = dice_log(game.view(1))
    kinds = [e.kind for e in log]
    assert kinds == [
        "round", "throw", "keep", "bank",
        "pfeffer", "throw", "keep", "hot_dice", "throw", "keep", "bank", "bonus",
        "round", "throw", "bust",
        "auto_pfeffer",
    ]  # fmt: skip
    assert log[4] == DiceEvent("pfeffer", 1, points=1050)
    assert log[10] == DiceEvent("bank", 1, points=1600, total=2650)
    assert log[11] == DiceEvent("bonus", 1, points=1050, total=2650)
    assert log[14] == DiceEvent("bust", 0, points=0, total=1000)
    assert log[15] == DiceEvent("auto_pfeffer", 1, points=1000)
    # A bust under Auto-Pfeffer costs the penalty, and the log says how much.
    game.roll([2, 3, 4, 6, 6, 2])
    assert dice_log(game.view(0))[-3:] == [
        DiceEvent("bust", 1, points=1000, total=1650),
        DiceEvent("round", number=3),
        DiceEvent("auto_pfeffer", 0, points=1000),
    ]


def test_the_turn_in_progress_and_its_throw_on_the_table() -> None:
    game = DiceGame(["Anna", "Ben"], seed=4)
    game.roll([1, 5, 2, 3, 4, 6])
    game.keep([1])
    game.roll([5, 5, 2, 3, 3])
    log = dice_log(game.view(1))
    assert log[-2:] == [
        DiceEvent("keep", 0, dice=(1,), points=100, total=100),
        DiceEvent("throw", 0, dice=(5, 5, 2, 3, 3)),
    ]
    assert DiceEvent("keep", 0, dice=(1, 5), points=150, total=250).to_dict() == {
        "kind": "keep", "seat": 0, "dice": [1, 5], "points": 150, "total": 250
    }  # fmt: skip


def test_a_score_sheet_log_has_whole_turns() -> None:
    game = DiceGame(["Oma", "Opa"], sheet=True)
    game.enter_turn(400)
    game.enter_turn(None)
    assert [e.to_dict() for e in dice_log(game.view())] == [
        {"kind": "round", "number": 1},
        {"kind": "bank", "seat": 0, "points": 400, "total": 400},
        {"kind": "bust", "seat": 1, "points": 0, "total": 0},
        {"kind": "round", "number": 2},
        {"kind": "auto_pfeffer", "seat": 0, "points": 1000},
    ]


# ------------------------------------------------------------------ statistics


def test_face_counts_of_a_known_record() -> None:
    actions = ["roll 111111", "keep 111111", "roll 234562", "keep 5", "roll 66666", "bank"]
    s = face_stats(actions)
    assert s.counts == (6, 2, 1, 1, 1, 6) and s.dice == 17 and s.throws == 3
    assert s.expected == pytest.approx(17 / 6)
    e = 17 / 6
    assert s.chi_square == pytest.approx(sum((c - e) ** 2 / e for c in (6, 2, 1, 1, 1, 6)))
    assert s.chi_square is not None
    assert s.p_value == pytest.approx(chi_square_sf5(s.chi_square))
    assert not s.enough and not s.unusual  # too few dice to call it unusual


def test_loaded_dice_are_unusual_and_fair_ones_are_not() -> None:
    loaded = face_stats(["roll 666666"] * 10)
    assert loaded.enough and loaded.p_value is not None and loaded.p_value < UNUSUAL
    assert loaded.unusual
    even = face_stats(["roll 123456"] * (MIN_DICE // 6))
    assert even.chi_square == 0 and even.p_value == 1.0 and not even.unusual


def test_chi_square_survival_function() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    for x in (0.01, 0.5, 1.0, 4.35, 9.24, 11.07, 15.09, 20.5, 40.0):
        assert chi_square_sf5(x) == pytest.approx(scipy_stats.chi2.sf(x, 5), rel=1e-9)


def test_the_stats_of_a_game_are_its_record() -> None:
    game = bot_game(3, RULES[0], players=2)
    s = face_stats(game.to_record()["actions"])
    dice = [d for a in game.actions if a.startswith("roll") for d in DiceAction.parse(a).dice]
    assert s.dice == len(dice) and s.counts == tuple(dice.count(f) for f in range(1, 7))
    replayed = DiceGame.from_record(game.to_record())
    assert face_stats(replayed.actions) == s


# ------------------------------------------------------------------ keep previews


def test_keep_previews_say_what_follows_each_keep() -> None:
    game = DiceGame(["Anna", "Ben"], seed=2)
    play_turn(game, [([1, 1, 1, 2, 3, 4], [1, 1, 1])], bank=False)
    game.roll([5, 5, 5])
    before = list(game.actions)
    previews = {p.action: p for p in keep_previews(game)}
    assert game.actions == before  # the game did not move
    assert set(previews) == set(game.legal_actions())
    hot = previews["keep 555"]  # all three thrown dice scored: six again, and must throw
    assert (hot.turn_total, hot.dice_to_roll, hot.hot_dice, hot.can_bank) == (1500, 6, True, False)
    one = previews["keep 5"]
    assert (one.turn_total, one.dice_to_roll, one.hot_dice, one.can_bank) == (1050, 2, False, True)


def test_keep_previews_follow_the_house_rules() -> None:
    game = DiceGame(["Anna", "Ben"], DiceRules(hot_dice_must_roll=False, min_bank=500), seed=2)
    game.roll([1, 5, 2, 3, 4, 6])
    previews = {p.action: p for p in keep_previews(game)}
    assert previews["keep 15"].can_bank is False  # 150 is below the minimum of 500
    game.keep([1, 5])
    game.roll([1, 1, 1, 5])
    hot = {p.action: p for p in keep_previews(game)}["keep 1115"]
    assert hot.hot_dice and hot.dice_to_roll == 6 and hot.can_bank  # may bank after all six
    for option, preview in zip(game.keep_choices(), keep_previews(game), strict=True):
        after = game.clone()
        after.apply(option.action)
        assert preview.turn_total == game.turn_total + option.points == after.turn_total
    game.keep([1, 1, 1, 5])
    assert keep_previews(game) == ()  # nothing on the table to set aside


def test_throws_written_otherwise_count_alike() -> None:
    plain = face_stats(["roll 415236", "roll 1111"])
    assert face_stats(["roll 4 1 5 2 3 6", "Roll 1,1,1,1"]).counts == plain.counts
    assert face_stats(["roll", "bank"]).throws == 0  # no faces written: nothing thrown to count
    with pytest.raises(ValueError):
        face_stats(["roll 7"])


def previews_by_copies(game: DiceGame) -> tuple[KeepPreview, ...]:
    """The previews as they were worked out before ``DiceGame.keep_outcome``: a copy of the
    game applies each keep and says what follows (the reference)."""
    out = []
    for option in game.keep_choices():
        after = game.clone()
        after.apply(option.action)
        total, dice, hot = after.turn_total, after.dice_to_roll, after.hot_dice
        out.append(KeepPreview(option.action, total, dice, hot, after.can_bank()))
    return tuple(out)


PREVIEW_RULES = [
    DiceRules(target=2000),
    DiceRules(target=1500, hot_dice_must_roll=False, min_bank=0),
    DiceRules(target=2500, min_bank=500, min_bank_opening_only=True, pfeffer_short_bank="allowed"),
    DiceRules(target=2000, pfeffer_short_bank="forbidden", pfeffer_margin=300, auto_pfeffer=True),
    DiceRules(target=1000, min_bank=1000, extra_dice="add", tie="playoff"),
]


@settings(max_examples=80, deadline=None)
@given(
    data=st.data(),
    players=st.integers(2, 4),
    rules=st.sampled_from(PREVIEW_RULES),
    seed=st.integers(0, 2**40),
)
def test_keep_outcomes_are_what_a_copy_applying_the_keep_shows(
    data: st.DataObject, players: int, rules: DiceRules, seed: int
) -> None:
    """At every step of random games (random legal choices, Pfeffer and house rules
    included) each keep preview equals a copy of the game applying that keep."""
    game = DiceGame([f"P{i}" for i in range(players)], rules, seed=seed)
    for _ in range(300):
        if game.is_over:
            break
        before = list(game.actions)
        assert keep_previews(game) == previews_by_copies(game)
        assert game.actions == before  # the game did not move
        legal = game.legal_actions()
        game.apply(data.draw(st.sampled_from(legal)))
    assert keep_previews(game) == previews_by_copies(game)


def test_keep_outcomes_on_whole_bot_games() -> None:
    """The same along whole games of the computer players, under every rule set here."""
    for seed, rules in enumerate(RULES + PREVIEW_RULES):
        game = DiceGame(["A", "B", "C"], rules, seed=seed)
        bots: list[HeuristicBot | RandomBot] = [
            HeuristicBot(),
            RandomBot(seed=seed),
            HeuristicBot(),
        ]
        seen = 0
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            previews = keep_previews(game)
            assert previews == previews_by_copies(game)
            seen += len(previews)
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat=seat)
        assert seen > 20
