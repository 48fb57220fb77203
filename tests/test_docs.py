"""The documentation holds together: docs/rules.md is the spec that code and tests cite.

- docs/rules.md has a heading for every rule id (D1–D14, P1–P11) and a table row for every house
  rule of ``DiceRules`` and ``PepperRules`` with the default the code has.
- Every rule id cited anywhere in the repository exists.
- Nothing cites a file the repository lacks: no rules file outside the repository, no ``*.md``
  that is not there, no broken relative link in the Markdown files.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from pfeffer.dice.rules import DiceRules
from pfeffer.pepper.rules import ALL_PASS_OPTIONS, PepperRules

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs/rules.md"
DICE_IDS = tuple(f"D{n}" for n in range(1, 15))
PEPPER_IDS = tuple(f"P{n}" for n in range(1, 12))
#: The heading that starts the card-game part of docs/rules.md; the dice part comes before it.
PEPPER_PART = "\n## Karten-Pfeffer"

#: Where citations are looked for, and which files there are text worth reading.
SCANNED = ("src", "tests", "docs", "benchmarks", "README.md")
TEXT_SUFFIXES = frozenset({".py", ".md", ".html", ".js", ".po", ".pot", ".txt", ".cfg"})
SKIPPED_DIRS = frozenset({"__pycache__", ".venvs", "screenshots"})

#: A rule id: capital D or P and one or two digits, standing alone. Word boundaries keep out card
#: codes ("9D"), hex ("0xD1", "#D10000") and dice notation ("1D20"); the number is checked after.
RULE_ID = re.compile(r"\b([DP])(\d{1,2})\b")
#: Tokens that look like rule ids but are not citations, as (path from the root, token).
NOT_CITATIONS: frozenset[tuple[str, str]] = frozenset(
    {("tests/test_docs.py", "P0"), ("tests/test_docs.py", "D20")}  # test_rule_id_pattern's data
)
#: References to files that live outside the repository (the rule sheets it was written from).
OUTSIDE = re.compile(r"\bRULES\.md\b|\bANCHORS\.md\b|\bseeds/|/work/shared")
#: A file name ending in .md, with an optional relative path in front.
MD_FILE = re.compile(r"(?<![\w/.-])((?:\.{1,2}/)*(?:[\w.-]+/)*[\w.-]+\.md)\b")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


def rules_text() -> str:
    return RULES_MD.read_text(encoding="utf-8")


def scanned_files() -> Iterator[Path]:
    for name in SCANNED:
        top = ROOT / name
        if top.is_file():
            yield top
            continue
        for path in sorted(top.rglob("*")):
            if (
                path.is_file()
                and path.suffix in TEXT_SUFFIXES
                and not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts)
            ):
                yield path


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# ------------------------------------------------------------------------------ (a) the spec


@pytest.mark.parametrize("rule_id", DICE_IDS + PEPPER_IDS)
def test_every_rule_id_has_one_heading(rule_id: str) -> None:
    headings = re.findall(rf"^#{{2,4}} {rule_id}\b.*$", rules_text(), re.MULTILINE)
    assert len(headings) == 1, f"docs/rules.md needs one heading '### {rule_id} …': {headings}"


def test_rule_ids_sit_in_their_own_part() -> None:
    dice, pepper = rules_text().split(PEPPER_PART, 1)
    for rule_id in DICE_IDS:
        assert re.search(rf"^### {rule_id}\b", dice, re.MULTILINE), rule_id
    for rule_id in PEPPER_IDS:
        assert re.search(rf"^### {rule_id}\b", pepper, re.MULTILINE), rule_id


def default_of(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    assert f.default_factory is not dataclasses.MISSING, f.name
    return f.default_factory()


def as_written(value: Any) -> str:
    """A default the way docs/rules.md writes it: a Python literal, strings in double quotes."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, Mapping):
        return repr(dict(value))
    return repr(value)


def choices_of(cls: type, name: str) -> tuple[str, ...]:
    """The allowed values of an option that is one of a few strings, else ()."""
    if (cls, name) == (PepperRules, "all_pass"):
        return ALL_PASS_OPTIONS
    hint = typing.get_type_hints(cls)[name]
    if typing.get_origin(hint) is typing.Literal:
        return tuple(str(a) for a in typing.get_args(hint))
    return ()


def option_rows(part: str) -> dict[str, list[str]]:
    """The house-rule table rows of one part of docs/rules.md: option name -> cells."""
    section = part.split("### House rules", 1)[1].split("\n### ", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        match = re.match(r"\| `(\w+)` \|", line)
        if match:
            assert match[1] not in rows, f"option {match[1]} has two rows"
            rows[match[1]] = [cell.strip() for cell in line.strip().strip("|").split("|")]
    return rows


def parts() -> dict[type, str]:
    dice, pepper = rules_text().split(PEPPER_PART, 1)
    return {DiceRules: dice, PepperRules: pepper}


HOUSE_RULES = [(cls, f.name) for cls in (DiceRules, PepperRules) for f in dataclasses.fields(cls)]


@pytest.mark.parametrize(
    ("cls", "name"), HOUSE_RULES, ids=[f"{c.__name__}.{n}" for c, n in HOUSE_RULES]
)
def test_every_house_rule_is_documented_with_its_default(cls: type, name: str) -> None:
    rows = option_rows(parts()[cls])
    assert name in rows, f"docs/rules.md has no row | `{name}` | in the {cls.__name__} table"
    cells = rows[name]
    (f,) = [f for f in dataclasses.fields(cls) if f.name == name]
    written = as_written(default_of(f))
    assert cells[1] == f"`{written}`", f"{name}: default {cells[1]}, the code has {written}"
    for choice in choices_of(cls, name):
        assert f'"{choice}"' in cells[2], f"{name}: the type column lacks {choice!r}"


@pytest.mark.parametrize("cls", [DiceRules, PepperRules], ids=lambda c: c.__name__)
def test_every_documented_house_rule_exists(cls: type) -> None:
    fields = {f.name for f in dataclasses.fields(cls)}
    assert set(option_rows(parts()[cls])) <= fields


def test_the_defaults_reader_is_not_vacuous() -> None:
    rows = option_rows(parts()[DiceRules])
    assert rows["triples"][1] == "`{1: 1000, 2: 200, 3: 300, 4: 400, 5: 500, 6: 600}`"
    assert option_rows(parts()[PepperRules])["set_penalty"][1] == "`None`"


# ------------------------------------------------------------------- (b) rule-id citations


def test_every_cited_rule_id_exists() -> None:
    known = set(DICE_IDS + PEPPER_IDS)
    cited: set[str] = set()
    unknown: list[str] = []
    for path in scanned_files():
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in RULE_ID.finditer(line):
                token = match[0]
                if (rel(path), token) in NOT_CITATIONS:
                    continue
                cited.add(token)
                if token not in known:
                    unknown.append(f"{rel(path)}:{lineno}: {token}")
    assert not unknown, "rule ids that docs/rules.md does not have:\n" + "\n".join(unknown)
    # The scan reaches the places that cite rules, in both games.
    assert {"D10", "D14", "P6", "P10"} <= cited


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("see D3, D4 and P11", ["D3", "D4", "P11"]),
        ("D1–D14, P1-P11", ["D1", "D14", "P1", "P11"]),
        ("P0 and D20 are cited", ["P0", "D20"]),
        ("9D JD 0xD1 #D10000 2D6 D6a P100 d4", []),
    ],
)
def test_rule_id_pattern(text: str, found: list[str]) -> None:
    assert [m[0] for m in RULE_ID.finditer(text)] == found


# ---------------------------------------------------------------- (c) files that are cited


def test_no_reference_to_files_outside_the_repository() -> None:
    bad = []
    for path in scanned_files():
        if path == Path(__file__).resolve():
            continue
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            bad += [f"{rel(path)}:{lineno}: {m[0]}" for m in OUTSIDE.finditer(line)]
    assert not bad, "cite docs/rules.md instead:\n" + "\n".join(bad)


def test_every_markdown_file_named_exists() -> None:
    missing = []
    for path in scanned_files():
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in MD_FILE.finditer(line):
                if line[: match.start()].endswith(":"):  # part of a URL
                    continue
                name = match[1]
                if not ((path.parent / name).exists() or (ROOT / name).exists()):
                    missing.append(f"{rel(path)}:{lineno}: {name}")
    assert not missing, "Markdown files that do not exist:\n" + "\n".join(missing)


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("path", markdown_files(), ids=rel)
def test_relative_links_resolve(path: Path) -> None:
    broken = []
    for target in MD_LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-zA-Z][\w+.-]*:", target) or target.startswith("#"):
            continue  # a URL or an anchor on the same page
        file = target.split("#", 1)[0]
        if not (path.parent / file).exists():
            broken.append(target)
    assert not broken, f"{rel(path)} links to missing files: {broken}"


def test_readme_links_the_rules() -> None:
    assert "](docs/rules.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
