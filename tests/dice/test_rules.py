"""DiceRules checks every option against its RuleSpec (DICE_RULE_SPECS); see
tests/core/test_rulespec.py for the checks every option of both games shares."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pfeffer.core.errors import RulesError
from pfeffer.dice import DiceGame
from pfeffer.dice.rules import DICE_RULE_SPECS, DiceRules


def test_absurd_numbers_are_refused_with_a_clear_message() -> None:
    with pytest.raises(RulesError) as info:
        DiceRules(min_bank=10**399)
    assert str(info.value) == "min_bank must be between 0 and 100000 (got ≈10^399)"
    with pytest.raises(RulesError) as info:
        DiceRules.from_dict({"target": 10**26})
    assert str(info.value) == "target must be between 50 and 1000000 (got ≈10^26)"
    assert info.value.params == {"name": "target", "low": 50, "high": 1_000_000, "value": "≈10^26"}


def test_min_bank_may_not_exceed_the_target() -> None:
    assert DiceRules(target=350).min_bank == 350  # equal is fine
    assert DiceRules(target=50, min_bank=0).target == 50
    with pytest.raises(RulesError) as info:
        DiceRules(target=1000, min_bank=1050)
    assert str(info.value) == "min_bank (1050) must not be above target (1000)"
    assert info.value.template == "{name} ({value}) must not be above {other} ({limit})"


def test_triples_are_checked_per_face() -> None:
    from_json: Any = {"2": 250}  # keys of a JSON record are strings
    assert DiceRules(triples=from_json).triples == {**DiceRules().triples, 2: 250}
    cases: list[tuple[Any, str]] = [
        ({7: 100}, "triples: 7 is not one of 1-6"),
        ({"x": 100}, "triples: 'x' is not one of 1-6"),
        ({True: 100}, "triples: True is not one of 1-6"),
        ({2: 100_001}, r"triples\[2\] must be between 0 and 100000 \(got 100001\)"),
        ({2: "250"}, r"triples\[2\] must be a whole number \(got '250'\)"),
        ([250], "triples must map each of 1-6 to a whole number"),
    ]
    for bad, message in cases:
        with pytest.raises(RulesError, match=message):
            DiceRules(triples=bad)


def test_records_keep_rules_and_refuse_rules_out_of_bounds() -> None:
    rules = DiceRules(target=2000, triples={1: 1500}, tie="playoff")
    game = DiceGame(["A", "B"], rules, seed=3)
    record = json.loads(game.to_json())
    assert DiceGame.from_record(record).rules == rules
    record["rules"]["pfeffer_penalty_factor"] = 11
    with pytest.raises(RulesError, match="pfeffer_penalty_factor must be between 1 and 10"):
        DiceRules.from_dict(record["rules"])


def test_unknown_options_are_named() -> None:
    with pytest.raises(RulesError, match=r"^unknown house rule\(s\): minbank, x$"):
        DiceRules.from_dict({"x": 1, "minbank": 500})


def test_specs_follow_the_fields_and_name_a_dice_rule() -> None:
    assert DiceRules.specs() == DICE_RULE_SPECS
    assert {s.rule for s in DICE_RULE_SPECS} <= {f"D{n}" for n in range(1, 15)}
