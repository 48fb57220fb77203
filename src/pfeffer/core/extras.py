"""The optional parts of the package (pyproject.toml's extras) and the message a command gives
when it needs one that is not installed.

The base install (``pip install pfeffer``) plays both games in the terminal; the strong computer
players and the strategy need ``ai`` (numpy, numba), the server ``web``, and so on.

>>> missing("no-such-extra")
Traceback (most recent call last):
...
KeyError: 'no-such-extra'
>>> str(MissingExtra("web", "pfeffer serve", ["fastapi"]))
"pfeffer serve needs the optional part 'web' (missing: fastapi): pip install 'pfeffer[web]'"
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

#: Each extra of pyproject.toml: the modules that show it is installed.
_AI = ("numpy", "numba")
EXTRAS: dict[str, tuple[str, ...]] = {
    "ai": _AI,
    # pyproject.toml's web extra includes pfeffer[ai]: its hints and computer players.
    "web": (
        "fastapi",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "jinja2",
        "multipart",
        "segno",
        "prometheus_client",
        "orjson",
        *_AI,
    ),
    "postgres": ("psycopg",),
    "cluster": ("redis",),
    "plots": ("matplotlib", "numpy"),
    "rl": ("numpy", "pyspiel", "pettingzoo", "gymnasium"),
}


class MissingExtra(ImportError):
    """A command needs an optional part of the package that is not installed; the message says
    which and how to install it."""

    #: The message's English template (a catalogue msgid: front ends translate it and ``what``
    #: with :func:`pfeffer.core.i18n.translate_error`).
    TEMPLATE = "{what} needs the optional part '{extra}' (missing: {modules}): {command}"

    def __init__(self, extra: str, what: str, modules: Sequence[str]) -> None:
        self.template = self.TEMPLATE
        self.params: dict[str, object] = {
            "what": what,
            "extra": extra,
            "modules": ", ".join(modules),
            "command": f"pip install 'pfeffer[{extra}]'",
        }
        super().__init__(self.template.format(**self.params))
        self.extra = extra
        self.modules = tuple(modules)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or sys.modules[name] = None
        return False


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported (empty: it is installed)."""
    return [m for m in EXTRAS[extra] if not _installed(m)]


def require(extra: str, what: str) -> None:
    """Raise :class:`MissingExtra` if ``extra`` is not installed; ``what`` names the command or
    feature that needs it ("pfeffer serve", "the expert computer player")."""
    lacking = missing(extra)
    if lacking:
        raise MissingExtra(extra, what, lacking)
