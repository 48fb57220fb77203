"""Issue 7 section 3, "the terminal, as tried by a new user": one regression test per fault.

Deal-dependent expectations use explicit deals or constructed games, never what a seed deals.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from types import SimpleNamespace
from typing import NoReturn

import pytest
from rich.console import Console

from pfeffer.cli import common
from pfeffer.cli.common import parse_seats, save_text
from pfeffer.cli.dice import sheet_table
from pfeffer.cli.pepper import PlaySession, hand_table
from pfeffer.dice import DiceGame
from pfeffer.dice.bots import DICE_BOTS
from pfeffer.dice.sheet import DiceSheet
from pfeffer.pepper import PepperGame, PepperRules
from pfeffer.pepper.bots import PEPPER_BOTS
from pfeffer.pepper.sheet import PepperSheet
from tests.cli.helpers import Run, lines, record

# You: clubs and 9D TD; Hal: the other diamonds and four hearts; the rest lies face down.
DEAL = "deal 9C TC JC QC KC AC 9D TD / JD QD KD AD 9H TH JH QH / KH AH 9S TS JS QS KS AS"


def session(names: list[str], dealer: int) -> tuple[PlaySession, Console]:
    console = Console(record=True, width=200, highlight=False)
    game = PepperGame(names, PepperRules(), seed=1, dealer=dealer)
    return PlaySession(console, game, [], {}, path=None), console


def said(console: Console) -> str:
    return " ".join(console.export_text().split())


# ---------------------------------------------------------------- 1 the auction's winner


def test_1_auction_ending_on_a_pass_names_the_bidder(run: Run, tmp_path: Path) -> None:
    s, console = session(["You", "Hal"], dealer=1)
    for action in (DEAL, "small", "pass"):
        assert s.act(action)
    out = said(console)
    assert "You bid Small Pepper. Hal passed. You won the auction with Small Pepper." in out
    # the same in a replay
    game = s.game
    path = tmp_path / "r.json"
    path.write_text(game.to_json(), encoding="utf-8")
    out = " ".join(run("pepper", "replay", str(path)).output.split())
    assert "You won the auction with Small Pepper" in out and "Hal won the auction" not in out


# ---------------------------------------------------------------- 2 Ctrl-C saves, --resume


def _interrupt(_seconds: float) -> NoReturn:
    raise KeyboardInterrupt


@pytest.mark.parametrize("game", ["pepper", "dice"])
def test_2_ctrl_c_in_computer_turns_saves_and_play_resume_continues(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    path = tmp_path / "g.json"
    monkeypatch.setattr(common, "time", SimpleNamespace(sleep=_interrupt))
    result = run(game, "play", "bot", "bot:random", "--seed", "5", "--bot-delay", "0.01",
                 "--save", str(path))  # fmt: skip
    out = " ".join(result.output.split())
    assert result.exit_code == 0, out
    assert "Game left unfinished" in out
    assert f"continue it with: pfeffer {game} play --resume {path}" in out
    assert record(path)["bots"] == ["heuristic", "random"]
    monkeypatch.undo()
    result = run(game, "play", "--resume", str(path), "--bot-delay", "0")
    assert result.exit_code == 0, result.output
    rec = record(path)
    loaded = PepperGame.from_record(rec) if game == "pepper" else DiceGame.from_record(rec)
    assert loaded.is_over and rec["players"] == ["Heuristic", "Random"]


# ---------------------------------------------------------------- 3 --save checked up front


@pytest.mark.parametrize(
    "command",
    [
        ["dice", "play", "--bot-delay", "0"],
        ["dice", "sheet", "Ann", "Bob"],
        ["pepper", "play", "--bot-delay", "0"],
        ["pepper", "sheet", "Ann", "Bob", "--dealer", "1"],
    ],
)
def test_3_save_to_a_folder_or_below_a_file_is_a_usage_error(
    run: Run, tmp_path: Path, command: list[str]
) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    result = run(*command, "--save", str(folder), input="q\n")
    out = " ".join(result.output.split())
    assert result.exit_code == 2, out
    assert "is a folder; give a file name" in out and "Traceback" not in out
    (tmp_path / "file.json").write_text("x")
    result = run(*command, "--save", str(tmp_path / "file.json" / "g.json"), input="q\n")
    assert result.exit_code == 2 and "is a file, not a folder" in " ".join(result.output.split())
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.parametrize(
    ("place", "message"),
    [
        # /dev/full was replaced by a file at the end; a pipe stands in for it (a test must
        # never risk a real device)
        ("{tmp}/pipe", "is not a regular file"),
        ("/proc/pfeffer-game.json", "cannot write in /proc"),  # crashed at the end
        ("{tmp}/missing/game.json", "does not exist; create it first"),  # was created silently
    ],
)
@pytest.mark.parametrize("command", [["dice", "play", "--bot-delay", "0"], ["pepper", "sheet"]])
def test_3_save_is_checked_before_the_game_starts(
    run: Run, tmp_path: Path, place: str, message: str, command: list[str]
) -> None:
    target = Path(place.format(tmp=tmp_path))
    if target.name == "pipe":
        os.mkfifo(target)
    if not target.parent.is_dir() and "{tmp}" not in place:
        pytest.skip(f"{target.parent} is not on this system")
    before = target.stat() if target.exists() else None
    result = run(*command, "--save", str(target), input="q\n")
    out = " ".join(result.output.split())
    assert result.exit_code == 2, out
    assert message in out and "Traceback" not in out
    assert "Round" not in out and "Hand 1" not in out  # refused before the game began
    after = target.stat() if target.exists() else None
    assert (before is None and after is None) or (
        before is not None and after is not None and before.st_ino == after.st_ino
    )
    assert not target.parent.exists() or not list(target.parent.glob(".pfeffer-probe-*"))


def test_3_save_text_never_replaces_what_is_not_a_regular_file(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"  # stands in for a device such as /dev/full
    os.mkfifo(pipe)
    with pytest.raises(OSError, match="not a regular file"):
        save_text(pipe, "{}")
    assert pipe.is_fifo()


def test_3_a_failed_save_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()
    (target / "inside").write_text("x")
    with pytest.raises(OSError):
        save_text(target, "{}")
    assert not (tmp_path / "taken.tmp").exists()


# ---------------------------------------------------------------- 4 pad line, last side left out


def test_4_pad_line_without_the_last_sides_tricks_is_completed(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    result = run("pepper", "sheet", "Ann", "Bob", "Cy", "Di", "--dealer", "1", "--save",
                 str(save), input=lines("Ann 3 H", "Ann 3 H 4", "q"))  # fmt: skip
    out = " ".join(result.output.split())
    assert result.exit_code == 0, out
    assert "is no player" not in out
    assert "a whole hand on one line is: bidder, bid, trump and the tricks of each side" in out
    assert "→ Bob & Di: 2 tricks" in out and "Ann & Cy made it" in out
    assert PepperSheet.from_json(save.read_text()).totals == [4, 2]


# ---------------------------------------------------------------- 5 --dealer blamed


def test_5_a_dealer_out_of_range_blames_dealer(run: Run) -> None:
    result = run("pepper", "play", "--dealer", "9", "--bot-delay", "0")
    out = " ".join(result.output.split())
    assert result.exit_code == 2
    assert "--dealer" in out and "There is no player 9" in out and "SEATS" not in out


# ---------------------------------------------------------------- 6 grammar


def test_6_narration_speaks_to_you_and_agrees_in_number(run: Run) -> None:
    s, console = session(["You", "Hal"], dealer=0)
    s.act(DEAL)
    out = said(console)
    assert "You deal" in out and "You deals" not in out
    s, console = session(["Ann", "Bob", "Cy", "Di"], dealer=3)
    four = "deal 9C TC JC QC KC AC / 9D TD JD QD KD AD / 9H TH JH QH KH AH / 9S TS JS QS KS AS"
    for action in (four, "1", "pass", "pass", "pass", "C"):
        assert s.act(action)
    assert "Ann & Cy need 1 trick (1)" in said(console)
    s, console = session(["You", "Hal"], dealer=1)
    for action in (DEAL, "2", "pass", "C"):
        s.act(action)
    assert s.act("AS") is False
    out = said(console)
    assert "You need 2 tricks" in out and "You do not hold A♠" in out
    # dice: "No points this turn for You", "a bust costs You"
    result = run("dice", "play", "--manual", "--bot-delay", "0",
                 input=lines("111235", "1", "b", "234662", "234662", "q"))  # fmt: skip
    out = " ".join(result.output.split())
    assert "Heuristic scores nothing this turn" in out
    assert "a bust costs you 1000" in out and "You score nothing this turn" in out


# ---------------------------------------------------------------- 7 errors speak like the screen


def test_7_errors_show_cards_and_suits_as_on_screen() -> None:
    s, console = session(["You", "Hal"], dealer=1)
    for action in (DEAL, "1", "pass", "S", "9D"):
        assert s.act(action)
    assert s.act("TH") is False
    out = said(console)
    assert "You must follow suit (♦): 10♥ does not; playable: J♦ Q♦ K♦ A♦" in out
    assert "TH" not in out.split("✗")[-1]
    assert s.game.legal_actions() == ["JD", "QD", "KD", "AD"]  # the engine's text is unchanged:
    with pytest.raises(ValueError, match=r"follow suit \(D\): TH does not; playable: JD QD"):
        s.game.apply("TH")


# ---------------------------------------------------------------- 8 no sheet entries in play


def test_8_play_errors_list_only_what_works_there(run: Run) -> None:
    result = run("dice", "play", "--seed", "1", "--bot-delay", "0",
                 input=lines("jump", "bust", "turn 400", "q"))  # fmt: skip
    errors = [ln for ln in result.output.splitlines() if "✗" in ln]
    assert len(errors) == 3
    assert "'jump' is not an action" in errors[0] and "r to roll" in errors[0]
    assert all("void" not in e and "turn 4" not in e.split("'")[-1] for e in errors)
    assert "is for the score sheet" in errors[1] and "is for the score sheet" in errors[2]


# ---------------------------------------------------------------- 9 the set-aside prompt


def test_9_faces_with_spaces_at_the_set_aside_prompt_and_one_option(
    run: Run, tmp_path: Path
) -> None:
    save = tmp_path / "k.json"
    result = run("dice", "play", "--manual", "--bot-delay", "0", "--save", str(save),
                 input=lines("155226", "1 5", "2234", "q"))  # fmt: skip
    assert record(save)["actions"] == ["roll 155226", "keep 15", "roll 2234"]
    assert "✗" not in result.output
    result = run("dice", "play", "--manual", "--bot-delay", "0", input=lines("122346", "q"))
    # Only the prompt lines: the saved record's path holds the date and time ("…20261201-11…").
    prompts = [ln for ln in result.output.splitlines() if "▸" in ln]
    assert any("▸ Enter = 1 ·" in ln for ln in prompts)
    assert not any(re.search(r"\b1-1\b", ln) for ln in prompts)


# ---------------------------------------------------------------- 10 confirmations


def test_10_small_and_big_pepper_are_confirmed(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "b.json"
    result = run("pepper", "play", "--players", "2", "--dealer", "2", "--bot-delay", "0",
                 "--save", str(save), input=lines("b", "n", "s", "no", "p", "q"))  # fmt: skip
    out = " ".join(result.output.split())
    assert "Big Pepper: you must win all 8 tricks (made +16, set -16). Bid it?" in out
    assert "Small Pepper: you must win all 8 tricks (made +8, set -8). Bid it?" in out
    assert out.count("Not bid; choose again.") == 2
    assert record(save)["actions"][1] == "pass"


def test_10_zero_on_the_dice_sheet_is_confirmed(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "z.json"
    result = run("dice", "sheet", "Anna", "Ben", "--save", str(save),
                 input=lines("0", "n", "450", "0", "y", "q"))  # fmt: skip
    out = " ".join(result.output.split())
    assert "0 records a bust for Anna; Ben then plays under Auto-Pfeffer" in out
    assert "Nothing entered." in out
    assert record(save)["actions"] == ["turn 450", "bust"]


# ---------------------------------------------------------------- 11 names


@pytest.mark.parametrize(
    "command",
    [
        ["dice", "play", "Anna", "Anna"],
        ["dice", "sheet", "Anna", "anna"],
        ["pepper", "play", "Anna", "Anna"],
        ["pepper", "sheet", "Anna", "Anna"],
    ],
)
def test_11_the_same_name_twice_is_refused_everywhere(run: Run, command: list[str]) -> None:
    result = run(*command, input="q\n")
    assert result.exit_code == 2
    assert "Two players are called" in " ".join(result.output.split())


def test_11_computer_players_are_named_by_the_registry_without_numbers() -> None:
    names = [s.name for s in parse_seats(["You", "bot", "bot", "bot"], PEPPER_BOTS)]
    assert names == ["You", "Heuristic A", "Heuristic B", "Heuristic C"]
    seats = parse_seats(["Heuristic", "bot", "bot:random"], DICE_BOTS)
    assert [(s.name, s.bot) for s in seats] == [
        ("Heuristic", None), ("Heuristic A", "heuristic"), ("Random", "random")
    ]  # fmt: skip


# ---------------------------------------------------------------- 12 the pad asks who deals


def test_12_the_pad_asks_who_deals_first(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "d.json"
    result = run("pepper", "sheet", "Ann", "Bob", "Cy", "--save", str(save),
                 input=lines("Zed", "3", "q"))  # fmt: skip
    out = " ".join(result.output.split())
    assert "Who deals first?" in out and "'Zed' is no player" in out
    assert "Hand 1 · Cy deals" in out
    assert PepperSheet.from_json(save.read_text()).first_dealer == 2


# ---------------------------------------------------------------- 13 80 columns


def test_13_tables_fit_80_columns_without_cutting_names() -> None:
    names = ["Heuristic A", "Random Rudi", "Heuristic B", "Heuristic C"]
    pad = PepperSheet(names, PepperRules(), dealer=0)
    pad.enter(1, "small", "NT", [0, 6])
    pad.enter(2, "big", "H", [6, 0])
    console = Console(record=True, width=80)
    console.print(hand_table(pad.players, pad.rows(), pad.totals))
    sheet = DiceSheet([f"Player{i}" for i in range(8)])
    sheet.enter(450)
    console.print(sheet_table(sheet.players, sheet.rows(), sheet.totals))
    text = console.export_text()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "…" not in text
    for line in ("Heuristic A &", "Heuristic B", "Random Rudi &", "Heuristic C"):
        assert line in text  # a team's players on lines of their own, never cut
    assert all(f"Player{i}" in text for i in range(8))


# ---------------------------------------------------------------- 14 files


def test_14_missing_files_and_records_of_the_other_kind(run: Run, tmp_path: Path) -> None:
    result = run("dice", "replay", str(tmp_path / "none.json"))
    assert result.exit_code == 1
    assert f"No such file: {tmp_path / 'none.json'}" in " ".join(result.output.split())
    assert "Errno" not in result.output

    played = tmp_path / "played.json"
    game = PepperGame(["Ann", "Bob"], seed=1, dealer=0)
    game.apply(DEAL)
    played.write_text(game.to_json(), encoding="utf-8")
    before = played.read_text()
    result = run("pepper", "sheet", "--resume", str(played))
    out = " ".join(result.output.split())
    assert result.exit_code == 1 and "is the record of a played game, not a score pad" in out
    assert played.read_text() == before

    dice_played = tmp_path / "dice.json"
    dice_played.write_text(DiceGame(["Ann", "Bob"], seed=1).to_json(), encoding="utf-8")
    before = dice_played.read_text()
    result = run("dice", "sheet", "--resume", str(dice_played))
    assert result.exit_code == 1 and "not a score sheet" in " ".join(result.output.split())
    assert dice_played.read_text() == before

    pad = tmp_path / "pad.json"
    pad.write_text(PepperSheet(["Ann", "Bob"]).to_json(), encoding="utf-8")
    result = run("pepper", "play", "--resume", str(pad))
    assert result.exit_code == 1 and "is a score pad, not a played game" in " ".join(
        result.output.split()
    )
    sheet = tmp_path / "sheet.json"
    sheet.write_text(DiceSheet(["Ann", "Bob"]).to_json(), encoding="utf-8")
    result = run("dice", "play", "--resume", str(sheet))
    assert result.exit_code == 1 and "is a score sheet, not a played game" in " ".join(
        result.output.split()
    )
    assert json.loads(sheet.read_text())["players"] == ["Ann", "Bob"]
