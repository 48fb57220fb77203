"""The terminal's language: ``--lang`` on ``pfeffer`` and on the commands that show text, else
the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), with the catalogues the web uses
(:mod:`pfeffer.core.i18n`). The screens call :func:`_` (gettext), :func:`counted` (a number
and its noun through the catalogue's plural forms) and :func:`lang`.

>>> use("cs"); [counted(n, "%(n)d trick", "%(n)d tricks") for n in (1, 2, 5)]
['1 štych', '2 štychy', '5 štychů']
>>> _("Hearts"), use("en"), _("Hearts")
('Srdce', None, 'Hearts')
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Annotated, Any

import click
import typer

from pfeffer.core.i18n import DEFAULT, LANGUAGES, language_code, terminal_language, translations

_state = {"lang": DEFAULT}
#: The default names of the computer players (their kinds' labels), translated on screen.
BOT_NAMES = frozenset({"Heuristic", "Random", "Optimal", "Expert"})


def lang() -> str:
    """The language the terminal speaks now."""
    return _state["lang"]


def use(value: str | None) -> None:
    """Speak ``value`` (a language code or locale name); None: the locale's language."""
    _state["lang"] = terminal_language() if value is None else (language_code(value) or DEFAULT)
    _frame_words()


# ---------------------------------------------------------------------------- --help
# Typer builds the commands' help from docstrings and ``help=`` texts at import, in English.
# ``--lang`` and LANG are read (eager options, the root callback) before ``--help`` prints, so
# the help is translated when it is drawn: each paragraph of a command's help and each option's
# help through the catalogue (a paragraph without an entry stays as it is), and the frame's
# words of Click ("Usage:", "Invalid value for …") and of Typer's panels ("Options", "Error").

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
    "REQUIRED_LONG_STRING": "[required]",
    "ARGUMENTS_PANEL_TITLE": "Arguments",
    "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands",
    "ERRORS_PANEL_TITLE": "Error",
    "ABORTED_TEXT": "Aborted.",
    "RICH_HELP": "Try [blue]'{command_path} {help_option}'[/] for help.",
}


def _frame_words() -> None:
    """Let Click and Typer speak the terminal's language (their module-level ``gettext``)."""
    import sys

    for name in _FRAME_MODULES:
        module = sys.modules.get(name)
        if module is None:
            continue
        if hasattr(module, "_"):
            module._ = _  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]
    rich_utils = sys.modules.get("typer.rich_utils")
    if rich_utils is not None:
        for attr, english in _PANEL_WORDS.items():
            setattr(rich_utils, attr, _(english))


#: Click's own words, which Typer's vendored Click writes in English without gettext.
_FRAME_PATTERNS = (
    (re.compile(r"Usage: (.*)", re.S), "Usage: {0}", "Usage:"),
    (re.compile(r"Invalid value for (.+?): (.*)", re.S),
     "Invalid value for {param_hint}: {message}", None),
    (re.compile(r"Invalid value: (.*)", re.S), "Invalid value: {message}", None),
    (re.compile(r"Missing argument (.*)\.", re.S), "Missing argument", "Missing argument"),
    (re.compile(r"Missing option (.*)\.", re.S), "Missing option", "Missing option"),
    (re.compile(r"No such option: (.*)", re.S), "No such option: {name}", None),
    (re.compile(r"Got unexpected extra argument\(s\) \((.*)\)", re.S),
     "Got unexpected extra argument(s) ({args})", None),
)  # fmt: skip


def frame_text(text: str) -> str:
    """A line of Click's frame ("Usage: …", "Invalid value for …") in the terminal's language;
    any other text as it is."""
    for pattern, msgid, word in _FRAME_PATTERNS:
        found = pattern.fullmatch(text)
        if found is None:
            continue
        parts = found.groups()
        if word == "Usage:":
            return f"{_(word)} {parts[0]}"
        if word is not None:
            return f"{_(word)} {parts[0]}."
        names = re.findall(r"{(\w+)}", msgid)
        return _(msgid).format(**dict(zip(names, parts, strict=True)))
    return text


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


def _translated_help(format_help: Callable[..., None]) -> Callable[..., None]:
    """``typer.rich_utils.rich_format_help`` that shows the help texts of the command, its
    options and its subcommands in the terminal's language (restored afterwards)."""

    def draw(*, obj: click.Command, ctx: click.Context, markup_mode: Any) -> None:
        if ctx.parent is None and ctx.params.get("lang") is None:
            use(None)  # ``pfeffer --help``: drawn before the root's --lang callback ran
        saved: list[tuple[object, str, object]] = []

        def swap(thing: object, attr: str) -> None:
            value = getattr(thing, attr, None)
            if isinstance(value, str) and value:
                saved.append((thing, attr, value))
                setattr(thing, attr, help_text(value))

        subcommands = list(getattr(obj, "commands", {}).values())
        for command in [obj, *subcommands]:
            swap(command, "help")
            swap(command, "short_help")
        for param in obj.get_params(ctx):
            swap(param, "help")
        usage = obj.get_usage
        obj.get_usage = lambda ctx: frame_text(usage(ctx))  # type: ignore[method-assign]
        try:
            format_help(obj=obj, ctx=ctx, markup_mode=markup_mode)
        finally:
            del obj.get_usage
            for thing, attr, value in saved:
                setattr(thing, attr, value)

    return draw


def _translated_error(format_error: Callable[[Any], None]) -> Callable[[Any], None]:
    """``typer.rich_utils.rich_format_error`` with Click's words in the terminal's language."""

    def draw(error: Any) -> None:
        message = error.format_message
        error.format_message = lambda: frame_text(message())
        ctx = getattr(error, "ctx", None)
        if ctx is not None:
            usage = ctx.get_usage
            ctx.get_usage = lambda: frame_text(usage())
        try:
            format_error(error)
        finally:
            del error.format_message
            if ctx is not None:
                del ctx.get_usage

    return draw


def install_help() -> None:
    """Translate ``--help`` as it is drawn (see :func:`_translated_help`); once."""
    from typer import rich_utils

    if not getattr(rich_utils.rich_format_help, "pfeffer_words", False):
        draw = _translated_help(rich_utils.rich_format_help)
        draw.pfeffer_words = True  # type: ignore[attr-defined]
        rich_utils.rich_format_help = draw
        rich_utils.rich_format_error = _translated_error(  # type: ignore[assignment]
            rich_utils.rich_format_error
        )


def _(msgid: str) -> str:
    """``msgid`` in the terminal's language."""
    return translations(lang()).gettext(msgid)


def pgettext(context: str, msgid: str) -> str:
    """``msgid`` in ``context`` (``msgctxt``: a card as the object of a sentence, …)."""
    return translations(lang()).pgettext(context, msgid)


def ngettext(one: str, many: str, n: int) -> str:
    """The plural form of ``one``/``many`` for ``n`` in the terminal's language."""
    return translations(lang()).ngettext(one, many, n)


def counted(n: int, one: str, many: str, context: str | None = None, **params: object) -> str:
    """``n`` and its noun in the right plural form: ``one``/``many`` are msgids with ``%(n)d``
    (and any other ``%(...)`` of ``params``); ``context``: their ``msgctxt`` ("object": the
    noun as the object of a sentence, in Czech the accusative)."""
    t = translations(lang())
    text = t.ngettext(one, many, n) if context is None else t.npgettext(context, one, many, n)
    return text % {"n": n, **params}


def is_you(name: str) -> bool:
    """True for the default human's name, "You", which takes the second person."""
    return name.strip().casefold() == "you"


def shown(name: str) -> str:
    """A player's name as the screen shows it: the default "You" and a computer player's default
    name in the terminal's language ("Du", "Ty"; "Heuristik"), any other name as it is."""
    if is_you(name):
        return pgettext("player", "You")
    if name in BOT_NAMES:  # a computer player's default name
        return pgettext("bot", name)
    return name


def said(subject: str, third: str, you: str, team: str | None = None, **params: object) -> str:
    """A sentence about ``subject`` (a player's or a side's name, raw): msgid ``you`` for the
    default "You" (second person), ``team`` (if given) for a side "Ann & Cy", else ``third``;
    filled with ``params`` (``%(...)s``).

    >>> use("de")
    >>> [said(n, "%(name)s deals", "You deal", name=n) for n in ("Ann", "You")]
    ['Ann gibt', 'Du gibst']
    >>> use("en")
    """
    if is_you(subject):
        msgid = you
    elif team is not None and " & " in subject:
        msgid = team
    else:
        msgid = third
    return _(msgid) % params if params else _(msgid)


def _check(value: str | None) -> str | None:
    if value is not None and language_code(value) is None:
        raise typer.BadParameter(f"one of {', '.join(LANGUAGES)}")
    return value


def root_option(value: str | None) -> str | None:
    """The callback of ``pfeffer --lang``: the language, or the locale's when not given."""
    use(_check(value))
    return value


def command_option(value: str | None) -> str | None:
    """The callback of a command's ``--lang``: overrides ``pfeffer --lang`` when given."""
    if _check(value) is not None:
        use(value)
    return value


LANG_HELP = "Language of the screens: en, de or cs (default: LC_ALL, LC_MESSAGES or LANG)."

#: The option of ``pfeffer`` itself.
RootLangOpt = Annotated[
    str | None, typer.Option("--lang", help=LANG_HELP, callback=root_option, is_eager=True)
]
#: The option of each command that shows text (play, rules, score, sheet).
LangOpt = Annotated[
    str | None, typer.Option("--lang", help=LANG_HELP, callback=command_option, is_eager=True)
]

__all__ = [
    "LANG_HELP",
    "LangOpt",
    "RootLangOpt",
    "_",
    "command_option",
    "counted",
    "help_text",
    "install_help",
    "is_you",
    "lang",
    "ngettext",
    "pgettext",
    "root_option",
    "said",
    "shown",
    "use",
]
