"""``pfeffer pepper train`` (issue 23): the puzzles, the feedback, the progress kept after every
answer, the themes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pfeffer.cli.pepper_train import line_text
from pfeffer.core.trainer import Progress, pick
from pfeffer.pepper.puzzle_set import shipped
from pfeffer.pepper.puzzles import PepperPuzzle
from tests.cli.helpers import Run, asked, lines


def _expected(seed: int, answers: list[bool], theme: str | None = None) -> list[PepperPuzzle]:
    """The puzzles the trainer asks with ``seed`` when the answers are right or wrong so."""
    return asked("pepper", shipped(), seed, answers, theme)


def _wrong(puzzle: PepperPuzzle) -> str:
    return puzzle.options[-1].action


def _saved(tmp_path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((tmp_path / "data" / "trainer.json").read_text())
    return data["players"]["You"]["pepper"]  # type: ignore[index, no-any-return]


def test_a_right_and_a_wrong_answer(run: Run, tmp_path: Path) -> None:
    first, second = _expected(3, [True, False])
    result = run(
        "pepper", "train", "--count", "2", "--seed", "3",
        input=lines(first.answer, _wrong(second)),
    )  # fmt: skip
    out = result.output
    assert result.exit_code == 0, out
    assert "Puzzle 1 of 2" in out and "Puzzle 2 of 2" in out
    assert first.question in out and second.question in out
    assert "✓ Right!" in out and "✗ Not the best:" in out
    for line in second.feedback(_wrong(second)).lines:
        assert line_text(line, second.kind) in out
    assert "1 of 2 right this time" in out and "1 missed puzzle will come back" in out
    saved = _saved(tmp_path)
    assert saved["tries"] == 2 and saved["right"] == 1
    assert second.id in saved["reviews"]  # type: ignore[operator]


def test_each_kind_in_the_terminal(run: Run, tmp_path: Path) -> None:
    for seed, kind in enumerate(("card", "bid", "trump", "open"), 20):
        (puzzle,) = _expected(seed, [False], theme=kind)
        result = run("pepper", "train", "--theme", kind, "--count", "1", "--seed", str(seed),
                     "--player", kind, input=lines("jump", _wrong(puzzle)))  # fmt: skip
        out = result.output
        assert result.exit_code == 0, out
        assert "not a Pepper action" in out and "✗ Not the best:" in out, out
        assert "Your hand" in out and "0 of 1 right" in out
        if kind == "open":  # every hand on the table, the tricks by double dummy
            assert "Partner" in out or "Left" in out or "Opponent" in out
            assert "tricks" in out
        else:
            assert "The others held:" in out and "points" in out
    players = json.loads((tmp_path / "data" / "trainer.json").read_text())["players"]
    assert sorted(players) == ["bid", "card", "open", "trump"]
    assert all(p["pepper"]["tries"] == 1 for p in players.values())


def test_a_card_by_its_number_and_quitting(run: Run, tmp_path: Path) -> None:
    (puzzle,) = _expected(5, [True], theme="card")
    number = [c for c in puzzle.view().hand if c in {o.action for o in puzzle.options}].index(
        puzzle.answer
    )
    result = run("pepper", "train", "--theme", "card", "--count", "3", "--seed", "5",
                 input=lines(str(number + 1), "q"))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "✓ Right!" in result.output and "1 of 1 right this time" in result.output
    assert _saved(tmp_path)["streak"] == 1


def test_unknown_theme(run: Run) -> None:
    result = run("pepper", "train", "--theme", "luck")
    assert result.exit_code == 2 and "choose from card, bid" in result.output


def test_house_rules_make_their_puzzles(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--rule``: puzzles made on the spot by the generator, played by the house rules (a few
    of each kind here, to keep the test short)."""
    from pfeffer.cli import pepper_train
    from pfeffer.pepper.puzzle_gen import generate
    from pfeffer.pepper.rules import PepperRules

    per_kind = {"card": 2, "bid": 2, "trump": 1, "open": 2}
    monkeypatch.setattr(pepper_train, "HOUSE_PER_KIND", per_kind)
    monkeypatch.setattr(pepper_train, "HOUSE_WORLDS", 12)
    rules = PepperRules(all_pass="redeal", target=30)
    pool, _ = generate(hands=pepper_train.HOUSE_HANDS, seed=0, per_kind=per_kind, worlds=12,
                       rules=rules)  # fmt: skip
    assert pool and all(p.rules == rules for p in pool)
    assert not any(p.id in {q.id for q in shipped()} for p in pool)
    first = pick(Progress(game="pepper"), pool, random.Random(5))
    assert first is not None
    result = run("pepper", "train", "--rule", "all_pass=redeal", "--rule", "target=30",
                 "--count", "1", "--seed", "5", input=lines(first.answer))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"{len(pool)} puzzles of these house rules" in result.output
    assert first.question in result.output and "✓ Right!" in result.output


def test_house_rules_refused_when_wrong(run: Run) -> None:
    result = run("pepper", "train", "--rule", "all_pass=never")
    assert result.exit_code != 0 and "all_pass" in result.output
