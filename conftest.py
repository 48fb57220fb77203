"""Root pytest configuration: the doctests of ``pfeffer.rl`` need the optional extra
``pfeffer[rl]``; without it their modules are not collected (tests/rl skips with a reason)."""

from __future__ import annotations

import importlib.util
import os

import pytest

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


# A dice table with hints or an optimal player starts a solve of its rules in a worker process
# (web/services/solves.py): not in tests, but for the tests of that feature, which set it back.
os.environ["PFEFFER_BACKGROUND_SOLVES"] = "0"

collect_ignore_glob = [pattern for module, pattern in _NEEDS.items() if _missing(module)]


# A test that timed out and ran again (pyproject.toml: ``--reruns 1 --only-rerun Timeout``):
# the first try's failure, with the stacks pytest-timeout dumped, goes into the summary, so a
# hang is never passed over in silence.
_RERUNS: list[pytest.TestReport] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.outcome == "rerun":  # type: ignore[comparison-overlap]
        _RERUNS.append(report)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for report in _RERUNS:
        terminalreporter.write_sep("=", f"timed out, ran again: {report.nodeid}")
        terminalreporter.write_line(str(report.longrepr))
        for name, text in report.sections:
            if "stderr" in name:
                terminalreporter.write_line(f"--- {name} ---")
                terminalreporter.write_line(text)
