"""``pfeffer dice solve`` and ``dice advise`` against rules too large for this machine (issue 21):
refused with the estimate and the reason; ``dice solve`` asks before a long solve (``--yes``
skips the question); a total off the scoring step is one line, not a traceback; totals below
the table's bound say that they are valued as the bound."""

from __future__ import annotations

from typing import Any

import pytest

from pfeffer.dice import DiceRules
from pfeffer.dice.solver import estimate as est
from pfeffer.dice.solver.solve import solve_small
from tests.cli.helpers import Run

GB = 2**30


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine with 16 GB free (the refusals do not depend on the one running the tests)."""
    monkeypatch.setattr(est, "available_memory", lambda: 16 * GB)


def test_estimate_follows_the_measured_solves() -> None:
    # The defaults took 255 s on two threads (docs/strategy.md); target 2000 62 s CPU on one.
    defaults = est.estimate(DiceRules(), threads=2)
    assert defaults.path == "fast" and defaults.steps == 400
    assert 0.8 * 255 < defaults.seconds < 1.25 * 255
    assert 0.5 * 659 * 2**20 < defaults.memory < 1.5 * 659 * 2**20
    one = est.estimate(DiceRules(target=2000), threads=1)
    assert one.steps == 240 and 0.8 * 62 < one.seconds < 1.25 * 62
    # Larger targets cost more; the general path (opening-only minimum, the stake reward) more.
    sizes = [est.estimate(DiceRules(target=t), threads=2).seconds for t in (1000, 5000, 20000)]
    assert sizes == sorted(sizes)
    opening = est.estimate(DiceRules(min_bank_opening_only=True), threads=2)
    stake = est.estimate(DiceRules(pfeffer_reward="stake"), threads=2)
    assert opening.path == stake.path == "general"
    assert defaults.seconds < opening.seconds < stake.seconds


#: Fast-path solves measured on this machine (docs/strategy.md, "Solve cost"): rules, lower
#: bound, threads, CPU seconds (``time.process_time()`` of ``solve_tables``; numba warm). The
#: estimate's CPU time (its wall seconds times the threads' speedup) must be within a factor
#: 1.5 of each (target 5000 errs long by 1.43); below n = 240 totals a side it said 34 to 45 s
#: where about 60 were measured.
MEASURED: list[tuple[dict[str, Any], int, int, float]] = [
    ({"target": 400}, 200, 1, 52.9),
    ({"target": 500}, 200, 1, 58.7),
    ({"target": 1000}, 200, 1, 60.6),
    ({"target": 2000}, 200, 1, 62.0),
    ({"target": 5000}, 200, 1, 107.4),
    ({}, 200, 2, 502.0),
]


@pytest.mark.parametrize(("rules", "lower", "threads", "cpu"), MEASURED)
def test_estimate_within_half_again_of_each_measured_solve(
    rules: dict[str, Any], lower: int, threads: int, cpu: float
) -> None:
    e = est.estimate(DiceRules(**rules), threads=threads, lower=lower)
    speedup = 1 + 0.9 * (threads - 1)  # the estimate's two threads: 1.9 cores' work
    assert cpu / 1.5 < e.seconds * speedup < cpu * 1.5, (e.seconds * speedup, cpu)


def test_refusal_names_the_reason_and_the_estimate() -> None:
    assert est.estimate(DiceRules(), threads=2).refusal(memory=16 * GB) is None
    slow = est.estimate(DiceRules(min_bank_opening_only=True), threads=2).refusal(memory=16 * GB)
    assert slow is not None and "hours here, and the limit is one hour" in slow
    huge = est.estimate(DiceRules(target=100_000), threads=2)
    why = huge.refusal(memory=16 * GB)
    assert why is not None and "GB of memory, and this machine has 16.0 GB free" in why
    assert "2,200 totals a side" in why
    assert huge.refusal(memory=1000 * GB) is not None  # still more than an hour


def test_solve_refuses_what_does_not_fit(run: Run, machine: None) -> None:
    big = run("dice", "solve", "--rule", "target=100000")
    assert big.exit_code == 1 and big.exception is not None  # typer.Exit, no traceback
    assert "Not solved: it would need about" in big.output and "16.0 GB free" in big.output
    slow = run("dice", "solve", "--rule", "min_bank_opening_only=true")
    assert slow.exit_code == 1 and "the limit is one hour" in slow.output
    assert "Traceback" not in big.output + slow.output


def test_advise_refuses_what_does_not_fit_without_asking(run: Run, machine: None) -> None:
    result = run("dice", "advise", "--rule", "min_bank_opening_only=true", input="y\n")
    assert result.exit_code == 1
    assert "too large to solve here" in result.output and "hours" in result.output
    assert "Solve now?" not in result.output


def test_solve_asks_before_a_long_solve_and_yes_skips(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[DiceRules] = []
    small = solve_small()

    def fake_solve(rules: DiceRules, **kwargs: Any) -> Any:
        calls.append(rules)
        return small

    monkeypatch.setattr("pfeffer.dice.solver.solve", fake_solve)
    monkeypatch.setattr(est, "ASK_SECONDS", 1.0)  # target 1000: about 20 s, "long" here
    no = run("dice", "solve", "--rule", "target=1000", input="n\n")
    assert no.exit_code == 1 and "Solve now?" in no.output and "--yes" in no.output
    assert "seconds" in no.output and calls == []
    yes = run("dice", "solve", "--rule", "target=1000", "--yes")
    assert yes.exit_code == 0 and "Solve now?" not in yes.output
    assert calls == [DiceRules(target=1000)] and "the first player wins" in yes.output
    monkeypatch.setattr(est, "ASK_SECONDS", 1e9)
    quick = run("dice", "solve", "--rule", "target=1000")
    assert quick.exit_code == 0 and "Solve now?" not in quick.output and len(calls) == 2


def test_advise_a_total_off_the_step_is_one_line(run: Run) -> None:
    for option in ("--score", "--other"):
        result = run("dice", "advise", option, "1")
        assert result.exit_code == 1
        assert result.output.strip().splitlines() == [
            f"✗ {option} 1 is no total of this game: totals are multiples of 50."
        ]


def test_advise_below_the_bound_says_it_is_valued_as_the_bound(run: Run) -> None:
    low = run("dice", "advise", "--score", "-20000", "--other", "500")
    assert low.exit_code == 0
    assert "Totals below -10000 (the solved table's bound) are valued as -10000" in low.output
    at = run("dice", "advise", "--score", "-10000", "--other", "500")
    assert at.exit_code == 0 and "valued as" not in at.output
