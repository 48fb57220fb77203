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
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pfeffer.core import puzzle_sets
from pfeffer.pepper.puzzles import FORMAT, THEMES, PepperPuzzle

#: The shipped set (the default rules).
SHIPPED = Path(__file__).resolve().parent / "data" / "puzzles.json.gz"

#: The set's format name in its file.
FORMAT_NAME = "pfeffer-pepper-puzzles"


def dumps(puzzles: Iterable[PepperPuzzle], **about: Any) -> bytes:
    """A puzzle set as gzipped JSON (the same bytes for the same puzzles: no time stamp);
    ``about`` is kept beside them (how they were made)."""
    return puzzle_sets.dumps(FORMAT_NAME, FORMAT, puzzles, **about)


def loads(blob: bytes) -> tuple[PepperPuzzle, ...]:
    """The puzzles of a set written by :func:`dumps` (ValueError if it is not one)."""
    return puzzle_sets.loads(FORMAT_NAME, blob, PepperPuzzle.from_dict)


@functools.cache
def shipped() -> tuple[PepperPuzzle, ...]:
    """The puzzles that ship with the package (the default rules), read once."""
    return loads(SHIPPED.read_bytes())


def with_theme(puzzles: Sequence[PepperPuzzle], theme: str | None) -> list[PepperPuzzle]:
    """The puzzles of ``theme`` (all for None); ValueError for a theme that does not exist."""
    return puzzle_sets.with_theme(puzzles, theme, THEMES)
