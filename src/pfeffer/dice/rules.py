"""House rules of Würfel-Pfeffer as a typed, frozen value (docs/rules.md, "House rules (dice)").

Every field is named exactly like the option in docs/rules.md and defaults to the value given there.

>>> r = DiceRules()
>>> r.target, r.min_bank, r.triples[1], r.extra_dice
(10000, 350, 1000, 'double')
>>> DiceRules(min_bank=500, triples={2: 250}).triples[2]
250
>>> DiceRules.from_dict(DiceRules(tie="playoff").to_dict()) == DiceRules(tie="playoff")
True
>>> DiceRules(extra_dice="triple")
Traceback (most recent call last):
...
pfeffer.core.errors.RulesError: extra_dice must be one of 'double', 'add', 'fixed' (got 'triple')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal

from pfeffer.core.errors import RulesError
from pfeffer.core.rulespec import RuleSpec, check_all, check_names

ExtraDice = Literal["double", "add", "fixed"]
ShortBank = Literal["forbidden", "allowed"]
PfefferReward = Literal["none", "stake"]
Tie = Literal["shared", "playoff"]

DEFAULT_TRIPLES: Mapping[int, int] = MappingProxyType(
    {1: 1000, 2: 200, 3: 300, 4: 400, 5: 500, 6: 600}
)

#: Largest value of a scoring combination or a penalty (a thousandfold the usual values' size).
MAX_POINTS = 100_000

DICE_RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("target", "int", 10000, "Target", "Total that starts the final round.", "D14",
             50, 1_000_000),
    RuleSpec("min_bank", "int", 350, "Minimum to bank",
             "Smallest turn total that may be banked; at most the target.", "D8", 0, MAX_POINTS),
    RuleSpec("min_bank_opening_only", "bool", False, "Minimum only until the first bank",
             "Each player needs the minimum only until they have banked once.", "D8"),
    RuleSpec("single_one", "int", 100, "Single 1", "Points for a single 1.", "D4", 0, 10_000),
    RuleSpec("single_five", "int", 50, "Single 5", "Points for a single 5.", "D4", 0, 10_000),
    RuleSpec("triples", "mapping", DEFAULT_TRIPLES, "Three of a kind",
             "Points for three dice of the same face; faces not given keep their default.", "D4",
             0, MAX_POINTS, keys=(1, 2, 3, 4, 5, 6), key_label="Three {key}s"),
    RuleSpec("extra_dice", "choice", "double", "Four to six of a kind",
             "double: each further die doubles the triple; add: each further die adds the triple "
             "once more; fixed: the fixed values for four, five and six of a kind, for any face.",
             "D4", choices=("double", "add", "fixed")),
    RuleSpec("fixed_four", "int", 1000, "Four of a kind (fixed)",
             "Points for four of a kind when four to six of a kind are fixed.", "D4",
             0, MAX_POINTS),
    RuleSpec("fixed_five", "int", 2000, "Five of a kind (fixed)",
             "Points for five of a kind when four to six of a kind are fixed.", "D4",
             0, MAX_POINTS),
    RuleSpec("fixed_six", "int", 3000, "Six of a kind (fixed)",
             "Points for six of a kind when four to six of a kind are fixed.", "D4",
             0, MAX_POINTS),
    RuleSpec("straight", "int", 1500, "Straight", "Points for 1-2-3-4-5-6 in one throw.", "D4",
             0, MAX_POINTS),
    RuleSpec("three_pairs", "int", 1500, "Three pairs",
             "Points for three pairs in one throw of six dice.", "D4", 0, MAX_POINTS),
    RuleSpec("four_and_pair_is_three_pairs", "bool", True,
             "Four of a kind and a pair as three pairs",
             "Four of a kind with a pair, and six of a kind, may also score as three pairs.", "D4"),
    RuleSpec("hot_dice_must_roll", "bool", True, "Hot dice must be thrown again",
             "After all six dice have scored, the player must throw again before banking.", "D7"),
    RuleSpec("pfeffer", "bool", True, "Pfeffer",
             "Whether a player may call Pfeffer: a bet to beat the predecessor's result.", "D10"),
    RuleSpec("pfeffer_margin", "int", 50, "Pfeffer margin",
             "How much the stake exceeds the predecessor's result.", "D10", 0, 10_000),
    RuleSpec("pfeffer_penalty_factor", "int", 2, "Pfeffer penalty factor",
             "A bust under Pfeffer costs this many times the stake.", "D10", 1, 10),
    RuleSpec("pfeffer_short_bank", "choice", "forbidden", "Banking below the stake",
             "forbidden: a Pfeffer turn banks only at the stake or more; allowed: it may bank "
             "from the minimum up, and falling short of the stake costs nothing.", "D10",
             choices=("forbidden", "allowed")),
    RuleSpec("pfeffer_reward", "choice", "none", "Pfeffer reward",
             "none: a Pfeffer that comes off earns nothing extra; stake: it earns the stake as a "
             "bonus.", "D10", choices=("none", "stake")),
    RuleSpec("auto_pfeffer", "bool", True, "Auto-Pfeffer",
             "A turn after the predecessor's bust is under Pfeffer without a call.", "D11"),
    RuleSpec("auto_pfeffer_penalty", "int", 1000, "Auto-Pfeffer penalty",
             "What a bust under Auto-Pfeffer costs.", "D11", 0, MAX_POINTS),
    RuleSpec("final_round", "bool", True, "Final round",
             "Once a player reaches the target, everyone else has one more turn; off: the first "
             "to reach it wins at once.", "D14"),
    RuleSpec("tie", "choice", "shared", "Tie",
             "shared: equal highest totals share the win; playoff: the tied players play more "
             "rounds until one leads.", "D14", choices=("shared", "playoff")),
)  # fmt: skip
"""One :class:`~pfeffer.core.rulespec.RuleSpec` per option of :class:`DiceRules`, in field order:
the names, defaults, bounds, choices, labels and help texts of the dice house rules."""

_DEFAULT: dict[str, Any] = {s.name: s.default for s in DICE_RULE_SPECS}


class _HashSlot:
    """A slot for the hash of frozen rules, worked out when first asked for: the engine's caches
    are keyed by the rules, and hashing every option each time cost more than the lookup. Not a
    dataclass field, so not an option: outside equality, repr, copies and the stored dict."""

    __slots__ = ("_hash",)
    _hash: int


@dataclasses.dataclass(frozen=True, slots=True)
class DiceRules(_HashSlot):
    """The house rules a table plays; defaults are the rules of docs/rules.md (D1–D14).

    Names, defaults, bounds and choices come from :data:`DICE_RULE_SPECS`; a value out of
    bounds, of the wrong type or not among the choices raises RulesError, and so does a
    ``min_bank`` above the ``target``.

    >>> DiceRules(min_bank=10**399)
    Traceback (most recent call last):
    ...
    pfeffer.core.errors.RulesError: min_bank must be between 0 and 100000 (got ≈10^399)
    >>> DiceRules(target=300)
    Traceback (most recent call last):
    ...
    pfeffer.core.errors.RulesError: min_bank (350) must not be above target (300)
    """

    target: int = _DEFAULT["target"]
    min_bank: int = _DEFAULT["min_bank"]
    min_bank_opening_only: bool = _DEFAULT["min_bank_opening_only"]
    single_one: int = _DEFAULT["single_one"]
    single_five: int = _DEFAULT["single_five"]
    triples: Mapping[int, int] = dataclasses.field(default_factory=lambda: DEFAULT_TRIPLES)
    extra_dice: ExtraDice = _DEFAULT["extra_dice"]
    fixed_four: int = _DEFAULT["fixed_four"]
    fixed_five: int = _DEFAULT["fixed_five"]
    fixed_six: int = _DEFAULT["fixed_six"]
    straight: int = _DEFAULT["straight"]
    three_pairs: int = _DEFAULT["three_pairs"]
    four_and_pair_is_three_pairs: bool = _DEFAULT["four_and_pair_is_three_pairs"]
    hot_dice_must_roll: bool = _DEFAULT["hot_dice_must_roll"]
    pfeffer: bool = _DEFAULT["pfeffer"]
    pfeffer_margin: int = _DEFAULT["pfeffer_margin"]
    pfeffer_penalty_factor: int = _DEFAULT["pfeffer_penalty_factor"]
    pfeffer_short_bank: ShortBank = _DEFAULT["pfeffer_short_bank"]
    pfeffer_reward: PfefferReward = _DEFAULT["pfeffer_reward"]
    auto_pfeffer: bool = _DEFAULT["auto_pfeffer"]
    auto_pfeffer_penalty: int = _DEFAULT["auto_pfeffer_penalty"]
    final_round: bool = _DEFAULT["final_round"]
    tie: Tie = _DEFAULT["tie"]

    def __post_init__(self) -> None:
        checked = check_all(DICE_RULE_SPECS, self)
        object.__setattr__(self, "triples", checked["triples"])
        if self.min_bank > self.target:
            raise RulesError.format(
                "{name} ({value}) must not be above {other} ({limit})",
                name="min_bank",
                value=self.min_bank,
                other="target",
                limit=self.target,
            )

    @classmethod
    def specs(cls) -> tuple[RuleSpec, ...]:
        """The schema of these rules: :data:`DICE_RULE_SPECS`."""
        return DICE_RULE_SPECS

    def __hash__(self) -> int:
        """The hash of every option, worked out once.

        >>> hash(DiceRules(target=5000)) == hash(DiceRules(target=5000))
        True
        >>> DiceRules(target=5000) == DiceRules(target=5000).replace()
        True
        """
        try:
            return self._hash
        except AttributeError:  # not asked for yet (or a copy: copies leave the slot empty)
            value = hash(
                tuple(
                    tuple(sorted(v.items())) if isinstance(v, Mapping) else v
                    for v in (getattr(self, f.name) for f in dataclasses.fields(self))
                )
            )
            object.__setattr__(self, "_hash", value)
            return value

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every option (as stored in game records)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = {str(k): v for k, v in value.items()} if f.name == "triples" else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DiceRules:
        """Rules from a dict such as :meth:`to_dict` gives; unknown options are an error."""
        check_names(DICE_RULE_SPECS, data)
        return cls(**dict(data))

    def replace(self, **changes: Any) -> DiceRules:
        """A copy with some options changed."""
        return dataclasses.replace(self, **changes)
