"""The house-rule schema: one :class:`RuleSpec` per option of a game's rules.

A spec holds everything a front end or a check needs to know about one option: its name (the
field of ``DiceRules`` / ``PepperRules``), its type, its default, the bounds of a number, the
choices of a string, a label and a help text (English, translated by the web front end through
its gettext catalogues) and the rule id of docs/rules.md it belongs to. The rules classes validate
with their specs, the CLI's ``--rule`` and ``rules`` commands, the web form and the docs test read
them: a name, default or bound is written down once, here.

>>> spec = RuleSpec("target", "int", 30, "Target", "Score that ends the game.", "P11", 1, 1000)
>>> spec.parse("50")
50
>>> spec.check(10**26)
Traceback (most recent call last):
...
pfeffer.core.errors.RulesError: target must be between 1 and 1000 (got ≈10^26)
>>> spec.describe(50), spec.type_text()
('50', 'whole number 1 to 1,000')
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Literal

from pfeffer.core.errors import RulesError

RuleType = Literal["int", "bool", "choice", "mapping"]

TRUE_WORDS = frozenset({"true", "yes", "on", "1", "y"})
"""Words that mean yes in a ``--rule`` value or a form field."""
FALSE_WORDS = frozenset({"false", "no", "off", "0", "n"})
"""Words that mean no."""
NONE_WORDS = frozenset({"none", "null", "default", ""})
"""Words that mean None for an optional option (``set_penalty=none``)."""

_BIG = 10**15  # numbers from here on are shown as ≈10^k in messages


def shown(value: Any) -> str:
    """A value as an error message shows it: ``repr``, but short even for absurd input.

    >>> shown(42), shown("x"), shown(10**399), shown(-(10**26))
    ('42', "'x'", '≈10^399', '-≈10^26')
    >>> shown("a" * 100)
    "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…"
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _BIG:
        digits = int(abs(value).bit_length() * math.log10(2))
        if abs(value) >= 10 ** (digits + 1):
            digits += 1
        return f"{'-' if value < 0 else ''}≈10^{digits}"
    text = repr(value)
    return text if len(text) <= 40 else text[:38] + "…"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclasses.dataclass(frozen=True, slots=True)
class RuleSpec:
    """One house rule: what it is called, what values it takes and what it means.

    - ``type``: ``"int"`` (a whole number from ``min`` to ``max``), ``"bool"``, ``"choice"`` (one
      of ``choices``) or ``"mapping"`` (each of ``keys`` to a whole number from ``min`` to
      ``max``; keys not given keep their default).
    - ``label``, ``help``: English texts for people; front ends translate them (msgid = the text).
    - ``rule``: the rule id in docs/rules.md (``"D8"``, ``"P10"``).
    - ``optional``: None is allowed too and means ``none_text`` (``set_penalty``: by player count).
    - ``key_label``: for a mapping, the label of one key's field, with ``{key}`` (``Three {key}s``).
    """

    name: str
    type: RuleType
    default: Any
    label: str
    help: str
    rule: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    optional: bool = False
    none_text: str = ""
    keys: tuple[int, ...] = ()
    key_label: str = ""

    # ------------------------------------------------------------------ checking

    def check(self, value: Any) -> Any:
        """``value`` if this option allows it (a mapping: merged with the default, read-only),
        else :class:`RulesError` with a translatable message.

        >>> s = RuleSpec("tie", "choice", "shared", "Tie", "Ties.", "D14",
        ...              choices=("shared", "playoff"))
        >>> s.check("playoff")
        'playoff'
        >>> s.check("coin")
        Traceback (most recent call last):
        ...
        pfeffer.core.errors.RulesError: tie must be one of 'shared', 'playoff' (got 'coin')
        """
        if value is None and self.optional:
            return None
        if self.type == "bool":
            if not isinstance(value, bool):
                raise RulesError.format(
                    "{name} must be true or false (got {value})", name=self.name, value=shown(value)
                )
            return value
        if self.type == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise RulesError.format(
                    "{name} must be one of {allowed} (got {value})",
                    name=self.name,
                    allowed=", ".join(repr(c) for c in self.choices),
                    value=shown(value),
                )
            return value
        if self.type == "mapping":
            return self._check_mapping(value)
        return self._check_int(self.name, value)

    def _check_int(self, name: str, value: Any) -> int:
        if not _is_int(value):
            if self.optional:
                raise RulesError.format(
                    "{name} must be a whole number or none (got {value})",
                    name=name,
                    value=shown(value),
                )
            raise RulesError.format(
                "{name} must be a whole number (got {value})", name=name, value=shown(value)
            )
        low = self.min if self.min is not None else -math.inf
        high = self.max if self.max is not None else math.inf
        if not low <= value <= high:
            raise RulesError.format(
                "{name} must be between {low} and {high} (got {value})",
                name=name,
                low=self.min,
                high=self.max,
                value=shown(value),
            )
        return int(value)

    def _check_mapping(self, value: Any) -> Mapping[int, int]:
        if not isinstance(value, Mapping):
            raise RulesError.format(
                "{name} must map each of {keys} to a whole number (got {value})",
                name=self.name,
                keys=self.keys_text(),
                value=shown(value),
            )
        merged = dict(self.default)
        for key, points in value.items():
            k = self._key(key)
            merged[k] = self._check_int(f"{self.name}[{k}]", points)
        return MappingProxyType(merged)

    def _key(self, key: Any) -> int:
        k = _number(key.strip()) if isinstance(key, str) else key
        if not _is_int(k) or k not in self.keys:
            raise RulesError.format(
                "{name}: {key} is not one of {keys}",
                name=self.name,
                key=shown(k),
                keys=self.keys_text(),
            )
        return int(k)

    # ------------------------------------------------------------------ text in, text out

    def parse(self, text: str) -> Any:
        """The value written as ``text`` (a ``--rule`` value or a form field), checked.

        Whole numbers may use ``_`` between digits; yes/no options take true/false, yes/no,
        on/off, 1/0; choices ignore case; a mapping is written ``2:250,3:350``; an optional
        option takes ``none`` (or an empty text) for None.

        >>> s = RuleSpec("triples", "mapping", {1: 1000, 2: 200}, "T", "H", "D4", 0, 10_000,
        ...              keys=(1, 2))
        >>> dict(s.parse("2:250"))
        {1: 1000, 2: 250}
        >>> RuleSpec("pfeffer", "bool", True, "P", "H", "D10").parse("no")
        False
        """
        raw = text.strip()
        low = raw.lower()
        if self.optional and low in NONE_WORDS:
            return None
        if self.type == "bool":
            if low in TRUE_WORDS:
                return True
            if low in FALSE_WORDS:
                return False
            return self.check(raw)
        if self.type == "choice":
            for choice in self.choices:
                if choice.lower() == low:
                    return choice
            return self.check(raw)
        if self.type == "mapping":
            out: dict[Any, Any] = {}
            for item in filter(None, (p.strip() for p in raw.split(","))):
                key, sep, number = item.partition(":")
                if not sep:
                    raise RulesError.format(
                        "{name} is written like {example} (got {value})",
                        name=self.name,
                        example=self.example(),
                        value=shown(raw),
                    )
                out[self._key(key)] = _number(number.strip())
            return self.check(out)
        return self.check(_number(raw))

    def describe(self, value: Any) -> str:
        """``value`` for display, written the way ``--rule`` takes it (None: ``none_text``).

        >>> RuleSpec("pfeffer", "bool", True, "P", "H", "D10").describe(False)
        'false'
        >>> RuleSpec("p", "int", None, "P", "H", "P10", 0, 9, optional=True,
        ...          none_text="by player count").describe(None)
        'none (by player count)'
        """
        if value is None:
            return f"none ({self.none_text})" if self.none_text else "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, Mapping):
            return ",".join(f"{k}:{v}" for k, v in sorted(value.items()))
        return str(value)

    def type_text(self) -> str:
        """What values the option takes, in English Markdown (the type column of docs/rules.md).

        >>> RuleSpec("tie", "choice", "shared", "T", "H", "D14", choices=("shared", "playoff")
        ...          ).type_text()
        '`"shared"` or `"playoff"`'
        """
        if self.type == "bool":
            return "yes/no"
        if self.type == "choice":
            quoted = [f'`"{c}"`' for c in self.choices]
            return ", ".join(quoted[:-1]) + " or " + quoted[-1]
        numbers = f"whole number {self.min:,} to {self.max:,}"
        if self.type == "mapping":
            return f"{self.keys_text()} → {numbers}"
        return f"{numbers}, or `None`" if self.optional else numbers

    def keys_text(self) -> str:
        """The keys of a mapping as a range or list: ``1-6``."""
        ks = self.keys
        if ks and list(ks) == list(range(ks[0], ks[-1] + 1)):
            return f"{ks[0]}-{ks[-1]}"
        return ", ".join(map(str, ks))

    def example(self) -> str:
        """An example value as ``--rule`` takes it: ``triples=2:250`` style for a mapping."""
        if self.type == "mapping" and self.keys:
            key = self.keys[1] if len(self.keys) > 1 else self.keys[0]
            return f"{key}:{self.default[key]}"
        return self.describe(self.default)

    # ------------------------------------------------------------------ form fields

    def field_names(self) -> tuple[str, ...]:
        """The form fields of this option: its name, or ``name_key`` for each key of a mapping.

        >>> RuleSpec("triples", "mapping", {1: 1000, 2: 200}, "T", "H", "D4", 0, 9,
        ...          keys=(1, 2)).field_names()
        ('triples_1', 'triples_2')
        """
        if self.type == "mapping":
            return tuple(f"{self.name}_{k}" for k in self.keys)
        return (self.name,)


def _number(text: str) -> Any:
    """A whole number written in ``text`` (digits, an optional sign, ``_`` between digits), or
    the text itself, which the check then reports."""
    cleaned = text.replace("_", "")
    body = cleaned.lstrip("+-")
    if body.isdigit() and body.isascii() and len(body) <= 4000:
        return int(cleaned)
    return text


def spec_map(specs: Iterable[RuleSpec]) -> dict[str, RuleSpec]:
    """The specs by name."""
    return {s.name: s for s in specs}


def check_names(specs: Iterable[RuleSpec], names: Iterable[str]) -> None:
    """RulesError naming every name in ``names`` that is no option of ``specs``.

    >>> check_names([RuleSpec("a", "bool", True, "A", "H", "D1")], ["a", "b"])
    Traceback (most recent call last):
    ...
    pfeffer.core.errors.RulesError: unknown house rule(s): b
    """
    known = {s.name for s in specs}
    unknown = sorted(set(names) - known)
    if unknown:
        raise RulesError.format("unknown house rule(s): {names}", names=", ".join(unknown))


def check_all(specs: Iterable[RuleSpec], rules: Any) -> dict[str, Any]:
    """Every option of the ``rules`` object checked against its spec: {name: checked value}."""
    return {s.name: s.check(getattr(rules, s.name)) for s in specs}


def parse_form(specs: Iterable[RuleSpec], form: Mapping[str, Any]) -> dict[str, Any]:
    """Options from the fields of an HTML form (all text): a missing or empty number keeps its
    default (an optional one becomes None), a checkbox is on when present, a mapping comes from
    its ``name_key`` fields. Values are parsed and checked; RulesError if one is wrong.

    >>> specs = [RuleSpec("target", "int", 30, "T", "H", "P11", 1, 1000),
    ...          RuleSpec("no_trump", "bool", True, "N", "H", "P7"),
    ...          RuleSpec("triples", "mapping", {1: 1000, 2: 200}, "T", "H", "D4", 0, 9999,
    ...                   keys=(1, 2))]
    >>> out = parse_form(specs, {"target": "50", "triples_2": "250"})
    >>> out["target"], out["no_trump"], dict(out["triples"])
    (50, False, {1: 1000, 2: 250})
    """
    out: dict[str, Any] = {}
    for spec in specs:
        if spec.type == "bool":
            out[spec.name] = form.get(spec.name) is not None
        elif spec.type == "mapping":
            given = {
                k: str(form.get(f))
                for k, f in zip(spec.keys, spec.field_names(), strict=True)
                if str(form.get(f) or "").strip()
            }
            out[spec.name] = spec.check({k: _number(v.strip()) for k, v in given.items()})
        else:
            text = str(form.get(spec.name) or "").strip()
            if text == "" and spec.type == "int":
                if spec.optional:
                    out[spec.name] = None
                continue  # a missing number keeps the default
            if form.get(spec.name) is not None:
                out[spec.name] = spec.parse(text)
    return out


def texts(specs: Iterable[RuleSpec]) -> list[str]:
    """Every text of ``specs`` that a person reads: labels, help texts, what None means, the
    label of a mapping's key (these are the msgids of the translations)."""
    out: list[str] = []
    for s in specs:
        out += [t for t in (s.label, s.help, s.none_text, s.key_label) if t]
    return out
