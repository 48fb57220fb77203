"""``pfeffer pepper …`` driven through Typer's CliRunner with typed input (bot delay 0)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pfeffer.cli.common import rule_rows
from pfeffer.pepper import CARD_PRETTY, PepperGame, PepperRules
from pfeffer.pepper.analysis import REASONS
from pfeffer.pepper.cards import CARD_INDEX
from pfeffer.pepper.rules import PEPPER_RULE_SPECS
from pfeffer.pepper.sheet import PepperSheet
from tests.cli.helpers import Run, lines, record


def pretty(card: str) -> str:
    return CARD_PRETTY[CARD_INDEX[card]]


# ============================================================================ play


def test_whole_game_human_against_three_bots(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    # Whatever the prompt, one of these four answers is legal: pass (or, forced to bid, 1),
    # clubs as trump, the first legal card; the others are refused and asked again.
    result = run("pepper", "play", "--seed", "7", "--bot-delay", "0", "--save", str(save),
                 input="p\n1\nC\n1\n" * 400)  # fmt: skip
    assert result.exit_code == 0, result.output
    game = PepperGame.from_record(record(save))
    assert game.is_over and game.names == ("You", "Heuristic A", "Heuristic B", "Heuristic C")
    out = result.output
    assert winner_line(game) in out
    assert f"Game record saved to {save}" in out
    assert "You & Heuristic B against Heuristic A & Heuristic C" in out
    assert "won the auction" in out and "Contract:" in out and "won trick 6" in out
    assert "your cards (partner: Heuristic B)" in out
    assert "♣" in out and "Σ" in out
    assert "'P' is not a card" in out  # a refused answer shows the engine's message
    assert "Pass the device" not in out  # one human: no hot-seat screens


def winner_line(game: PepperGame) -> str:
    sides = ["You & Heuristic B", "Heuristic A & Heuristic C"]
    names = " and ".join(sides[w] for w in game.winners)
    label = "Shared win" if len(game.winners) > 1 else "Winner"
    return f"{label}: {names} with {game.scores[game.winners[0]]}!"


def test_same_seed_same_game_and_bots_only(run: Run, tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        result = run("pepper", "play", "bot", "bot:random", "bot", "--seed", "4",
                     "--bot-delay", "0", "--save", str(path))  # fmt: skip
        assert result.exit_code == 0, result.output
    assert record(a)["actions"] == record(b)["actions"]
    assert PepperGame.from_record(record(a)).is_over
    assert record(a)["players"] == ["Heuristic A", "Random", "Heuristic B"]


def test_illegal_input_reprompts_with_the_engine_message(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "i.json"
    # 2 players, Bot deals (--dealer 2), so You bid first.
    result = run(
        "pepper", "play", "--players", "2", "--dealer", "2", "--seed", "3", "--bot-delay", "0",
        "--save", str(save),
        input=lines("9", "?", "p", "99", "QX", "", "q"),
    )  # fmt: skip
    out = result.output
    assert result.exit_code == 0, out
    assert "'9' is not a bid: bid (1, 2, 3, 4, 5, 6, 7, small, big) or pass" in out
    assert "Karten-Pfeffer (Pepper) in short" in out  # ? shows the rules and the game goes on
    assert "You passed." in out and "Heuristic won the auction" in out
    assert "Choose a card from 1 to" in out
    assert "'QX' is not a card" in out
    assert "Type the number of a card" in out
    rec = record(save)
    assert rec["actions"][1] == "pass" and len(rec["actions"]) == 5  # deal pass bid trump lead
    assert "Game left unfinished" in out


def test_hot_seat_pass_screen_hides_the_other_hand(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "h.json"
    result = run(
        "pepper", "play", "Anna", "Ben", "--dealer", "Ben", "--seed", "5", "--bot-delay", "0",
        "--save", str(save),
        input=lines("", "p", "", "1", "H", "1", "", "q"),
    )  # fmt: skip
    out = result.output
    assert result.exit_code == 0, out
    deal = record(save)["actions"][0].removeprefix("deal ").split(" / ")
    anna, ben = deal[0].split(), deal[1].split()
    to_anna = out.index("Pass the device to Anna")
    to_ben = out.index("Pass the device to Ben")
    back_to_anna = out.index("Pass the device to Anna", to_ben)
    assert to_anna < to_ben < back_to_anna
    assert "Anna, press Enter when only you can see the screen" in out
    anna_screen, ben_screen = out[to_anna:to_ben], out[to_ben:back_to_anna]
    assert "Anna, your cards" in anna_screen and "Ben, your cards" not in anna_screen
    assert "Ben, your cards" in ben_screen and "Anna, your cards" not in ben_screen
    hand_lines = [ln for ln in anna_screen.splitlines() if "your cards" in ln]
    assert all(pretty(c) in hand_lines[0] for c in anna)
    assert not any(pretty(c) in anna_screen for c in ben)
    assert out[:to_anna].count("your cards") == 0
    assert record(save)["actions"][1:4] == ["pass", "1", "H"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "5"], "2, 3 or 4 players"),
        (["A", "B", "C", "D", "E"], "2, 3 or 4 players"),
        (["--players", "2", "A", "B", "C"], "3 seats given"),
        (["Anna", "bot:clever"], "no computer player 'clever'"),
        (["--dealer", "Zed"], "'Zed' is no player"),
        (["--rule", "target=lots"], "target must be a whole number (got 'lots')"),
        (["--rule", "target=" + "1" + "0" * 26], "target must be between 1 and 1000 (got ≈10^26)"),
        (["--rule", "set_penalty=-1"], "set_penalty must be between 0 and 100 (got -1)"),
        (["--rule", "all_pass=never"], "all_pass must be one of"),
    ],
)
def test_bad_set_up_is_a_clear_usage_error(run: Run, args: list[str], message: str) -> None:
    result = run("pepper", "play", "--bot-delay", "0", *args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_quit_saves_to_the_records_folder(run: Run, tmp_path: Path) -> None:
    result = run("pepper", "play", "--seed", "1", "--dealer", "4", "--bot-delay", "0",
                 input="q\n")  # fmt: skip
    assert result.exit_code == 0
    saved = list((tmp_path / "data" / "records").glob("pepper-game-*.json"))
    assert len(saved) == 1 and str(saved[0]) in result.output
    assert record(saved[0])["actions"][0].startswith("deal ")


# ============================================================================ rules, replay


def test_rules_lists_the_rules_and_house_rules(run: Run) -> None:
    result = run("pepper", "rules", "--rule", "target=50", "--rule", "no_trump=false")
    assert result.exit_code == 0
    out = " ".join(result.output.split())
    assert "first side to reach 50" in out and "no trump not allowed" in out
    assert "target * = 50" in out and "big_pepper_factor = 2" in out


def test_rules_show_label_value_default_and_help_from_the_specs(run: Run) -> None:
    result = run("pepper", "rules", "--rule", "set_penalty=5")
    out = " ".join(result.output.split())
    for spec in PEPPER_RULE_SPECS:
        assert spec.name in out and spec.label in out and spec.help in out
    assert "set_penalty * = 5 (default none (by player count" in out
    assert "loses 5 (house rule)" in out


def test_rules_explain_the_set_penalty_and_ladders_by_player_count(run: Run) -> None:
    out = " ".join(run("pepper", "rules").output.split())
    assert "set_penalty = none (by player count: 6 with 4 players, 8 with 2–3)" in out
    (row,) = [r for r in rule_rows(PepperRules()) if r.spec.name == "set_penalty"]
    assert row.value == "none (by player count: 6 with 4 players, 8 with 2–3)"
    assert "Set → the bidding side loses 6 with 4 players, 8 with 2 or 3." in out
    assert "Big Pepper wins or loses 12 with 4 players, 16 with 2 or 3." in out
    assert "Bids: 1, 2, 3, 4, 5, Small Pepper, Big Pepper (4 players); " in out
    assert "1, 2, 3, 4, 5, 6, 7, Small Pepper, Big Pepper (2 or 3 players)." in out
    assert "minus" not in out and "2 players, 8 with 3 players" not in out


@pytest.mark.parametrize(
    ("players", "ladder", "penalty", "big"),
    [
        ("2", "1, 2, 3, 4, 5, 6, 7, Small Pepper, Big Pepper (2 players)", "8", "16"),
        ("3", "1, 2, 3, 4, 5, 6, 7, Small Pepper, Big Pepper (3 players)", "8", "16"),
        ("4", "1, 2, 3, 4, 5, Small Pepper, Big Pepper (4 players)", "6", "12"),
    ],
)
def test_rules_for_one_player_count(
    run: Run, players: str, ladder: str, penalty: str, big: str
) -> None:
    result = run("pepper", "rules", "--players", players)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert f"Bids: {ladder}." in out
    assert f"loses {penalty} (with {players} players)" in out
    assert f"wins or loses {big} (with {players} players)" in out
    assert out.count("Small Pepper, Big Pepper") == 1


def test_rules_refuse_a_player_count_pepper_has_not(run: Run) -> None:
    assert run("pepper", "rules", "--players", "5").exit_code == 2


def test_replay_of_a_game_and_of_a_pad(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "r.json"
    run("pepper", "play", "bot", "bot:random", "--seed", "2", "--bot-delay", "0",
        "--save", str(save))  # fmt: skip
    game = PepperGame.from_record(record(save))
    result = run("pepper", "replay", str(save))
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("face down:") == game.hand_number  # every deal, with the dead hand
    assert f"Hand {game.hand_number} ·" in out and "won trick 8" in out
    assert "Winner:" in out or "Shared win:" in out

    pad = PepperSheet(["Ann", "Bob"], PepperRules(target=8))
    pad.enter(0, "small", "D", [8, 0])
    (tmp_path / "pad.json").write_text(pad.to_json(), encoding="utf-8")
    result = run("pepper", "replay", str(tmp_path / "pad.json"))
    assert "Pepper score pad" in result.output and "Winner: Ann with 8!" in result.output

    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    result = run("pepper", "replay", str(tmp_path / "bad.json"))
    assert result.exit_code == 1 and "not a pfeffer game record" in result.output


# ============================================================================ sheet


def test_sheet_entries_to_a_winner(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    result = run(
        "pepper", "sheet", "Ann", "Bob", "Cy", "Di", "--rule", "target=12", "--dealer", "4",
        "--save", str(save),
        input=lines(
            "Ann 7 H 4 2",  # no 7 with 4 players
            "Ann 3 H 4 1",  # 5 tricks
            "Ann 3 H 4 2",  # one line: made, +4 / +2
            "u",  # undo it
            "t",
            "1 3 H 4 2",  # again
            "Zed",  # no such player
            "2", "huge", "big", "X", "S", "seven", "0",  # step by step: Bob's Big Pepper
            "y",  # it ends the game: confirmed
            "",  # game over: finish
        ),
    )  # fmt: skip
    out = " ".join(result.output.split())
    assert result.exit_code == 0, out
    assert "'7' is not a bid with 4 players" in out
    assert "The tricks must add up to 6, not 5." in out
    assert "Ann & Cy made it: Ann & Cy +4, Bob & Di +2." in out
    assert "'Zed' is no player" in out
    assert "'huge' is not a bid" in out and "'X' is not a trump" in out
    assert "'seven': type the number of tricks" in out
    assert "→ Bob & Di: 6 tricks" in out
    assert "Last hand taken back." in out
    assert "Hand 1 · Di deals" in out and "Hand 2 · Ann deals" in out
    assert "Winner: Bob & Di with 14!" in out
    pad = PepperSheet.from_json(save.read_text(encoding="utf-8"))
    assert pad.totals == [4, 14] and pad.winners == [1] and pad.first_dealer == 3


def test_sheet_resume_and_redeal(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    pad = PepperSheet(["Ann", "Bob", "Cy"], PepperRules(all_pass="redeal", target=10))
    pad.enter(2, 4, "C", [1, 2, 5])
    save.write_text(pad.to_json(), encoding="utf-8")
    result = run("pepper", "sheet", "--resume", str(save), input=lines("p", "s", "q"))
    assert result.exit_code == 0, result.output
    assert "Everybody passed: the deal passes on." in result.output
    assert f"resume with: pfeffer pepper sheet --resume {save}" in " ".join(result.output.split())
    again = PepperSheet.from_json(save.read_text(encoding="utf-8"))
    assert again.totals == [1, 2, 5] and len(again.rows()) == 2 and again.dealer == 2
    result = run("pepper", "sheet", "--resume", str(save), input=lines("Cy 2 NT 1 1 6", "y", ""))
    assert "Winner: Cy with 11!" in result.output
    assert PepperSheet.from_json(save.read_text(encoding="utf-8")).is_over


def test_sheet_redeal_needs_the_house_rule_and_asks_for_names(run: Run, tmp_path: Path) -> None:
    result = run("pepper", "sheet", "--save", str(tmp_path / "x.json"),
                 input=lines("Ann, Bob", "", "p", "q"))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "needs the house rule all_pass=redeal" in " ".join(result.output.split())
    pad = PepperSheet.from_json((tmp_path / "x.json").read_text())
    assert pad.players == ("Ann", "Bob") and pad.first_dealer == 0  # Enter: player 1 deals
    result = run("pepper", "sheet", "Solo")
    assert result.exit_code == 2 and "2, 3 or 4 players" in result.output


# ============================================================================ hints, reviews


def test_hints_and_reviews(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "h.json"
    # 2 players, Bot deals: You bid first; ! asks for a hint, then pass; a card hint later.
    result = run(
        "pepper", "play", "--players", "2", "--dealer", "2", "--seed", "3", "--bot-delay", "0",
        "--hints", "--save", str(save), input=lines("?", "!", "p", "!", "1", *["1"] * 7, "q"),
    )  # fmt: skip
    out = result.output
    assert result.exit_code == 0, out
    assert "! = a hint" in out and out.count("Hint: ") == 2
    found = re.findall(r"Hint: (\S+) \(([^)]*)\)", out)  # the action, then the reason
    assert len(found) == 2 and all(reason in REASONS for _, reason in found)
    assert "Review of hand 1 for you:" in out
    assert "With best play you could have taken" in out
    game = PepperGame.from_record(record(save))
    assert game.results and game.results[0].bidder == 1


def test_no_hints_unless_asked_and_no_review_when_off(run: Run, tmp_path: Path) -> None:
    result = run(
        "pepper", "play", "--players", "2", "--dealer", "2", "--seed", "3", "--bot-delay", "0",
        "--no-review", "--save", str(tmp_path / "n.json"),
        input=lines("!", "p", *["1"] * 8, "q"),
    )  # fmt: skip
    out = result.output
    assert "Hint: " not in out and "Review of hand" not in out
    assert "'!' is not a bid" in out


def test_hints_and_reviews_in_german(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pfeffer.cli import app
    from pfeffer.cli.common import DATA_DIR_ENV

    env = {DATA_DIR_ENV: str(tmp_path), "COLUMNS": "200", "LC_ALL": "de_DE.UTF-8"}
    args = ["pepper", "play", "--players", "2", "--dealer", "2", "--seed", "3",
            "--bot-delay", "0", "--hints", "--save", str(tmp_path / "de.json")]  # fmt: skip
    result = CliRunner().invoke(app, args, input=lines("!", "p", *["1"] * 8, "q"), env=env)
    assert result.exit_code == 0, result.output
    assert "Tipp: " in result.output and "Rückblick auf Runde 1 für dich:" in result.output


def test_pass_screen_clears_the_scrollback_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # console.clear() alone leaves the previous player's cards in the scrollback (ESC[3J).
    import io

    from rich.console import Console

    from pfeffer.cli.common import Seat
    from pfeffer.cli.pepper import PlaySession
    from pfeffer.pepper import PepperGame

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80)
    monkeypatch.setattr(console, "input", lambda prompt="": "")
    session = PlaySession(
        console, PepperGame(2, seed=1), [Seat("Anna"), Seat("Ben")], {}, path=None
    )
    session.pass_device(1)
    text = out.getvalue()
    assert "\x1b[3J" in text and text.index("\x1b[3J") < text.index("Pass the device")


def test_pad_asks_before_the_hand_that_ends_the_game(run: Run, tmp_path: Path) -> None:
    save = tmp_path / "end.json"
    result = run("pepper", "sheet", "Ann", "Bob", "--rule", "target=10", "--dealer", "1",
                 "--save", str(save),
                 input=lines("Ann big H 8 0", "n", "Ann 3 H 4 4", "q"))  # fmt: skip
    out = " ".join(result.output.split())
    assert result.exit_code == 0, out
    assert "This entry ends the game: Ann wins with 16. Enter it?" in out
    assert "Hand cancelled." in out
    pad = PepperSheet.from_json(save.read_text(encoding="utf-8"))
    assert len(pad.rows()) == 1 and not pad.is_over
