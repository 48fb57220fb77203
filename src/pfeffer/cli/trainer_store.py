"""The trainer's progress on disk: one JSON file in the user data folder
(``$PFEFFER_DATA_DIR/trainer.json``), each player's :class:`~pfeffer.core.trainer.Progress` per
game. Written atomically after every answer (:func:`pfeffer.cli.common.save_text`), so a crash
loses nothing; a file that cannot be read is kept aside (``trainer.json.damaged``), never
overwritten (nor an earlier damaged one).

Two trainers running at once for the same file: the later answer's write wins the file, so
the other's answers since its start are lost; one trainer at a time is the use.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pfeffer.cli.common import data_dir, save_text
from pfeffer.core.trainer import Progress

FORMAT = "pfeffer-trainer"


class DamagedProgress(ValueError):
    """The progress file cannot be read (it was moved aside; the message says where)."""


def progress_path() -> Path:
    """The progress file."""
    return data_dir() / "trainer.json"


def _set_aside(path: Path) -> Path:
    """Move ``path`` to a name of its own beside it (``.damaged``, ``.damaged-2``, ...), never
    over an earlier one."""
    aside = path.with_name(path.name + ".damaged")
    n = 2
    while aside.exists():
        aside = path.with_name(f"{path.name}.damaged-{n}")
        n += 1
    path.replace(aside)
    return aside


def _read() -> dict[str, Any]:
    path = progress_path()
    if not path.exists():
        return {"format": FORMAT, "version": 1, "players": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not the trainer's file")
        if not isinstance(data.get("players"), dict):
            raise ValueError("no players")
    except ValueError as exc:
        aside = _set_aside(path)
        raise DamagedProgress(
            f"The trainer's progress file could not be read ({exc}); it was kept as {aside}. "
            "Run the trainer again to start afresh."
        ) from None
    return data


def load_progress(player: str, game: str) -> Progress:
    """``player``'s progress in ``game`` (a fresh one the first time); :class:`DamagedProgress`
    if the file is damaged."""
    found = _read()["players"].get(player, {}).get(game)
    if found is None:
        return Progress(game=game)
    try:
        return Progress.from_dict(found)
    except ValueError as exc:
        aside = _set_aside(progress_path())
        raise DamagedProgress(
            f"The progress of {player} in {game} could not be read ({exc}); the file was kept as "
            f"{aside}. Run the trainer again to start afresh."
        ) from None


def save_progress(player: str, progress: Progress) -> Path:
    """Store ``player``'s ``progress`` (the other players' and games' stay as they are)."""
    data = _read()
    data["players"].setdefault(player, {})[progress.game] = progress.to_dict()
    return save_text(progress_path(), json.dumps(data, ensure_ascii=False, sort_keys=True))
