"""``pfeffer dice train`` (issue 23): the puzzles, the feedback, the progress kept after every
answer, the themes, damaged progress files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pfeffer.cli.common import DATA_DIR_ENV
from pfeffer.cli.trainer_store import load_progress, save_progress
from pfeffer.core.trainer import Attempt, Progress, pick, record
from pfeffer.dice.puzzle_set import shipped
from pfeffer.dice.puzzles import DicePuzzle
from tests.cli.helpers import Run, asked, lines


def _expected(seed: int, answers: list[bool], theme: str | None = None) -> list[DicePuzzle]:
    """The puzzles the trainer asks with ``seed`` when the answers are right or wrong so."""
    return asked("dice", shipped(), seed, answers, theme)


def _wrong(puzzle: DicePuzzle) -> str:
    return puzzle.options[-1].action


def _progress(tmp_path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((tmp_path / "data" / "trainer.json").read_text())
    return data


def test_a_right_and_a_wrong_answer(run: Run, tmp_path: Path) -> None:
    first, second = _expected(3, [True, False])
    result = run(
        "dice", "train", "--count", "2", "--seed", "3",
        input=lines(first.answer, _wrong(second)),
    )  # fmt: skip
    out = result.output
    assert result.exit_code == 0, out
    assert "Puzzle 1 of 2" in out and "Puzzle 2 of 2" in out
    assert first.question in out and second.question in out
    assert "✓ Right!" in out and "✗ Not the best:" in out
    for o in second.options:  # every option with its chance
        assert f"{100 * o.win:.1f}%" in out
    assert second.feedback(_wrong(second)).lines[-1].text() in out
    assert "1 of 2 right this time" in out and "1 missed puzzle will come back" in out
    saved = _progress(tmp_path)["players"]["You"]["dice"]  # type: ignore[index]
    assert saved["tries"] == 2 and saved["right"] == 1 and second.id in saved["reviews"]


def test_quitting_keeps_every_answer(run: Run, tmp_path: Path) -> None:
    (first,) = _expected(4, [True])
    result = run("dice", "train", "--count", "5", "--seed", "4", input=lines(first.answer, "q"))
    assert result.exit_code == 0, result.output
    assert "1 of 1 right this time" in result.output
    saved = _progress(tmp_path)["players"]["You"]["dice"]  # type: ignore[index]
    assert saved["tries"] == 1 and saved["streak"] == 1
    # The next run starts from there, and end of input stops it the same way.
    again = run("dice", "train", "--count", "3", "--seed", "4")
    assert again.exit_code == 0 and "rating 1" in again.output and "1 puzzle tried." in again.output
    assert "0 of 0 right" in again.output


def test_a_refused_answer_is_asked_again(run: Run) -> None:
    (first,) = _expected(5, [True])
    bad = "bank" if first.kind == "keep" else "keep 1"
    result = run("dice", "train", "--count", "1", "--seed", "5", input=lines("jump", bad,
                 first.answer))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "not an action" in result.output and "not one of the options" in result.output
    assert "✓ Right!" in result.output


def test_a_theme_is_drilled(run: Run) -> None:
    asked = _expected(6, [False, False, False], theme="final round")
    result = run(
        "dice", "train", "--theme", "final round", "--count", "3", "--seed", "6",
        input=lines(*map(_wrong, asked)),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.count("Final round: your last turn.") == 3
    assert "final round " in result.output  # the theme's accuracy in the summary


def test_unknown_theme(run: Run) -> None:
    result = run("dice", "train", "--theme", "luck")
    assert result.exit_code == 2 and "choose from keep, bank" in result.output


def test_players_have_their_own_ratings(run: Run, tmp_path: Path) -> None:
    (first,) = _expected(7, [True])
    run("dice", "train", "--count", "1", "--seed", "7", input=lines(first.answer))
    run("dice", "train", "--count", "1", "--seed", "7", "--player", "Anna",
        input=lines(_wrong(first)))  # fmt: skip
    players = _progress(tmp_path)["players"]
    assert players["You"]["dice"]["right"] == 1  # type: ignore[index]
    assert players["Anna"]["dice"]["right"] == 0  # type: ignore[index]


def test_a_damaged_progress_file_is_kept_aside(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "data" / "trainer.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    result = run("dice", "train", "--count", "1")
    assert result.exit_code == 1 and "could not be read" in result.output
    assert (tmp_path / "data" / "trainer.json.damaged").read_text() == "{not json"
    assert not path.exists()
    (first,) = _expected(8, [True])
    again = run("dice", "train", "--count", "1", "--seed", "8", input=lines(first.answer))
    assert again.exit_code == 0 and "✓ Right!" in again.output


def test_damaged_files_never_overwrite_each_other(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "data" / "trainer.json"
    path.parent.mkdir(parents=True)
    path.write_text("first")
    assert run("dice", "train", "--count", "1").exit_code == 1
    broken = {"format": "pfeffer-trainer", "players": {"You": {"dice": {"format": 1}}}}
    path.write_text(json.dumps(broken))
    result = run("dice", "train", "--count", "1")
    assert (
        result.exit_code == 1 and "The progress of You in dice could not be read" in result.output
    )
    assert (tmp_path / "data" / "trainer.json.damaged").read_text() == "first"
    assert json.loads((tmp_path / "data" / "trainer.json.damaged-2").read_text()) == broken


def test_pfeffer_puzzle_in_the_terminal(run: Run) -> None:
    asked = _expected(9, [True, True], theme="pfeffer")
    result = run(
        "dice", "train", "--theme", "pfeffer", "--count", "2", "--seed", "9",
        input=lines(*(p.answer for p in asked)),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.count("Call Pfeffer?") == 2 and "Pfeffer on offer: stake" in result.output
    assert "roll (no call)" in result.output and "2 of 2 right" in result.output


def test_a_crash_while_saving_keeps_the_last_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    first = record(Progress(game="dice"), Attempt("a", 1500, ("keep",), True))[0]
    save_progress("You", first)
    second = record(first, Attempt("b", 1500, ("bank",), False))[0]

    def crash(self: Path, target: Path) -> Path:
        raise OSError("disk gone")

    monkeypatch.setattr(Path, "replace", crash)
    with pytest.raises(OSError, match="disk gone"):
        save_progress("You", second)
    monkeypatch.undo()
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert load_progress("You", "dice") == first
    assert [p.name for p in tmp_path.iterdir()] == ["trainer.json"]  # no half-written file


def test_a_missed_puzzle_comes_back(run: Run) -> None:
    asked = _expected(10, [False, True, True, True, True, True, True], theme="bank")
    # due again after three more tries, asked on the next try that may repeat (every third)
    assert asked[6] == asked[0] and asked[4] != asked[0]
    result = run(
        "dice", "train", "--theme", "bank", "--count", "7", "--seed", "10",
        input=lines(_wrong(asked[0]), *(p.answer for p in asked[1:])),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.count("again: missed before") == 1
    assert "6 of 7 right" in result.output


def test_house_rules_make_their_puzzles(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pfeffer.cli.dice_train import HOUSE_GAMES, HOUSE_PER_KIND
    from pfeffer.dice.solver import cache
    from pfeffer.dice.solver.puzzles import generate
    from pfeffer.dice.solver.solve import solve_small

    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    strategy = solve_small()  # target 1000
    cache.save(strategy)
    pool, _ = generate(strategy, games=HOUSE_GAMES, seed=0, per_kind=HOUSE_PER_KIND)
    first = pick(Progress(game="dice"), pool, random.Random(11))
    assert first is not None
    result = run("dice", "train", "--rule", "target=1000", "--count", "1", "--seed", "11",
                 input=lines(first.answer))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"{len(pool)} puzzles of these house rules" in result.output
    assert "target 1000" in result.output and "✓ Right!" in result.output


def test_house_rules_without_a_table(run: Run) -> None:
    result = run("dice", "train", "--rule", "target=1500", input=lines("n"))
    assert result.exit_code == 1 and "not solved on this computer yet" in result.output
