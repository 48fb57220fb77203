"""The advisor keeps solved tables in memory, but never a miss (issue 21 §1): a table solved
after the first question (in the background, or by 'pfeffer dice solve') is seen at the next."""

from __future__ import annotations

from pathlib import Path

import pytest

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import cache
from pfeffer.dice.solver.solve import solve_tables
from pfeffer.web.adapters import advisor


def test_a_table_solved_after_a_miss_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.DATA_DIR_ENV, str(tmp_path / "data"))
    advisor.forget()
    rules = DiceRules(target=500)
    assert advisor.dice_strategy(rules) is None
    cache.save(solve_tables(rules, lower=10))
    found = advisor.dice_strategy(rules)
    assert found is not None and found.rules == rules
    assert advisor.dice_strategy(rules) is found  # kept in memory now
    advisor.forget()


def test_the_short_preset_has_hints_out_of_the_box(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.DATA_DIR_ENV, str(tmp_path / "data"))
    advisor.forget()
    assert advisor.dice_strategy(DiceRules(target=5000)) is not None
    advisor.forget()
