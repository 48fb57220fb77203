"""One turn at the table, valued from a solved strategy under any rules: the value of banking
each turn total and of a bust in the turn's situation (the main game, the final round's last turn,
a playoff round), then the turn solved against them (:func:`gkernels.turn_dp`).

Every strategy — the fast path's plain tables or the general solver's — is read through one
:class:`Model`, so the advice cannot read a table that does not describe the state: a state with
a "has banked" flag, a predecessor's bank (for a Pfeffer call) or a playoff is looked up in the
general arrays, and a strategy without them holds only rules where they do not matter.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping

import numpy as np

from pfeffer.dice.solver import gkernels as gk
from pfeffer.dice.solver.gsweep import BankTurn, Ends, Starts, main_bank
from pfeffer.dice.solver.tables import F64, I64, DiceTables, kernel_dice, solve_vector


@dataclasses.dataclass(frozen=True, eq=False)
class Model:
    """The arrays of a strategy in the general layout (see :mod:`gsweep`): ``RN``, ``RA``
    (flags × flags × totals × totals), ``CL`` (a dummy without calls), the last turn ``G`` (flag ×
    lead), ``reach`` and the playoff ``P`` (empty when ties are shared)."""

    tables: DiceTables
    lower: int
    needs: I64
    RN: F64
    RA: F64
    CL: F64
    calls: bool
    calls_fin: bool
    G: F64
    reach: F64
    P: F64
    consts: F64

    @property
    def flags(self) -> int:
        """2 under the opening-only minimum (index 0: has not banked yet), else 1."""
        return int(self.RN.shape[0])

    @functools.cached_property
    def vector(self) -> I64:
        """The rules as the kernels read them (:func:`~pfeffer.dice.solver.tables.solve_vector`:
        the bound, and the calls valued where the strategy has them)."""
        return solve_vector(self.tables, self.lower, calls=self.calls)

    def flag(self, opened: bool) -> int:
        """The flag index of a player who has (not) banked yet."""
        return 1 if (self.flags == 2 and opened) else 0

    def tie_value(self, x: int) -> float:
        """What a tie is worth to the player whose bank of ``x`` steps tied: one half when ties
        are shared, else the chance to win the playoff that the other player starts."""
        if self.P.size == 0:
            return 0.5
        return float(1.0 - self.P[min(max(x, 0), self.P.size - 1)])

    def start(self, oo: int, ot: int, a: int, b: int, auto: bool, pred: int | None) -> float:
        """The mover's chance at a turn's start in the main game (indices ``a``, ``b``; ``pred``:
        the predecessor's bank in steps, None if unknown or none)."""
        t = self.tables
        if auto and t.rules.auto_pfeffer:
            return float(self.RA[oo, ot, a, b])
        v = float(self.RN[oo, ot, a, b])
        if self.calls and pred and pred > 0:
            c = float(self.CL[oo, ot, a, b, min(pred, self.CL.shape[4] - 1)])
            v = max(v, c)
        return v

    def last(self, ob: int, d: int, pred: int | None) -> float:
        """The chance that a last turn (flag ``ob``) ``d`` ≥ 1 steps behind wins (``pred``: the
        finisher's bank, for a Pfeffer call)."""
        return float(gk.fin_value(self.G, ob, d, pred or 0, self.calls_fin and bool(pred),
                                  int(self.needs[ob]), self.tables.margin, self.reach))  # fmt: skip


def model_of(
    t: DiceTables, lower: int, normal: F64, auto: F64, final: F64, x: Mapping[str, F64]
) -> Model:
    """The :class:`Model` of a strategy's arrays (see
    :class:`~pfeffer.dice.solver.strategy.DiceStrategy`; the fast path's tables read as one
    flag, no calls)."""
    consts = gk.dice_consts(kernel_dice(t))
    needs = (np.array([t.min_bank, 1], dtype=np.int64) if "roll" in x and x["roll"].shape[0] == 2
             else np.array([t.min_bank], dtype=np.int64))  # fmt: skip
    RN = x["roll"] if "roll" in x else normal[None, None]
    RA = x["roll_auto"] if "roll_auto" in x else auto[None, None]
    G = x["last"] if "last" in x else final[None, :]
    reach = x.get("reach")
    if reach is None:
        reach = gk.reach_table(G.shape[1], t.rules.hot_dice_must_roll, kernel_dice(t), consts)
    calls = "calls" in x
    return Model(
        tables=t,
        lower=lower,
        needs=needs,
        RN=RN,
        RA=RA,
        CL=x["calls"] if calls else np.full((1, 1, 1, 1, 1), -1.0),
        calls=calls,
        calls_fin=t.rules.pfeffer and t.rules.pfeffer_reward == "stake",
        G=G,
        reach=reach,
        P=x.get("playoff", np.zeros(0)),
        consts=consts,
    )


@dataclasses.dataclass(frozen=True)
class Situation:
    """A turn's situation, in steps: ``kind`` is ``"main"``, ``"final"`` (the mover's last
    turn), ``"first"`` / ``"second"`` (a playoff round's turns); ``own``/``other`` the totals,
    ``oo``/``ot`` the flags; the turn banks from ``need``, a bust costs ``pen``, and with
    ``bonus`` a bank of at least ``stake`` adds the stake."""

    kind: str
    own: int
    other: int
    oo: int
    ot: int
    need: int
    pen: int
    stake: int = 0
    bonus: bool = False
    #: Totals the caller will read beyond the usual range (a turn already far along).
    span: int = 0


def bank_array(m: Model, s: Situation) -> tuple[F64, float, int]:
    """``(b, beta, first)``: the mover's chance after banking each turn total (-1 where not
    allowed), after a bust, and the total from which ``b`` is non-decreasing and bankable."""
    t = m.tables
    r = t.rules
    maxp = int(m.consts[0])
    # In the main game a total below the lower bound counts as the bound, as in the solver (whose
    # totals never go below it): the turn banks from there. (Counting banks from the true total
    # would make every bank worth the same far below the bound: a player there never banks.)
    own = max(s.own, -m.lower) if s.kind == "main" else s.own
    length = gk.bank_length(t.target, m.lower, t.margin, m.G.shape[1], maxp, own, s.other,
                            s.need, s.stake, s.span)  # fmt: skip
    b = np.full(length, -1.0)
    steps = np.arange(length)
    gain = steps + np.where(s.bonus & (steps >= s.stake), s.stake, 0)
    allowed = (steps >= s.need) & (steps >= 1)
    if s.kind == "main":
        other = max(s.other, -m.lower)
        down = max(own - s.pen, -m.lower) + m.lower
        beta = 1.0 - m.start(s.ot, s.oo, other + m.lower, down, True, None)
        # (an infinite bust value keeps main_bank from stopping early: the whole array is filled)
        turn = BankTurn(own, other, s.need, s.stake, s.bonus, s.ot, np.inf, 0)
        main_bank(b, turn, m.vector, Starts(m.RN, m.RA, m.CL), Ends(m.G, m.needs, m.reach), t.bust)
        above = np.nonzero(own + gain >= t.target)[0]
        return b, beta, max(int(above[0]) if above.size else length - 1, s.need, 1)
    lead = s.own + gain - s.other  # the mover's lead after banking
    if s.kind == "first":
        b = np.array([1.0 - (m.last(m.flags - 1, int(a), int(k)) if a >= 1 else 1.0)
                      for k, a in enumerate(lead)])  # fmt: skip
        pen_b = t.auto_penalty if r.auto_pfeffer else 0
        down = s.own - s.pen - s.other
        beta = 1.0 - gk.last_ahead(down, pen_b, m.tie_value(0),
                                   float(m.reach[int(m.needs[-1])]))  # fmt: skip
        first = s.need
    else:  # the last turn of the final round or of a playoff round
        tie = np.array([m.tie_value(int(k)) for k in steps])
        b = np.where(lead > 0, 1.0, np.where(lead == 0, tie, 0.0))
        down = s.own - s.pen - s.other
        beta = 1.0 if down > 0 else m.tie_value(0) if down == 0 else 0.0
        if s.kind == "final":
            beta = 0.0
        above = np.nonzero((lead > 0) & allowed)[0]
        first = int(above[0]) if above.size else length - 1
    b = np.where(allowed, b, -1.0)
    return np.asarray(b, dtype=np.float64), float(beta), max(first, s.need, 1)


def solve_turn(m: Model, s: Situation) -> tuple[F64, F64, F64]:
    """``(R, V, b)`` of one turn: ``R[t, n]`` the value of throwing ``n`` dice at total ``t``,
    ``V[t, n]`` of the best choice there (``V[t, 6]``: six dice after hot dice, or the turn's start
    at ``t = 0``) and the bank values ``b``. In the last ``max points + 1`` rows
    (:func:`gkernels.table_turn`: totals far past the target and the last turn's table, which a
    turn does not reach) ``R`` and ``V`` are 0: not solved."""
    b, beta, first = bank_array(m, s)
    t = m.tables
    n = b.shape[0]
    D = np.zeros((n, 5))
    H = np.zeros(n)
    R = np.zeros((n, 7))
    gk.table_turn(b, beta, first, t.rules.hot_dice_must_roll, kernel_dice(t), m.consts, D, H, R)
    V = np.zeros((n, 7))
    V[:, 1:6] = D
    V[:, 6] = H
    return R, V, b
