"""Helpers shared by the CLI tests of both games: the ``run`` type, records, typed input."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from typer.testing import Result

from pfeffer.core import trainer
from pfeffer.core.trainer import Attempt, Progress, PuzzleLike, pick

Run = Callable[..., Result]
"""The ``run`` fixture: ``run("dice", "play", …, input=…)`` invokes ``pfeffer``."""


def record(path: Path) -> dict[str, Any]:
    """A saved JSON record (or sheet) read back."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def lines(*inputs: str) -> str:
    """Typed answers, one a line, as CliRunner input."""
    return "\n".join(inputs) + "\n"


PuzzleT = TypeVar("PuzzleT", bound=PuzzleLike)


def asked(
    game: str, puzzles: Sequence[PuzzleT], seed: int, answers: list[bool], theme: str | None
) -> list[PuzzleT]:
    """The puzzles a trainer of ``game`` asks with ``seed`` when the answers are right or
    wrong as ``answers`` say (the trainer's own pick and record, replayed)."""
    rng = random.Random(seed)
    p = Progress(game=game)
    out = []
    for ok in answers:
        puzzle = pick(p, puzzles, rng, theme=theme)
        assert puzzle is not None
        out.append(puzzle)
        p, _ = trainer.record(p, Attempt(puzzle.id, puzzle.difficulty, puzzle.themes, ok))
    return out
