"""Languages of the web front end: :mod:`pfeffer.core.i18n`, shared with the terminal, re-exported.

The catalogues themselves live here, in ``locale/<lang>/LC_MESSAGES/messages.po`` (compiled to
``messages.mo`` by the build, hatch_build.py).
"""

from __future__ import annotations

from pfeffer.core.i18n import (
    DEFAULT,
    LANGUAGE_NAMES,
    LANGUAGES,
    LOCALE_DIR,
    PHRASE_PARAMS,
    compile_po,
    pick_language,
    translate_error,
    translations,
)

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "PHRASE_PARAMS",
    "compile_po",
    "pick_language",
    "translate_error",
    "translations",
]
