"""The search example runs (on a tiny budget)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip(
    "pyspiel", reason="open-spiel (extra pfeffer[rl]) is not installed: pip install -e '.[rl]'"
)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_search.py"


def test_openspiel_search_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("openspiel_search", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["openspiel_search"] = module
    spec.loader.exec_module(module)
    args = ["--simulations", "4", "--games", "1", "--dice-turns", "3", "--pepper-hands", "1"]
    assert module.main(args) == 0
    out = capsys.readouterr().out
    assert "dice: MCTS vs random" in out and "pepper: ISMCTS team vs random team" in out
