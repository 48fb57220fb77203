"""Policies of the batch simulator: how a seat decides, compiled to arrays the kernel reads.

The kernel cannot call Python, so a policy is *compiled* once per rules object and number of
players into a :class:`CompiledPolicy`: a ``kind`` (which decision code of the kernel runs) and
two flat parameter arrays (``int64`` and ``float64``) that code reads. Every policy also names the
:class:`~pfeffer.dice.DiceGame` bot that makes the very same decisions (:meth:`SimPolicy.bot`),
which is what the cross-check test plays against the kernel.

Kind :data:`KIND_HEURISTIC` is :class:`~pfeffer.dice.bots.HeuristicBot` with any bank thresholds
and roll-on worths. Its arrays:

=========================  ==================================================================
``ints[0:7]``              ``bank_at`` by dice to throw next (index 0 unused)
``ints[7]``                the points step of the rules (goals are rounded up to it)
``ints[8]``                ``J``: Pfeffer is called only for goals of at most ``J`` steps
``floats[0:7]``            ``roll_on_worth`` by dice left (index 0 unused)
``floats[7 + j]``          ``reach_probability(rules, j * step)`` for ``j = 1 .. J``
=========================  ==================================================================

The Pfeffer table ends at the first goal whose reach probability is below the break-even point
``factor / (1 + factor)`` (the probability only falls as the goal rises), so the kernel
evaluates the bot's own float expression ``p * stake > (1 - p) * factor * stake`` on the bot's own
probabilities and gets the same answer bit for bit.

Kind :data:`KIND_THRESHOLD` (:class:`ThresholdPolicy`) keeps the best-scoring option and banks
as soon as the turn total reaches ``bank_at`` by dice left (``ints[0:7]``), never calls Pfeffer
and ignores the score: a plain baseline (and the one that produces ties and playoffs, which the
heuristic, chasing the leader in the final round, never does).

A new kind (the solver's levels, a ``DiceStrategy``) plugs in the same way: a class with
``compile`` and ``bot``, a new ``KIND_*`` number, and a branch for it in the kernel's three
decision functions (``_wants_pfeffer``, ``_choose_keep``, ``_wants_bank`` in
:mod:`pfeffer.dice.sim.kernel`), which receive the whole game state. A strategy that is a table
(a bank flag and a keep choice per state) compiles to that table flattened, with its dimensions
in ``ints``; see docs/simulate.md.

>>> p = HeuristicPolicy()
>>> c = p.compile(DiceRules(), 2)
>>> c.kind == KIND_HEURISTIC, [int(x) for x in c.ints[:7]], int(c.ints[8])
(True, [0, 300, 300, 400, 1000, 2500, 1000000000], 0)
>>> resolve_policy("heuristic") == HeuristicPolicy()
True
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

from pfeffer.core.bots import Bot
from pfeffer.dice.bots import BANK_AT, ROLL_ON_WORTH, HeuristicBot, OptimalBot, reach_probability
from pfeffer.dice.card import CARDS, Card, CardBot
from pfeffer.dice.game import DiceView, Phase
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.sim.tables import keep_tables

if TYPE_CHECKING:
    from pfeffer.dice.solver.strategy import DiceStrategy

KIND_HEURISTIC = 0
KIND_THRESHOLD = 1
KIND_OPTIMAL = 2
KIND_CARD = 3

#: The largest number of goal steps the heuristic's Pfeffer table may hold.
_MAX_GOAL_STEPS = 100_000


class CompiledPolicy(NamedTuple):
    """What the kernel reads for one seat: the kind of decision code and its parameters."""

    kind: int
    ints: npt.NDArray[np.int64]
    floats: npt.NDArray[np.float64]


class SimPolicy(Protocol):
    """A seat's way of playing in the simulator."""

    @property
    def name(self) -> str:
        """A short name for reports."""
        ...

    def compile(self, rules: DiceRules, players: int) -> CompiledPolicy:
        """The arrays the kernel reads for ``rules`` and ``players`` seats."""
        ...

    def bot(self) -> Bot[DiceView]:
        """A :class:`~pfeffer.dice.DiceGame` bot that makes exactly the same decisions."""
        ...


@dataclasses.dataclass(frozen=True)
class HeuristicPolicy:
    """:class:`~pfeffer.dice.bots.HeuristicBot` in the kernel: ``bank_at`` and ``roll_on_worth``
    for 1–6 dice, as the bot's arguments of the same names (the defaults are the bot's)."""

    bank_at: tuple[int, ...] = tuple(BANK_AT[d] for d in range(1, 7))
    roll_on_worth: tuple[int, ...] = tuple(ROLL_ON_WORTH[d] for d in range(1, 7))

    def __post_init__(self) -> None:
        if len(self.bank_at) != 6 or len(self.roll_on_worth) != 6:
            raise ValueError("bank_at and roll_on_worth give one value for each of 1-6 dice")
        if not all(type(v) is int for v in (*self.bank_at, *self.roll_on_worth)):
            raise ValueError("bank_at and roll_on_worth hold whole numbers")

    @classmethod
    def from_maps(
        cls, bank_at: Mapping[int, int], roll_on_worth: Mapping[int, int]
    ) -> HeuristicPolicy:
        """The policy of ``HeuristicBot(bank_at=..., roll_on_worth=...)``.

        >>> HeuristicPolicy.from_maps(BANK_AT, ROLL_ON_WORTH) == HeuristicPolicy()
        True
        """
        return cls(
            tuple(int(bank_at[d]) for d in range(1, 7)),
            tuple(int(roll_on_worth[d]) for d in range(1, 7)),
        )

    @property
    def name(self) -> str:
        """``"heuristic"``."""
        return "heuristic"

    def bot(self) -> HeuristicBot:
        """The matching :class:`~pfeffer.dice.bots.HeuristicBot`."""
        return HeuristicBot(
            bank_at=dict(zip(range(1, 7), self.bank_at, strict=True)),
            roll_on_worth=dict(zip(range(1, 7), self.roll_on_worth, strict=True)),
        )

    def compile(self, rules: DiceRules, players: int) -> CompiledPolicy:
        """The arrays of kind :data:`KIND_HEURISTIC` (see the module text)."""
        return _compile_heuristic(self, rules)


@functools.lru_cache(maxsize=64)
def _compile_heuristic(policy: HeuristicPolicy, rules: DiceRules) -> CompiledPolicy:
    step = keep_tables(rules).step
    table = pfeffer_table(rules)
    ints = np.array([0, *policy.bank_at, step, len(table)], dtype=np.int64)
    floats = np.array([0.0, *map(float, policy.roll_on_worth), 1.0, *table], dtype=np.float64)
    ints.flags.writeable = floats.flags.writeable = False
    return CompiledPolicy(KIND_HEURISTIC, ints, floats)


@functools.lru_cache(maxsize=64)
def pfeffer_table(rules: DiceRules) -> tuple[float, ...]:
    """``reach_probability(rules, j * step)`` for ``j = 1 .. J``, the goals at which the
    heuristic may call Pfeffer; empty when it never does (no reward, or no Pfeffer at all).

    >>> t = pfeffer_table(DiceRules(pfeffer_reward="stake"))
    >>> len(t), t[6] == reach_probability(DiceRules(pfeffer_reward="stake"), 350)
    (9, True)
    >>> pfeffer_table(DiceRules())
    ()
    """
    if rules.pfeffer_reward != "stake" or not rules.pfeffer:
        return ()
    tables = keep_tables(rules)
    if int(tables.points.min()) <= 0:
        raise ValueError(
            "the heuristic's Pfeffer estimate (reach_probability) does not terminate when a "
            "combination scores 0 points"
        )
    factor = rules.pfeffer_penalty_factor
    break_even = factor / (1 + factor) - 1e-9
    out: list[float] = []
    for j in range(1, _MAX_GOAL_STEPS + 1):
        try:
            p = reach_probability(rules, j * tables.step)
        except RecursionError as exc:  # pragma: no cover - needs a tiny points step
            raise ValueError("the heuristic's Pfeffer estimate is too deep here") from exc
        out.append(p)
        if p < break_even:
            return tuple(out)
    raise ValueError("the heuristic's Pfeffer table does not end")  # pragma: no cover


class ThresholdBot:
    """The :class:`ThresholdPolicy` as a :class:`~pfeffer.dice.DiceGame` bot.

    >>> from pfeffer.dice import DiceGame
    >>> g = DiceGame(2, seed=1)
    >>> ThresholdBot((350,) * 6).choose(g.view(0), g.legal_actions())
    'roll'
    """

    def __init__(self, bank_at: Sequence[int], name: str = "Threshold") -> None:
        self.name = name
        self.bank_at = (0, *bank_at)

    def choose(self, view: DiceView, legal_actions: Sequence[str]) -> str:
        """Keep the best-scoring option; bank once the total reaches the threshold."""
        if view.phase is Phase.KEEP:
            return view.keep_options[0].action
        if view.can_bank and view.turn_total >= self.bank_at[view.dice_to_roll]:
            return "bank"
        return "roll"


@dataclasses.dataclass(frozen=True)
class ThresholdPolicy:
    """Keep the best-scoring dice, bank from ``bank_at`` points by dice left (1–6), where the
    rules allow it; never call Pfeffer. The default banks as soon as it may."""

    bank_at: tuple[int, ...] = (0,) * 6

    def __post_init__(self) -> None:
        if len(self.bank_at) != 6 or not all(type(v) is int for v in self.bank_at):
            raise ValueError("bank_at gives one whole number for each of 1-6 dice")

    @property
    def name(self) -> str:
        """``"threshold"``."""
        return "threshold"

    def bot(self) -> ThresholdBot:
        """The matching :class:`ThresholdBot`."""
        return ThresholdBot(self.bank_at)

    def compile(self, rules: DiceRules, players: int) -> CompiledPolicy:
        """The arrays of kind :data:`KIND_THRESHOLD`."""
        ints = np.array([0, *self.bank_at], dtype=np.int64)
        return CompiledPolicy(KIND_THRESHOLD, ints, np.zeros(0, dtype=np.float64))


@dataclasses.dataclass(frozen=True, eq=False)
class PerfectPolicy:
    """Perfect play: the best advice of ``strategy`` (None: the rules' solved table, from the
    package or the user cache, else solved at the first ``compile``), as
    :class:`~pfeffer.dice.bots.OptimalBot` plays it. Two players only. See
    :mod:`pfeffer.dice.sim.optimal`."""

    strategy: DiceStrategy | None = None

    @property
    def name(self) -> str:
        """``"perfect"``."""
        return "perfect"

    def _strategy(self, rules: DiceRules) -> DiceStrategy:
        if self.strategy is None:
            from pfeffer.dice.solver import solve

            return solve(rules)
        if self.strategy.rules != rules:
            raise ValueError("the strategy was solved for other rules than the simulation's")
        return self.strategy

    def bot(self) -> OptimalBot:
        """The matching :class:`~pfeffer.dice.bots.OptimalBot`."""
        return OptimalBot(self.strategy, name="Perfect")

    def compile(self, rules: DiceRules, players: int) -> CompiledPolicy:
        """The arrays of kind :data:`KIND_OPTIMAL` (see :mod:`pfeffer.dice.sim.optimal`)."""
        if players != 2:
            raise ValueError("perfect play is solved for two players only")
        return _compile_optimal(self._strategy(rules))


@functools.lru_cache(maxsize=4)
def _compile_optimal(strategy: DiceStrategy) -> CompiledPolicy:
    from pfeffer.dice.sim import optimal as o

    t = strategy.tables
    rules = strategy.rules
    # The advice's turn for these options may need more state than the kernel mirrors.
    unsupported = [
        name
        for name, on in (
            ("pfeffer_reward='stake'", rules.pfeffer_reward == "stake" and rules.pfeffer),
            ("min_bank_opening_only", rules.min_bank_opening_only),
            ("tie='playoff'", rules.tie == "playoff"),
        )
        if on
    ]  # fmt: skip
    if unsupported:
        raise ValueError(f"the simulator's perfect player does not handle {', '.join(unsupported)}")
    general = sorted(set(strategy.extra) & {"roll", "roll_auto", "last", "calls", "playoff"})
    if general:  # (e.g. a Pfeffer call that can pay: the advice reads its values per call)
        raise ValueError("the simulator's perfect player plays the plain tables only, not the "
                         f"general solver's ({', '.join(general)})")  # fmt: skip
    if rules.pfeffer and rules.pfeffer_margin % t.step:
        raise ValueError("the Pfeffer margin is not a whole number of the table's steps")
    from pfeffer.dice.solver.gkernels import dice_consts
    from pfeffer.dice.solver.tables import kernel_dice

    groups, options = len(t.group_prob), len(t.opt_points)
    dice = kernel_dice(t)
    consts = dice_consts(dice)
    floats = [np.array([0.5]), t.bust, t.group_prob, consts]  # a tie is shared (no playoff)
    starts = np.cumsum([0, *(len(a) for a in floats)])
    f_normal = int(starts[-1])
    f_auto = f_normal + strategy.normal.size
    f_final = f_auto + strategy.auto.size
    header = np.zeros(o.O_HEADER, dtype=np.int64)
    header[[o.O_LOWER, o.O_TARGET, o.O_STEP, o.O_NFINAL, o.O_MAXP]] = (
        strategy.lower, t.target, t.step, strategy.final.shape[0], t.max_points
    )  # fmt: skip
    header[[o.O_MUST_ROLL, o.O_FINAL_ROUND, o.O_AUTO]] = (
        strategy.rules.hot_dice_must_roll, strategy.rules.final_round, strategy.rules.auto_pfeffer
    )  # fmt: skip
    header[[o.O_GROUPS, o.O_OPTIONS, o.O_F_GP, o.O_F_CONSTS]] = (
        groups, options, int(starts[2]), int(starts[3])
    )  # fmt: skip
    header[[o.O_F_NORMAL, o.O_F_AUTO, o.O_F_FINAL]] = f_normal, f_auto, f_final
    header[[o.O_I_OS, o.O_MIN_BANK, o.O_MARGIN]] = o.O_HEADER + 8, t.min_bank, t.margin
    ints = np.concatenate([header, t.group_start, t.opt_start, t.opt_points, t.opt_left,
                           t.six_nonhot, dice.opt_offset])  # fmt: skip
    flat = np.concatenate([*floats, strategy.normal.ravel(), strategy.auto.ravel(), strategy.final])
    ints = ints.astype(np.int64)
    flat = flat.astype(np.float64)
    ints.flags.writeable = flat.flags.writeable = False
    return CompiledPolicy(KIND_OPTIMAL, ints, flat)


@dataclasses.dataclass(frozen=True)
class CardPolicy:
    """A :class:`~pfeffer.dice.card.Card` (the levels easy, medium and hard), as
    :class:`~pfeffer.dice.card.CardBot` plays it; kind :data:`KIND_CARD`, the card's numbers
    (``Card.params``) in ``ints``."""

    card: Card

    @property
    def name(self) -> str:
        """The card's name."""
        return self.card.name

    def bot(self) -> CardBot:
        """The matching :class:`~pfeffer.dice.card.CardBot`."""
        return CardBot(self.card)

    def compile(self, rules: DiceRules, players: int) -> CompiledPolicy:
        """The arrays of kind :data:`KIND_CARD`."""
        ints = np.array(self.card.params(), dtype=np.int64)
        return CompiledPolicy(KIND_CARD, ints, np.zeros(0, dtype=np.float64))


#: What ``simulate`` takes for a seat: a policy name, a policy, or a solved strategy (perfect
#: play of its table).
PolicyLike: TypeAlias = "str | SimPolicy | DiceStrategy"

#: Policies by name, as ``simulate`` accepts them.
POLICIES: Mapping[str, SimPolicy] = {
    "heuristic": HeuristicPolicy(),
    "threshold": ThresholdPolicy(),
    **{level: CardPolicy(card) for level, card in CARDS.items()},
    "perfect": PerfectPolicy(),
}


def resolve_policy(policy: PolicyLike) -> SimPolicy:
    """A policy given by name (see :data:`POLICIES`) or as an object.

    >>> resolve_policy("genius")
    Traceback (most recent call last):
    ...
    ValueError: no simulator policy 'genius' (choose from heuristic, threshold, easy, ...)
    """
    if isinstance(policy, str):
        try:
            return POLICIES[policy]
        except KeyError:
            names = ", ".join(POLICIES)
            raise ValueError(f"no simulator policy {policy!r} (choose from {names})") from None
    from pfeffer.dice.solver.strategy import DiceStrategy

    if isinstance(policy, DiceStrategy):
        return PerfectPolicy(policy)
    if not hasattr(policy, "compile"):
        raise TypeError(f"a policy is a name or has compile(): not {policy!r}")
    return policy
