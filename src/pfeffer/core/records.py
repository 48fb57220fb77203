"""The shape shared by both games' JSON records.

A record is a JSON object ``{"format": "pfeffer-record", "version": 1, "game": …, "rules": {…},
"seed": …, "players": […], "first_player": …, "actions": […], "result": {…}}`` plus
game-specific fields. ``actions`` lists every applied action in notation, with chance written
out (``"roll 415236"``, ``"deal …"``), so a record replays without the generator and reads like
a score sheet. ``first_player`` is the seat of the first action (dice: the first turn; Pepper:
the first dealer, who deals first). ``result`` (``{"scores": […], "winners": […], "over": …,
"actions": …}``) writes down what the actions lead to; reading a record replays them and refuses
one whose replay disagrees (:func:`check_result`). Records written before ``first_player`` or
``result`` existed lack them and still load: each game says what a missing field means.

>>> rec = envelope("dice", rules={}, players=["A", "B"], first_player=0, actions=[])
>>> rec["result"] = result([0, 0], [], over=False, actions=0)
>>> check_result(load(dumps(rec), "dice"), scores=[0, 0], winners=[], over=False)
>>> check_result(rec, scores=[50, 0], winners=[], over=False)
Traceback (most recent call last):
...
pfeffer.core.errors.RecordError: The record says the scores are [0, 0]; its replay gives [50, 0].
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pfeffer.core.errors import RecordError

RECORD_FORMAT = "pfeffer-record"
RECORD_VERSION = 1


def envelope(game: str, **fields: Any) -> dict[str, Any]:
    """A fresh record dict for ``game`` ("dice" or "pepper") with the given fields."""
    return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": game, **fields}


def load(data: str | bytes | dict[str, Any], game: str) -> dict[str, Any]:
    """Parse and check the envelope of a record of ``game``; raise :class:`RecordError` if wrong."""
    if isinstance(data, str | bytes):
        try:
            obj = json.loads(data)
        except json.JSONDecodeError as exc:
            raise RecordError(f"This is not a JSON game record: {exc}.") from exc
    else:
        obj = data
    if not isinstance(obj, dict):
        raise RecordError("A game record must be a JSON object.")
    if obj.get("format") != RECORD_FORMAT:
        raise RecordError(
            "This is not a pfeffer game record (its format field is missing or wrong)."
        )
    if obj.get("version") != RECORD_VERSION:
        raise RecordError(
            f"Record version {obj.get('version')!r} is not supported (this program reads "
            f"version {RECORD_VERSION})."
        )
    if obj.get("game") != game:
        raise RecordError(f"This is a record of the {obj.get('game')!r} game, not {game!r}.")
    for key in ("rules", "players", "actions"):
        if key not in obj:
            raise RecordError(f"The record has no {key!r} field.")
    if not isinstance(obj["actions"], list) or not all(isinstance(a, str) for a in obj["actions"]):
        raise RecordError("The record's 'actions' must be a list of action strings.")
    return obj


def result(
    scores: Sequence[int], winners: Sequence[int], *, over: bool, actions: int
) -> dict[str, Any]:
    """The record's ``result`` field: the totals by side, the winning sides, whether the game
    ended, and after how many actions (the record's whole ``actions``)."""
    return {"scores": list(scores), "winners": list(winners), "over": over, "actions": actions}


def check_result(
    record: dict[str, Any], *, scores: Sequence[int], winners: Sequence[int], over: bool
) -> None:
    """Refuse (:class:`RecordError`) a record whose written result differs from its replay's.

    Only a result written for the record's actions is checked: a record cut short to replay a
    game up to some step (a review, an undo) keeps the result of the whole game, which says
    ``actions`` for more. The fields an older record does not have are not checked.
    """
    written = record.get("result")
    if written is None:
        return
    if not isinstance(written, dict):
        raise RecordError("The record's 'result' must be an object with scores and winners.")
    if written.get("actions", len(record["actions"])) != len(record["actions"]):
        return
    replay = {"scores": list(scores), "winners": list(winners), "over": over}
    words = {"scores": "the scores are", "winners": "the winners are", "over": "over is"}
    for key, got in replay.items():
        if key in written and written[key] != got:
            raise RecordError(
                f"The record says {words[key]} {written[key]!r}; its replay gives {got!r}."
            )


def first_player(record: dict[str, Any], *, old: str | None = None, default: int | None = 0) -> Any:
    """The record's ``first_player``; records written before it existed give the field ``old``
    (Pepper's ``dealer``) or ``default``. Both present must agree. Checked by the game."""
    if "first_player" in record:
        first = record["first_player"]
        if old is not None and old in record and record[old] != first:
            raise RecordError(
                f"The record's first_player ({first!r}) and {old} ({record[old]!r}) disagree."
            )
        return first
    if old is not None and old in record:
        return record[old]
    return default


def dumps(record: dict[str, Any]) -> str:
    """The canonical JSON text of a record (stable key order, UTF-8 kept readable)."""
    return json.dumps(record, ensure_ascii=False, indent=1)
