"""The solved strategy of one rule set: start-of-turn win chances and the turn values behind them.

>>> from pfeffer.dice.solver.solve import solve_small
>>> s = solve_small()
>>> 0.5 < s.win_probability(0, 0) < 0.7
True
>>> s.win_probability(0, 0, auto_pfeffer=True) < s.win_probability(0, 0)
True
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver.context import Model, Situation, model_of, solve_turn
from pfeffer.dice.solver.tables import F64, DiceTables, build_tables


@dataclasses.dataclass(frozen=True, eq=False)
class DiceStrategy:
    """Optimal two-player play under ``rules``, as solved by :func:`pfeffer.dice.solve`.

    ``normal[i, j]`` / ``auto[i, j]``: the chance that the player about to start a turn with
    total ``(i - lower) * step`` against ``(j - lower) * step`` wins, without / under
    Auto-Pfeffer (both players having banked, under the opening-only minimum); ``final[d]``: the
    chance that a last turn ``d`` steps behind wins. ``residuals`` are the largest changes of the
    solver's sweeps (the stopping rule: the last is ≤ ``tolerance``; a state the last sweeps did
    not solve counts with a bound of its change, see :mod:`pfeffer.dice.solver.residual`), and
    ``skipped`` how many start states each sweep bounded instead; the first ``capped`` sweeps
    capped the turns (an approximation, see :data:`pfeffer.dice.solver.solve.CAP_POINTS`).
    ``extra`` holds the general
    solver's arrays (see :mod:`pfeffer.dice.solver.context`): the tables per "has banked" flag,
    the Pfeffer calls per predecessor's bank, the last turns and the playoff.
    """

    rules: DiceRules
    lower: int
    normal: F64
    auto: F64
    final: F64
    residuals: tuple[float, ...] = ()
    seconds: float = 0.0
    extra: Mapping[str, F64] = dataclasses.field(default_factory=dict)
    skipped: tuple[int, ...] = ()
    capped: int = 0

    @functools.cached_property
    def tables(self) -> DiceTables:
        """The dice tables of the rules (throws and keep menus in scoring steps)."""
        return build_tables(self.rules)

    @functools.cached_property
    def model(self) -> Model:
        """All values in the general layout (:class:`pfeffer.dice.solver.context.Model`)."""
        return model_of(self.tables, self.lower, self.normal, self.auto, self.final, self.extra)

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

    def win_probability(
        self,
        own: int,
        other: int,
        auto_pfeffer: bool = False,
        *,
        predecessor: int | None = None,
        opened: tuple[bool, bool] | None = None,
    ) -> float:
        """The chance that the player about to start a turn with ``own`` points against
        ``other`` wins (both optimal; a shared win counts one half). ``auto_pfeffer``: the
        predecessor just went bust. When ``other`` has reached the target, it is the mover's last
        turn. Totals below the solver's lower bound count as that bound (see docs/strategy.md).

        ``predecessor``: the points the predecessor banked (a Pfeffer call on them is valued;
        None: no call). ``opened``: whether the mover and the other have banked yet (only the
        opening-only minimum asks; by default a player has banked when their total is above 0).
        """
        t = self.tables
        m = self.model
        a, b = self.units(own), self.units(other)
        if a >= t.target:
            raise ValueError(f"a player with {own} has reached the target; the game is over")
        flags = opened if opened is not None else (own > 0, other > 0)
        if m.flags == 2 and (
            (own > 0 and not flags[0]) or (0 < other < t.target * t.step and not flags[1])
        ):
            raise ValueError("a player who has not banked yet has at most 0 points")
        oo, ot = m.flag(flags[0]), m.flag(flags[1])
        pred = None if predecessor is None else self.units(predecessor)
        if b >= t.target and self.rules.final_round:
            return m.last(oo, b - a, pred)  # (a last turn counts the true lead, no bound)
        a = max(a, -self.lower)
        if b >= t.target:
            raise ValueError(f"a player with {other} has reached the target; the game is over")
        b = max(b, -self.lower)
        return m.start(oo, ot, a + self.lower, b + self.lower, auto_pfeffer, pred)

    def fair_compensation(self) -> float:
        """The head start in points for the second player that makes the game even: where
        ``win_probability(0, h)`` crosses one half, interpolated linearly between scoring steps
        (0 if the first player is not favoured; the table's largest total if it never crosses).

        >>> from pfeffer.dice.solver.solve import solve_small
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

    def solve_turn(self, situation: Situation) -> tuple[F64, F64, F64]:
        """``(R, V, bank)`` of one turn in ``situation`` (see
        :func:`pfeffer.dice.solver.context.solve_turn`), cached."""
        found = self._turns.get(situation)
        if found is not None:
            return found
        if len(self._turns) > 4096:
            self._turns.clear()
        out = solve_turn(self.model, situation)
        self._turns[situation] = out
        return out

    def turn(
        self, own: int, other: int, need: int, penalty: int, bonus: int = 0
    ) -> tuple[F64, F64, F64]:
        """``(R, V, bank)`` of a turn in the main game (totals in steps, both players having
        banked; ``bonus``: a stake added to every bank of at least the stake)."""
        m = self.model
        top = m.flags - 1
        kind = "final" if other >= self.tables.target and self.rules.final_round else "main"
        return self.solve_turn(
            Situation(kind, own, other, top, top, need, penalty, bonus, bonus > 0)
        )

    @functools.cached_property
    def _turns(self) -> dict[Situation, tuple[F64, F64, F64]]:
        return {}

    # ---------------------------------------------------------------- storage

    def arrays(self) -> dict[str, Any]:
        """The arrays to store (see :mod:`pfeffer.dice.solver.cache`)."""
        out = {
            "lower": np.array(self.lower),
            "normal": self.normal,
            "auto": self.auto,
            "final": self.final,
            "residuals": np.array(self.residuals),
            "seconds": np.array(self.seconds),
            "skipped": np.array(self.skipped, dtype=np.int64),
            "capped": np.array(self.capped),
        }
        out.update({f"x_{k}": v for k, v in self.extra.items()})
        return out

    @classmethod
    def from_arrays(cls, rules: DiceRules, data: Any) -> DiceStrategy:
        """The strategy stored by :meth:`arrays` (ValueError if its shape does not fit the rules'
        tables, e.g. a table stored before the scoring lattice changed)."""
        s = cls(
            rules=rules,
            lower=int(data["lower"]),
            normal=np.asarray(data["normal"], dtype=np.float64),
            auto=np.asarray(data["auto"], dtype=np.float64),
            final=np.asarray(data["final"], dtype=np.float64),
            residuals=tuple(float(x) for x in data["residuals"]),
            seconds=float(data["seconds"]),
            skipped=tuple(int(x) for x in data["skipped"]) if "skipped" in data else (),
            capped=int(data["capped"]) if "capped" in data else 0,
            extra={k[2:]: np.asarray(data[k], dtype=np.float64) for k in data.files
                   if k.startswith("x_")} if hasattr(data, "files") else {},
        )  # fmt: skip
        size = s.tables.target + s.lower
        if s.normal.shape != (size, size):
            raise ValueError("the stored table does not fit the rules")
        return s
