"""A holder for an engine game inside an OpenSpiel Python state.

OpenSpiel copies a Python state with ``copy.deepcopy`` of its attributes (``State.clone``) and
serializes it by pickling them. The box makes both go through the engine's own API: a deep copy is
``game.clone()`` (cheap), a pickle is the game's JSON record (replayed on unpickling).

>>> import copy, pickle
>>> from pfeffer.dice import DiceGame
>>> box = EngineBox(DiceGame(2, seed=3)); box.game.apply("roll 115234")
>>> copy.deepcopy(box).game.legal_actions() == box.game.legal_actions()
True
>>> pickle.loads(pickle.dumps(box)).game.to_record() == box.game.to_record()
True
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pfeffer.dice import DiceGame
from pfeffer.pepper import PepperGame

G = TypeVar("G", DiceGame, PepperGame)


def _from_record(kind: str, record: str) -> EngineBox[Any]:
    if kind == "dice":
        return EngineBox(DiceGame.from_record(record))
    return EngineBox(PepperGame.from_record(record))


class EngineBox(Generic[G]):
    """Holds ``game``; deep-copies by ``clone()`` and pickles as the game's record."""

    __slots__ = ("game",)

    def __init__(self, game: G) -> None:
        self.game: G = game

    def __deepcopy__(self, memo: dict[int, Any]) -> EngineBox[G]:
        return EngineBox(self.game.clone())

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        kind = "dice" if isinstance(self.game, DiceGame) else "pepper"
        return _from_record, (kind, self.game.to_json())


class SnapshotBox(EngineBox[G]):
    """An engine game that is never changed (callers clone it first): deep copies share it."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> SnapshotBox[G]:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        kind = "dice" if isinstance(self.game, DiceGame) else "pepper"
        return _snapshot_from_record, (kind, self.game.to_json())


def _snapshot_from_record(kind: str, record: str) -> SnapshotBox[Any]:
    return SnapshotBox(_from_record(kind, record).game)
