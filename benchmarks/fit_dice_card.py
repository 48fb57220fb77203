"""Fit the numbers of a strategy card (:class:`pfeffer.dice.card.Card`) against the solved table.

    python benchmarks/fit_dice_card.py [--start hard] [--games 300] [--sample 4000]
                                       [--rounds 3] [--passes 3]

The objective is exact up to the sample of states, not a noisy win count. By the performance
difference identity, a card's win rate against perfect play falls short of perfect play's by the
expected sum, over the card's turns, of its *turn regret*: the solved chance to win at the start
of the turn (``win_probability``) less the chance after the card's turn, valued with the solved
table (both players optimal afterwards). Against perfect play with seats swapped perfect play
wins one half, so ``win rate = 0.5 - (mean regret per game)``. This script computes a turn's
regret exactly (a forward pass over turn total and dice left with every throw and the card's
decisions, :func:`turn_value`), over the card's turn-start states of ``--games`` simulated games
against perfect play from each seat, and minimises the sum over the card's numbers by
coordinate search (each number up and down by a few step sizes; a change is kept when it lowers
the regret). After each round it plays new games with the improved card (the states a card
meets depend on the card). It prints the card as ``Card(...)`` for ``pfeffer/dice/card.py``; the
win rate is then measured by ``benchmarks/bench_dice_levels.py``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from typing import Any

import numpy as np
from numba import njit

from pfeffer.dice import DiceRules
from pfeffer.dice.card import CARDS, Card
from pfeffer.dice.sim import simulate_records
from pfeffer.dice.sim.kernel import card_percent
from pfeffer.dice.sim.policies import CardPolicy
from pfeffer.dice.solver import DiceStrategy, solve
from pfeffer.dice.solver.kernels import kernel_args

#: Turn totals are followed this many steps; past it a turn is valued as banked (mass there is
#: far below the regrets compared).
ROWS = 400


@njit(cache=True)
def card_thresholds(cp: Any, own: int, other: int, target: int, auto: bool) -> Any:
    """The card's bank numbers by dice (index 1-6) in this state (``Card.threshold``)."""
    out = np.zeros(7, dtype=np.int64)
    pct = card_percent(cp, own, other, target)
    for n in range(1, 7):
        base = cp[6 + n - 1] if auto else cp[n - 1]
        out[n] = base * pct // 100
    return out


@njit(cache=True)
def turn_value(  # noqa: PLR0917 (numba: positional arguments only)
    cp: Any, own: int, other: int, auto: bool, late: bool, need: int, penalty: int,
    target: int, must_roll: bool, final_round: bool, step: int, lower: int, normal: Any,
    auto_tab: Any, final: Any, gs: Any, gp: Any, os_: Any, op: Any, ol: Any, bust: Any,
) -> float:  # fmt: skip
    """The chance to win after the card's turn from (own, other) points, valued with the
    solved table (a bust: the opponent then starts under Auto-Pfeffer if it is played).

    Throws are taken by keep menus (the distinct (points, dice left) of their options, from the
    solver's tables): the card's choice depends only on those (on a tie it prefers more points,
    then fewer dice, as the game's order of options does), so this is ``card_keep`` and
    ``card_wants_bank`` of the kernel on every throw at once.
    """
    n_final = final.shape[0]
    if late:
        beta = 0.0
    else:
        down = max((own - penalty) // step, -lower)
        beta = 1.0 - auto_tab[other // step + lower, down + lower]
    thr = card_thresholds(cp, own, other, target, auto)
    finish = cp[22]
    bonus = cp[25] if auto else cp[24]
    mass = np.zeros((ROWS + 1, 7))
    mass[0, 6] = 1.0
    value = 0.0
    for t in range(ROWS + 1):
        for n in range(1, 7):
            m = mass[t, n]
            if m < 1e-8:
                continue
            value += m * bust[n] * beta
            for g in range(gs[n], gs[n + 1]):
                best_count = -(2**62)
                best_t = best_left = -1
                best_banks = False
                for o in range(os_[g], os_[g + 1]):
                    t2 = t + op[o]
                    left = ol[o]
                    n2 = left if left > 0 else 6
                    pts = t2 * step
                    s = own + pts
                    banks = False
                    if pts >= need and pts > 0 and not (left == 0 and must_roll):
                        if late:
                            banks = s > other
                        elif s >= target and s - other >= finish:
                            banks = True
                        else:
                            banks = pts >= thr[n2]
                    count = pts + bonus if banks else pts + cp[12 + n2 - 1]
                    if count > best_count or (
                        count == best_count and (t2 > best_t or (t2 == best_t and left > best_left))
                    ):
                        best_count, best_t, best_left, best_banks = count, t2, left, banks
                p = m * gp[g]
                if best_banks or best_t > ROWS:
                    s = own + best_t * step
                    if late:
                        v = 1.0 if s > other else (0.5 if s == other else 0.0)
                    elif s >= target:
                        d = min((s - other) // step, n_final - 1)
                        v = 1.0 - final[d] if final_round else 1.0
                    else:
                        v = 1.0 - normal[other // step + lower, s // step + lower]
                    value += p * v
                else:
                    mass[best_t, best_left if best_left > 0 else 6] += p
    return value


@njit(cache=True)
def total_value(  # noqa: PLR0917 (numba: positional arguments only)
    cp: Any, own: Any, other: Any, auto: Any, weight: Any, need: int, auto_penalty: int,
    target: int, must_roll: bool, final_round: bool, step: int, lower: int, normal: Any,
    auto_tab: Any, final: Any, gs: Any, gp: Any, os_: Any, op: Any, ol: Any, bust: Any,
) -> float:  # fmt: skip
    """The weighted sum of :func:`turn_value` over the states ``(own, other, auto)``."""
    out = 0.0
    for i in range(own.shape[0]):
        out += weight[i] * turn_value(
            cp, own[i], other[i], auto[i], other[i] >= target, need,
            auto_penalty if auto[i] else 0, target, must_roll, final_round, step, lower,
            normal, auto_tab, final, gs, gp, os_, op, ol, bust,
        )  # fmt: skip
    return out


@dataclasses.dataclass(frozen=True)
class States:
    """Turn-start states of the card (points, raised to the table's lower bound) with their
    counts, and the solved chance to win at each."""

    strategy: DiceStrategy
    own: Any
    other: Any
    auto: Any
    weight: Any
    best: float  # the weighted sum of the solved chances

    @classmethod
    def of(cls, strategy: DiceStrategy, counts: dict[tuple[int, int, bool], float]) -> States:
        """The states of ``counts``."""
        low = -strategy.lower * strategy.step
        keys = sorted(counts)
        own = np.array([max(k[0], low) for k in keys], dtype=np.int64)
        other = np.array([max(k[1], low) for k in keys], dtype=np.int64)
        auto = np.array([k[2] for k in keys], dtype=np.bool_)
        weight = np.array([counts[k] for k in keys], dtype=np.float64)
        best = sum(counts[k] * strategy.win_probability(*k) for k in keys)
        return cls(strategy, own, other, auto, weight, best)

    def regret(self, card: Card) -> float:
        """The card's summed turn regret over the states."""
        s = self.strategy
        r = s.rules
        got = total_value(
            np.array(card.params(), dtype=np.int64), self.own, self.other, self.auto,
            self.weight, r.min_bank, r.auto_pfeffer_penalty, r.target, r.hot_dice_must_roll,
            r.final_round, s.step, s.lower, s.normal, s.auto if r.auto_pfeffer else s.normal,
            s.final, *kernel_args(s.tables)[1:6], s.tables.bust,
        )  # fmt: skip
        return self.best - got


def card_states(
    strategy: DiceStrategy, card: Card, games: int, seed: int, sample: int
) -> dict[tuple[int, int, bool], float]:
    """The card's turn-start states (own, other, Auto-Pfeffer) in games against perfect play,
    ``games`` from each seat, with how often each came up; ``sample`` of the turns drawn at
    random (all if fewer), counted ``turns / sample`` times each."""
    turns: list[tuple[int, int, bool]] = []
    policy = CardPolicy(card)
    for seat in (0, 1):
        seats: list[CardPolicy | DiceStrategy] = (
            [policy, strategy] if seat == 0 else [strategy, policy]
        )
        for g in simulate_records(strategy.rules, seats, games=games, seed=seed + seat):
            scores = [0, 0]
            pred: int | None = None
            for t in g.turns:
                if t.seat == seat:
                    turns.append((scores[seat], scores[1 - seat], pred == 0))
                scores[t.seat] = t.total_after
                pred = t.points
    rng = random.Random(seed)
    picked = rng.sample(turns, sample) if sample < len(turns) else turns
    out: dict[tuple[int, int, bool], float] = {}
    for state in picked:
        out.setdefault(state, 0.0)
        out[state] += len(turns) / len(picked)
    return out


def mean_regret(states: States, card: Card, games: int) -> float:
    """The card's expected regret per game (``0.5 - win rate`` against perfect play)."""
    return states.regret(card) / (2 * games)


#: (positions in Card.params, step sizes tried) for the coordinate search.
MOVES: list[tuple[tuple[int, ...], tuple[int, ...]]] = [
    *(((i,), (150, 50)) for i in range(5)),
    *(((6 + i,), (150, 50)) for i in range(5)),
    *(((12 + i,), (75, 25)) for i in range(1, 6)),
    ((18,), (3, 1)),
    ((19,), (3, 1)),
    ((20,), (500,)),
    ((21,), (15, 5)),
    ((22,), (300, 100)),
    ((24,), (150, 50)),
    ((25,), (150, 50)),
    # The whole rows at once: a level shift of the bank numbers.
    ((0, 1, 2, 3, 4), (50,)),
    ((6, 7, 8, 9, 10), (50,)),
]


def search(card: Card, states: States, games: int, passes: int) -> tuple[Card, float]:
    """Coordinate search from ``card``; the best card found and its mean regret. Each move is
    repeated while it helps (a line search), then the next."""
    best = mean_regret(states, card, games)
    print(f"  start: regret {best:.5f} per game", flush=True)
    for p in range(passes):
        improved = False
        for where, sizes in MOVES:
            for size in sizes:
                for sign in (1, -1):
                    while True:
                        params = list(card.params())
                        for i in where:
                            params[i] += sign * size
                        try:
                            trial = Card.from_params(card.name, params)
                        except ValueError:
                            break
                        r = mean_regret(states, trial, games)
                        if r >= best - 1e-7:
                            break
                        best, card, improved = r, trial, True
                        print(f"  pass {p + 1}: {where} {sign * size:+d}: {r:.5f}", flush=True)
        if not improved:
            break
    return card, best


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--start", default="hard", help="the card to start from (a level)")
    ap.add_argument("--games", type=int, default=300, help="games per seat for the states")
    ap.add_argument("--sample", type=int, default=4000, help="turns drawn from the games")
    ap.add_argument("--rounds", type=int, default=3, help="new states after each round")
    ap.add_argument("--passes", type=int, default=3, help="coordinate passes per round")
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args(argv)
    strategy = solve(DiceRules())
    card = CARDS[args.start]
    for r in range(args.rounds):
        start = time.process_time()
        counts = card_states(strategy, card, args.games, args.seed + 2 * r, args.sample)
        states = States.of(strategy, counts)
        print(f"round {r + 1}: {sum(counts.values()):.0f} turns, {len(counts)} states "
              f"({time.process_time() - start:.0f} s CPU)", flush=True)  # fmt: skip
        card, regret = search(card, states, args.games, args.passes)
        print(f"round {r + 1}: regret {regret:.5f} per game (win rate about {0.5 - regret:.4f}); "
              f"{time.process_time() - start:.0f} s CPU", flush=True)  # fmt: skip
        print(f"  {card!r}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
