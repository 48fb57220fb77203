"""The envelope shared by both games' JSON records.

A record is a JSON object ``{"format": "pfeffer-record", "version": 1, "game": …, "rules": {…},
"seed": …, "players": […], "actions": […]}`` plus game-specific fields. ``actions`` lists every
applied action in notation, with chance written out (``"roll 415236"``, ``"deal …"``), so a record
replays without the generator and reads like a score sheet.
"""

from __future__ import annotations

import json
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
            raise RecordError(f"not a JSON game record: {exc}") from exc
    else:
        obj = data
    if not isinstance(obj, dict):
        raise RecordError("a game record must be a JSON object")
    if obj.get("format") != RECORD_FORMAT:
        raise RecordError("not a pfeffer game record (format field missing or wrong)")
    if obj.get("version") != RECORD_VERSION:
        raise RecordError(
            f"record version {obj.get('version')!r} is not supported (this program reads "
            f"version {RECORD_VERSION})"
        )
    if obj.get("game") != game:
        raise RecordError(f"this is a record of the {obj.get('game')!r} game, not {game!r}")
    for key in ("rules", "players", "actions"):
        if key not in obj:
            raise RecordError(f"the record has no {key!r} field")
    if not isinstance(obj["actions"], list) or not all(isinstance(a, str) for a in obj["actions"]):
        raise RecordError("'actions' must be a list of action strings")
    return obj


def dumps(record: dict[str, Any]) -> str:
    """The canonical JSON text of a record (stable key order, UTF-8 kept readable)."""
    return json.dumps(record, ensure_ascii=False, indent=1)
