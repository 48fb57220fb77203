"""Helpers shared by the CLI tests of both games: the ``run`` type, records, typed input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import Result

Run = Callable[..., Result]
"""The ``run`` fixture: ``run("dice", "play", …, input=…)`` invokes ``pfeffer``."""


def record(path: Path) -> dict[str, Any]:
    """A saved JSON record (or sheet) read back."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def lines(*inputs: str) -> str:
    """Typed answers, one a line, as CliRunner input."""
    return "\n".join(inputs) + "\n"
