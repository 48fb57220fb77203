"""Installs that take only what they use (issue 19, item 5): the base install (no extras) plays
both games in the terminal; a command that needs an extra says which, in one line.

"Not installed" is made real in a child process: an import hook refuses every module that only
an extra brings (numpy, numba, FastAPI, ..., and Babel, which only the build needs)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pfeffer.core.extras import EXTRAS, MissingExtra, missing, require
from pfeffer.dice import DiceGame
from pfeffer.pepper import PepperGame

ROOT = Path(__file__).resolve().parent.parent
ONLY_IN_EXTRAS = sorted(
    {m.split(".")[0] for mods in EXTRAS.values() for m in mods} | {"babel", "llvmlite", "starlette"}
)
BLOCKER = f"""
import importlib.abc, sys
BLOCK = {ONLY_IN_EXTRAS!r}
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in BLOCK:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Blocker())
from pfeffer.cli import main
sys.argv = ["pfeffer", *sys.argv[1:]]
main()
"""


def base_only(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``pfeffer ARGS`` as a base install runs it (no extra importable)."""
    return subprocess.run(
        [sys.executable, "-c", BLOCKER, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_the_base_needs_only_the_terminal_libraries() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert [d.split(">")[0] for d in project["dependencies"]] == ["typer", "rich", "platformdirs"]
    extras = project["optional-dependencies"]
    assert set(EXTRAS) <= set(extras)
    assert {"ai", "web", "postgres", "cluster", "plots", "rl"} <= set(extras)
    assert "pfeffer[ai]" in extras["web"]  # the server's hints and computer players


def test_the_checks_name_the_extra_and_the_command() -> None:
    assert missing("ai") == []  # the test environment has everything
    require("web", "pfeffer serve")
    exc = MissingExtra("cluster", "Several processes (--redis)", ["redis"])
    assert str(exc) == (
        "Several processes (--redis) needs the optional part 'cluster' (missing: redis): "
        "pip install 'pfeffer[cluster]'"
    )


def test_a_base_install_plays_both_games_in_the_terminal(tmp_path: Path) -> None:
    dice = tmp_path / "dice.json"
    run = base_only("dice", "play", "bot", "bot:random", "--seed", "3", "--bot-delay", "0",
                    "--save", str(dice))  # fmt: skip
    assert run.returncode == 0, run.stderr
    game = DiceGame.from_record(json.loads(dice.read_text()))
    assert game.is_over and game.winners
    pepper = tmp_path / "pepper.json"
    run = base_only("pepper", "play", "bot", "bot", "bot:random", "bot", "--seed", "3",
                    "--bot-delay", "0", "--save", str(pepper))  # fmt: skip
    assert run.returncode == 0, run.stderr
    card_game = PepperGame.from_record(json.loads(pepper.read_text()))
    assert card_game.is_over and card_game.winners
    rules = base_only("pepper", "rules")
    assert rules.returncode == 0 and "P1" in rules.stdout


def test_a_base_install_trains_on_dice_puzzles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shipped puzzles, their feedback and the rating need no extra (issue 23)."""
    monkeypatch.setenv("PFEFFER_DATA_DIR", str(tmp_path))
    run = base_only("dice", "train", "--count", "1", "--seed", "1")
    assert run.returncode == 0, run.stderr
    assert "Puzzle 1 of 1" in run.stdout and "0 of 0 right" in run.stdout


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["serve"], "web"),
        (["dice", "play", "bot", "bot:optimal", "--bot-delay", "0"], "ai"),
        (["pepper", "play", "bot", "bot:expert", "--bot-delay", "0"], "ai"),
    ],
)
def test_a_command_that_needs_an_extra_says_which(args: list[str], extra: str) -> None:
    run = base_only(*args, timeout=60)
    assert run.returncode == 1
    assert f"pip install 'pfeffer[{extra}]'" in run.stderr
    assert "Traceback" not in run.stderr
