"""Presets: a named set of house rules and seats to start a table with in one choice.

A :class:`Preset` is data: the options that differ from the game's defaults (checked by the
game's rules class like any other house rules) and the seats, each ``"human"`` or ``"bot"``,
the first one the host's. The games keep theirs next to their rules
(:data:`pfeffer.dice.presets.DICE_PRESETS`, :data:`pfeffer.pepper.presets.PEPPER_PRESETS`);
front ends show the label and description (English msgids they translate) and the CLI or the web
server start a game with :attr:`Preset.rules`.

>>> p = Preset("short", "Short game", "First to 5,000.", {"target": 5000}, ("human", "bot"))
>>> find((p,), "short").rules["target"]
5000
>>> find((p,), "long")
Traceback (most recent call last):
...
pfeffer.core.errors.RulesError: 'long' is not a preset; the presets are: short
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Literal

from pfeffer.core.errors import RulesError
from pfeffer.core.rulespec import shown

SeatKind = Literal["human", "bot"]


@dataclasses.dataclass(frozen=True)
class Preset:
    """A named choice of house rules and seats.

    - ``key``: the name an API or a link uses (``"farkle"``);
    - ``label``, ``description``: English texts for people (msgids of the web catalogues);
    - ``rules``: only the options that differ from the defaults (``{}``: the rules as written);
    - ``seats``: one entry per seat, ``"human"`` or ``"bot"``; the first is the host's.
    """

    key: str
    label: str
    description: str
    rules: Mapping[str, Any]
    seats: tuple[SeatKind, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", MappingProxyType(dict(self.rules)))

    @property
    def humans(self) -> int:
        """How many seats are for people."""
        return sum(1 for s in self.seats if s == "human")


def find(presets: Iterable[Preset], key: Any) -> Preset:
    """The preset called ``key``; RulesError (translatable) naming the presets if none is."""
    known = list(presets)
    for p in known:
        if p.key == key:
            return p
    raise RulesError.format(
        "{key} is not a preset; the presets are: {keys}",
        key=shown(key),
        keys=", ".join(p.key for p in known),
    )
