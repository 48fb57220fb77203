"""The solved strategy of one rule set: start-of-turn win chances and the turn values behind them.

>>> from pfeffer.dice.rules import DiceRules
>>> s = solve_small()
>>> 0.5 < s.win_probability(0, 0) < 0.7
True
>>> s.win_probability(0, 0, auto_pfeffer=True) < s.win_probability(0, 0)
True
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import kernels
from pfeffer.dice.solver.tables import F64, DiceTables, build_tables


@dataclasses.dataclass(frozen=True, eq=False)
class DiceStrategy:
    """Optimal two-player play under ``rules``, as solved by :func:`pfeffer.dice.solve`.

    ``normal[i, j]`` / ``auto[i, j]``: the chance that the player about to start a turn with
    total ``(i - lower) * step`` against ``(j - lower) * step`` wins, without / under
    Auto-Pfeffer; ``final[d]``: the chance that a last turn ``d`` steps behind wins. ``residuals``
    are the largest changes of the solver's sweeps (the stopping rule: the last is ≤ ``tolerance``).
    """

    rules: DiceRules
    lower: int
    normal: F64
    auto: F64
    final: F64
    residuals: tuple[float, ...] = ()
    seconds: float = 0.0

    @functools.cached_property
    def tables(self) -> DiceTables:
        """The dice tables of the rules (throws and keep menus in scoring steps)."""
        return build_tables(self.rules)

    @property
    def step(self) -> int:
        """The points of one scoring step (50 under the default rules)."""
        return self.tables.step

    def units(self, points: int) -> int:
        """``points`` in scoring steps; ValueError if it is not a multiple of the step."""
        q, r = divmod(points, self.step)
        if r:
            raise ValueError(f"{points} is not a multiple of the scoring step {self.step}")
        return q

    def win_probability(self, own: int, other: int, auto_pfeffer: bool = False) -> float:
        """The chance that the player about to start a turn with ``own`` points against
        ``other`` wins (both optimal; a shared win counts one half). ``auto_pfeffer``: the
        predecessor just went bust. When ``other`` has reached the target, it is the mover's last
        turn. Totals below the solver's lower bound count as that bound (see docs/strategy.md).
        """
        t = self.tables
        a, b = self.units(own), self.units(other)
        if a >= t.target:
            raise ValueError(f"a player with {own} has reached the target; the game is over")
        a = max(a, -self.lower)
        if b >= t.target and self.rules.final_round:
            return float(self.final[min(b - a, self.final.shape[0] - 1)])
        if b >= t.target:
            raise ValueError(f"a player with {other} has reached the target; the game is over")
        b = max(b, -self.lower)
        table = self.auto if (auto_pfeffer and self.rules.auto_pfeffer) else self.normal
        return float(table[a + self.lower, b + self.lower])

    def fair_compensation(self) -> float:
        """The head start in points for the second player that makes the game even: where
        ``win_probability(0, h)`` crosses one half, interpolated linearly between scoring steps
        (0 if the first player is not favoured; the table's largest total if it never crosses).

        >>> 0 < solve_small().fair_compensation() < 1000
        True
        """
        t = self.tables
        prev = self.win_probability(0, 0)
        if prev <= 0.5:
            return 0.0
        for h in range(1, t.target):
            cur = self.win_probability(0, h * t.step)
            if cur <= 0.5:
                frac = (prev - 0.5) / (prev - cur)
                return float((h - 1 + frac) * t.step)
            prev = cur
        return float((t.target - 1) * t.step)

    # ---------------------------------------------------------------- turn values for advice

    def bank_values(self, own: int, other: int, need: int, bonus: int = 0) -> F64:
        """The mover's chance after banking each turn total ``t`` (steps) from ``own`` against
        ``other`` (steps): -1 where banking is not allowed (``t < need``), for
        :func:`kernels.turn_explicit`."""
        t = self.tables
        final_turn = other >= t.target
        size = max(t.target - own, 1) + self.final.shape[0] + t.max_points + 2
        steps = np.arange(size)
        s = own + steps + bonus
        if final_turn:
            out = np.where(s > other, 1.0, np.where(s == other, self._tie_value(), 0.0))
        else:
            out = np.empty(size)
            below = s < t.target
            j = other + self.lower
            out[below] = 1.0 - self.normal[j, s[below] + self.lower]
            if self.rules.final_round:
                d = np.minimum(s[~below] - other, self.final.shape[0] - 1)
                out[~below] = 1.0 - self.final[d]
            else:
                out[~below] = 1.0
        out[(steps < need) | (steps < 1)] = -1.0
        return out

    def _tie_value(self) -> float:
        return 0.5

    def bust_value(self, own: int, other: int, penalty: int) -> float:
        """The mover's chance after a bust that costs ``penalty`` steps (0 in a last turn)."""
        t = self.tables
        if other >= t.target:
            return 0.0
        down = max(own - penalty, -self.lower)
        table = self.auto if self.rules.auto_pfeffer else self.normal
        return 1.0 - float(table[other + self.lower, down + self.lower])

    def turn(
        self, own: int, other: int, need: int, penalty: int, bonus: int = 0
    ) -> tuple[F64, F64, F64]:
        """``(R, V, bank)`` of one turn (see :func:`kernels.turn_explicit`), totals in steps."""
        key = (own, other, need, penalty, bonus)
        found = self._turns.get(key)
        if found is not None:
            return found
        if len(self._turns) > 4096:
            self._turns.clear()
        bank = self.bank_values(own, other, need, bonus)
        beta = self.bust_value(own, other, penalty)
        R, V = kernels.turn_explicit(
            bank, beta, self.rules.hot_dice_must_roll, *kernels.kernel_args(self.tables)
        )
        self._turns[key] = (R, V, bank)
        return R, V, bank

    @functools.cached_property
    def _turns(self) -> dict[tuple[int, ...], tuple[F64, F64, F64]]:
        return {}

    # ---------------------------------------------------------------- storage

    def arrays(self) -> dict[str, Any]:
        """The arrays to store (see :mod:`pfeffer.dice.solver.cache`)."""
        return {
            "lower": np.array(self.lower),
            "normal": self.normal,
            "auto": self.auto,
            "final": self.final,
            "residuals": np.array(self.residuals),
            "seconds": np.array(self.seconds),
        }

    @classmethod
    def from_arrays(cls, rules: DiceRules, data: Any) -> DiceStrategy:
        """The strategy stored by :meth:`arrays`."""
        return cls(
            rules=rules,
            lower=int(data["lower"]),
            normal=np.asarray(data["normal"], dtype=np.float64),
            auto=np.asarray(data["auto"], dtype=np.float64),
            final=np.asarray(data["final"], dtype=np.float64),
            residuals=tuple(float(x) for x in data["residuals"]),
            seconds=float(data["seconds"]),
        )


@functools.cache
def solve_small() -> DiceStrategy:
    """A strategy for a small target (doctests and quick checks): target 1000."""
    from pfeffer.dice.solver.solve import solve_tables

    return solve_tables(DiceRules(target=1000), lower=20, final_steps=300, tolerance=1e-10)
