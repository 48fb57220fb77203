"""The house-rule schema (issue 7 section 2): every option of both games has a RuleSpec whose
default, bounds and choices the rules classes enforce."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from pfeffer.core.errors import RulesError
from pfeffer.core.rulespec import RuleSpec, parse_form, shown, spec_map, texts
from pfeffer.dice.rules import DICE_RULE_SPECS, DiceRules
from pfeffer.pepper.rules import PEPPER_RULE_SPECS, PepperRules

ROOT = Path(__file__).resolve().parents[2]
GAMES: list[tuple[type[Any], tuple[RuleSpec, ...]]] = [
    (DiceRules, DICE_RULE_SPECS),
    (PepperRules, PEPPER_RULE_SPECS),
]
SPECS = [(cls, s) for cls, specs in GAMES for s in specs]
IDS = [f"{cls.__name__}.{s.name}" for cls, s in SPECS]
NUMERIC = [(cls, s) for cls, s in SPECS if s.type in ("int", "mapping")]
NUMERIC_IDS = [f"{cls.__name__}.{s.name}" for cls, s in NUMERIC]


def make(cls: type[Any], spec: RuleSpec, value: Any) -> Any:
    """The rules with one option set; a mapping option is set for its second key."""
    if spec.type == "mapping":
        return cls(**{spec.name: {spec.keys[1]: value}})
    changes: dict[str, Any] = {spec.name: value}
    if (cls, spec.name) == (DiceRules, "target"):
        changes["min_bank"] = 0  # min_bank may not exceed the target
    if (cls, spec.name) == (DiceRules, "min_bank"):
        changes["target"] = 1_000_000
    return cls(**changes)


def value_of(rules: Any, spec: RuleSpec) -> Any:
    value = getattr(rules, spec.name)
    return value[spec.keys[1]] if spec.type == "mapping" else value


@pytest.mark.parametrize("cls,specs", GAMES, ids=["dice", "pepper"])
def test_one_spec_per_field_in_field_order(cls: type[Any], specs: tuple[RuleSpec, ...]) -> None:
    assert [s.name for s in specs] == [f.name for f in dataclasses.fields(cls)]
    assert cls.specs() is specs
    assert len(spec_map(specs)) == len(specs)


@pytest.mark.parametrize("cls,spec", SPECS, ids=IDS)
def test_spec_default_is_the_rules_default(cls: type[Any], spec: RuleSpec) -> None:
    default = getattr(cls(), spec.name)
    assert default == spec.default
    assert spec.check(spec.default) == default


@pytest.mark.parametrize("cls,spec", SPECS, ids=IDS)
def test_spec_is_well_formed(cls: type[Any], spec: RuleSpec) -> None:
    assert spec.label.strip() and spec.help.strip()
    assert spec.label[0].isupper() and spec.help.endswith(".")
    assert spec.type in ("int", "bool", "choice", "mapping")
    if spec.type in ("int", "mapping"):
        assert spec.min is not None and spec.max is not None and spec.min <= spec.max
        defaults = spec.default.values() if spec.type == "mapping" else [spec.default]
        assert all(d is None or spec.min <= d <= spec.max for d in defaults)
    else:
        assert spec.min is None and spec.max is None
    if spec.type == "choice":
        assert len(spec.choices) >= 2 and spec.default in spec.choices
    else:
        assert spec.choices == ()
    if spec.type == "mapping":
        assert spec.keys and set(spec.default) == set(spec.keys) and "{key}" in spec.key_label
    assert spec.optional == (spec.default is None) and bool(spec.none_text) == spec.optional


@pytest.mark.parametrize("cls,spec", SPECS, ids=IDS)
def test_rule_id_is_a_heading_of_the_rules_doc(cls: type[Any], spec: RuleSpec) -> None:
    doc = (ROOT / "docs/rules.md").read_text(encoding="utf-8")
    assert re.match(r"[DP]\d{1,2}$", spec.rule)
    assert spec.rule[0] == ("D" if cls is DiceRules else "P")
    assert re.search(rf"^### {spec.rule}\b", doc, re.MULTILINE), spec.rule


@pytest.mark.parametrize("cls,spec", NUMERIC, ids=NUMERIC_IDS)
def test_numbers_accept_their_bounds_and_refuse_beyond(cls: type[Any], spec: RuleSpec) -> None:
    assert spec.min is not None and spec.max is not None
    for ok in (spec.min, spec.max):
        assert value_of(make(cls, spec, ok), spec) == ok
    for bad in (spec.min - 1, spec.max + 1, 10**26, 10**399, -(10**399)):
        with pytest.raises(RulesError, match=r"must be between") as info:
            make(cls, spec, bad)
        assert info.value.template == "{name} must be between {low} and {high} (got {value})"
        assert info.value.params["low"] == spec.min and info.value.params["high"] == spec.max
        assert len(str(info.value)) < 100  # even for a 400-digit number
    for wrong in ("5", 2.0, True, [1]):
        with pytest.raises(RulesError, match="whole number"):
            make(cls, spec, wrong)


@pytest.mark.parametrize("cls,spec", [(c, s) for c, s in SPECS if s.type == "choice"])
def test_choices_refuse_an_unknown_choice(cls: type[Any], spec: RuleSpec) -> None:
    for choice in spec.choices:
        assert getattr(cls(**{spec.name: choice}), spec.name) == choice
    for bad in ("nonsense", spec.choices[0].upper(), 1, None):
        with pytest.raises(RulesError) as info:
            cls(**{spec.name: bad})
        message = str(info.value)
        assert all(repr(c) in message for c in spec.choices), message


@pytest.mark.parametrize("cls,spec", [(c, s) for c, s in SPECS if s.type == "bool"])
def test_yes_no_options_refuse_other_values(cls: type[Any], spec: RuleSpec) -> None:
    for bad in (1, "yes", None):
        with pytest.raises(RulesError, match="must be true or false"):
            cls(**{spec.name: bad})


@pytest.mark.parametrize("cls,spec", SPECS, ids=IDS)
def test_parse_reads_what_describe_writes(cls: type[Any], spec: RuleSpec) -> None:
    text = spec.describe(spec.default)
    if spec.optional:
        text = "none"
    assert spec.parse(text) == spec.default


def test_parse_texts() -> None:
    s = spec_map(DICE_RULE_SPECS)
    assert s["target"].parse(" 1_000 ") == 1000
    assert s["tie"].parse("PlayOff") == "playoff"
    assert s["final_round"].parse("off") is False
    assert dict(s["triples"].parse("2:250, 3:350"))[3] == 350
    assert spec_map(PEPPER_RULE_SPECS)["set_penalty"].parse("") is None
    cases = {
        ("target", "lots"): "target must be a whole number (got 'lots')",
        ("target", "9" * 500): "target must be between 50 and 1000000 (got ≈10^500)",
        ("target", "9" * 5000): "target must be a whole number (got '999999999999",
        ("tie", "coin"): "tie must be one of 'shared', 'playoff' (got 'coin')",
        ("final_round", "maybe"): "final_round must be true or false (got 'maybe')",
        ("triples", "7:100"): "triples: 7 is not one of 1-6",
        ("triples", "2=250"): "triples is written like 2:200 (got '2=250')",
        ("triples", "2:-5"): "triples[2] must be between 0 and 100000 (got -5)",
    }
    for (name, text), message in cases.items():
        with pytest.raises(RulesError) as info:
            s[name].parse(text)
        assert str(info.value).startswith(message), str(info.value)
    with pytest.raises(RulesError, match="whole number or none"):
        spec_map(PEPPER_RULE_SPECS)["set_penalty"].parse("six")


def test_from_dict_and_constructor_refuse_absurd_numbers() -> None:
    with pytest.raises(RulesError, match=r"^target must be between 50 and 1000000 \(got ≈10\^26\)"):
        DiceRules.from_dict({"target": 10**26})
    with pytest.raises(
        RulesError, match=r"^min_bank must be between 0 and 100000 \(got ≈10\^399\)"
    ):
        DiceRules(min_bank=10**399)
    with pytest.raises(RulesError, match=r"^target must be between 1 and 1000 \(got ≈10\^26\)"):
        PepperRules(target=10**26)
    with pytest.raises(RulesError, match=r"^target must be between 1 and 1000"):
        PepperRules.from_dict({"target": 10**26})


def test_shown_keeps_messages_short() -> None:
    assert shown(10**15) == "≈10^15" and shown(10**15 - 1) == "999999999999999"
    assert shown(2 * 10**20) == "≈10^20" and shown(-(10**30)) == "-≈10^30"
    assert shown(10**5000) == "≈10^5000"  # beyond int -> str's digit limit
    assert len(shown("x" * 10_000)) <= 40


def test_parse_form_keeps_defaults_for_missing_numbers() -> None:
    form = {"target": "", "min_bank": "500", "triples_2": "250", "triples_3": " ", "tie": "playoff"}
    out = parse_form(DICE_RULE_SPECS, form)
    assert "target" not in out and out["min_bank"] == 500 and out["tie"] == "playoff"
    assert dict(out["triples"]) == {**DiceRules().triples, 2: 250}
    assert out["pfeffer"] is False  # an unticked checkbox is not sent
    assert DiceRules(**out).min_bank == 500
    pepper = parse_form(PEPPER_RULE_SPECS, {"set_penalty": "", "target": "40"})
    assert pepper["set_penalty"] is None and pepper["target"] == 40
    with pytest.raises(RulesError, match="set_penalty must be between 0 and 100"):
        parse_form(PEPPER_RULE_SPECS, {"set_penalty": "1000"})
    with pytest.raises(RulesError, match=r"triples\[4\] must be a whole number"):
        parse_form(DICE_RULE_SPECS, {"triples_4": "many"})


def test_texts_lists_every_label_and_help() -> None:
    all_texts = texts(DICE_RULE_SPECS + PEPPER_RULE_SPECS)
    assert "Minimum to bank" in all_texts and "Three {key}s" in all_texts
    assert "by player count: 6 with 4 players, 8 with 2–3" in all_texts
    assert len(all_texts) == 2 * len(DICE_RULE_SPECS + PEPPER_RULE_SPECS) + 2
