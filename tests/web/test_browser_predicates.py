"""The browser tests wait on the pages with arrow functions, never with a bare expression.

Playwright compiles a string predicate of ``wait_for_function`` with ``eval`` each time it polls;
the server's Content Security Policy (``script-src 'self'``) forbids that, so a bare expression
passes only when it is already true at the first look (seen in CI: an ``EvalError`` after a slow
start). An arrow function is compiled once, before the page's policy applies, and then called.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _first_text(node: ast.expr) -> str | None:
    """The literal text a predicate argument starts with (f-strings included)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        head = node.values[0]
        if isinstance(head, ast.Constant) and isinstance(head.value, str):
            return head.value
    return None


def string_predicates(source: str) -> list[int]:
    """Lines where ``wait_for_function`` is given a bare expression rather than a function.

    >>> string_predicates("page.wait_for_function('document.title === \\"x\\"')")
    [1]
    >>> string_predicates("page.wait_for_function('() => document.title === \\"x\\"')")
    []
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
            and node.args
        ):
            continue
        text = _first_text(node.args[0])
        if text is None:
            continue  # built elsewhere: not a literal to judge
        head = text.lstrip()
        if not (head.startswith("(") and "=>" in head) and not head.startswith("function"):
            lines.append(node.lineno)
    return lines


def test_every_wait_for_function_is_given_a_function() -> None:
    found = {
        str(path.relative_to(TESTS)): bad
        for path in sorted(TESTS.rglob("*.py"))
        if (bad := string_predicates(path.read_text(encoding="utf-8")))
    }
    assert found == {}
