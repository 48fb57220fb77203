"""The documentation holds together: docs/rules.md is the spec that code and tests cite.

- docs/rules.md has a heading for every rule id (D1–D14, P1–P11) and a table row for every house
  rule of ``DiceRules`` and ``PepperRules`` (their ``RuleSpec`` schema), in field order, with the
  spec's default, its type and bounds, and its rule id.
- Every rule id cited anywhere in the repository exists.
- Nothing cites a file the repository lacks: no rules file outside the repository, no ``*.md``
  that is not there, no broken relative link in the Markdown files.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from pfeffer.core.rulespec import RuleSpec
from pfeffer.dice.rules import DICE_RULE_SPECS, DiceRules
from pfeffer.pepper.rules import PEPPER_RULE_SPECS, PepperRules

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


def as_written(value: Any) -> str:
    """A default the way docs/rules.md writes it: a Python literal, strings in double quotes."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, Mapping):
        return repr(dict(value))
    return repr(value)


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


HOUSE_RULES = [(DiceRules, s) for s in DICE_RULE_SPECS] + [
    (PepperRules, s) for s in PEPPER_RULE_SPECS
]


@pytest.mark.parametrize(
    ("cls", "spec"), HOUSE_RULES, ids=[f"{c.__name__}.{s.name}" for c, s in HOUSE_RULES]
)
def test_every_house_rule_is_documented_with_its_default_and_bounds(
    cls: type, spec: RuleSpec
) -> None:
    """The table row of each option agrees with its RuleSpec: the default, the type column
    (bounds of numbers, choices: ``RuleSpec.type_text``) and the rule id in the meaning."""
    rows = option_rows(parts()[cls])
    assert spec.name in rows, (
        f"docs/rules.md has no row | `{spec.name}` | in the {cls.__name__} table"
    )
    cells = rows[spec.name]
    written = as_written(spec.default)
    assert cells[1] == f"`{written}`", f"{spec.name}: default {cells[1]}, the code has {written}"
    assert cells[2] == spec.type_text(), f"{spec.name}: type column should be {spec.type_text()}"
    assert re.search(rf"\b{spec.rule}\b", cells[3]), (
        f"{spec.name}: the meaning cites no {spec.rule}"
    )


@pytest.mark.parametrize(
    ("cls", "specs"),
    [(DiceRules, DICE_RULE_SPECS), (PepperRules, PEPPER_RULE_SPECS)],
    ids=["DiceRules", "PepperRules"],
)
def test_every_documented_house_rule_exists(cls: type, specs: tuple[RuleSpec, ...]) -> None:
    names = [spec.name for spec in specs]
    assert list(option_rows(parts()[cls])) == names, "the table lists the options in field order"


def test_the_defaults_reader_is_not_vacuous() -> None:
    rows = option_rows(parts()[DiceRules])
    assert rows["triples"][1] == "`{1: 1000, 2: 200, 3: 300, 4: 400, 5: 500, 6: 600}`"
    assert rows["target"][2] == "whole number 50 to 1,000,000"
    assert rows["tie"][2] == '`"shared"` or `"playoff"`'
    assert option_rows(parts()[PepperRules])["set_penalty"][1] == "`None`"
    assert option_rows(parts()[PepperRules])["set_penalty"][2] == (
        "whole number 0 to 100, or `None`"
    )


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
