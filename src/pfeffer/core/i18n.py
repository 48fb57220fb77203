"""Languages of both front ends, web and terminal: gettext catalogues (German, Czech, English).

The web re-exports this module as :mod:`pfeffer.web.i18n`, the terminal (:mod:`pfeffer.cli`)
uses it directly. The ``.po`` files in ``src/pfeffer/web/i18n/locale/<lang>/LC_MESSAGES/`` (data
found by path, not imported) are the sources; the build compiles
them to ``messages.mo`` (hatch_build.py), so no install needs Babel at run time. Czech has
three plural forms (1 / 2-4 / 5+), which the catalogue's Plural-Forms header gives.

>>> t = translations("cs")
>>> [t.ngettext("%(num)d player", "%(num)d players", n) % {"num": n} for n in (1, 3, 5)]
['1 hráč', '3 hráči', '5 hráčů']
>>> pick_language("de-AT,de;q=0.9,en;q=0.5")
'de'

The engines' :class:`~pfeffer.core.errors.IllegalAction` and ``RulesError`` messages (both
:class:`~pfeffer.core.errors.TranslatableError`) are translated by their template
(msgid: the English template with its ``{placeholders}``), then filled in:

>>> from pfeffer.core.errors import IllegalAction
>>> exc = IllegalAction.format("There is no seat {seat}.", seat=9)
>>> translate_error(exc, "de"), translate_error(exc, "en")
('Es gibt keinen Platz 9.', 'There is no seat 9.')
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import re
from collections.abc import Mapping
from pathlib import Path

from pfeffer.core.errors import TranslatableError
from pfeffer.core.extras import MissingExtra

LANGUAGES = ("en", "de", "cs")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "cs": "Čeština"}
DEFAULT = "en"
#: The catalogues stay in the web's package (data, found by path; the build compiles them there).
LOCALE_DIR = Path(__file__).resolve().parent.parent / "web" / "i18n" / "locale"
# Parameters of engine messages that are English phrases themselves ("cannot {what} now: ..."):
# they are translated too before they are filled in; so is the field a refused text was typed
# into ("Name: an invisible control character; ...", pfeffer.core.text).
PHRASE_PARAMS = frozenset({"what", "field"})


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue for ``lang`` (English and unknown languages: the msgids).

    It is the ``messages.mo`` the build compiled (hatch_build.py). Only where the ``.po`` is
    newer than its ``.mo`` (a translator's checkout) or the ``.mo`` is missing is the ``.po``
    compiled here, in memory, with Babel (a development dependency)."""
    po = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    mo = po.with_suffix(".mo")
    if lang not in LANGUAGES:
        return gettext.NullTranslations()
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    if not po.exists():
        return gettext.NullTranslations()
    try:
        return gettext.GNUTranslations(io.BytesIO(compile_po(po, lang)))
    except ImportError:  # a source tree never built, without Babel: English
        return gettext.NullTranslations()


def compile_po(po: Path, lang: str) -> bytes:
    """The ``.mo`` bytes of catalogue ``po`` (Babel: a build and development dependency)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    return buf.getvalue()


def pick_language(accept: str | None) -> str:
    """The best of our languages for an Accept-Language header (default English)."""
    if not accept:
        return DEFAULT
    prefs: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept.split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower().split("-")[0]
        q = 1.0
        for param in (b.strip() for b in bits[1:]):
            if param.startswith("q="):
                try:
                    q = float(param[2:])
                except ValueError:
                    q = 0.0
        if tag in LANGUAGES:
            prefs.append((-q, i, tag))
    return min(prefs)[2] if prefs else DEFAULT


def translate_error(exc: BaseException, lang: str) -> str:
    """The message of ``exc`` in ``lang``: the catalogue's translation of an
    :class:`~pfeffer.core.errors.TranslatableError`'s template (an ``IllegalAction``, a
    ``RulesError``, a malformed request) or of a :class:`~pfeffer.core.extras.MissingExtra`'s
    filled with its parameters; the English message when the
    catalogue has no entry, the translation does not fit the parameters, or ``exc`` is another
    exception."""
    english = str(exc)
    if not isinstance(exc, TranslatableError | MissingExtra) or lang == DEFAULT:
        return english
    gt = translations(lang).gettext
    translated = gt(exc.template)
    if translated == exc.template:
        return english
    if not exc.params and exc.template == english:
        return translated  # a plain IllegalAction(message): nothing to fill in
    params = {
        k: gt(v) if k in PHRASE_PARAMS and isinstance(v, str) else v for k, v in exc.params.items()
    }
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return english


def terminal_language(env: Mapping[str, str] | None = None) -> str:
    """The catalogue language of the terminal's locale: the first of ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` that is set decides (POSIX order); ``C``, ``POSIX`` and
    languages without a catalogue give English.

    >>> terminal_language({"LANG": "de_DE.UTF-8"}), terminal_language({"LC_ALL": "C", "LANG": "de"})
    ('de', 'en')
    >>> terminal_language({"LANG": "cs_CZ.UTF-8"}), terminal_language({})
    ('cs', 'en')
    """
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return language_code(value) or DEFAULT
    return DEFAULT


def language_code(value: str) -> str | None:
    """Our language for a locale name or language tag ("de_AT.UTF-8", "cs-CZ", "DE"), or None.

    >>> [language_code(v) for v in ("de_AT.UTF-8", "cs-CZ", "fr", "C")]
    ['de', 'cs', None, None]
    """
    code = re.split(r"[._@-]", value, maxsplit=1)[0].lower()
    return code if code in LANGUAGES else None
