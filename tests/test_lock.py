"""The lock (``requirements/*.txt``, written by ``./dev lock``) keeps up with ``pyproject.toml``.

Every install of ``./dev`` and CI comes from the lock, hash-checked. A dependency added to
``pyproject.toml`` (or a range moved past the pinned version) without ``./dev lock`` would be
missing from every fresh clone: these tests fail first, naming the command.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
FIX = "run ./dev lock (./dev lock --upgrade-package NAME for one package) and commit requirements/"


def lock_sets() -> dict[str, list[str]]:
    """The lock's sets as ``./dev`` declares them: file name -> the extras it holds."""
    line = re.search(r"^LOCK_SETS=\((.*)\)$", (ROOT / "dev").read_text(), re.MULTILINE)
    assert line, "./dev declares no LOCK_SETS"
    sets = {}
    for item in re.findall(r'"([^"]*)"', line.group(1)):
        name, _, extras = item.partition(":")
        sets[name] = [e for e in extras.split(",") if e]
    return sets


def parse_lock(text: str) -> dict[str, list[tuple[Version, list[str]]]]:
    """``name -> [(version, hashes), ...]`` of a compiled requirements file (a universal lock
    may pin one package twice, under exclusive markers)."""
    pins: dict[str, list[tuple[Version, list[str]]]] = {}
    for entry in re.split(r"\n(?=\S)", text):
        body = "\n".join(ln for ln in entry.splitlines() if not ln.lstrip().startswith("#"))
        body = body.replace("\\\n", " ").strip()
        if not body:
            continue
        hashes = re.findall(r"--hash=(\S+)", body)
        req = Requirement(re.sub(r"\s--hash=\S+", "", body).strip())
        spec = list(req.specifier)
        assert len(spec) == 1 and spec[0].operator == "==", f"not a pin: {body!r}"
        pins.setdefault(canonicalize_name(req.name), []).append((Version(spec[0].version), hashes))
    return pins


def wanted(
    pyproject: Mapping[str, Any], extras: Sequence[str], build: Iterable[str]
) -> list[Requirement]:
    """The direct requirements of the project with ``extras`` (self-references such as
    ``pfeffer[rl]`` followed) and of the build backend."""
    project = pyproject["project"]
    own = canonicalize_name(project["name"])
    optional = project.get("optional-dependencies", {})
    out = [Requirement(r) for r in build]
    todo, seen = [None, *extras], set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for text in project["dependencies"] if extra is None else optional[extra]:
            req = Requirement(text)
            if canonicalize_name(req.name) == own:
                todo.extend(req.extras)
            else:
                out.append(req)
    return out


def lock_problems(
    pyproject: Mapping[str, Any], extras: Sequence[str], build: Iterable[str], lock_text: str
) -> list[str]:
    """What the lock lacks for these requirements: an empty list when it is in line."""
    pins = parse_lock(lock_text)
    problems = []
    for req in wanted(pyproject, extras, build):
        found = pins.get(canonicalize_name(req.name))
        if not found:
            problems.append(f"{req} is not in the lock")
            continue
        for version, hashes in found:
            if not req.specifier.contains(version, prereleases=True):
                problems.append(f"{req} but the lock pins {req.name}=={version}")
            if not hashes:
                problems.append(f"{req.name}=={version} has no hash")
    return problems


def _build_requirements() -> list[str]:
    lines = (ROOT / "requirements" / "build.in").read_text().splitlines()
    return [ln.split("#")[0].strip() for ln in lines if ln.split("#")[0].strip()]


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


@pytest.mark.parametrize("name", sorted(lock_sets()))
def test_the_lock_holds_every_dependency_of_pyproject(name: str) -> None:
    path = ROOT / "requirements" / f"{name}.txt"
    assert path.exists(), f"{path.name} is missing: {FIX}"
    problems = lock_problems(
        _pyproject(), lock_sets()[name], _build_requirements(), path.read_text()
    )
    assert not problems, (
        f"requirements/{name}.txt is behind pyproject.toml: " + "; ".join(problems) + f". {FIX}"
    )


def test_the_sets_are_the_ones_dev_installs() -> None:
    sets = lock_sets()
    assert sets == {"play": ["server"], "dev": ["dev"]}
    script = (ROOT / "dev").read_text()
    for name in sets:
        assert f"ensure_env {name}" in script


def test_a_dependency_added_to_pyproject_without_a_new_lock_is_caught() -> None:
    pyproject = _pyproject()
    lock_text = (ROOT / "requirements" / "dev.txt").read_text()
    build = _build_requirements()
    assert lock_problems(pyproject, ["dev"], build, lock_text) == []
    pyproject["project"]["dependencies"] = [*pyproject["project"]["dependencies"], "leftpad-xyz>=1"]
    assert lock_problems(pyproject, ["dev"], build, lock_text) == [
        "leftpad-xyz>=1 is not in the lock"
    ]
    # A range moved past the pin is caught as well.
    pyproject = _pyproject()
    pyproject["project"]["dependencies"] = ["typer>=999", *pyproject["project"]["dependencies"][1:]]
    (problem,) = lock_problems(pyproject, [], build, lock_text)
    assert problem.startswith("typer>=999 but the lock pins typer==")
    # ... and so is an extra's dependency reached through a self-reference (pfeffer[rl]).
    pyproject = _pyproject()
    pyproject["project"]["optional-dependencies"]["rl"].append("leftpad-xyz")
    assert lock_problems(pyproject, ["dev"], build, lock_text) == ["leftpad-xyz is not in the lock"]


def test_parse_lock_reads_markers_hashes_and_double_pins() -> None:
    text = (
        "# header\n"
        "numpy==2.4.6 ; python_full_version < '3.12' \\\n    --hash=sha256:aa \\\n"
        "    --hash=sha256:bb\n    # via pfeffer\n"
        "numpy==2.5.5 ; python_full_version >= '3.12' \\\n    --hash=sha256:cc\n"
        "rich==14.0 \\\n    --hash=sha256:dd\n"
    )
    pins = parse_lock(text)
    assert pins["numpy"] == [
        (Version("2.4.6"), ["sha256:aa", "sha256:bb"]),
        (Version("2.5.5"), ["sha256:cc"]),
    ]
    assert pins["rich"] == [(Version("14.0"), ["sha256:dd"])]
