"""Helpers shared by the game CLIs (dice and cards): house-rule options, seats, records, prompts.

Nothing here knows a game's rules: house rules are read by the field names and types of the
game's rules dataclass, seats by a table of bot kinds the game supplies.

>>> import dataclasses
>>> from typing import Literal
>>> @dataclasses.dataclass(frozen=True)
... class Rules:
...     target: int = 100
...     strict: bool = False
...     tie: Literal["shared", "playoff"] = "shared"
>>> build_rules(Rules, ["target=50", "strict=yes", "tie=playoff"])
Rules(target=50, strict=True, tie='playoff')
>>> build_rules(Rules, ["tie=coin"])
Traceback (most recent call last):
...
pfeffer.cli.common.RuleOptionError: --rule tie=coin: tie must be one of shared, playoff
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import difflib
import os
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar, Union

from platformdirs import user_data_dir
from rich.console import Console

T = TypeVar("T")

DATA_DIR_ENV = "PFEFFER_DATA_DIR"
"""Environment variable that overrides where records are kept (used by tests, handy for users)."""

HELP_WORDS = frozenset({"?", "h", "help"})
QUIT_WORDS = frozenset({"q", "quit", "exit"})
_TRUE = frozenset({"true", "yes", "on", "1", "y"})
_FALSE = frozenset({"false", "no", "off", "0", "n"})


class RuleOptionError(ValueError):
    """A ``--rule key=value`` option that names no house rule or has a value of the wrong kind."""


class QuitRequested(Exception):
    """The player asked to quit (``q``), or the input ended (end of file, Ctrl-C)."""


# ---------------------------------------------------------------------------- house rules


def parse_rule_options(rules_cls: type[Any], options: Iterable[str]) -> dict[str, Any]:
    """Read ``key=value`` strings into keyword arguments for the dataclass ``rules_cls``.

    Values are converted by the field's type: ``int``, ``bool`` (true/false, yes/no, on/off,
    1/0), ``str``, a ``Literal`` of choices, ``X | None`` (``none`` gives None) and mappings
    written ``1:1000,2:250``. A later option for the same key wins.

    >>> from pfeffer.dice import DiceRules
    >>> parse_rule_options(DiceRules, ["min_bank=500", "triples=2:250,3:350", "tie=playoff"])
    {'min_bank': 500, 'triples': {2: 250, 3: 350}, 'tie': 'playoff'}
    >>> parse_rule_options(DiceRules, ["minbank=500"])
    Traceback (most recent call last):
    ...
    pfeffer.cli.common.RuleOptionError: --rule minbank=500: ... (did you mean min_bank?)
    """
    names = [f.name for f in dataclasses.fields(rules_cls)]
    hints = typing.get_type_hints(rules_cls)
    out: dict[str, Any] = {}
    for option in options:
        key, sep, raw = option.partition("=")
        key = key.strip().replace("-", "_")
        raw = raw.strip()
        if not sep or not key:
            raise RuleOptionError(f"--rule {option!r}: write key=value, e.g. {names[0]}=…")
        if key not in names:
            close = difflib.get_close_matches(key, names, n=1)
            hint = f"did you mean {close[0]}?" if close else "known: " + ", ".join(names)
            raise RuleOptionError(f"--rule {option}: there is no house rule {key!r} ({hint})")
        try:
            out[key] = _convert(raw, hints[key], key)
        except RuleOptionError as exc:
            raise RuleOptionError(f"--rule {option}: {exc}") from None
    return out


def build_rules(rules_cls: type[T], options: Iterable[str]) -> T:
    """An instance of ``rules_cls`` with the ``key=value`` options applied (defaults otherwise).

    The rules class's own checks apply too; any error becomes a :class:`RuleOptionError`.
    """
    options = list(options)
    kwargs = parse_rule_options(rules_cls, options)
    try:
        return rules_cls(**kwargs)
    except (ValueError, TypeError) as exc:
        raise RuleOptionError(f"--rule {' '.join(options)}: {exc}") from None


def rule_rows(rules: Any) -> list[tuple[str, str, bool]]:
    """Every house rule of a rules dataclass as ``(name, value text, differs from default)``.

    >>> from pfeffer.dice import DiceRules
    >>> [r for r in rule_rows(DiceRules(min_bank=500)) if r[2]]
    [('min_bank', '500', True)]
    """
    default = type(rules)()
    rows = []
    for f in dataclasses.fields(rules):
        value, base = getattr(rules, f.name), getattr(default, f.name)
        rows.append((f.name, _value_text(value), _value_text(value) != _value_text(base)))
    return rows


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return ",".join(f"{k}:{v}" for k, v in sorted(value.items()))
    if value is None:
        return "none"
    return str(value)


def _convert(raw: str, tp: Any, key: str) -> Any:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    text = raw.lower()
    if origin in (Union, types.UnionType):
        if type(None) in args and text in ("none", "null", "default", ""):
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _convert(raw, arg, key)
            except RuleOptionError as exc:
                errors.append(str(exc))
        raise RuleOptionError("; ".join(errors) + (" (or none)" if type(None) in args else ""))
    if origin is Literal:
        for choice in args:
            if str(choice).lower() == text:
                return choice
        raise RuleOptionError(f"{key} must be one of {', '.join(map(str, args))}")
    if tp is bool:
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise RuleOptionError(f"{key} is true or false (got {raw!r})")
    if tp is int:
        try:
            return int(raw.replace("_", ""))
        except ValueError:
            raise RuleOptionError(f"{key} is a whole number (got {raw!r})") from None
    if tp is float:
        try:
            return float(raw)
        except ValueError:
            raise RuleOptionError(f"{key} is a number (got {raw!r})") from None
    if tp is str:
        return raw
    if origin in (Mapping, dict):
        key_tp, value_tp = args or (str, str)
        out = {}
        for item in filter(None, (p.strip() for p in raw.split(","))):
            k, sep, v = item.partition(":")
            if not sep:
                raise RuleOptionError(f"{key} is written like 1:1000,2:250 (got {raw!r})")
            out[_convert(k.strip(), key_tp, key)] = _convert(v.strip(), value_tp, key)
        return out
    raise RuleOptionError(f"{key} cannot be set from the command line")


# ---------------------------------------------------------------------------- seats


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    """A seat at the table: a human's name, or a bot of some kind with its display name."""

    name: str
    bot: str | None = None

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return self.bot is not None


def parse_seats(specs: Sequence[str], bot_names: Mapping[str, str], default_bot: str) -> list[Seat]:
    """Read seat specifications: a human's name, or ``bot``, ``bot:KIND``, ``bot:KIND=Name``
    or ``bot=Name``. ``bot_names`` maps each bot kind to its default display name. Names are
    made unique by numbering repeats.

    >>> kinds = {"heuristic": "Heuristic", "random": "Random"}
    >>> [(s.name, s.bot) for s in parse_seats(["Anna", "bot", "bot:random=Rudi", "bot"], kinds,
    ...                                         "heuristic")]
    [('Anna', None), ('Heuristic', 'heuristic'), ('Rudi', 'random'), ('Heuristic 2', 'heuristic')]
    >>> parse_seats(["bot:clever"], kinds, "heuristic")
    Traceback (most recent call last):
    ...
    ValueError: 'bot:clever': no bot kind 'clever' (choose from heuristic, random)
    """
    seats: list[Seat] = []
    for spec in specs:
        text = spec.strip()
        head, _, name = text.partition("=")
        word, colon, kind = head.partition(":")
        if word.strip().lower() == "bot":
            kind = kind.strip().lower() if colon else default_bot
            if kind not in bot_names:
                raise ValueError(
                    f"{spec!r}: no bot kind {kind!r} (choose from {', '.join(bot_names)})"
                )
            seats.append(Seat(name.strip() or bot_names[kind], kind))
        elif text:
            seats.append(Seat(text))
        else:
            raise ValueError("a seat needs a name (or 'bot')")
    counts: dict[str, int] = {}
    unique = []
    for seat in seats:
        counts[seat.name] = counts.get(seat.name, 0) + 1
        n = counts[seat.name]
        unique.append(seat if n == 1 else Seat(f"{seat.name} {n}", seat.bot))
    return unique


# ---------------------------------------------------------------------------- records


def data_dir() -> Path:
    """Where pfeffer keeps its files: ``$PFEFFER_DATA_DIR`` or the user data folder."""
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(user_data_dir("pfeffer", appauthor=False))


def records_dir() -> Path:
    """The folder for saved game records and score sheets (created if missing)."""
    path = data_dir() / "records"
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_record_path(game: str, kind: str = "game", now: _dt.datetime | None = None) -> Path:
    """A fresh timestamped file name in the records folder, e.g. ``dice-game-20260130-1412.json``.

    >>> new_record_path("dice", "sheet", _dt.datetime(2026, 1, 30, 14, 12, 5)).name
    'dice-sheet-20260130-141205.json'
    """
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    folder = records_dir()
    path = folder / f"{game}-{kind}-{stamp}.json"
    n = 2
    while path.exists():
        path = folder / f"{game}-{kind}-{stamp}-{n}.json"
        n += 1
    return path


def save_text(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically (a crash never leaves half a file); returns it."""
    path = path.expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
    tmp.replace(path)
    return path


# ---------------------------------------------------------------------------- prompts


def ask(console: Console, prompt: str) -> str:
    """Read one line after ``prompt`` (rich markup allowed); :class:`QuitRequested` on end of
    input or Ctrl-C, so a front end can save and leave cleanly."""
    try:
        return console.input(prompt).strip()
    except (EOFError, KeyboardInterrupt):
        console.print()
        raise QuitRequested from None
