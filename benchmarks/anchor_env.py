"""Shared pieces of the benchmarks: one-core pinning and the anchors' own virtualenvs.

Anchor programs (farkle-simulation, OpenSpiel) are installed into virtualenvs under
``benchmarks/.venvs/`` on first use and run there in a subprocess: never as project dependencies.
"""

from __future__ import annotations

import os
import subprocess
import venv
from collections.abc import Sequence
from pathlib import Path

VENVS = Path(__file__).resolve().parent / ".venvs"


def pin_one_core() -> None:
    """Run on a single CPU where the OS allows it (Linux)."""
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        if cpus:
            os.sched_setaffinity(0, {cpus[-1]})


def ensure_venv(path: Path, check_import: str, installs: Sequence[Sequence[str]]) -> Path:
    """The python of a virtualenv at ``path`` where ``import check_import`` works, creating it
    with the given ``pip install`` argument lists (run in order) if needed."""
    python = path / "bin" / "python"
    if python.exists():
        check = subprocess.run(
            [str(python), "-c", f"import {check_import}"], capture_output=True, check=False
        )
        if check.returncode == 0:
            return python
    print(f"creating {path} (first run only) ...", flush=True)
    venv.create(path, with_pip=True, clear=python.exists())
    for args in installs:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *args], check=True)
    return python
