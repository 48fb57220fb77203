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

from collections.abc import Callable
from typing import Annotated

import typer

from pfeffer.core.i18n import DEFAULT, LANGUAGES, language_code, terminal_language, translations

_state = {"lang": DEFAULT}
#: The default names of the computer players (their kinds' labels), translated on screen.
BOT_NAMES = frozenset(
    {"Heuristic", "Random", "Optimal", "Expert", "Easy", "Medium", "Hard", "Perfect"}
)


def lang() -> str:
    """The language the terminal speaks now."""
    return _state["lang"]


#: What else changes with the language (the frame's words, :mod:`pfeffer.cli.frame`).
_listeners: list[Callable[[], None]] = []


def use(value: str | None) -> None:
    """Speak ``value`` (a language code or locale name); None: the locale's language."""
    _state["lang"] = terminal_language() if value is None else (language_code(value) or DEFAULT)
    for listener in _listeners:
        listener()


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever the language changes (and now)."""
    _listeners.append(listener)
    listener()


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


#: The decimal sign and the thousands separator of each language in running text (German and
#: Czech: decimal comma; thousands: a point, a no-break space).
_SEPARATORS = {"en": (".", ","), "de": (",", "."), "cs": (",", "\u00a0")}


def number(x: float, digits: int = 0) -> str:
    """``x`` with ``digits`` decimals as the terminal's language writes it in running text.

    >>> use("de"); number(12800.5, 1), number(0.25, 2)
    ('12.800,5', '0,25')
    >>> use("en"); number(12800.5, 1)
    '12,800.5'
    """
    decimal, thousands = _SEPARATORS.get(lang(), _SEPARATORS["en"])
    text = f"{x:,.{digits}f}"
    return text.translate(str.maketrans(",.", thousands + decimal))


def amount(x: float, digits: int, one: str, many: str, **params: object) -> str:
    """``x`` (``digits`` decimals) and its noun: ``one``/``many`` are msgids with ``%(n)s``. A
    whole number takes the catalogue's plural forms; a fraction the form a language gives a
    decimal (msgctxt ``decimal`` of ``many``: Czech the genitive singular, "0,5 bodu").

    >>> use("cs"); [amount(x, 1, "%(n)s point", "%(n)s points") for x in (1, 2, 5, 0.5)]
    ['1 bod', '2 body', '5 bodů', '0,5 bodu']
    >>> use("en")
    """
    whole = round(x, digits) == round(x)
    if whole:
        n = round(x)
        return ngettext(one, many, abs(n)) % {"n": number(n), **params}
    return pgettext("decimal", many) % {"n": number(x, digits), **params}


def signed(x: float, digits: int = 1) -> str:
    """``x`` with its sign (``+1.5``, ``-0.5``; ``+1,5`` in German and Czech)."""
    return ("-" if x < 0 else "+") + number(abs(x), digits)


#: The nouns :func:`amount` counts (msgids, one and many).
PERCENTAGE_POINTS = ("%(n)s percentage point", "%(n)s percentage points")
POINTS = ("%(n)s point", "%(n)s points")
TRICKS = ("%(n)s trick", "%(n)s tricks")


def is_you(name: str) -> bool:
    """True for the default human's name, "You", which takes the second person."""
    return name.strip().casefold() == "you"


def shown(name: str) -> str:
    """A player's or a side's name as the screen shows it: the default "You" and a computer
    player's default name in the terminal's language ("Du", "Ty"; "Heuristik"), in a side's name
    too ("You & Medium": "Du & Mittel"), any other name as it is.

    >>> use("de"); shown("You & Medium"), shown("Ann & Cy")
    ('Du & Mittel', 'Ann & Cy')
    >>> use("en")
    """
    if " & " in name:
        return " & ".join(shown(part) for part in name.split(" & "))
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
    """The callback of ``pfeffer --lang``: checks it. The language was chosen as the command line
    was read (``frame.Root``: its last ``--lang``, a command's after ``pfeffer``'s, else the
    locale's), before Click handled an option: ``--help`` may come first."""
    return _check(value)


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
    "PERCENTAGE_POINTS",
    "POINTS",
    "TRICKS",
    "LangOpt",
    "RootLangOpt",
    "_",
    "amount",
    "command_option",
    "counted",
    "is_you",
    "lang",
    "ngettext",
    "number",
    "on_change",
    "pgettext",
    "root_option",
    "said",
    "shown",
    "signed",
    "use",
]
