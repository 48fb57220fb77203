"""Root pytest configuration: the doctests of ``pfeffer.rl`` need the optional extra
``pfeffer[rl]``; without it their modules are not collected (tests/rl skips with a reason)."""

from __future__ import annotations

import importlib.util

_NEEDS = {
    "numpy": "src/pfeffer/rl/*.py",
    "pyspiel": "src/pfeffer/rl/openspiel*.py",
    "pettingzoo": "src/pfeffer/rl/pettingzoo.py",
}


def _missing(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):  # e.g. blocked with sys.modules[module] = None
        return True


collect_ignore_glob = [pattern for module, pattern in _NEEDS.items() if _missing(module)]
