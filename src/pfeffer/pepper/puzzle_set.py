"""The shipped Pepper puzzles: a few thousand decisions of the default rules (2, 3 and 4 players),
made by ``python -m tools.pepper_puzzles`` (docs/trainer.md) and stored as gzipped JSON in the
package.

>>> found = shipped()
>>> len(found) > 1000 and {p.kind for p in found} == {"card", "bid", "trump", "open"}
True
>>> all("left bower" in p.themes for p in with_theme(found, "left bower"))
True
"""

from __future__ import annotations

import functools
import gzip
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pfeffer.pepper.puzzles import FORMAT, THEMES, PepperPuzzle

#: The shipped set (the default rules).
SHIPPED = Path(__file__).resolve().parent / "data" / "puzzles.json.gz"


def dumps(puzzles: Iterable[PepperPuzzle], **about: Any) -> bytes:
    """A puzzle set as gzipped JSON (the same bytes for the same puzzles: no time stamp);
    ``about`` is kept beside them (how they were made)."""
    data = {
        "format": "pfeffer-pepper-puzzles",
        "version": FORMAT,
        "about": about,
        "puzzles": [p.to_dict() for p in puzzles],
    }
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return gzip.compress(text.encode(), mtime=0)


def loads(blob: bytes) -> tuple[PepperPuzzle, ...]:
    """The puzzles of a set written by :func:`dumps` (ValueError if it is not one)."""
    try:
        data = json.loads(gzip.decompress(blob))
    except (OSError, EOFError, ValueError) as exc:
        raise ValueError(f"not a puzzle set: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != "pfeffer-pepper-puzzles":
        raise ValueError("not a puzzle set")
    return tuple(PepperPuzzle.from_dict(p) for p in data["puzzles"])


@functools.cache
def shipped() -> tuple[PepperPuzzle, ...]:
    """The puzzles that ship with the package (the default rules), read once."""
    return loads(SHIPPED.read_bytes())


def with_theme(puzzles: Sequence[PepperPuzzle], theme: str | None) -> list[PepperPuzzle]:
    """The puzzles of ``theme`` (all for None); ValueError for a theme that does not exist."""
    if theme is None:
        return list(puzzles)
    if theme not in THEMES:
        raise ValueError(f"no theme {theme!r} (choose from {', '.join(THEMES)})")
    return [p for p in puzzles if theme in p.themes]
