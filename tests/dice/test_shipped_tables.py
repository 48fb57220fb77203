"""The presets' solved tables ship with the package (issue 21 §1): each found by its rules' key,
whatever its file is called; Classic Farkle's does not (about nine hours to solve here) and is
refused on first use too."""

from __future__ import annotations

from pathlib import Path

import pytest

from pfeffer.dice.presets import DICE_PRESETS, FARKLE, SHORT
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import cache
from pfeffer.dice.solver.estimate import estimate

#: The presets whose tables are too large to ship or to solve on first use.
NOT_SHIPPED = {FARKLE.key}


@pytest.fixture(autouse=True)
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.DATA_DIR_ENV, str(tmp_path / "data"))


@pytest.mark.parametrize("preset", [p for p in DICE_PRESETS if p.key not in NOT_SHIPPED])
def test_each_preset_that_fits_ships_its_table(preset: object) -> None:
    rules = DiceRules.from_dict(dict(preset.rules))  # type: ignore[attr-defined]
    path = cache.shipped_path(rules)
    assert path is not None and path.parent == cache.SHIPPED_DIR
    assert cache.exists(rules) and not cache.path_for(rules).exists()  # shipped, not cached
    found = cache.load(rules)
    assert found is not None and found.rules == rules


def test_the_short_game_is_found_by_its_key() -> None:
    rules = DiceRules(**SHORT.rules)
    assert cache.shipped_path(rules) == cache.SHIPPED_DIR / "solved-short.npz"
    s = cache.load(rules)
    assert s is not None
    assert s.win_probability(0, 0) == pytest.approx(0.5432189096211631, abs=1e-12)
    assert s.residuals[-1] <= 1e-11
    # Other rules are not answered by a shipped table of another key.
    assert cache.shipped_path(DiceRules(target=6000)) is None
    assert cache.load(DiceRules(target=6000)) is None


def test_the_shipped_tables_fit_in_a_few_megabytes() -> None:
    total = sum(p.stat().st_size for p in cache.shipped().values())
    assert len(cache.shipped()) == len(DICE_PRESETS) - len(NOT_SHIPPED)
    assert total < 5 * 2**20


def test_classic_farkle_is_neither_shipped_nor_solved_on_first_use() -> None:
    rules = DiceRules(**FARKLE.rules)
    assert cache.shipped_path(rules) is None
    e = estimate(rules, threads=2)
    assert e.seconds > 3600
    assert e.refusal(memory=16 * 2**30) is not None
