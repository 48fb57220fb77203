"""The simulator's kernel in steps plays exactly as the one loop it was (issue 19 §4).

The reference is the one-loop copy ``benchmarks/kernel_oneloop.py``; the batches and the
comparison are those of ``benchmarks/bench_kernel_ab.py --check`` (loaded from its file):
the three presets and seven house-rule sets (Pfeffer reward and short bank, no Auto-Pfeffer,
margin and factor, no final round, hot dice bankable, playoffs, no minimum, opening minimum),
two to five seats of every level, seeds up to 2**95, and perfect play; every array the kernel
writes (totals, winners, turns, counts, the record) must be equal. A kernel with one step
changed is caught.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_kernel_ab.py"
KERNEL = Path(__file__).resolve().parents[2] / "src" / "pfeffer" / "dice" / "sim" / "kernel.py"


def load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def ab() -> Any:
    return load("bench_kernel_ab", BENCH)


@pytest.fixture(scope="module")
def oneloop(ab: Any) -> Any:
    return ab.load_oneloop()


def differing(ab: Any, new: Any, old: Any, cases: list[Any]) -> list[int]:
    """The cases whose arrays differ between the kernels ``new`` and ``old``."""
    out = []
    for i, (rules, players, games, seed) in enumerate(cases):
        a = ab.batch_arrays(new, rules, players, games, seed)
        b = ab.batch_arrays(old, rules, players, games, seed)
        if not all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b, strict=True)):
            out.append(i)
    return out


def test_cases_cover_the_house_rules(ab: Any) -> None:
    cases = ab.check_cases(60)
    rules = {c[0] for c in cases}
    assert len(rules) == 10
    assert any(r.pfeffer_reward == "stake" and r.pfeffer_short_bank == "allowed" for r in rules)
    assert any(r.min_bank_opening_only for r in rules) and any(r.tie == "playoff" for r in rules)
    assert any(not r.final_round for r in rules) and any(not r.auto_pfeffer for r in rules)
    assert any(not r.pfeffer for r in rules) and any(not r.hot_dice_must_roll for r in rules)
    assert {len(c[1]) for c in cases} == {2, 3, 4, 5}
    assert {p for c in cases for p in c[1]} == set(ab.LEVELS)
    assert max(c[3] for c in cases) >= 2**64


def test_steps_play_as_the_one_loop(ab: Any, oneloop: Any) -> None:
    from pfeffer.dice.sim import kernel

    cases = ab.check_cases(240)
    assert sum(c[2] for c in cases) == 28_080
    assert differing(ab, kernel.run_games, oneloop.run_games, cases) == []


def test_perfect_play_as_the_one_loop(ab: Any, oneloop: Any) -> None:
    from pfeffer.dice.sim import kernel

    cases = [c for c in ab.check_cases(24, perfect=True) if not isinstance(c[1][0], str)
             or not isinstance(c[1][1], str)]  # fmt: skip
    assert len(cases) == 4
    assert differing(ab, kernel.run_games, oneloop.run_games, cases) == []


@pytest.mark.parametrize(
    ("step", "changed"),
    [
        ("need = 0 if opening_only and banked else min_bank",
         "need = 0 if opening_only else min_bank"),
        ("NEXT_DECIDE if nxt == reached else nxt",
         "NEXT_DECIDE if (nxt + 1) % n == reached else nxt"),
    ],
    ids=["opening minimum", "end of the final round"],
)  # fmt: skip
def test_a_changed_step_is_caught(
    ab: Any, oneloop: Any, tmp_path: Path, step: str, changed: str
) -> None:
    source = KERNEL.read_text(encoding="utf-8")
    assert source.count(step) == 1
    path = tmp_path / "kernel_changed.py"
    path.write_text(source.replace(step, changed), encoding="utf-8")
    mutant = load(f"kernel_changed_{abs(hash(step))}", path)
    assert differing(ab, mutant.run_games, oneloop.run_games, ab.check_cases(20)) != []
