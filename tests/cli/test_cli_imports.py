"""The terminal's modules import each other one way only (issue 19): a circle such as
``pfeffer.cli.dice`` ↔ ``pfeffer.cli.dice_advice`` makes the import order matter and hides
which module a piece of drawing belongs to."""

from __future__ import annotations

import itertools

import grimp


def test_no_module_of_the_terminal_imports_one_that_imports_it_back() -> None:
    graph = grimp.build_graph("pfeffer")
    modules = sorted(graph.find_children("pfeffer.cli"))
    assert "pfeffer.cli.dice" in modules and "pfeffer.cli.dice_advice" in modules
    circles = [
        (a, b)
        for a, b in itertools.combinations(modules, 2)
        if graph.find_shortest_chain(a, b) and graph.find_shortest_chain(b, a)
    ]
    assert circles == []
