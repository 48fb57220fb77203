"""PepperRules checks every option against its RuleSpec (PEPPER_RULE_SPECS); see
tests/core/test_rulespec.py for the checks every option of both games shares."""

from __future__ import annotations

from typing import Any

import pytest

from pfeffer.core.errors import RulesError
from pfeffer.pepper.rules import PEPPER_RULE_SPECS, PepperRules


def test_absurd_numbers_are_refused_with_a_clear_message() -> None:
    with pytest.raises(RulesError) as info:
        PepperRules(target=10**26)
    assert str(info.value) == "target must be between 1 and 1000 (got ≈10^26)"
    with pytest.raises(RulesError, match=r"^big_pepper_factor must be between 1 and 10 \(got 0\)"):
        PepperRules.from_dict({"big_pepper_factor": 0})


def test_set_penalty_is_none_by_player_count_or_a_number() -> None:
    assert [PepperRules().penalty(n) for n in (2, 3, 4)] == [8, 8, 6]
    assert [PepperRules(set_penalty=0).penalty(n) for n in (2, 3, 4)] == [0, 0, 0]
    assert PepperRules(set_penalty=100).penalty(4) == 100
    (spec,) = [s for s in PEPPER_RULE_SPECS if s.name == "set_penalty"]
    assert spec.optional and spec.describe(None) == (
        "none (by player count: 6 with 4 players, 8 with 2–3)"
    )
    cases: list[tuple[Any, str]] = [(101, "between 0 and 100"), ("6", "a whole number or none")]
    for bad, message in cases:
        with pytest.raises(RulesError, match=message):
            PepperRules(set_penalty=bad)


def test_all_pass_lists_its_choices() -> None:
    with pytest.raises(RulesError) as info:
        PepperRules(all_pass="sometimes")
    assert str(info.value) == (
        "all_pass must be one of 'last_must_bid', 'redeal' (got 'sometimes')"
    )


def test_unknown_options_are_named() -> None:
    with pytest.raises(RulesError, match=r"^unknown house rule\(s\): trumps$"):
        PepperRules.from_dict({"trumps": False})


def test_specs_follow_the_fields_and_name_a_pepper_rule() -> None:
    assert PepperRules.specs() == PEPPER_RULE_SPECS
    assert {s.rule for s in PEPPER_RULE_SPECS} <= {f"P{n}" for n in range(1, 12)}
