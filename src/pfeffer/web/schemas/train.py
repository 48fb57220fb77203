"""The trainer's request bodies (``/api/train/*``, issue 23), checked at the edge like the
rest of the API (``schemas.rest``): strict fields, a refusal naming the field with 400. The
player's progress is an object here; the service reads it (and refuses one it did not
write)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr

from pfeffer.web.schemas.rest import RequestBody

#: The games with puzzles.
TrainGame = Literal["dice", "pepper"]


class TrainNext(RequestBody):
    """``POST /api/train/next``: the game, the player's progress (none: a new player), a
    theme to drill (none: all), how many puzzles, the ids the page has already, and the rules
    to train ("": the shipped puzzles of the default rules; a dice preset with a solved table;
    a Pepper house rule as ``rule=value``)."""

    game: TrainGame = "dice"
    progress: dict[str, Any] | None = None
    theme: StrictStr | None = Field(default=None, max_length=40)
    count: StrictInt = Field(default=1, ge=1, le=20)
    exclude: list[StrictStr] = Field(default_factory=list, max_length=50)
    rules: StrictStr = Field(default="", max_length=20)


class TrainAnswer(RequestBody):
    """``POST /api/train/answer``: the puzzle, the answer (an option in the engine's notation
    or its short forms, as the terminal takes them) and the player's progress."""

    game: TrainGame = "dice"
    puzzle: StrictStr = Field(max_length=40)
    answer: StrictStr = Field(max_length=40)
    progress: dict[str, Any] | None = None
    rules: StrictStr = Field(default="", max_length=20)
