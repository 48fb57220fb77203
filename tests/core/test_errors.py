"""IllegalAction: an English message for players plus its template and parameters."""

from __future__ import annotations

import pickle

import pytest

from pfeffer.core.errors import IllegalAction


def test_format_keeps_template_and_params() -> None:
    exc = IllegalAction.format(
        "A turn banks at least {need} points; {points} cannot be banked.", need=350, points=300
    )
    assert str(exc) == "A turn banks at least 350 points; 300 cannot be banked."
    assert exc.template == "A turn banks at least {need} points; {points} cannot be banked."
    assert exc.params == {"need": 350, "points": 300}
    assert isinstance(exc, ValueError) and exc.args == (str(exc),)


def test_plain_message_is_its_own_template() -> None:
    exc = IllegalAction("There is nothing to undo.")
    assert (str(exc), exc.template, exc.params) == ("There is nothing to undo.",) * 2 + ({},)
    assert IllegalAction().template == "" and str(IllegalAction()) == ""


def test_format_errors_and_raising() -> None:
    with pytest.raises(KeyError):
        IllegalAction.format("{missing}")
    with pytest.raises(IllegalAction, match="no seat 9"):
        raise IllegalAction.format("There is no seat {seat}.", seat=9)


def test_engine_errors_carry_templates() -> None:
    from pfeffer.dice.sheet import DiceSheet

    with pytest.raises(IllegalAction) as info:
        DiceSheet(["Ann", "Bob"]).enter(300)
    assert info.value.template == "A turn banks at least {need} points; {points} cannot be banked."
    assert info.value.params == {"need": 350, "points": 300}


def test_pickles_with_its_template() -> None:
    exc = pickle.loads(
        pickle.dumps(IllegalAction.format("{player} does not hold {card}", player="Ann", card="AS"))
    )
    assert str(exc) == "Ann does not hold AS" and exc.params == {"player": "Ann", "card": "AS"}
