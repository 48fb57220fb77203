"""Helpers shared by the game CLIs (dice and cards): house-rule options, seats, records, prompts,
and the pieces of the front ends that are the same for every game (errors, loading, the rules
command, bots, prompt loops, the score-sheet session).

Nothing here knows a game's rules: house rules are read through the game's rule specs
(:class:`~pfeffer.core.rulespec.RuleSpec`, ``rules_cls.specs()``), seats by the game's bot
registry.

>>> from pfeffer.pepper import PepperRules
>>> build_rules(PepperRules, ["target=50", "no_trump=no", "all_pass=Redeal"])
PepperRules(target=50, all_pass='redeal', set_penalty=None, big_pepper_factor=2, no_trump=False)
>>> build_rules(PepperRules, ["all_pass=never"])
Traceback (most recent call last):
...
pfeffer.cli.common.RuleOptionError: --rule all_pass=never: all_pass must be one of ... (got 'never')
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import difflib
import json
import os
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, ClassVar, Generic, Protocol, TypeVar

import typer
from platformdirs import user_data_dir
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from pfeffer.cli import words
from pfeffer.cli.words import _, shown
from pfeffer.core.bots import Bot, BotRegistry
from pfeffer.core.entries import EntryCheck
from pfeffer.core.errors import ActionError, RecordError, RulesError, TranslatableError
from pfeffer.core.i18n import PHRASE_PARAMS
from pfeffer.core.records import dumps
from pfeffer.core.rules_text import Rule
from pfeffer.core.rulespec import RuleSpec, spec_map

T = TypeVar("T")

DATA_DIR_ENV = "PFEFFER_DATA_DIR"
"""Environment variable that overrides where records are kept (used by tests, handy for users)."""

HELP_WORDS = frozenset({"?", "h", "help"})
QUIT_WORDS = frozenset({"q", "quit", "exit"})


class RuleOptionError(ValueError):
    """A ``--rule key=value`` option that names no house rule or has a value of the wrong kind."""


class QuitRequested(Exception):
    """The player asked to quit (``q``), or the input ended (end of file, Ctrl-C)."""


# ---------------------------------------------------------------------------- house rules


class SpecifiedRules(Protocol):
    """A game's rules class as the CLI needs it: built from keyword arguments, described by
    its specs (``DiceRules``, ``PepperRules``)."""

    def __init__(self, **changes: Any) -> None: ...  # pragma: no cover

    @classmethod
    def specs(cls) -> tuple[RuleSpec, ...]:
        """One spec per option, in field order."""
        ...  # pragma: no cover


R = TypeVar("R", bound=SpecifiedRules)


def parse_rule_options(rules_cls: type[SpecifiedRules], options: Iterable[str]) -> dict[str, Any]:
    """Read ``key=value`` strings into keyword arguments for ``rules_cls``, by its specs.

    Values are parsed by :meth:`RuleSpec.parse`: whole numbers within the option's bounds,
    yes/no options (true/false, yes/no, on/off, 1/0), one of the choices, ``none`` for an
    optional option and mappings written ``1:1000,2:250``. A later option for the same key wins.

    >>> from pfeffer.dice import DiceRules
    >>> opts = parse_rule_options(DiceRules, ["min_bank=500", "triples=2:250,3:350", "tie=playoff"])
    >>> opts["min_bank"], opts["tie"], dict(opts["triples"])
    (500, 'playoff', {1: 1000, 2: 250, 3: 350, 4: 400, 5: 500, 6: 600})
    >>> parse_rule_options(DiceRules, ["minbank=500"])
    Traceback (most recent call last):
    ...
    pfeffer.cli.common.RuleOptionError: --rule minbank=500: ... (did you mean min_bank?)
    >>> parse_rule_options(DiceRules, ["target=10_000_000"])
    Traceback (most recent call last):
    ...
    pfeffer.cli.common.RuleOptionError: --rule target=10_000_000: target must be between 50 and ...
    """
    specs = spec_map(rules_cls.specs())
    names = list(specs)
    out: dict[str, Any] = {}
    for option in options:
        key, sep, raw = option.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise RuleOptionError(f"--rule {option!r}: write key=value, e.g. {names[0]}=…")
        if key not in specs:
            close = difflib.get_close_matches(key, names, n=1)
            hint = f"did you mean {close[0]}?" if close else "known: " + ", ".join(names)
            raise RuleOptionError(f"--rule {option}: there is no house rule {key!r} ({hint})")
        try:
            out[key] = specs[key].parse(raw)
        except RulesError as exc:
            raise RuleOptionError(f"--rule {option}: {exc}") from None
    return out


def build_rules(rules_cls: type[R], options: Iterable[str]) -> R:
    """An instance of ``rules_cls`` with the ``key=value`` options applied (defaults otherwise).

    The rules class's own checks apply too (``min_bank`` at most the ``target``); any error
    becomes a :class:`RuleOptionError`.
    """
    options = list(options)
    kwargs = parse_rule_options(rules_cls, options)
    try:
        return rules_cls(**kwargs)
    except (ValueError, TypeError) as exc:
        raise RuleOptionError(f"--rule {' '.join(options)}: {exc}") from None


@dataclasses.dataclass(frozen=True, slots=True)
class RuleRow:
    """One house rule as the ``rules`` command shows it."""

    spec: RuleSpec
    value: str
    default: str

    @property
    def changed(self) -> bool:
        """True if the value in force is not the default."""
        return self.value != self.default


def rule_rows(rules: Any) -> list[RuleRow]:
    """Every house rule of a rules object (``DiceRules``, ``PepperRules``) with the value in
    force and the default, written as ``--rule`` takes them.

    >>> from pfeffer.dice import DiceRules
    >>> [(r.spec.name, r.value, r.default) for r in rule_rows(DiceRules(min_bank=500)) if r.changed]
    [('min_bank', '500', '350')]
    """
    return [
        RuleRow(spec, spec.describe(getattr(rules, spec.name)), spec.describe(spec.default))
        for spec in type(rules).specs()
    ]


# ---------------------------------------------------------------------------- seats


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    """A seat at the table: a human's name, or a bot of some kind with its display name."""

    name: str
    bot: str | None = None
    #: The bot's level (``hard``, ``easy``, …); None: its kind's default level.
    level: str | None = None

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return self.bot is not None


def parse_seats(specs: Sequence[str], bots: BotRegistry[Any]) -> list[Seat]:
    """Read seat specifications: a human's name, or ``bot``, ``bot:KIND``, ``bot:LEVEL``,
    ``bot:KIND:LEVEL``, each with ``=Name`` to name it; the kinds, their levels and their names
    come from the game's bot registry (:func:`bot_kind_and_level`).

    Two people cannot have the same name (:func:`check_names`). Computer players without a
    name of their own are called by their kind's label; when several share one (or a person
    has it), they get letters, never numbers (a number reads like a bid or points):

    >>> from pfeffer.dice.bots import DICE_BOTS
    >>> [(s.name, s.bot) for s in parse_seats(["Anna", "bot", "bot:random=Rudi", "bot"],
    ...                                         DICE_BOTS)]
    [('Anna', None), ('Heuristic A', 'heuristic'), ('Rudi', 'random'), ('Heuristic B', 'heuristic')]
    >>> [(s.name, s.bot, s.level) for s in parse_seats(["bot:hard", "bot:optimal:easy=Eva"],
    ...                                                  DICE_BOTS)]
    [('Hard', 'optimal', 'hard'), ('Eva', 'optimal', 'easy')]
    >>> parse_seats(["bot:clever"], DICE_BOTS)
    Traceback (most recent call last):
    ...
    ValueError: 'bot:clever': no computer player 'clever' (choose from heuristic, random, ...
    >>> parse_seats(["Anna", "anna"], DICE_BOTS)
    Traceback (most recent call last):
    ...
    ValueError: Two players are called 'anna': give each player a different name.
    """
    seats: list[Seat] = []
    labelled: list[int] = []  # seats named after their kind's label
    for spec in specs:
        text = spec.strip()
        head, _eq, name = text.partition("=")
        word, colon, kind = head.partition(":")
        if word.strip().lower() == "bot":
            try:
                key, level = bot_kind_and_level(bots, kind if colon else "")
            except ValueError as exc:
                raise ValueError(
                    _("%(spec)s: %(error)s") % {"spec": repr(spec), "error": exc}
                ) from None
            if not name.strip():
                labelled.append(len(seats))
            label = level.capitalize() if level else bots.kind(key).label
            seats.append(Seat(name.strip() or label, key, level))
        elif text:
            seats.append(Seat(text))
        else:
            raise ValueError(_("a seat needs a name (or 'bot')"))
    check_names([s.name for i, s in enumerate(seats) if i not in labelled])
    taken = {s.name.casefold() for i, s in enumerate(seats) if i not in labelled}
    for label in dict.fromkeys(seats[i].name for i in labelled):
        group = [i for i in labelled if seats[i].name == label]
        if len(group) == 1 and label.casefold() not in taken:
            taken.add(label.casefold())
            continue
        letters = (f"{label} {chr(65 + k)}" for k in range(26))
        for i in group:
            name = next(n for n in letters if n.casefold() not in taken)
            taken.add(name.casefold())
            seats[i] = dataclasses.replace(seats[i], name=name)
    return seats


def bot_kind_and_level(bots: BotRegistry[Any], text: str) -> tuple[str, str | None]:
    """The bot kind and level (None: the kind's default) that ``text`` names: ``""`` (the
    default kind), ``KIND``, ``KIND:LEVEL``, or a ``LEVEL`` that only one kind has (docs/dice.md
    speaks of the levels ``hard``, ``medium``, ``easy``).

    >>> from pfeffer.dice.bots import DICE_BOTS
    >>> bot_kind_and_level(DICE_BOTS, ""), bot_kind_and_level(DICE_BOTS, "Hard")
    (('heuristic', None), ('optimal', 'hard'))
    >>> bot_kind_and_level(DICE_BOTS, "random:hard")
    Traceback (most recent call last):
    ...
    ValueError: random has no level 'hard' (choose from random)
    """
    key, _colon, level = text.strip().lower().partition(":")
    key, level = key.strip() or bots.default, level.strip()
    if key in bots:
        levels = bots.kind(key).levels
        if level and level not in levels:
            raise ValueError(
                _("%(kind)s has no level %(level)s (choose from %(choices)s)")
                % {"kind": key, "level": repr(level), "choices": ", ".join(levels)}
            )
        return key, (level if level and level != levels[0] else None)
    owners = [k for k in bots if key in k.levels]
    if not level and len(owners) == 1:
        kind = owners[0]
        return kind.key, (key if key != kind.levels[0] else None)
    raise ValueError(
        _("no computer player %(kind)s (choose from %(choices)s)")
        % {"kind": repr(key), "choices": bot_choices(bots)}
    )


def bot_choices(bots: BotRegistry[Any]) -> str:
    """The bot kinds and levels a seat can name, for help texts and errors.

    >>> from pfeffer.dice.bots import DICE_BOTS
    >>> bot_choices(DICE_BOTS)
    'heuristic, random, optimal, or a level: perfect, hard, medium, easy'
    """
    levels = [level for k in bots if len(k.levels) > 1 for level in k.levels]
    tail = f", or a level: {', '.join(levels)}" if levels else ""
    return ", ".join(bots.keys()) + tail


def seat_help(bots: BotRegistry[Any]) -> str:
    """How a seat names a computer player, from the game's bot registry (``play --help``).

    >>> from pfeffer.pepper.bots import PEPPER_BOTS
    >>> print(seat_help(PEPPER_BOTS).replace("or a", "\\nor a"))
    bot (heuristic), bot:heuristic, bot:random, bot:expert,
    or a level: bot:expert, bot:hard, bot:medium, bot:easy; bot:KIND=Name names it
    """
    kinds = ", ".join(f"bot:{k.key}" for k in bots)
    levels = [level for k in bots if len(k.levels) > 1 for level in k.levels]
    tail = f", or a level: {', '.join(f'bot:{lv}' for lv in levels)}" if levels else ""
    return f"bot ({bots.default}), {kinds}{tail}; bot:KIND=Name names it"


def check_names(names: Sequence[str]) -> None:
    """Refuse two players with the same name (letter case aside): they could not be told apart
    on the sheet or at a prompt. Raises :class:`ValueError` with a message for the user.

    >>> check_names(["Anna", "Ben"])
    >>> check_names(["Anna", "Ben", "ANNA"])
    Traceback (most recent call last):
    ...
    ValueError: Two players are called 'ANNA': give each player a different name.
    """
    seen: set[str] = set()
    for name in names:
        key = name.strip().casefold()
        if key in seen:
            raise ValueError(
                _("Two players are called %(name)s: give each player a different name.")
                % {"name": repr(name.strip())}
            )
        seen.add(key)


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
    """Write ``text`` to ``path`` atomically (a crash never leaves half a file); returns it.

    The text goes to ``PATH.tmp`` first, which then replaces the file; if anything fails, the
    temporary file is removed again and the error is raised.
    """
    path = path.expanduser()
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a folder")
    if path.exists() and not path.is_file():  # never replace a device or a pipe by a file
        raise OSError(f"{path} is not a regular file")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise
    return path


def check_save_path(path: Path, option: str = "--save") -> Path:
    """The file ``path`` (``~`` expanded) if a record can be written there; else a usage error
    (:class:`typer.BadParameter` for ``option``, exit status 2) that says why, before the game
    starts: a folder, something that is not a regular file (``/dev/full`` was replaced by a
    file), a folder that does not exist (it was created silently), or a place where no file
    can be written (``/proc``: found by writing a probe file there now, not at the game's end).
    """
    path = path.expanduser()
    if path.is_dir():
        raise typer.BadParameter(
            _("%(path)s is a folder; give a file name, e.g. %(example)s")
            % {"path": path, "example": path / "game.json"},
            param_hint=option,
        )
    if path.exists() and not path.is_file():
        raise typer.BadParameter(
            _("%(path)s is not a regular file; give the name of a file to write") % {"path": path},
            param_hint=option,
        )
    folder = path.parent
    if not folder.is_dir():
        found = folder
        while not found.exists() and found != found.parent:
            found = found.parent
        if found.exists() and not found.is_dir():
            raise typer.BadParameter(
                _("%(path)s is a file, not a folder") % {"path": found}, param_hint=option
            )
        raise typer.BadParameter(
            _("the folder %(path)s does not exist; create it first") % {"path": folder},
            param_hint=option,
        )
    if path.exists() and not os.access(path, os.W_OK):
        raise typer.BadParameter(
            _("cannot write %(path)s: permission denied") % {"path": path}, param_hint=option
        )
    try:  # as the save will: a temporary file in that folder (root passes os.access anywhere)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".pfeffer-probe-"):
            pass
    except OSError as exc:
        raise typer.BadParameter(
            _("cannot write in %(path)s: %(error)s")
            % {"path": folder, "error": exc.strerror or exc},
            param_hint=option,
        ) from None
    return path


BOTS_FIELD = "bots"
"""The field a terminal game adds to its record: the bot kind of every seat (None: a person),
so that ``play --resume`` knows who the computer plays. Engines ignore it."""


def record_text(record: dict[str, Any], seats: Sequence[Seat]) -> str:
    """The JSON text of a game ``record`` with the seats' bot kinds added (:data:`BOTS_FIELD`)."""
    kinds = [s.bot if s.bot is None or s.level is None else f"{s.bot}:{s.level}" for s in seats]
    return dumps({**record, BOTS_FIELD: kinds})


def seats_of_record(record: dict[str, Any]) -> list[Seat]:
    """The seats of a saved game: its players, with the bot kinds the terminal wrote
    (:data:`BOTS_FIELD`); a record without them (saved elsewhere) has only people.

    >>> [(s.name, s.bot) for s in seats_of_record({"players": ["You", "Hal"],
    ...                                            "bots": [None, "heuristic"]})]
    [('You', None), ('Hal', 'heuristic')]
    """
    names = [str(n) for n in record.get("players", [])]
    kinds = record.get(BOTS_FIELD)
    if not isinstance(kinds, list) or len(kinds) != len(names):
        kinds = [None] * len(names)
    seats = []
    for name, kind in zip(names, kinds, strict=True):
        key, _, level = kind.partition(":") if isinstance(kind, str) else ("", "", "")
        seats.append(Seat(name, key or None, level or None))
    return seats


# ---------------------------------------------------------------------------- prompts


@contextlib.contextmanager
def thinking(console: Console, what: str | None = None) -> Iterator[None]:
    """Show ``what`` with a spinner while the block runs (a hint or a review can take seconds,
    the first one after an install longer while its code compiles), then discard the keys typed
    meanwhile: they were typed blind and must not answer the next prompt.

    >>> import io
    >>> with thinking(Console(file=io.StringIO())):
    ...     pass
    """
    if not console.is_terminal:
        yield
        return
    with console.status(f"[dim]{escape(_('thinking…') if what is None else what)}[/]"):
        yield
    discard_typed_keys()


def discard_typed_keys() -> None:
    """Drop what was typed ahead on a terminal's input (nothing if stdin is no terminal)."""
    try:
        import termios
    except ImportError:  # Windows: nothing to drop
        return
    with contextlib.suppress(OSError, ValueError, termios.error):
        if sys.stdin.isatty():
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


def clear_screen(console: Console) -> None:
    """Clear the terminal and its scrollback (``ESC[3J``), so that a hot-seat player cannot
    scroll back to the previous player's cards; nothing on a console that is no terminal.

    >>> import io
    >>> out = io.StringIO()
    >>> clear_screen(Console(file=out, force_terminal=True))
    >>> "\x1b[2J" in out.getvalue() and "\x1b[3J" in out.getvalue()
    True
    """
    if console.is_terminal:
        console.clear()
        console.file.write("\x1b[3J")  # xterm's "erase saved lines"; Rich has no control for it
        console.file.flush()


def ask(console: Console, prompt: str) -> str:
    """Read one line after ``prompt`` (rich markup allowed); :class:`QuitRequested` on end of
    input or Ctrl-C, so a front end can save and leave cleanly."""
    try:
        return console.input(prompt).strip()
    except (EOFError, KeyboardInterrupt):
        console.print()
        raise QuitRequested from None


def ask_player_names(console: Console) -> list[str]:
    """Ask for the players' names, separated by commas; end of input exits with status 1."""
    try:
        line = ask(console, _("Players in seat order, separated by commas: "))
    except QuitRequested:
        raise typer.Exit(1) from None
    return [n.strip() for n in line.split(",") if n.strip()]


def confirm(console: Console, question: str) -> bool:
    """Ask a yes/no ``question`` (markup); only y / yes says yes."""
    answer = ask(console, f"{question} [dim]{_('(y/n)')}[/] ").lower()
    return answer in ("y", "yes", _("y").lower(), _("yes").lower())


# ---------------------------------------------------------------------------- front ends


def rule_option(example: str, game: str) -> Any:
    """The ``--rule`` / ``-r`` option of a game's commands, with an ``example`` of its use."""
    return typer.Option(
        "--rule",
        "-r",
        metavar="KEY=VALUE",
        help=f"House rule, repeatable: e.g. {example} (see 'pfeffer {game} rules').",
    )


GameSaveOpt = Annotated[
    Path | None,
    typer.Option(help="Where to save the game record (default: the records folder)."),
]
"""The ``--save`` option of a game's ``play`` command."""

SheetSaveOpt = Annotated[
    Path | None,
    typer.Option(help="File to save to (default: the resumed file, or the records folder)."),
]
"""The ``--save`` option of a game's ``sheet`` command."""


def make_console() -> Console:
    """The console every command prints to (no automatic highlighting of numbers and words)."""
    return Console(highlight=False)


ParamStyle = Callable[[str, Any], Any]
"""``style(name, value)``: a message parameter as the screen shows it (see :func:`error_text`)."""


def error_text(error: object, style: ParamStyle | None = None) -> str:
    """The message of ``error`` for the screen.

    A :class:`~pfeffer.core.errors.TranslatableError` is built again from its ``template``
    with every parameter passed through ``style`` (so that cards read as on screen, ``10♥``
    for ``TH``), and starts with a capital letter; the engine's own text is left unchanged
    for other front ends. Anything else is its ``str``.

    >>> from pfeffer.core.errors import IllegalAction
    >>> exc = IllegalAction.format("you do not hold {card}", card="TH")
    >>> error_text(exc, lambda name, value: "10♥" if name == "card" else value)
    'You do not hold 10♥'
    >>> str(exc)
    'you do not hold TH'
    """
    if not isinstance(error, TranslatableError):
        return str(error)
    text = str(error)
    template = _(error.template)  # the engine's message in the screen's language
    if error.params or template != error.template:
        params = {
            k: _(v) if k in PHRASE_PARAMS and isinstance(v, str) else v
            for k, v in error.params.items()
        }
        styled = params if style is None else {k: style(k, v) for k, v in params.items()}
        try:
            text = template.format(**styled)
        except (KeyError, IndexError, ValueError, AttributeError):
            try:
                text = error.template.format(
                    **(
                        error.params
                        if style is None
                        else {k: style(k, v) for k, v in error.params.items()}
                    )
                )
            except (KeyError, IndexError, ValueError, AttributeError):
                text = str(error)
    return text[:1].upper() + text[1:]


def print_error(console: Console, error: object, style: ParamStyle | None = None) -> None:
    """Print an error (an exception's message, or any text) as ``✗ message``, escaped; see
    :func:`error_text` for ``style``."""
    console.print(f"[bold red]✗[/] {escape(error_text(error, style))}")


def rules_or_exit(rules_cls: type[R], options: list[str] | None) -> R:
    """:func:`build_rules` for a command's ``--rule`` options; a bad one is a usage error."""
    try:
        return build_rules(rules_cls, options or [])
    except RuleOptionError as exc:
        raise typer.BadParameter(str(exc), param_hint="--rule") from None


def read_or_exit(console: Console, path: Path) -> str:
    """The text of the file at ``path``; a missing or unreadable file is printed as an error
    in plain words (``No such file: PATH``) and exits with status 1."""
    path = path.expanduser()
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        message = _("No such file: %(path)s") % {"path": path}
    except IsADirectoryError:
        message = _("%(path)s is a folder, not a record file.") % {"path": path}
    except PermissionError:
        message = _("Cannot read %(path)s: permission denied.") % {"path": path}
    except UnicodeDecodeError:
        message = _("%(path)s is not a pfeffer record (not a text file).") % {"path": path}
    except OSError as exc:
        message = _("Cannot read %(path)s: %(error)s.") % {
            "path": path,
            "error": exc.strerror or exc,
        }
    print_error(console, message)
    raise typer.Exit(1)


def load_or_exit(console: Console, path: Path, load: Callable[[str], T]) -> T:
    """``load`` the text of the record at ``path``; an unreadable file or a bad record is
    printed as an error and exits with status 1 (the file is left as it is)."""
    text = read_or_exit(console, path)
    try:
        return load(text)
    except RecordError as exc:
        print_error(console, exc)
        raise typer.Exit(1) from None


def record_kind(text: str) -> str | None:
    """The ``game`` field of a JSON record (``dice``, ``pepper``, ``pepper-sheet``), plus
    ``-sheet`` for a dice score sheet; None if the text is no JSON object.

    >>> record_kind('{"game": "dice", "sheet": true}'), record_kind('{"game": "pepper"}')
    ('dice-sheet', 'pepper')
    """
    try:
        obj = json.loads(text)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    kind = obj.get("game")
    if not isinstance(kind, str):
        return None
    return f"{kind}-sheet" if kind == "dice" and obj.get("sheet") else kind


def rules_summary(
    heading: str, intro: str, texts: Sequence[Rule], in_force: Mapping[str, str]
) -> str:
    """The rules in short (rich markup): ``heading``, the game's ``intro``, every rule with its
    id, title and sentence (the text the web's rules page shows too, for the standard game) and,
    under a rule, what the house rules in force or the player count make of it (``in_force``,
    by rule id).

    >>> from pfeffer.core.rules_text import Rule
    >>> print(rules_summary("[bold]X[/]", "A game.", [Rule("X1", "Aim", "Win.")], {"X1": "30"}))
    [bold]X[/]
    A game.
    • [bold]X1 Aim[/]: Win.
      [cyan]In force:[/] 30
    """
    lines = [heading, _(intro)]
    for rule in texts:
        lines.append(f"• [bold]{rule.id} {_(rule.title)}[/]: {_(rule.text)}")
        if rule.id in in_force:
            lines.append(f"  [cyan]{_('In force:')}[/] {in_force[rule.id]}")
    return "\n".join(lines)


def changed_rules(rules: Any) -> set[str]:
    """The ids of the rules (D8, P10, …) that a house rule changed from its default changes.

    >>> from pfeffer.dice import DiceRules
    >>> changed_rules(DiceRules(min_bank=500, tie="playoff")) == {"D8", "D14"}
    True
    """
    return {row.spec.rule for row in rule_rows(rules) if row.changed}


def _value(spec: RuleSpec, value: str) -> str:
    """A house rule's value as ``--rule`` takes it, its "none" explained in the screen's
    language."""
    if spec.none_text and value.startswith("none ("):
        return f"none ({_(spec.none_text)})"
    return value


def print_rules(console: Console, summary: str, rules: Any, example: str) -> None:
    """The ``rules`` command: the game's rules ``summary``, then every house rule with its
    option name, the value in force (changed ones starred), the default, its label and help
    text, and how to change one (``example``, e.g. ``--rule target=50``).

    A house rule is a block (its name and values on one line, what it means wrapped beneath),
    not a table: a four-column table cropped words at 80 and 100 columns."""
    console.print(summary)
    console.print()
    console.print(f"[bold]{_('House rules in force')}[/] {_('(* = changed)')}")
    for row in rule_rows(rules):
        spec = row.spec
        head = Text.assemble(
            (f"{spec.name}{' *' if row.changed else ''}", "bold cyan"),
            " = ",
            (_value(spec, row.value).replace(",", ", "), "bold" if row.changed else ""),
        )
        if row.changed:
            default = _value(spec, row.default).replace(",", ", ")
            head.append("  " + _("(default %(value)s)") % {"value": default}, style="dim")
        console.print(head)
        meaning = Text.assemble((_(spec.label), "bold"), f" ({spec.rule}): ", _(spec.help))
        for line in meaning.wrap(console, max(20, console.width - 4)):
            line.rstrip()
            console.print(Text("    ").append_text(line), soft_wrap=True)
    change = _("Change one with --rule key=value, e.g. %(example)s.") % {"example": example}
    console.print(f"[dim]{change}[/]")


def seats_text(seats: Sequence[Seat]) -> str:
    """The seats as a list of names, bots marked (markup).

    >>> seats_text([Seat("Ann"), Seat("Rudi", "random")])
    'Ann, Rudi (bot)'
    """
    bot = " " + _("(bot)")
    return ", ".join(f"{escape(shown(s.name))}{bot if s.is_bot else ''}" for s in seats)


def winners_text(names: Sequence[str], winners: Sequence[int], scores: Sequence[int]) -> str:
    """``Winner: Anna with 10250!`` or ``Shared win: Anna and Ben with 10000!`` (markup);
    ``names`` and ``scores`` are indexed by what ``winners`` counts (players or sides).

    >>> winners_text(("Anna", "Ben"), [0, 1], [10000, 10000])
    'Shared win: Anna and Ben with 10000!'
    >>> winners_text(("Anna", "Ben"), [1], [9000, 10250])
    'Winner: Ben with 10250!'
    """
    who = _(" and ").join(escape(shown(names[w])) for w in winners)
    text = (
        "Shared win: %(who)s with %(score)s!"
        if len(winners) > 1
        else "Winner: %(who)s with %(score)s!"
    )
    return _(text) % {"who": who, "score": scores[winners[0]]}


def total_cells(totals: Sequence[int], winners: Sequence[int]) -> list[Text]:
    """The cells of a score table's Σ row: each total in bold, the winners' green with a ★."""
    cells = []
    for i, total in enumerate(totals):
        text = Text(str(total), style="bold green" if i in winners else "bold")
        if i in winners:
            text.append(" ★")
        cells.append(text)
    return cells


def game_saved_text(path: Path | None, game: str, *, finished: bool) -> str:
    """What a play session says when it has saved its record at ``path`` (markup); an
    unfinished game also tells how to show it (``pfeffer GAME replay …``). ``path`` is None
    only for a session that keeps no file."""
    where = f"[bold]{escape(str(path))}[/]"
    if finished:
        return _("Game record saved to %(path)s") % {"path": where}
    return "\n" + _(
        "Game left unfinished; record saved to %(path)s\n(continue it with: %(command)s)"
    ) % {"path": where, "command": f"pfeffer {game} play --resume {escape(str(path))}"}


is_you = words.is_you


def verb(subject: str, third: str, other: str) -> str:
    """The verb form for ``subject``: ``other`` for "You" and for a team ("Ann & Cy"),
    ``third`` (third person singular) for anybody else.

    >>> verb("Ann", "deals", "deal"), verb("You", "deals", "deal"), verb("Ann & Cy", "is", "are")
    ('deals', 'deal', 'are')
    """
    return other if is_you(subject) or " & " in subject else third


def object_name(name: str) -> str:
    """A name as the object of a sentence: "you" for "You", else the name.

    >>> object_name("You"), object_name("Ann")
    ('you', 'Ann')
    """
    return _("you") if is_you(name) else name


def count(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the noun in the right number.

    >>> count(1, "trick"), count(2, "trick"), count(0, "die", "dice")
    ('1 trick', '2 tricks', '0 dice')
    """
    return f"{n} {word if n == 1 else (words or word + 's')}"


def make_bot(bots: BotRegistry[T], seat: Seat, index: int, seed: int | None) -> Bot[T]:
    """The computer player for a bot ``seat``, made by the game's registry and named as the
    seat; one that draws at random is seeded from the game's ``seed`` and the seat ``index``,
    so a seeded game replays."""
    assert seat.bot is not None
    seed = None if seed is None else seed * 31 + index
    return bots.create(seat.bot, name=seat.name, seed=seed, level=seat.level)


def apply_bot_action(
    action: str, act: Callable[[str], bool], legal: Callable[[], Sequence[str]], delay: float
) -> None:
    """Apply a bot's chosen ``action`` after ``delay`` seconds; a bot must never fail, so if
    ``act`` refuses it (and shows why), the first legal action is applied instead."""
    if delay:
        time.sleep(delay)
    if not act(action):
        act(legal()[0])


def prompt_until_applied(
    console: Console,
    prompt: str,
    command: Callable[[str], bool],
    read: Callable[[str], str],
    act: Callable[[str], bool],
    *,
    style: ParamStyle | None = None,
) -> None:
    """Ask a human at ``prompt`` until one action has been applied.

    Each answer (lower case) is first offered to ``command`` (help, table, quit: True if it
    was one), else ``read`` turns it into an action (:class:`IllegalAction` is printed and
    asked again) and ``act`` applies it (False: refused, with the message shown; ask again).
    """
    while True:
        text = ask(console, prompt).lower()
        if command(text):
            continue
        try:
            action = read(text)
        except ActionError as exc:
            print_error(console, exc, style)
            continue
        if act(action):
            return


class ScoreSheet(Protocol):
    """What :class:`SheetSession` needs of a game's score sheet."""

    @property
    def is_over(self) -> bool:
        """True once the game has been won."""
        ...  # pragma: no cover

    def undo(self) -> object:
        """Take back the last entry."""
        ...  # pragma: no cover

    def to_json(self) -> str:
        """The sheet as a JSON record."""
        ...  # pragma: no cover


S = TypeVar("S", bound=ScoreSheet)


def entry_question(check: EntryCheck, who: str) -> str:
    """The question before an entry that needs the players' confirmation (markup): one that
    looks like a typo, ends the game or reaches the target. ``who`` names the entry's player
    or side.

    >>> entry_question(EntryCheck(ends_game=True, winners=("Ann",), winners_total=10050), "Ann")
    'This entry [bold]ends the game[/]: Ann wins with 10050. Enter it?'
    >>> entry_question(EntryCheck(unusual=True, points=100000), "Ann")
    '[bold yellow]100000 points in one turn?[/] One turn in 100,000 makes that much. Enter it?'
    """
    if words.lang() != "en":  # the web's wording of the same questions, translated
        return _translated_question(check, who)
    if check.unusual:
        return (
            f"[bold yellow]{check.points} points in one turn?[/] One turn in 100,000 makes that "
            "much. Enter it?"
        )
    if check.ends_game:
        names = " and ".join(escape(w) for w in check.winners)
        won = "win" if len(check.winners) > 1 or is_you(names) else "wins"
        return (
            f"This entry [bold]ends the game[/]: {names} {won} with {check.winners_total}. "
            "Enter it?"
        )
    return (
        f"With this entry {escape(who)} {verb(who, 'reaches', 'reach')} {check.total}, the "
        "target: [bold]the final round starts[/]. Enter it?"
    )


def _translated_question(check: EntryCheck, who: str) -> str:
    """:func:`entry_question` in the terminal's language (the catalogue's sheet questions)."""
    if check.unusual:
        return _(
            "%(points)s points in one turn? One turn in 100,000 makes that much. Enter it?"
        ) % {"points": check.points}
    if check.ends_game:
        names = _(" and ").join(escape(shown(w)) for w in check.winners)
        return words.ngettext(
            "This entry ends the game: %(names)s wins with %(total)s. Enter it?",
            "This entry ends the game: %(names)s win with %(total)s. Enter it?",
            len(check.winners),
        ) % {"names": names, "total": check.winners_total}
    return _(
        "With this entry %(name)s reaches %(total)s, the target: the final round starts. Enter it?"
    ) % {"name": escape(shown(who)), "total": check.total}


class SheetSession(ABC, Generic[S]):
    """An interactive score sheet: one prompt after another until the game is won or the
    user quits; it autosaves to ``path``. A game supplies the prompts (:meth:`step`), the
    table (:meth:`show`), the help and the end; the loop, saving and the shared commands
    (``?``, ``q``, the table, ``s``) live here."""

    GAME: ClassVar[str]
    """The game's command name, e.g. ``dice`` (for the resume hint)."""
    NOUN: ClassVar[str]
    """What the sheet is called, capitalised: ``Sheet`` or ``Pad``."""
    KEYS: ClassVar[str]
    """The keys, shown at the start and with the help (markup)."""
    TABLE_WORDS: ClassVar[tuple[str, ...]] = ("t", "table")
    """The answers that show the table."""

    def __init__(self, console: Console, sheet: S, path: Path) -> None:
        self.console = console
        self.sheet = sheet
        self.path = path

    def save(self) -> Path:
        """Write the sheet to its file."""
        return save_text(self.path, self.sheet.to_json())

    @abstractmethod
    def show(self) -> None:
        """Print the sheet."""

    @abstractmethod
    def step(self) -> None:
        """Read and apply one entry or command."""

    @abstractmethod
    def help_text(self) -> str:
        """The rules in force, for ``?`` (markup)."""

    @abstractmethod
    def announce_end(self) -> None:
        """Name the winners."""

    def start(self) -> None:
        """Say where the sheet autosaves, save it and :meth:`run` it."""
        where = {"path": f"[bold]{escape(str(self.path))}[/]"}
        autosaves = f"Score {self.NOUN.lower()} autosaves to %(path)s"  # msgids of both games
        self.console.print(_(autosaves) % where)
        self.save()
        self.run()

    def run(self) -> None:
        """Prompt until the game ends and the players agree that it did (the last entry can
        still be taken back then, also after ``--resume``), or until the user quits; the sheet
        is saved either way."""
        self.console.print(f"[dim]{_(self.KEYS)}[/]")
        self.show()
        try:
            while True:
                while not self.sheet.is_over:
                    self.step()
                self.announce_end()
                self.save()
                if not self.undo_after_end():
                    break
        except QuitRequested:
            saved = _(f"{self.NOUN} saved to %(path)s") % {
                "path": f"[bold]{escape(str(self.save()))}[/]"
            }
            resume = f"pfeffer {self.GAME} sheet --resume {escape(str(self.path))}"
            self.console.print(f"{saved} " + _("(resume with: %(command)s)") % {"command": resume})
            return
        saved = _(f"{self.NOUN} saved to %(path)s") % {
            "path": f"[bold]{escape(str(self.save()))}[/]"
        }
        self.console.print(saved)

    def undo_after_end(self) -> bool:
        """After the last entry: Enter finishes, ``u`` takes the entry back (True: go on)."""
        over = _("Game over.")
        keys = _("Enter = finish · u = undo the last entry")
        answer = ask(self.console, f"{over} [dim]{keys}[/] ")
        if answer.lower() not in ("u", "undo"):
            return False
        self.sheet.undo()
        self.console.print(_("Last entry taken back."))
        self.show()
        self.save()
        return True

    def command(self, text: str) -> bool:
        """Handle ``?``, ``q``, the table and ``s`` (save); True if ``text`` was one of them."""
        if text in HELP_WORDS:
            self.console.print(self.help_text())
            self.console.print(self.KEYS)
            return True
        if text in QUIT_WORDS:
            raise QuitRequested
        if text in self.TABLE_WORDS:
            self.show()
            return True
        if text in ("s", "save"):
            self.console.print(
                _("Saved to %(path)s") % {"path": f"[bold]{escape(str(self.save()))}[/]"}
            )
            return True
        return False
