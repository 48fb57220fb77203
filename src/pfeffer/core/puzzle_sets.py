"""A puzzle set on disk, for any game (issue 23): gzipped JSON with the set's format name and
version, the puzzles' own dicts and a note of how they were made. The games' ``puzzle_set``
modules name their format and puzzle type and call these.

>>> blob = dumps("pfeffer-test-puzzles", 1, [], seed=1)
>>> loads("pfeffer-test-puzzles", blob, dict)
()
>>> loads("pfeffer-other-puzzles", blob, dict)
Traceback (most recent call last):
...
ValueError: not a puzzle set
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, Protocol, TypeVar


class _Themed(Protocol):
    @property
    def themes(self) -> tuple[str, ...]: ...


T = TypeVar("T", bound=_Themed)
P = TypeVar("P")


class _Written(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


def dumps(fmt: str, version: int, puzzles: Iterable[_Written], **about: Any) -> bytes:
    """A puzzle set of format ``fmt`` as gzipped JSON (the same bytes for the same puzzles: no
    time stamp); ``about`` is kept beside them (how they were made)."""
    data = {
        "format": fmt,
        "version": version,
        "about": about,
        "puzzles": [p.to_dict() for p in puzzles],
    }
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return gzip.compress(text.encode(), mtime=0)


def loads(fmt: str, blob: bytes, read: Callable[[dict[str, Any]], P]) -> tuple[P, ...]:
    """The puzzles of a set of format ``fmt`` written by :func:`dumps`, each made by ``read``
    (ValueError if it is not such a set)."""
    try:
        data = json.loads(gzip.decompress(blob))
    except (OSError, EOFError, ValueError) as exc:
        raise ValueError(f"not a puzzle set: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise ValueError("not a puzzle set")
    return tuple(read(p) for p in data["puzzles"])


def with_theme(puzzles: Sequence[T], theme: str | None, themes: Collection[str]) -> list[T]:
    """The puzzles of ``theme`` (all for None); ValueError for a theme not among ``themes``."""
    if theme is None:
        return list(puzzles)
    if theme not in themes:
        raise ValueError(f"no theme {theme!r} (choose from {', '.join(themes)})")
    return [p for p in puzzles if theme in p.themes]
