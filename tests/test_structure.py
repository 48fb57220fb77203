"""The package's structure: no import circle between its modules (issue 19). The layer
contracts themselves (engines import no front end; the web's routes -> services ->
adapters/storage) are import-linter's, in pyproject.toml, run by ./dev test."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import grimp


def circles(imports: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The import circles of a module graph ``{module: modules it imports}``: every strongly
    connected set of more than one module (Tarjan's algorithm, iterative), each sorted.

    >>> circles({"a": ["b"], "b": ["a", "c"], "c": []})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in imports:
        if root in index:
            continue
        work = [(root, iter(imports.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(imports.get(target, ()))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return sorted(found)


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": ["e"], "e": ["d"], "f": ["a"]}
    assert circles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert circles({"a": ["b"], "b": []}) == []


def test_no_module_of_the_package_is_in_an_import_circle() -> None:
    """Imports under TYPE_CHECKING count too: a circle of types is a circle of design."""
    graph = grimp.build_graph("pfeffer", exclude_type_checking_imports=False)
    modules = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    # A package's __init__ that re-exports its modules is no circle of design: a module that
    # imports its own package's __init__ is reported.
    assert circles(modules) == []
