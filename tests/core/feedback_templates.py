"""The English templates of a game's puzzle feedback, read from its module's source, for the
tests that each has its German and Czech entry (tests/dice/test_puzzles.py,
tests/pepper/test_puzzles.py)."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any


def feedback_templates(
    module: ModuleType, tables: Iterable[Mapping[Any, str]], lookups: tuple[str, ...]
) -> set[str]:
    """The first argument of each ``_line`` call in ``module`` (a literal, or a choice of
    literals) and the values of its text ``tables``; an argument that is neither must be a
    lookup in one of those tables (its source starts with one of ``lookups``)."""
    found: set[str] = set()

    def strings(node: ast.expr) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.IfExp):
            return strings(node.body) + strings(node.orelse)
        assert ast.unparse(node).startswith(lookups), ast.unparse(node)
        return []

    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "_line":
            found.update(strings(node.args[0]))
    found.update(v for table in tables for v in table.values())
    return found
