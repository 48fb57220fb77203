"""Records written by pfeffer 0.1 (before the shared protocol and the portable deal shuffle) keep
replaying: they hold every chance outcome, so the new shuffle does not matter to them."""

from __future__ import annotations

import json
from pathlib import Path

from pfeffer.dice import DiceGame
from pfeffer.dice.sheet import DiceSheet
from pfeffer.pepper import PepperGame

DATA = Path(__file__).parent.parent / "data" / "records"


def load(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


def test_an_old_pepper_game_replays_with_its_deals() -> None:
    rec = load("pepper-v0.1-3p.json")
    game = PepperGame.from_record(rec)
    assert game.scores == rec["scores"] and game.players == ("Ann", "Bob", "Cy")
    # The deals were written out in the record; the portable shuffle deals other cards now.
    fresh = PepperGame(["Ann", "Bob", "Cy"], seed=2026, dealer=0)
    fresh.apply("deal")
    assert fresh.actions[0] != game.actions[0]


def test_an_old_dice_game_replays_and_is_no_sheet() -> None:
    rec = load("dice-v0.1.json")
    game = DiceGame.from_record(rec)
    assert game.actions == rec["actions"] and not game.is_sheet and not game.hand_dice


def test_an_old_dice_sheet_is_still_a_sheet() -> None:
    rec = load("dice-sheet-v0.1.json")
    assert "sheet" not in rec  # written before the field existed
    sheet = DiceSheet.from_json(rec)
    assert sheet.totals == [900, -900]
    sheet.enter(350)  # and goes on taking whole turns
    assert sheet.totals == [1250, -900]


def test_an_old_record_with_a_void_throw_was_thrown_by_hand() -> None:
    game = DiceGame.from_record(load("dice-hand-v0.1.json"))
    assert game.hand_dice and game.scores == [1000, 0]
