"""``pfeffer dice card`` and ``pfeffer dice plot``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pfeffer.dice.card import CARDS
from pfeffer.dice.solver import DiceStrategy
from tests.cli.helpers import Run
from tests.cli.test_dice_advice import small_table  # noqa: F401 (a fixture)


@pytest.fixture
def solved(run: Run, tmp_path: Path, small_table: tuple[DiceStrategy, Path]) -> Run:  # noqa: F811
    """``run`` with the target-1000 table in the test's data folder (the cache)."""
    folder = tmp_path / "data" / "solver"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(small_table[1], folder / small_table[1].name)
    return run


def test_card_prints_the_levels_card(run: Run) -> None:
    result = run("dice", "card")
    assert result.exit_code == 0, result.output
    hard = CARDS["hard"]
    assert "strategy card (hard), target 10000" in result.output
    row = next(line for line in result.output.splitlines() if "normal turn" in line)
    assert row.split()[2:] == [str(v) for v in hard.bank[:5]]
    easy = run("dice", "card", "--level", "easy", "--rule", "target=5000")
    assert easy.exit_code == 0 and "(easy), target 5000" in easy.output
    bad = run("dice", "card", "--level", "genius")
    assert bad.exit_code != 0 and "hard" in bad.output


def test_plot_writes_the_files(solved: Run, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plots"
    args = ["dice", "plot", "--rule", "target=1000", "--out", str(out), "--step", "250"]
    result = solved(*args, "--targets", "1000", "--format", "svg")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["bank-auto.svg", "bank.svg", "first.svg", "pfeffer.svg", "win.svg"]
    assert all("<svg" in (out / n).read_text() for n in names)
    only = solved(*args, "--what", "win", "--out", str(tmp_path / "one"))
    assert only.exit_code == 0 and [p.name for p in (tmp_path / "one").iterdir()] == ["win.png"]
    bad = solved(*args, "--what", "everything")
    assert bad.exit_code != 0 and "bank" in bad.output
