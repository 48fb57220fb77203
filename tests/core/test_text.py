"""Text a person typed: what cannot be kept as text is refused with a message naming the field,
never silently changed (pfeffer.core.text)."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pfeffer.core.text import BIDI_CONTROLS, UnsafeText, check_text, find_unsafe, unsafe_reason


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("x\ud800y", "not text"),
        ("\udfff", "not text"),
        ("a\x00b", "control"),
        ("a\x1bb", "control"),
        ("a\x7fb", "control"),
        ("a\u202eb", "reorders"),
        ("a\u2066b", "reorders"),
        ("\u202a", "reorders"),
        ("\u2069", "reorders"),
    ],
)
def test_unsafe_text_is_refused_naming_the_field(text: str, why: str) -> None:
    with pytest.raises(UnsafeText) as info:
        check_text(text, field="Name")
    assert str(info.value).startswith("Name: ") and why in str(info.value)
    assert info.value.params == {"field": "Name"}


def test_white_space_folds_and_everything_else_stays() -> None:
    assert check_text(" one\ntwo\r\n\tthree ", field="Name") == "one two three"
    assert check_text("👍🏽 👨‍👩‍👧 <b>", field="Name") == "👍🏽 👨‍👩‍👧 <b>"  # joiners, markup kept
    assert check_text("שלום\u200fabc", field="Name") == "שלום\u200fabc"  # a mark is no override
    assert check_text("", field="Name") == ""
    with pytest.raises(UnsafeText, match="at most 3 characters, this one has 4"):
        check_text("abcd", field="Name", max_length=3)
    for wrong in (None, 5, ["a"], {"a": 1}):
        with pytest.raises(UnsafeText, match="a text is needed"):
            check_text(wrong, field="Name")


def test_find_unsafe_names_the_first_bad_string_of_a_body() -> None:
    assert find_unsafe({"game": "dice", "seats": [{"name": "Anna"}, {"name": "B\x00"}]}) == (
        "seats.1.name"
    )
    assert find_unsafe({"rules": {"\ud800": 1}}) == "rules.'\\ud800'"
    assert find_unsafe(["ok", "\u202e"]) == "1"
    assert find_unsafe("\x00") == "(the body)"
    assert find_unsafe({"a": [1, 2.5, None, True, {"b": "fine"}]}) is None


@given(st.text())
def test_what_is_kept_can_always_be_written(text: str) -> None:
    try:
        kept = check_text(text, field="Name")
    except UnsafeText:
        assert unsafe_reason(text) is not None
        return
    kept.encode("utf-8")  # never raises: no lone surrogate
    json.dumps(kept, ensure_ascii=False).encode("utf-8")
    assert not BIDI_CONTROLS & set(kept)
    assert not any(unicodedata.category(ch) in ("Cc", "Cs") for ch in kept)
    assert kept == kept.strip() and "  " not in kept
