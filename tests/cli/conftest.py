"""Fixtures shared by the CLI tests of both games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from pfeffer.cli import app, words
from pfeffer.cli.common import DATA_DIR_ENV
from tests.cli.helpers import Run


@pytest.fixture
def run(tmp_path: Path) -> Run:
    """Invoke ``pfeffer`` with the records folder in ``tmp_path`` and a wide terminal."""
    runner = CliRunner()
    env = {DATA_DIR_ENV: str(tmp_path / "data"), "COLUMNS": "200", "LC_ALL": "", "LANG": "C.UTF-8"}
    env["LC_MESSAGES"] = ""  # English unless a test asks for --lang

    def invoke(*args: str, input: str = "") -> Result:
        return runner.invoke(app, list(args), input=input, env=env)

    return invoke


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Each test starts and ends in English: the terminal's language is module state
    (pfeffer.cli.words), which a command run with --lang or LANG leaves set, and the doctests
    of pfeffer.cli that run after a CLI test in the same worker read it."""
    words.use("en")
    yield
    words.use("en")
