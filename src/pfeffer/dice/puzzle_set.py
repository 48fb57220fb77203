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
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pfeffer.core import puzzle_sets
from pfeffer.dice.puzzles import FORMAT, THEMES, DicePuzzle

#: The shipped set (the default rules).
SHIPPED = Path(__file__).resolve().parent / "data" / "puzzles-default.json.gz"

#: The set's format name in its file.
FORMAT_NAME = "pfeffer-dice-puzzles"


def dumps(puzzles: Iterable[DicePuzzle], **about: Any) -> bytes:
    """A puzzle set as gzipped JSON (the same bytes for the same puzzles: no time stamp);
    ``about`` is kept beside them (how they were made)."""
    return puzzle_sets.dumps(FORMAT_NAME, FORMAT, puzzles, **about)


def loads(blob: bytes) -> tuple[DicePuzzle, ...]:
    """The puzzles of a set written by :func:`dumps` (ValueError if it is not one)."""
    return puzzle_sets.loads(FORMAT_NAME, blob, DicePuzzle.from_dict)


@functools.cache
def shipped() -> tuple[DicePuzzle, ...]:
    """The puzzles that ship with the package (the default rules), read once."""
    return loads(SHIPPED.read_bytes())


def with_theme(puzzles: Sequence[DicePuzzle], theme: str | None) -> list[DicePuzzle]:
    """The puzzles of ``theme`` (all for None); ValueError for a theme that does not exist."""
    return puzzle_sets.with_theme(puzzles, theme, THEMES)
