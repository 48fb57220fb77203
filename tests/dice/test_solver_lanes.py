"""The optimising sweep's lanes (pfeffer.dice.solver.lanes) against the one-turn reference
kernel (kernels.turn_policy): the same values, policies and stored bands, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from pfeffer.dice import DiceRules
from pfeffer.dice.solver import kernels, lanes
from pfeffer.dice.solver.kernels import FinalTables, Store
from pfeffer.dice.solver.tables import (
    F64,
    I64,
    Dice,
    DiceTables,
    build_tables,
    kernel_dice,
    solve_vector,
)

LOWER = 12
FINAL = 150


def setting(rules: DiceRules) -> tuple[DiceTables, I64, FinalTables, Dice, int, int]:
    t = build_tables(rules)
    rv = solve_vector(t, LOWER)
    dice = kernel_dice(t)
    F = kernels.final_round_table(FINAL, 0.5, rv, dice)
    fin = FinalTables(F, kernels.tail_table(F, dice))
    size = t.target + LOWER
    turn_size = 2 * size + len(F) + kernels.TAIL + t.max_points + 16
    return t, rv, fin, dice, size, turn_size


# Small tables (target 500, minimum 150, an Auto-Pfeffer penalty of four steps, so that the
# lower bound's clamp and the partner reads all occur).
SMALL = DiceRules(target=500, min_bank=150, auto_pfeffer_penalty=200)
RULE_SETS = {
    "small": SMALL,
    "no-auto": SMALL.replace(auto_pfeffer=False),
    "no-final-may-bank": SMALL.replace(final_round=False, hot_dice_must_roll=False),
}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_lanes_are_reference_turns(name: str) -> None:
    rules = RULE_SETS[name]
    t, rv, fin, dice, size, turn_size = setting(rules)
    rng = np.random.default_rng(7)
    W = rng.random((size, size))
    sc = kernels.scratch(t, turn_size, size)
    sc_l = lanes.scratch(t, turn_size, size)
    for k in range(40):
        # Four states anywhere in the table (not only neighbours: every lane has its own
        # closed-form points), bust values anywhere in [0, 1]; every other time the turns
        # capped (below the minimum, too).
        own = rng.integers(-LOWER, t.target, lanes.LANES)
        other = rng.integers(-LOWER, t.target, lanes.LANES)
        beta = rng.random(lanes.LANES)
        cap = kernels.NO_CAP if k % 2 == 0 else int(rng.integers(0, 40))
        lanes.turn_policy_lanes(own, other, beta, W, rv, fin, dice, sc_l, cap)
        for lane in range(lanes.LANES):
            v, c, pb = kernels.turn_policy(int(own[lane]), int(other[lane]), float(beta[lane]), W,
                                           rv, fin, dice, sc, cap)  # fmt: skip
            assert (sc_l.out[lane, 0], sc_l.out[lane, 1], sc_l.out[lane, 2]) == (v, c, pb)
            assert np.array_equal(sc_l.dist[lane], sc.dist)


def reference_sweep(rules: DiceRules, Wn: F64, Wa: F64, store: Store, cap: int) -> float:
    """One optimising sweep the plain way: each start state's turn by the reference kernel, one
    after the other, highest sums first, Auto-Pfeffer states of a sum before its normal ones."""
    t, rv, fin, dice, size, turn_size = setting(rules)
    sc = kernels.scratch(t, turn_size, size)
    change = 0.0
    for total in range(2 * size - 2, -1, -1):
        kinds = (1, 0) if rules.auto_pfeffer else (0,)
        for kind in kinds:
            for i in range(max(0, total - size + 1), min(size - 1, total) + 1):
                j = total - i
                if kind == 1:
                    down = max(i - LOWER - t.auto_penalty, -LOWER)
                    beta = 1.0 - Wa[j, down + LOWER]
                else:
                    beta = 1.0 - (Wa[j, i] if rules.auto_pfeffer else Wn[j, i])
                v, c, pb = kernels.turn_policy(i - LOWER, j - LOWER, beta, Wn, rv, fin, dice, sc,
                                               cap)  # fmt: skip
                store.C[kind, i, j] = kernels._store_row(kind, i, j, Wn, sc.dist, c, store, 0)
                store.PB[kind, i, j] = pb
                table = Wa if kind == 1 else Wn
                change = max(change, abs(v - table[i, j]))
                table[i, j] = v
    return change


def empty_store(size: int, threads: int) -> Store:
    return kernels.policy_store(2, size, threads)


def bands(store: Store) -> list[tuple[int, ...]]:
    """Every stored band's entries by state (pools may differ in where they put a band)."""
    flat = store.pool.reshape(-1)
    out = []
    for key in zip(*np.nonzero(store.length >= 0), strict=True):
        at, n = store.off[key], store.length[key]
        out.append((*key, int(store.first[key]), *flat[at : at + n].view(np.int64)))
    return out


def no_skip(size: int, cap: int) -> lanes.Sweep:
    """A sweep that solves every state (mode 0), turns capped at ``cap``."""
    return lanes.Sweep(0, 0.0, cap, np.zeros((2, 2, size, size)), np.zeros(size + 1),
                       np.zeros((2, size, size), dtype=np.bool_))  # fmt: skip


@pytest.mark.parametrize("cap", [kernels.NO_CAP, 9])
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_lane_sweeps_are_the_reference_sweep(name: str, cap: int) -> None:
    """Two optimising sweeps from a random table: the lanes' sweep (and, under Auto-Pfeffer,
    the two-thread one) give the reference sweep's tables, policies and bands bit for bit, with
    the turns whole or capped."""
    rules = RULE_SETS[name]
    t, rv, fin, dice, size, turn_size = setting(rules)
    rng = np.random.default_rng(11)
    start = (rng.random((size, size)), rng.random((size, size)))
    ref = empty_store(size, 1)
    Wn, Wa = start[0].copy(), start[1].copy()
    ref_changes = []
    for _ in range(2):
        ref.used[:] = 0
        ref_changes.append(reference_sweep(rules, Wn, Wa, ref, cap))
    results = {"reference": (Wn, Wa, ref, ref_changes)}
    for threads in (1, 2) if rules.auto_pfeffer else (1,):
        st = empty_store(size, threads)
        Wn, Wa = start[0].copy(), start[1].copy()
        changes = []
        sc = lanes.scratch(t, turn_size, size, threads if threads > 1 else 0)
        kernel = lanes.sweep_policy_threads if threads > 1 else lanes.sweep_policy
        for _ in range(2):
            st.used[:] = 0
            c = kernel(Wn, Wa, rv, fin, dice, sc, st, no_skip(size, cap), 2 * size - 2, 0)
            changes.append(c)
        results[f"threads {threads}"] = (Wn, Wa, st, changes)
    rWn, rWa, rst, rch = results.pop("reference")
    for Wn, Wa, st, changes in results.values():
        assert changes == rch
        assert np.array_equal(Wn, rWn) and np.array_equal(Wa, rWa)
        for key in ("C", "PB", "first", "length"):
            assert np.array_equal(getattr(st, key), getattr(rst, key))
        assert sorted(bands(st)) == sorted(bands(rst))


def test_threaded_evaluation_is_the_evaluation() -> None:
    """The policy evaluation's linear sweeps on two threads give the one-thread sweeps' tables and
    changes bit for bit (policies from an optimising sweep of a random table)."""
    rules = SMALL
    t, rv, fin, dice, size, turn_size = setting(rules)
    rng = np.random.default_rng(3)
    Wn, Wa = rng.random((size, size)), rng.random((size, size))
    st = empty_store(size, 1)
    sc = lanes.scratch(t, turn_size, size)
    lanes.sweep_policy(Wn, Wa, rv, fin, dice, sc, st, no_skip(size, kernels.NO_CAP), 2 * size - 2,
                       0)  # fmt: skip
    # From a table the policies do not fit yet, so that every linear sweep changes it.
    one = (rng.random((size, size)), rng.random((size, size)))
    two = (one[0].copy(), one[1].copy())
    for _ in range(3):
        c1 = kernels.sweep_fixed(*one, rv, st)
        c2 = kernels.sweep_fixed_threads(*two, rv, st, 2)
        assert c1 == c2 and c1 > 0
        assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])
