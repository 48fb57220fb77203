"""Click's and Typer's frame in the terminal's language (:mod:`pfeffer.cli.words`): ``--help``
(the help texts, the usage line, the arguments' names, the options' type labels, the panels'
titles) and Click's errors ("Invalid value for …", "No such option", a value that is not a
number).

Typer builds the commands' help from docstrings and ``help=`` texts at import, in English.
``--lang`` and LANG are read (:class:`Root` peeks at the command line before any option is
handled) before ``--help`` prints, so the help is translated when it is drawn: each paragraph of
a command's help and each option's help through the catalogue (a paragraph without an entry stays
as it is), and the frame's words of Click ("Usage:", "Invalid value for …") and of Typer's panels
("Options", "Error").

>>> from pfeffer.cli.words import use
>>> use("de"); frame_text("Usage: pfeffer dice play [OPTIONS] [seats]...")
'Aufruf: pfeffer dice play [OPTIONEN] [Plätze]...'
>>> type_label("<int>"), type_label("KEY=VALUE"), type_label("<png|svg>")
('<Ganzzahl>', 'SCHLÜSSEL=WERT', '<png|svg>')
>>> use("en")
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from typer.core import TyperGroup

from pfeffer.cli.words import _, lang, ngettext, on_change, pgettext, use

_CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "types", "utils",
                  "termui")  # fmt: skip
#: Click's and Typer's modules that call ``gettext`` for their own words (Typer vendors Click
#: as ``typer._click``).
_FRAME_MODULES = (
    *(f"click.{m}" for m in _CLICK_MODULES),
    *(f"typer._click.{m}" for m in _CLICK_MODULES),
    "typer.core",
    "typer.rich_utils",
)
#: Typer's panel words, computed at its import: the English originals.
_PANEL_WORDS = {
    "DEFAULT_STRING": "[default: {}]",
    "ENVVAR_STRING": "[env var: {}]",
    "REQUIRED_LONG_STRING": "[required]",
    "ARGUMENTS_PANEL_TITLE": "Arguments",
    "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands",
    "ERRORS_PANEL_TITLE": "Error",
    "ABORTED_TEXT": "Aborted.",
    "RICH_HELP": "Try [blue]'{command_path} {help_option}'[/] for help.",
}


def _panel_words() -> None:
    """Typer's panel words in the terminal's language (they are constants of its module)."""
    rich_utils = sys.modules.get("typer.rich_utils")
    if rich_utils is not None:
        for attr, english in _PANEL_WORDS.items():
            setattr(rich_utils, attr, _(english))


def _frame_gettext() -> None:
    """Let Click and Typer speak the terminal's language (their module-level ``gettext``)."""
    for name in _FRAME_MODULES:
        module = sys.modules.get(name)
        if module is None:
            continue
        if hasattr(module, "_"):
            module._ = _  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]


def _speak() -> None:
    _frame_gettext()
    _panel_words()


# ---------------------------------------------------------------------------- the command line


def asked_language(args: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` on the command line (a command's ``--lang`` comes after
    ``pfeffer --lang``, and wins), or None.

    >>> asked_language(["--help", "--lang", "de"]), asked_language(["dice", "--lang=cs"])
    ('de', 'cs')
    """
    found = None
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--lang="):
            found = arg.removeprefix("--lang=")
    return found


class Root(TyperGroup):
    """The ``pfeffer`` group: speaks the language asked on the command line (else the locale's)
    before Click handles any option, so that ``pfeffer --help --lang de`` (Click runs the eager
    ``--help`` first) and Click's own refusals follow it. The ``--lang`` callbacks still check
    the value and refuse an unknown one."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        use(asked_language(args))
        return super().parse_args(ctx, args)


# ---------------------------------------------------------------------------- help texts

#: Click's usage words (msgids), in the order they are replaced in a usage line.
_USAGE_WORDS = ("COMMAND [ARGS]...", "[OPTIONS]")
#: The label of an option's or argument's value type (``<int>``, ``KEY=VALUE``): msgctxt.
TYPE_CONTEXT = "type"
#: An argument's name in the usage line and the Arguments panel (``seats``, ``file``): msgctxt.
ARGUMENT_CONTEXT = "argument"


def type_label(label: str | None) -> str | None:
    """The label of a value's type (``<int>``, ``<list[str]>``, ``KEY=VALUE``) in the terminal's
    language (msgctxt ``type``); choices (``<png|svg>``) and labels without an entry as they
    are."""
    if label is None:
        return None
    inner = label[1:-1] if label.startswith("<") and label.endswith(">") else label
    translated = pgettext(TYPE_CONTEXT, inner)
    if translated == inner:
        return label
    return f"<{translated}>" if inner != label else translated


def help_text(text: str | None) -> str | None:
    """A command's or an option's help in the terminal's language, paragraph by paragraph
    (each paragraph's msgid is its words joined by single spaces)."""
    if not text:
        return text
    out = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        msgid = " ".join(paragraph.split())
        translated = _(msgid)
        out.append(paragraph if translated == msgid else translated)
    return "\n\n".join(out)


class _Swaps:
    """Attributes set for one drawing of the help and restored afterwards."""

    def __init__(self) -> None:
        self.saved: list[tuple[object, str, object, bool]] = []

    def set(self, thing: object, attr: str, value: object) -> None:
        own = attr in vars(thing)
        self.saved.append((thing, attr, getattr(thing, attr, None), own))
        setattr(thing, attr, value)

    def text(self, thing: object, attr: str) -> None:
        value = getattr(thing, attr, None)
        if isinstance(value, str) and value:
            self.set(thing, attr, help_text(value))

    def restore(self) -> None:
        for thing, attr, value, own in reversed(self.saved):
            if own:
                setattr(thing, attr, value)
            else:
                delattr(thing, attr)


def _swap_param(swaps: _Swaps, param: Any, ctx: Any) -> None:
    """An option's help and type label, an argument's name, in the terminal's language."""
    swaps.text(param, "help")
    shown = param.display_type_rich
    swaps.set(param, "display_type_rich", lambda ctx: type_label(shown(ctx)))
    if getattr(param, "param_type_name", "") == "argument" and param.metavar is None:
        name = pgettext(ARGUMENT_CONTEXT, param.name)
        if name != param.name:  # the name, not the metavar: both add the "..." of several values
            swaps.set(param, "name", name)


def _translated_help(format_help: Callable[..., None]) -> Callable[..., None]:
    """``typer.rich_utils.rich_format_help`` that shows the help texts of the command, its
    options and its subcommands in the terminal's language (restored afterwards)."""

    def draw(*, obj: Any, ctx: Any, markup_mode: Any) -> None:
        swaps = _Swaps()
        for command in [obj, *getattr(obj, "commands", {}).values()]:
            swaps.text(command, "help")
            swaps.text(command, "short_help")
        for param in obj.get_params(ctx):
            _swap_param(swaps, param, ctx)
        usage = obj.get_usage
        swaps.set(obj, "get_usage", lambda ctx: frame_text(usage(ctx)))
        try:
            format_help(obj=obj, ctx=ctx, markup_mode=markup_mode)
        finally:
            swaps.restore()

    return draw


# ---------------------------------------------------------------------------- errors

#: Click's own words, which Typer's vendored Click writes in English without gettext:
#: (pattern, msgid with one ``{…}`` per group, whether the groups are frame text themselves).
_FRAME_PATTERNS = (
    (re.compile(r"Usage: (.*)", re.S), "Usage: {0}", None),
    (re.compile(r"Invalid value for (.+?): (.*)", re.S),
     "Invalid value for {param_hint}: {message}", "message"),
    (re.compile(r"Invalid value: (.*)", re.S), "Invalid value: {message}", "message"),
    (re.compile(r"Missing argument (.*)\.", re.S), "Missing argument", None),
    (re.compile(r"Missing option (.*)\.", re.S), "Missing option", None),
    (re.compile(r"No such option: (\S+) \(Possible options: (.*)\)", re.S),
     "No such option: {name} (Possible options: {options})", None),
    (re.compile(r"No such option: (.*)", re.S), "No such option: {name}", None),
    (re.compile(r"Got unexpected extra argument\(s\) \((.*)\)", re.S),
     "Got unexpected extra argument(s) ({args})", None),
    (re.compile(r"Option (.+) requires an argument\.", re.S),
     "Option {name} requires an argument.", None),
    (re.compile(r"(.*)\. Did you mean (.+)\?", re.S), "{message}. Did you mean {suggestions}?",
     "message"),
    (re.compile(r"(\w+) (.+) does not exist\.", re.S), "{kind} {name} does not exist.", None),
    (re.compile(r"(\w+) (.+) is a directory\.", re.S), "{kind} {name} is a directory.", None),
    (re.compile(r"(\w+) (.+) is a file\.", re.S), "{kind} {name} is a file.", None),
    (re.compile(r"(\w+) (.+) is not readable\.", re.S), "{kind} {name} is not readable.", None),
    (re.compile(r"(\w+) (.+) is not writable\.", re.S), "{kind} {name} is not writable.", None),
    (re.compile(r"Value error, (.*)", re.S), "{message}", "message"),
    (re.compile(r"(.+) is not one of (.*)\.", re.S), "{value} is not one of {choices}.", None),
)  # fmt: skip
#: The kinds of path Click names in its refusals ("File '/x' does not exist.").
_PATH_KINDS = ("File", "file", "Directory", "directory", "Path", "path")


def frame_text(text: str) -> str:
    """A line of Click's frame ("Usage: …", "Invalid value for …") in the terminal's language;
    any other text as it is."""
    if lang() == "en":
        return text
    for pattern, msgid, inner in _FRAME_PATTERNS:
        found = pattern.fullmatch(text)
        if found is None:
            continue
        parts = list(found.groups())
        if msgid == "Usage: {0}":
            return f"{_('Usage:')} {_usage_words(parts[0])}"
        if "{" not in msgid:  # "Missing argument 'X'."
            return f"{_(msgid)} {_usage_words(parts[0])}."
        names = re.findall(r"{(\w+)}", msgid)
        fields = dict(zip(names, parts, strict=True))
        if "kind" in fields:
            if fields["kind"] not in _PATH_KINDS:
                continue
            fields["kind"] = pgettext("path", fields["kind"].capitalize())
        if inner is not None:
            fields[inner] = frame_text(fields[inner])
        return _(msgid).format(**fields)
    return text


def _usage_words(usage: str) -> str:
    for word in _USAGE_WORDS:
        usage = usage.replace(word, _(word))
    return re.sub(r"(?<=[\[{'])\w+(?=[\]}'])", _argument_name, usage)


def _argument_name(found: re.Match[str]) -> str:
    return pgettext(ARGUMENT_CONTEXT, found.group())


def validation_message(exc: Any) -> str:
    """Typer's message for a value that did not convert (a Pydantic ``ValidationError``): the
    first error, in the terminal's language for the kinds the catalogue words ("'x' is not a
    whole number", "at least 1"), else as Pydantic says it."""
    errors = exc.errors()
    if not errors:
        return str(exc)
    first = errors[0]
    english = str(first["msg"])
    msgid = _VALIDATION.get(first["type"])
    if msgid is None or lang() == "en":
        return frame_text(english)
    return _(msgid).format(value=repr(first.get("input")), **first.get("ctx", {}))


#: Pydantic's error types of the values typed on the command line, and their msgids.
_VALIDATION = {
    "int_parsing": "{value} is not a whole number.",
    "int_from_float": "{value} is not a whole number.",
    "int_type": "{value} is not a whole number.",
    "float_parsing": "{value} is not a number.",
    "float_type": "{value} is not a number.",
    "bool_parsing": "{value} is neither yes nor no.",
    "greater_than_equal": "The value must be at least {ge}.",
    "less_than_equal": "The value must be at most {le}.",
    "greater_than": "The value must be more than {gt}.",
    "less_than": "The value must be less than {lt}.",
}


def _translated_error(format_error: Callable[[Any], None]) -> Callable[[Any], None]:
    """``typer.rich_utils.rich_format_error`` with Click's words in the terminal's language."""

    def draw(error: Any) -> None:
        swaps = _Swaps()
        message = error.format_message
        swaps.set(error, "format_message", lambda: frame_text(message()))
        ctx = getattr(error, "ctx", None)
        if ctx is not None:
            usage = ctx.get_usage
            swaps.set(ctx, "get_usage", lambda: frame_text(usage()))
        try:
            format_error(error)
        finally:
            swaps.restore()

    return draw


def install() -> None:
    """Translate ``--help`` as it is drawn and Click's errors as they are shown; once."""
    from typer import _coercion, _param_types, rich_utils

    on_change(_speak)
    if not getattr(rich_utils.rich_format_help, "pfeffer_words", False):
        draw = _translated_help(rich_utils.rich_format_help)
        draw.pfeffer_words = True  # type: ignore[attr-defined]
        rich_utils.rich_format_help = draw
        rich_utils.rich_format_error = _translated_error(  # type: ignore[assignment]
            rich_utils.rich_format_error
        )
        _coercion.get_error_msg = validation_message  # type: ignore[attr-defined]
        _param_types.get_error_msg = validation_message  # type: ignore[attr-defined]


__all__ = ["Root", "asked_language", "frame_text", "help_text", "install", "type_label"]
