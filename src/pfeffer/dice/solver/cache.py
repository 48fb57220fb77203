"""Solved tables on disk: the user data folder (``$PFEFFER_DATA_DIR`` overrides it), keyed by a
hash of the rules; the tables of the default rules and of the new-table form's presets that fit
ship inside the package (``data/solved-*.npz``, found by the rules' key each file holds).

>>> from pfeffer.dice.rules import DiceRules
>>> len(rules_key(DiceRules())), rules_key(DiceRules()) == rules_key(DiceRules(target=10000))
(16, True)
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from pathlib import Path

import numpy as np
from platformdirs import user_data_dir

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver.strategy import DiceStrategy

#: Bumped whenever the stored arrays change meaning; part of every key.
FORMAT = 1
DATA_DIR_ENV = "PFEFFER_DATA_DIR"
#: The folder of the shipped tables (``solved-<name>.npz``, each with its rules' key).
SHIPPED_DIR = Path(__file__).resolve().parent / "data"
#: The shipped table of the default rules.
SHIPPED = SHIPPED_DIR / "solved-default.npz"


def rules_key(rules: DiceRules) -> str:
    """A short hash of the rules (and the storage format)."""
    text = json.dumps({"format": FORMAT, "rules": rules.to_dict()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_dir() -> Path:
    """Where solved tables are kept: ``$PFEFFER_DATA_DIR/solver`` or the user data folder's."""
    override = os.environ.get(DATA_DIR_ENV)
    base = Path(override) if override else Path(user_data_dir("pfeffer", appauthor=False))
    return base / "solver"


def path_for(rules: DiceRules) -> Path:
    """The cache file of ``rules``."""
    return cache_dir() / f"{rules_key(rules)}.npz"


def _read(path: Path, rules: DiceRules) -> DiceStrategy | None:
    try:
        with np.load(path) as data:
            if str(data["key"]) != rules_key(rules):
                return None
            return DiceStrategy.from_arrays(rules, data)
    except (OSError, KeyError, ValueError):
        return None


@functools.cache
def shipped() -> dict[str, Path]:
    """The tables that ship with the package by their rules' key (read once: each file's
    ``key`` only, not its arrays)."""
    found: dict[str, Path] = {}
    for path in sorted(SHIPPED_DIR.glob("solved-*.npz")):
        with contextlib.suppress(OSError, KeyError, ValueError), np.load(path) as data:
            found[str(data["key"])] = path
    return found


def shipped_path(rules: DiceRules) -> Path | None:
    """The shipped table of ``rules`` (the defaults' and the presets' that fit), else None."""
    return shipped().get(rules_key(rules))


def exists(rules: DiceRules) -> bool:
    """Whether a table of ``rules`` is shipped or in the cache folder (not read: cheap)."""
    return shipped_path(rules) is not None or path_for(rules).exists()


def load(rules: DiceRules) -> DiceStrategy | None:
    """The stored strategy of ``rules`` (the cache folder's, else a shipped one), else None."""
    for path in (path_for(rules), shipped_path(rules)):
        if path is not None and path.exists():
            found = _read(path, rules)
            if found is not None:
                return found
    return None


def write(strategy: DiceStrategy, path: Path) -> Path:
    """Store ``strategy`` at ``path`` (compressed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, key=np.array(rules_key(strategy.rules)), **strategy.arrays())
    tmp.replace(path)
    return path


def save(strategy: DiceStrategy) -> Path | None:
    """Store ``strategy`` in the cache folder; None if the folder cannot be written."""
    with contextlib.suppress(OSError):
        return write(strategy, path_for(strategy.rules))
    return None
