"""The shipped dice puzzles: a few thousand decisions of the default rules, made by
``python -m tools.dice_puzzles`` (docs/trainer.md) and stored as gzipped JSON in the package.

>>> found = shipped()
>>> len(found) > 1000 and all(p.rules == found[0].rules for p in found[:10])
True
>>> {p.kind for p in found} == {"keep", "bank", "pfeffer"}
True
>>> all("final round" in p.themes for p in with_theme(found, "final round"))
True
"""

from __future__ import annotations

import functools
import gzip
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pfeffer.dice.puzzles import FORMAT, THEMES, DicePuzzle

#: The shipped set (the default rules).
SHIPPED = Path(__file__).resolve().parent / "data" / "puzzles-default.json.gz"


def dumps(puzzles: Iterable[DicePuzzle], **about: Any) -> bytes:
    """A puzzle set as gzipped JSON (the same bytes for the same puzzles: no time stamp);
    ``about`` is kept beside them (how they were made)."""
    data = {
        "format": "pfeffer-dice-puzzles",
        "version": FORMAT,
        "about": about,
        "puzzles": [p.to_dict() for p in puzzles],
    }
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return gzip.compress(text.encode(), mtime=0)


def loads(blob: bytes) -> tuple[DicePuzzle, ...]:
    """The puzzles of a set written by :func:`dumps` (ValueError if it is not one)."""
    try:
        data = json.loads(gzip.decompress(blob))
    except (OSError, EOFError, ValueError) as exc:
        raise ValueError(f"not a puzzle set: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != "pfeffer-dice-puzzles":
        raise ValueError("not a puzzle set")
    return tuple(DicePuzzle.from_dict(p) for p in data["puzzles"])


@functools.cache
def shipped() -> tuple[DicePuzzle, ...]:
    """The puzzles that ship with the package (the default rules), read once."""
    return loads(SHIPPED.read_bytes())


def with_theme(puzzles: Sequence[DicePuzzle], theme: str | None) -> list[DicePuzzle]:
    """The puzzles of ``theme`` (all for None); ValueError for a theme that does not exist."""
    if theme is None:
        return list(puzzles)
    if theme not in THEMES:
        raise ValueError(f"no theme {theme!r} (choose from {', '.join(THEMES)})")
    return [p for p in puzzles if theme in p.themes]
