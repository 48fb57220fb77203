"""``pfeffer dice …`` driven through Typer's CliRunner with typed input (bot delay 0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pfeffer.cli.common import (
    RuleOptionError,
    build_rules,
    make_bot,
    parse_seats,
    seats_of_record,
)
from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.bots import DICE_BOTS
from pfeffer.dice.rules import DICE_RULE_SPECS
from pfeffer.dice.sheet import DiceSheet
from tests.cli.helpers import Run, lines, record

# ============================================================================ play


def test_whole_game_human_against_bot_with_seed(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # Enter always takes the suggestion: roll, set aside the best option, bank when allowed.
    result = run("dice", "play", "--seed", "11", "--bot-delay", "0", "--save", str(save),
                 input="\n" * 3000)  # fmt: skip
    assert result.exit_code == 0, result.output
    rec = record(save)
    assert rec["result"]["over"] is True
    game = DiceGame.from_record(rec)
    assert game.is_over and game.winners
    assert game.players == ("You", "Heuristic")
    assert max(game.scores) >= 10000
    winner = game.players[game.winners[0]]
    assert f"Winner: {winner} with {game.scores[game.winners[0]]}!" in result.output
    assert "FINAL ROUND" in result.output
    assert "Σ" in result.output and "⚀" in result.output
    assert f"Game record saved to {save}" in result.output


def test_same_seed_same_game(run: Run, tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        run("dice", "play", "bot:random", "bot", "--seed", "4", "--bot-delay", "0",
            "--save", str(path))  # fmt: skip
    assert record(a)["actions"] == record(b)["actions"]
    assert record(a)["result"]["over"] is True


def test_default_save_goes_to_the_records_folder(run: Run, tmp_path: Path) -> None:
    result = run("dice", "play", "--seed", "1", "--bot-delay", "0", input="q\n")
    assert result.exit_code == 0
    saved = list((tmp_path / "data" / "records").glob("dice-game-*.json"))
    assert len(saved) == 1
    assert str(saved[0]) in result.output
    assert record(saved[0])["result"]["over"] is False


def test_manual_dice_game_with_void_throws(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    result = run(
        "dice", "play", "--manual", "--bot-delay", "0", "--rule", "target=1000",
        "--save", str(save),
        input=lines(
            "234662",  # You: bust ...
            "v",  # ... declared void at the next prompt (the bot's throw): back to You
            "111234",
            "v",  # void before setting aside
            "4 1 5 1 3 1",  # typed with spaces: 1 1 1 5 = 1050 (option 1)
            "1",
            "b",  # 1050 reaches the target: final round
            "234662",  # the bot's last throw, typed by the table: bust
        ),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert record(save)["actions"] == [
        "roll 234662", "void", "roll 111234", "void", "roll 415131", "keep 1115", "bank",
        "roll 234662",
    ]  # fmt: skip
    assert result.output.count("Void throw") == 2
    assert "The bust is taken back" in result.output
    assert "Final round" in result.output
    assert "Winner: You with 1050!" in result.output


def test_illegal_inputs_show_the_engine_message_and_prompt_again(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "i.json"
    result = run(
        "dice", "play", "--manual", "--bot-delay", "0", "--save", str(save),
        input=lines(
            "1234561",  # seven dice
            "123457",  # 7 is no face
            "roll",  # manual: the dice must be typed
            "155226",
            "keep 2",  # does not score
            "9",  # no option 9
            "b",  # nothing set aside yet
            "keep 5",
            "b",  # 50 is below the minimum
            "jump",  # not an action
            "q",
        ),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "You throw 6 dice now; 7 were entered." in out
    assert "7 is not a die face" in out
    assert "Throw your 6 dice and type what they show" in out
    assert "2 does not score" in out
    assert "Choose an option from 1 to" in out
    assert "Set aside at least one scoring die first." in out
    assert "You need at least 350 points to bank; you have 50." in out
    assert "'jump' is not an action" in out
    assert record(save)["actions"] == ["roll 155226", "keep 5"]
    assert "Game left unfinished" in out


def test_computer_dice_cannot_be_chosen_or_voided(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "c.json"
    result = run("dice", "play", "--seed", "2", "--bot-delay", "0", "--save", str(save),
                 input=lines("roll 111111", "v", "q"))  # fmt: skip
    assert "The computer throws the dice here" in result.output
    assert "void throws are for real dice" in result.output
    assert record(save)["actions"] == []


def test_pfeffer_prompt_call_and_penalty(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    result = run(
        "dice", "play", "--manual", "--bot-delay", "0", "--save", str(save),
        input=lines("111235", "1", "b", "111235", "p", "234662", "q"),
    )  # fmt: skip
    out = result.output
    assert result.exit_code == 0, out
    # the bot banked 1050: the offer shows the stake and what a bust would cost
    assert "Heuristic banked 1050. Pfeffer? Stake 1100" in out
    assert "a bust costs you 2200" in out
    assert "You called Pfeffer!" in out
    assert "Pfeffer lost: -2200" in out
    assert "P bust -2200" in out  # on the score sheet
    assert "Auto-Pfeffer! You scored nothing, so a bust costs Heuristic 1000." in out
    rec = record(save)
    assert rec["actions"][-2:] == ["pfeffer", "roll 234662"]
    assert rec["result"]["scores"] == [-1150, 1050]


def test_no_pfeffer_offer_when_it_is_not_legal(run: Run) -> None:
    result = run("dice", "play", "--manual", "--bot-delay", "0",
                 input=lines("111235", "1", "b", "234662", "q"))  # fmt: skip
    assert "Pfeffer?" not in result.output  # first turn, then the bot's turn
    result = run("dice", "play", "--manual", "--bot-delay", "0", "--rule", "pfeffer=false",
                 input=lines("111235", "1", "b", "111235", "q"))  # fmt: skip
    assert "Pfeffer?" not in result.output


def test_help_at_a_prompt_and_the_game_goes_on(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "h.json"
    result = run("dice", "play", "--manual", "--bot-delay", "0", "--rule", "min_bank=500",
                 "--save", str(save), input=lines("?", "111235", "help", "1", "q"))  # fmt: skip
    assert result.output.count("Würfel-Pfeffer in short") == 2
    assert "at least 500 points" in result.output
    assert record(save)["actions"] == ["roll 111235", "keep 1115"]


def test_hot_seat_humans_and_seat_names(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    result = run("dice", "play", "Anna", "Ben", "bot:random=Rudi", "--manual", "--bot-delay",
                 "0", "--save", str(save), input=lines("111235", "1", "b", "q"))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert record(save)["players"] == ["Anna", "Ben", "Rudi"]
    assert "Round 1 · Ben to play" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Anna"], "2 to 8 players"),
        ([f"P{i}" for i in range(9)], "2 to 8 players"),
        (["Anna", "bot:clever"], "no computer player 'clever'"),
        (["--rule", "min_bank=lots"], "min_bank must be a whole number (got 'lots')"),
        (["--rule", "tie=coin"], "tie must be one of 'shared', 'playoff' (got 'coin')"),
        (["--rule", "target=100000000"], "target must be between 50 and 1000000"),
        (
            ["--rule", "min_bank=" + "9" * 400],
            "min_bank must be between 0 and 100000 (got ≈10^400)",
        ),
        (["--rule", "target=300"], "min_bank (350) must not be above target (300)"),
        (["--rule", "nonsense=1"], "no house rule 'nonsense'"),
    ],
)
def test_bad_set_up_is_a_clear_usage_error(run: Run, args: list[str], message: str) -> None:
    result = run("dice", "play", "--bot-delay", "0", *args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_levels_are_accepted_as_seats_and_kept_in_the_record(run: Run, tmp_path: Path) -> None:
    # docs/dice.md names the levels hard, medium and easy; "dice play bot:hard" was refused.
    save = tmp_path / "levels.json"
    result = run("dice", "play", "bot:hard", "bot:optimal:easy=Eva", "--seed", "3",
                 "--bot-delay", "0", "--rule", "target=1000", "--save", str(save))  # fmt: skip
    assert result.exit_code == 0, result.output
    rec = record(save)
    assert rec["players"] == ["Hard", "Eva"]
    assert rec["bots"] == ["optimal:hard", "optimal:easy"]
    seats = seats_of_record(rec)
    assert [(s.bot, s.level) for s in seats] == [("optimal", "hard"), ("optimal", "easy")]
    bots = [make_bot(DICE_BOTS, s, i, 3) for i, s in enumerate(seats)]
    assert [type(b).__name__ for b in bots] == ["CardBot", "CardBot"]
    assert [b.card.name for b in bots] == ["hard", "easy"]  # type: ignore[attr-defined]


def test_play_help_lists_every_kind_and_level(run: Run) -> None:
    dice = " ".join(run("dice", "play", "--help").output.split())
    pepper = " ".join(run("pepper", "play", "--help").output.split())
    for level in ("bot:optimal", "bot:perfect", "bot:hard", "bot:medium", "bot:easy"):
        assert level in dice
    for kind in ("bot:heuristic", "bot:random", "bot:expert", "bot:hard"):
        assert kind in pepper


def test_bot_kinds_and_names() -> None:
    seats = parse_seats(["bot", "bot:random", "bot:heuristic=Hilde", "Anna"], DICE_BOTS)
    assert [(s.name, s.bot) for s in seats] == [
        ("Heuristic", "heuristic"), ("Random", "random"), ("Hilde", "heuristic"), ("Anna", None)
    ]  # fmt: skip


def test_rule_options_convert_every_kind_of_field() -> None:
    rules = build_rules(DiceRules, [
        "target=5000", "min_bank_opening_only=yes", "extra_dice=fixed", "triples=2:250",
        "tie=playoff",
    ])  # fmt: skip
    assert rules == DiceRules(target=5000, min_bank_opening_only=True, extra_dice="fixed",
                              triples={2: 250}, tie="playoff")  # fmt: skip


# ============================================================================ score, rules


@pytest.mark.parametrize("dice", [["1", "1", "1", "5", "2", "3"], ["111523"], ["1,1,1,5,2,3"]])
def test_score_lists_every_way_best_first(run: Run, dice: list[str]) -> None:
    result = run("dice", "score", *dice)
    assert result.exit_code == 0
    out = result.output
    assert "7 ways to set aside" in out
    first, last = out.index("keep 1115"), out.index("keep 5")
    assert first < last
    assert "1050" in out.splitlines()[2]


def test_score_of_a_bust(run: Run) -> None:
    result = run("dice", "score", "2", "2", "3", "4", "6", "6")
    assert result.exit_code == 0
    assert "Bust!" in result.output
    assert "keep" not in result.output


def test_score_with_house_rules(run: Run) -> None:
    default = run("dice", "score", "11111").output
    added = run("dice", "score", "11111", "--rule", "extra_dice=add").output
    assert "4000  keep 11111" in default  # each die beyond three doubles
    assert "3000  keep 11111" in added  # each adds the triple once more
    assert "4000" not in added


def test_score_rejects_faces_that_are_not_dice(run: Run) -> None:
    result = run("dice", "score", "1", "7")
    assert result.exit_code == 1
    assert "7 is not a die face" in result.output


def test_rules_command_shows_values_in_force(run: Run) -> None:
    result = run("dice", "rules", "--rule", "min_bank=500", "--rule", "tie=playoff")
    assert result.exit_code == 0
    out = result.output
    assert "at least 500 points" in out
    assert "played off" in out
    assert "min_bank * = 500  (default 350)" in out and "tie * = playoff" in out
    assert "target *" not in out and "target = 10000" in out


def test_rules_command_shows_label_default_and_help_of_every_spec(run: Run) -> None:
    result = run("dice", "rules", "--rule", "triples=2:250", "--rule", "final_round=no")
    assert result.exit_code == 0
    out = " ".join(result.output.split())
    for spec in DICE_RULE_SPECS:
        assert spec.name in out and spec.label in out and spec.help in out, spec.name
        assert f"({spec.rule})" in out
    assert "triples * = 1:1000, 2:250, 3:300, 4:400, 5:500, 6:600 (default 1:1000, 2:200," in out
    assert "final_round * = false (default true)" in out


@pytest.mark.parametrize("game", ["dice", "pepper"])
@pytest.mark.parametrize("width", [80, 100])
def test_rules_command_wraps_every_house_rule_whole_at_narrow_widths(
    game: str, width: int, tmp_path: Path
) -> None:
    # The old four-column table cropped words at 80 and 100 columns ("Minimum to bank",
    # "at most the tar"): every line must fit and every help text must be there whole.
    from typer.testing import CliRunner

    from pfeffer.cli import app
    from pfeffer.pepper.rules import PEPPER_RULE_SPECS

    result = CliRunner().invoke(app, [game, "rules"], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= width
    out = " ".join(result.output.split())
    for spec in DICE_RULE_SPECS if game == "dice" else PEPPER_RULE_SPECS:
        assert f"{spec.label} ({spec.rule}): {spec.help}" in out, spec.name


def test_rule_options_list_the_known_names_and_refuse_a_bad_mapping() -> None:
    with pytest.raises(RuleOptionError, match="known: target, min_bank, "):
        build_rules(DiceRules, ["zzzzzz=1"])
    with pytest.raises(RuleOptionError, match=r"triples: 9 is not one of 1-6"):
        build_rules(DiceRules, ["triples=9:100"])
    with pytest.raises(RuleOptionError, match=r"write key=value"):
        build_rules(DiceRules, ["target"])


# ============================================================================ replay


def test_replay_a_finished_game(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "r.json"
    run("dice", "play", "bot", "bot:random", "--seed", "3", "--bot-delay", "0",
        "--save", str(save))  # fmt: skip
    game = DiceGame.from_record(record(save))
    result = run("dice", "replay", str(save))
    assert result.exit_code == 0
    out = result.output
    assert out.count("Round ") >= len(game.history) // 2
    winner = game.players[game.winners[0]]
    assert f"{winner} with {game.scores[game.winners[0]]}!" in out
    assert "sets aside" in out


def test_replay_an_unfinished_game(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "u.json"
    run("dice", "play", "--manual", "--bot-delay", "0", "--save", str(save),
        input=lines("111235", "1", "b", "222346", "q"))  # fmt: skip
    result = run("dice", "replay", str(save))
    out = result.output
    assert result.exit_code == 0
    assert "Unfinished" in out
    assert "1050, total 1050" in out
    assert "Heuristic to play" in out


def test_replay_of_a_bad_file(run: Run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    result = run("dice", "replay", str(bad))
    assert result.exit_code == 1
    assert "not a pfeffer game record" in result.output


# ============================================================================ sheet


def test_sheet_entries_penalties_final_round_and_winner(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "sheet.json"
    result = run(
        "dice", "sheet", "Anna", "Ben", "Cleo", "--rule", "target=2000", "--save", str(save),
        input=lines(
            "450",  # Anna
            "p bust",  # Ben: Pfeffer on 450 -> stake 500, bust -1000
            "b",  # Cleo: Auto-Pfeffer, bust -1000
            "300",  # Anna: rejected, below the minimum
            "475",  # rejected: not a multiple of 50
            "p 600",  # rejected: Auto-Pfeffer is on
            "1600",  # Anna: 2050 -> final round
            "y",  # confirmed: the final round starts
            "p 1650",  # Ben: Pfeffer on 1600 -> stake 1650, made
            "500",  # Cleo: last turn
            "y",  # confirmed: it ends the game
            "",  # game over: finish
        ),
    )  # fmt: skip
    out = " ".join(result.output.split())
    assert result.exit_code == 0, result.output
    assert "Ben: Pfeffer lost, -1000" in out
    assert "Cleo: Auto-Pfeffer, -1000" in out
    assert "A turn banks at least 350 points; 300 cannot be banked." in out
    assert "475 points cannot be scored" in out
    assert "Auto-Pfeffer is already on" in out
    assert "Anna reached 2000! Final round" in out
    assert "Winner: Anna with 2050!" in out
    assert "P bust -1000" in out and "A bust -1000" in out and "P 1650" in out
    sheet = DiceSheet.from_json(save.read_text())
    assert sheet.totals == [2050, 650, -500]
    assert sheet.is_over and sheet.winners == [0]


def test_sheet_shared_win(run: Run) -> None:
    result = run("dice", "sheet", "Anna", "Ben", "--rule", "target=1000",
                 input=lines("1000", "y", "1000", "y", ""))  # fmt: skip
    assert "Shared win: Anna and Ben with 1000!" in result.output


def test_sheet_save_quit_and_resume(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    first = run("dice", "sheet", "Anna", "Ben", "--rule", "target=1500", "--save", str(save),
                input=lines("450", "s", "600", "q"))  # fmt: skip
    assert first.exit_code == 0
    assert "Saved to" in first.output
    assert f"--resume {save}" in " ".join(first.output.split())
    assert DiceSheet.from_json(save.read_text()).totals == [450, 600]
    second = run("dice", "sheet", "--resume", str(save), input=lines("1050", "y", "400", "y", ""))
    assert second.exit_code == 0, second.output
    sheet = DiceSheet.from_json(save.read_text())
    assert sheet.totals == [1500, 1000]
    assert sheet.is_over and sheet.rules.target == 1500
    assert "Winner: Anna with 1500!" in second.output


def test_sheet_autosaves_to_the_records_folder_and_end_of_input_saves(
    run: Run, tmp_path: Path
) -> None:
    result = run("dice", "sheet", "Anna", "Ben", input=lines("450"))  # then the input ends
    assert result.exit_code == 0
    saved = list((tmp_path / "data" / "records").glob("dice-sheet-*.json"))
    assert len(saved) == 1
    assert str(saved[0]) in result.output
    assert DiceSheet.from_json(saved[0].read_text()).totals == [450, 0]


def test_sheet_undo(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "u.json"
    result = run("dice", "sheet", "Anna", "Ben", "--save", str(save),
                 input=lines("u", "450", "p bust", "u", "u", "500", "q"))  # fmt: skip
    assert "There is nothing to undo." in result.output
    assert result.output.count("Last entry taken back.") == 2
    assert json.loads(save.read_text())["actions"] == ["turn 500"]


def test_sheet_asks_for_names_and_rejects_bad_input(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "n.json"
    result = run("dice", "sheet", "--save", str(save),
                 input=lines("Anna, Ben", "lots", "?", "400", "q"))  # fmt: skip
    assert "'lots': type the points banked" in result.output
    assert "Würfel-Pfeffer in short" in result.output
    rec = record(save)
    assert rec["players"] == ["Anna", "Ben"] and rec["actions"] == ["turn 400"]


def test_sheet_resume_refuses_new_players_or_rules(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "x.json"
    save.write_text(DiceSheet(["A", "B"]).to_json())
    result = run("dice", "sheet", "--resume", str(save), "--rule", "target=500")
    assert result.exit_code == 2


def test_keep_by_option_number_by_faces_or_by_notation(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "k.json"
    run("dice", "play", "--manual", "--bot-delay", "0", "--save", str(save),
        input=lines("155226", "15", "1523", "k 5", "523", "keep 5", "q"))  # fmt: skip
    # "15" is no option number (there are 5): faces 1 5; "k 5" and "keep 5" are notation
    assert record(save)["actions"] == [
        "roll 155226", "keep 15", "roll 1523", "keep 5", "roll 523", "keep 5"
    ]  # fmt: skip


def test_solve_prints_the_shipped_figures(run: Run) -> None:
    # The default rules' table ships with the package: loaded at once, no solve.
    result = run("dice", "solve")
    assert result.exit_code == 0, result.output
    assert "the first player wins with 53.0675%" in result.output
    assert "fair head start for the second player: 351 points" in result.output
    assert "loaded in" in result.output


def test_plot_help_shows_the_extra_with_its_brackets(run: Run) -> None:
    # Rich read "[plots]" as markup and printed "pip install 'pfeffer'".
    out = " ".join(run("dice", "plot", "--help").output.split())
    assert "pip install 'pfeffer[plots]'" in out


def test_resume_mid_turn_shows_the_throw_and_the_turn_total(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "mid.json"
    first = run("dice", "play", "--seed", "5", "--bot-delay", "0", "--save", str(save),
                input=lines("r", "2", "q"))  # fmt: skip
    assert "Game left unfinished" in first.output
    game = DiceGame.from_record(record(save))
    turn = game.view(0).turn_total
    assert turn > 0  # saved between setting dice aside and the next roll
    second = run("dice", "play", "--resume", str(save), "--bot-delay", "0", input=lines("q"))
    out = " ".join(second.output.split())
    assert "You threw" in out and f"turn total {turn}" in out


def test_sheet_questions_a_typo_and_a_game_ending_entry(run: Run, tmp_path: Path) -> None:
    # 100000 typed (or 5000 for 500) declared a winner and the sheet exited at once.
    save = tmp_path / "typo.json"
    result = run("dice", "sheet", "Anna", "Ben", "--save", str(save),
                 input=lines("100000", "n", "500", "q"))  # fmt: skip
    out = " ".join(result.output.split())
    assert result.exit_code == 0, out
    assert "100000 points in one turn? One turn in 100,000 makes that much." in out
    assert "Nothing entered." in out
    assert DiceSheet.from_json(save.read_text()).totals == [500, 0]
    ended = run("dice", "sheet", "Anna", "Ben", "--rule", "target=1000", "--rule",
                "final_round=no", "--save", str(save),
                input=lines("1000", "n", "450", "1000", "y", "u", "600", "q"))  # fmt: skip
    out = " ".join(ended.output.split())
    assert "This entry ends the game: Anna wins with 1000. Enter it?" in out
    assert "This entry ends the game: Ben wins with 1000." in out
    assert "Game over. Enter = finish · u = undo the last entry" in out
    assert "Last entry taken back." in out
    sheet = DiceSheet.from_json(save.read_text())
    assert sheet.totals == [450, 600] and not sheet.is_over


def test_sheet_resumed_after_the_end_can_still_undo(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "over.json"
    sheet = DiceSheet(["Anna", "Ben"], DiceRules(target=1000, final_round=False))
    sheet.enter(5000)  # a typo that ended the game
    save.write_text(sheet.to_json(), encoding="utf-8")
    result = run("dice", "sheet", "--resume", str(save), input=lines("u", "500", "q"))
    assert result.exit_code == 0, result.output
    assert "Last entry taken back." in result.output
    assert DiceSheet.from_json(save.read_text()).totals == [500, 0]
