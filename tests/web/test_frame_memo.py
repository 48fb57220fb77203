"""A dice table keeps the JSON of its finished turns from one frame to the next (``memo`` of
``BoundTable``, ``FinishedTurns``): every frame is still exactly the one built from scratch the
way the server built it before (same JSON text, key order included), for every seat and
spectator, after every action of whole games, whether the actions come as new tables
(``after``, a move here) or are applied to the table's game in place (a move of another
process, ``services.sync``)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pfeffer.dice import DiceGame
from pfeffer.dice.log import dice_log
from pfeffer.dice.preview import keep_previews
from pfeffer.dice.scoring import score
from pfeffer.dice.stats import face_stats
from pfeffer.web.adapters.games import (
    BoundTable,
    DiceAdapter,
    FaceCounts,
    _seat_facts,
    adapter,
    log_fields,
)
from pfeffer.web.jsondata import jsonable


def scratch(game: DiceGame, seat: int | None) -> dict[str, Any]:
    """The frame's view as the server built it before the memo (the reference)."""
    v = game.view(seat)
    data: dict[str, Any] = jsonable(v)
    sides = list(v.players)
    data["sheet_rows"] = jsonable(v.sheet_rows)
    data["single_faces"] = [f for f in range(1, 7) if score([f], v.rules)]
    data["is_my_turn"] = v.is_my_turn
    data["winner_names"] = [sides[w] for w in v.winners]
    data |= _seat_facts(v.seat, len(v.players), v.side_of, sides)
    data |= log_fields(dice_log(v))
    data["dice_stats"] = jsonable(face_stats(game.actions))
    for option, preview in zip(data["keep_options"], keep_previews(game), strict=True):
        option["next"] = jsonable(preview)
    return data


def text(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


RULES = [
    {"target": 1500, "min_bank": 0},
    {"target": 3000, "min_bank": 0, "auto_pfeffer": True, "final_round": False},
    {"target": 1000, "min_bank": 0, "pfeffer": False, "tie": "playoff"},
]


@pytest.mark.parametrize(
    ("rules", "players", "seed"), [(RULES[0], 2, 1), (RULES[1], 3, 2), (RULES[2], 4, 3)]
)
def test_frames_with_the_memo_are_the_frames_from_scratch(
    rules: dict[str, Any], players: int, seed: int
) -> None:
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    table = adapter("dice").table(rules, names, seed)
    assert isinstance(table, BoundTable)
    in_place = 0
    for _ in range(2000):
        game = table.game
        assert isinstance(game, DiceGame)
        for seat in [None, *range(players)]:
            assert text(table.view(seat)) == text(scratch(game, seat))
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        legal = table.legal_actions(seat)
        keeps = [a for a in legal if a.startswith("keep")]
        if "bank" in legal and rng.random() < 0.6:
            action = "bank"
        else:  # mostly the first (best) keep, so that games end
            action = keeps[0] if keeps and rng.random() < 0.7 else rng.choice(legal)
        if rng.random() < 0.3:
            game.apply(action, seat=seat)  # as a move of another process: the same table
            in_place += 1
        else:
            table = table.after(action, seat)
    assert table.game.is_over and in_place > 0
    assert len(table.game.history) >= 2 * players  # several turns: the memo was made anew
    assert "dice" in table.memo  # the memo went along


def test_a_view_without_a_memo_is_the_same() -> None:
    ad = DiceAdapter()
    table = ad.table({"target": 1000, "min_bank": 0}, ["Ann", "Bob"], 9)
    while not table.game.is_over:
        seat = table.game.current_player
        assert seat is not None
        legal = table.legal_actions(seat)
        table = table.after("bank" if "bank" in legal else legal[0], seat)
        assert isinstance(table.game, DiceGame)
        assert text(table.view(0)) == text(ad.view(table.game, 0)) == text(scratch(table.game, 0))


def test_dice_statistics_are_counted_on_only_for_the_same_record() -> None:
    """``FaceCounts`` counts on from the memo's counts where the record begins with what they
    counted (the very strings), and counts the whole record of any other game."""
    memo: dict[str, Any] = {}
    a = ["roll 115234", "keep 11", "roll 5566", "bank"]
    assert FaceCounts.on(a[:2], memo).json() == jsonable(face_stats(a[:2]))
    assert FaceCounts.on(a, memo).json() == jsonable(face_stats(a))  # counted on
    other = ["roll 666666", "keep 666666", "roll 123456", "bank"]  # as long, another game
    assert FaceCounts.on(other, memo).json() == jsonable(face_stats(other))
    assert FaceCounts.on(other[:1], memo).json() == jsonable(face_stats(other[:1]))  # shorter
