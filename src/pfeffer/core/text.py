"""Text a person typed (a name, a chat message, a sheet's title), checked before it is kept.

What cannot be kept as text is refused, never silently changed: a lone surrogate (``"\\ud800"``,
what a JSON escape or a damaged copy can carry: it cannot be written as UTF-8, so it would break
every later send, store and log of it), NUL and the other control characters, and the
direction overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder the text around
them on screen. Tabs and line breaks are white space: they fold into single spaces, as do runs of
spaces, and spaces at both ends go.

>>> check_text("  Anna\\tMaria ", field="Name")
'Anna Maria'
>>> check_text("x\\ud800y", field="Chat message")
Traceback (most recent call last):
...
pfeffer.core.text.UnsafeText: Chat message: a character that is not text (a damaged emoji ...
>>> find_unsafe({"seats": [{"name": "\\x00"}]})
'seats.0.name'
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pfeffer.core.errors import TranslatableError

#: The direction overrides and isolates: they reorder (or hide) the text around them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_WHITESPACE_CONTROLS = frozenset("\t\n\r\v\f")

# The messages (templates a front end translates; ``field`` is a phrase it translates too).
NOT_TEXT = "{field}: a character that is not text (a damaged emoji or copy); remove it."
REORDERS = "{field}: an invisible character that reorders text; remove it."
CONTROL = "{field}: an invisible control character; remove it."
NEEDS_TEXT = "{field}: a text is needed."
TOO_LONG = "{field}: at most {max} characters, this one has {n}."
TEMPLATES = (NOT_TEXT, REORDERS, CONTROL, NEEDS_TEXT, TOO_LONG)
#: The fields the project checks, as their ``field`` phrase.
FIELDS = ("Name", "Title", "Chat message")


class UnsafeText(TranslatableError):
    """A text that cannot be kept as it was typed; the message names the field and why."""


def unsafe_reason(text: str) -> str | None:
    """Why ``text`` cannot be kept (an English message template with ``{field}``), or None.

    >>> unsafe_reason("Hallo 👋🏽"), unsafe_reason("a\\u202eb") is not None
    (None, True)
    """
    for ch in text:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            return NOT_TEXT
        if ch in BIDI_CONTROLS:
            return REORDERS
        if ch not in _WHITESPACE_CONTROLS and unicodedata.category(ch) == "Cc":
            return CONTROL
    return None


def check_text(value: Any, *, field: str, max_length: int | None = None) -> str:
    """``value`` as it is kept: a str without unsafe characters, white space folded and
    trimmed, at most ``max_length`` characters (longer: refused, not cut). :class:`UnsafeText`
    otherwise, with a message naming ``field`` (a phrase the front ends translate: "Name", "Title").

    >>> check_text("x" * 5, field="Title", max_length=4)
    Traceback (most recent call last):
    ...
    pfeffer.core.text.UnsafeText: Title: at most 4 characters, this one has 5.
    >>> check_text(5, field="Name")
    Traceback (most recent call last):
    ...
    pfeffer.core.text.UnsafeText: Name: a text is needed.
    """
    if not isinstance(value, str):
        raise UnsafeText.format(NEEDS_TEXT, field=field)
    reason = unsafe_reason(value)
    if reason is not None:
        raise UnsafeText.format(reason, field=field)
    text = " ".join(value.split())
    if max_length is not None and len(text) > max_length:
        raise UnsafeText.format(
            TOO_LONG,
            field=field,
            max=max_length,
            n=len(text),
        )
    return text


def find_unsafe(data: Any, path: str = "") -> str | None:
    """The dotted path of the first string (key or value) in parsed JSON ``data`` that cannot
    be kept as text (see :func:`unsafe_reason`), or None. The edge runs it on every body, so
    that no such string reaches a store, a log line or another process."""
    stack: list[tuple[str, Any]] = [(path, data)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            if unsafe_reason(item) is not None:
                return where or "(the body)"
        elif isinstance(item, dict):
            for key, value in item.items():
                here = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and unsafe_reason(key) is not None:
                    return f"{where}.{key!a}" if where else ascii(key)
                stack.append((here, value))
        elif isinstance(item, list):
            stack.extend((f"{where}.{i}" if where else str(i), v) for i, v in enumerate(item))
    return None
