"""The optimising sweeps' two shortcuts: the residual bound that lets the last sweep skip states
(pfeffer.dice.solver.residual) holds against turns re-solved in full, and solves that skip, or
cap the turns of their first sweeps, reach the table of solves that do neither."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from pfeffer.dice import DiceRules
from pfeffer.dice.solver import kernels
from pfeffer.dice.solver.gkernels import dice_consts, reach_table
from pfeffer.dice.solver.residual import residual_bound
from pfeffer.dice.solver.solve import solve_tables
from pfeffer.dice.solver.strategy import DiceStrategy
from pfeffer.dice.solver.tables import F64, build_tables, kernel_dice, solve_vector

solve_module = importlib.import_module("pfeffer.dice.solver.solve")

LOWER = 12
FINAL = 200
DEEP = 30  # deep enough that the last sweep of a solve skips states
SMALL = DiceRules(target=500, min_bank=150, auto_pfeffer_penalty=200)
RULE_SETS = {"small": SMALL, "no-auto": SMALL.replace(auto_pfeffer=False)}


def solved(rules: DiceRules) -> DiceStrategy:
    return solve_tables(rules, lower=LOWER, final_steps=FINAL, tolerance=1e-13)


def bellman(s: DiceStrategy, Wn: F64, Wa: F64) -> tuple[F64, F64]:
    """Every start state's turn re-solved in full against the tables ``(Wn, Wa)``."""
    rules = s.rules
    t = build_tables(rules)
    F = s.final
    rv = solve_vector(t, LOWER)
    dice = kernel_dice(t)
    fin = kernels.FinalTables(F, kernels.tail_table(F, dice))
    size = Wn.shape[0]
    turn_size = 2 * size + len(F) + kernels.TAIL + t.max_points + 16
    sc = kernels.scratch(t, turn_size, size)
    out = (np.zeros_like(Wn), np.zeros_like(Wa))
    for kind in (0, 1) if rules.auto_pfeffer else (0,):
        for i in range(size):
            for j in range(size):
                beta = kernels.bust_value(kind == 1, i, j, Wn, Wa, rv)
                v, _, _ = kernels.turn_policy(i - LOWER, j - LOWER, beta, Wn, rv, fin, dice, sc)
                out[kind][i, j] = v
    return out


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@pytest.mark.parametrize("noise", ["random", "far", "bust"])
def test_the_bound_holds_against_turns_solved_in_full(name: str, noise: str) -> None:
    """From a solved table (itself a fixed point to 1e-13), move the tables and compare every
    state's bound with its true residual, the turn re-solved in full. ``far``: only the totals
    near the target move, upward, so that a turn reaching them gains most, which the reach
    chances must still cover; ``bust``: only the Auto-Pfeffer table (the bust values)."""
    rules = RULE_SETS[name]
    s = solved(rules)
    t = build_tables(rules)
    rv = solve_vector(t, LOWER)
    size = s.normal.shape[0]
    rng = np.random.default_rng(5)
    snap = np.zeros((2, 2, size, size))
    snap[:, 0] = s.normal
    snap[:, 1] = s.auto
    Wn, Wa = s.normal.copy(), s.auto.copy()
    if noise == "random":
        Wn += rng.normal(0.0, 1e-6, Wn.shape)
        Wa += rng.normal(0.0, 1e-6, Wa.shape)
    elif noise == "far":
        Wn[:, size - 5 :] -= 1e-4  # banks there are worth 1 - Wn: more
    else:
        Wa -= rng.random(Wa.shape) * 1e-5
    dice = kernel_dice(t)
    reach = reach_table(size + 1, rules.hot_dice_must_roll, dice, dice_consts(dice))
    Tn, Ta = bellman(s, Wn, Wa)
    slack = s.residuals[-1] + 1e-14
    tight = 0
    for kind in (0, 1) if rules.auto_pfeffer else (0,):
        W, T = (Wa, Ta) if kind else (Wn, Tn)
        for i in range(size):
            for j in range(size):
                bound = residual_bound(kind == 1, i, j, Wn, Wa, rv, snap, reach)
                actual = abs(T[i, j] - W[i, j])
                assert actual <= bound + slack, (kind, i, j, actual, bound)
                tight += actual > 0.2 * bound
    assert tight > 0  # the bound is not vacuous: some states come near it


@pytest.mark.parametrize("threads", [1, 2])
def test_skipping_solves_reach_the_same_table(
    threads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A solve whose last sweep skips states, one that skips from its second sweep on with a
    loose bound (so that the skipped states are solved after the sweep, for the evaluation) and
    one that never skips reach the same table; the skipping solves' last sweep skipped states."""
    rules = SMALL
    plain_from = solve_module.SKIP_FROM
    counts: dict[str, list[int]] = {}
    tables = {}
    for name, skip_from, share in (("never", 0.0, 0.5), ("last", plain_from, 0.5),
                                   ("loose", 1.0, 1e7)):  # fmt: skip
        monkeypatch.setattr(solve_module, "SKIP_FROM", skip_from)
        monkeypatch.setattr(solve_module, "SKIP_SHARE", share)
        s = solve_tables(rules, lower=DEEP, final_steps=FINAL, threads=threads)
        assert s.residuals[-1] <= solve_module.TOLERANCE
        tables[name] = (s.normal, s.auto)
        counts[name] = list(s.skipped)
    for name in ("last", "loose"):
        for a, b in zip(tables[name], tables["never"], strict=True):
            assert np.abs(a - b).max() <= 1e-10
    assert counts["never"] == [0] * len(counts["never"])
    assert counts["last"][-1] > 0
    assert sum(counts["loose"][:-1]) > 0  # skipped in sweeps that did not end the solve


def test_capped_first_sweeps_reach_the_same_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turns capped at 300 points in the first sweeps (every choice banks from there on), then
    whole: the same table as whole sweeps throughout, and the solve ends on a whole sweep."""
    tables = {}
    for name, points in (("whole", 10**9), ("capped", 300)):
        monkeypatch.setattr(solve_module, "CAP_POINTS", points)
        s = solve_tables(SMALL, lower=DEEP, final_steps=FINAL)
        assert s.residuals[-1] <= solve_module.TOLERANCE
        tables[name] = (s.normal, s.auto, s.capped, len(s.residuals))
    assert tables["whole"][2] == 0
    capped, sweeps = tables["capped"][2:]
    assert 0 < capped < sweeps
    for k in (0, 1):
        assert np.abs(tables["capped"][k] - tables["whole"][k]).max() <= 1e-10


def test_a_solve_uses_the_cores_the_process_may_run_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default thread count is the process's CPU affinity, not the machine's cores (a
    container or ``taskset`` may allow fewer), and ``threads`` given explicitly wins."""
    import os

    import pfeffer.dice.solver as solver_pkg

    solve_module = importlib.import_module("pfeffer.dice.solver.solve")

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    assert solve_module.available_cores() == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(), raising=False)
    assert solve_module.available_cores() == 1
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    assert solve_module.available_cores() == 16
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert solve_module.available_cores() == 1

    asked: list[int] = []
    solved = object()

    def record(rules: DiceRules, *, progress: object = None, threads: int = 1) -> object:
        asked.append(threads)
        return solved

    monkeypatch.setattr(solver_pkg, "solve_tables", record)
    monkeypatch.setattr(solver_pkg, "available_cores", lambda: 3)
    assert solver_pkg.solve(DiceRules(target=1000), cache=False) is solved
    assert solver_pkg.solve(DiceRules(target=1000), cache=False, threads=1) is solved
    assert asked == [3, 1]


def test_a_warm_start_from_a_scaled_smaller_target_reaches_the_cold_table() -> None:
    """Issue 21 §2's warm start: the table of half the target, its totals scaled up, as the first
    guess (capped first sweeps as from the plain guess): the cold solve's table to 1e-9, and the
    guess is not already that table (else the check would prove nothing)."""
    rules = SMALL.replace(target=1000)
    t = build_tables(rules)
    dice = kernel_dice(t)
    F = kernels.final_round_table(FINAL, 0.5, solve_vector(t, LOWER), dice)
    Q = kernels.tail_table(F, dice)
    small = solve_tables(SMALL, lower=LOWER // 2, final_steps=FINAL, tolerance=1e-3)
    guess = solve_module.scaled_guess(small, rules, LOWER)
    cold = solve_module.iterate_tables(rules, t, F, Q, LOWER, 1e-12, 1, None, lambda s, f: None)
    assert np.abs(guess[0] - cold[0]).max() > 1e-3  # (the solve below overwrites the guess)
    warm = solve_module.iterate_tables(rules, t, F, Q, LOWER, 1e-12, 1, guess,
                                       lambda s, f: None, cap_guess=True)  # fmt: skip
    assert warm[2].residuals[-1] <= 1e-12
    for k in (0, 1):
        assert np.abs(warm[k] - cold[k]).max() <= 1e-9
