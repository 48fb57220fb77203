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

ExtraDice = Literal["double", "add", "fixed"]
ShortBank = Literal["forbidden", "allowed"]
PfefferReward = Literal["none", "stake"]
Tie = Literal["shared", "playoff"]

DEFAULT_TRIPLES: Mapping[int, int] = MappingProxyType(
    {1: 1000, 2: 200, 3: 300, 4: 400, 5: 500, 6: 600}
)

_CHOICES: dict[str, tuple[str, ...]] = {
    "extra_dice": ("double", "add", "fixed"),
    "pfeffer_short_bank": ("forbidden", "allowed"),
    "pfeffer_reward": ("none", "stake"),
    "tie": ("shared", "playoff"),
}


@dataclasses.dataclass(frozen=True, slots=True)
class DiceRules:
    """The house rules a table plays; defaults are the rules of docs/rules.md (D1–D14)."""

    target: int = 10000
    min_bank: int = 350
    min_bank_opening_only: bool = False
    single_one: int = 100
    single_five: int = 50
    triples: Mapping[int, int] = dataclasses.field(default_factory=lambda: DEFAULT_TRIPLES)
    extra_dice: ExtraDice = "double"
    fixed_four: int = 1000
    fixed_five: int = 2000
    fixed_six: int = 3000
    straight: int = 1500
    three_pairs: int = 1500
    four_and_pair_is_three_pairs: bool = True
    hot_dice_must_roll: bool = True
    pfeffer: bool = True
    pfeffer_margin: int = 50
    pfeffer_penalty_factor: int = 2
    pfeffer_short_bank: ShortBank = "forbidden"
    pfeffer_reward: PfefferReward = "none"
    auto_pfeffer: bool = True
    auto_pfeffer_penalty: int = 1000
    final_round: bool = True
    tie: Tie = "shared"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "triples":
                continue
            if f.type == "bool":
                if not isinstance(value, bool):
                    raise RulesError.format(
                        "{name} must be true or false (got {value})", name=f.name, value=repr(value)
                    )
            elif f.type == "int":
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise RulesError.format(
                        "{name} must be a whole number >= 0 (got {value})",
                        name=f.name,
                        value=repr(value),
                    )
            elif value not in _CHOICES[f.name]:
                allowed = ", ".join(repr(c) for c in _CHOICES[f.name])
                raise RulesError.format(
                    "{name} must be one of {allowed} (got {value})",
                    name=f.name,
                    allowed=allowed,
                    value=repr(value),
                )
        if self.target <= 0:
            raise RulesError("target must be above 0")
        if self.pfeffer_penalty_factor < 1:
            raise RulesError("pfeffer_penalty_factor must be at least 1")
        object.__setattr__(self, "triples", _check_triples(self.triples))

    def __hash__(self) -> int:
        return hash(
            tuple(
                tuple(sorted(v.items())) if isinstance(v, Mapping) else v
                for v in (getattr(self, f.name) for f in dataclasses.fields(self))
            )
        )

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
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise RulesError.format("unknown house rule(s): {names}", names=", ".join(unknown))
        return cls(**dict(data))

    def replace(self, **changes: Any) -> DiceRules:
        """A copy with some options changed."""
        return dataclasses.replace(self, **changes)


def _check_triples(value: Any) -> Mapping[int, int]:
    if not isinstance(value, Mapping):
        raise RulesError("triples must map faces 1-6 to points, e.g. {1: 1000, 2: 200}")
    merged = dict(DEFAULT_TRIPLES)
    for key, points in value.items():
        try:
            face = int(key)
        except (TypeError, ValueError):
            raise RulesError.format("triples: {key} is not a die face", key=repr(key)) from None
        if face not in merged:
            raise RulesError.format("triples: {face} is not a die face (1-6)", face=face)
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise RulesError.format(
                "triples: points for three {face}s must be a whole number >= 0", face=face
            )
        merged[face] = points
    return MappingProxyType(merged)
