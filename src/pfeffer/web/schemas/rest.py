"""The JSON API's bodies and answers as pydantic models (``/openapi.json`` documents them).

Each request body is checked here before a route sees it: the fields are strict (``true`` is
no number, ``"yes"`` no boolean, an object no name), keys a body does not use are ignored as
they always were, and no string anywhere in it (key or value) may hold what cannot be kept as
text (:func:`pfeffer.core.text.find_unsafe`). A refusal is a 400 whose ``detail`` names the
field (``{"detail": "seats.0.public: true or false.", "field": "seats.0.public"}``), from
:func:`refusal`, translated by the routes. What the services check beyond a field's type (the
seat counts, the house rules' bounds, a sheet entry's points) they still check themselves.

Answers are documented with the fields every client may rely on; they allow more (a sheet's
view, a summary's additions), so a model never drops what a service sends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    StrictBool,
    StrictInt,
    StrictStr,
    model_validator,
)
from pydantic_core import PydanticCustomError

from pfeffer.core.errors import TranslatableError
from pfeffer.core.text import find_unsafe

Game = Literal["dice", "pepper"]

UNSAFE = (
    "{where}: a character that cannot be kept as text (a control or direction character,"
    " or a damaged one); remove it."
)
NOT_AN_OBJECT = "send a JSON object"

#: What a field of a given pydantic error type must be ({field}: its dotted path).
TEMPLATES: dict[str, str] = {
    "missing": "{field}: this field is needed.",
    "bool_type": "{field}: true or false.",
    "bool_parsing": "{field}: true or false.",
    "string_type": "{field}: a text.",
    "int_type": "{field}: a whole number.",
    "int_parsing": "{field}: a whole number.",
    "int_from_float": "{field}: a whole number.",
    "dict_type": "{field}: an object.",
    "model_type": "{field}: an object.",
    "model_attributes_type": "{field}: an object.",
    "list_type": "{field}: a list.",
    "literal_error": "{field}: one of {expected}.",
    "too_long": "{field}: at most {max} entries.",
    "string_too_long": "{field}: at most {max} characters.",
    "greater_than_equal": "{field}: at least {min}.",
    "less_than_equal": "{field}: at most {max}.",
}
OTHER = "{field}: not a value this request takes."
#: Fields whose refusal keeps the words the API has always used for them.
FIELDS: dict[str, str] = {
    "game": "game must be 'dice' or 'pepper'",
    "hints": "hints is true or false",
    "public": "public is true or false",
    "players": "players: a list of names",
    "rules": "rules: an object of house rules",
    "points": "points: a whole number, or bust",
}


class Refused(TranslatableError):
    """A body refused at the edge; ``field`` is the dotted path of the field (None: the
    body as a whole)."""

    field: str | None = None


def _field(loc: Sequence[int | str]) -> str:
    where = ("body", "query", "path", "header", "cookie")  # FastAPI's first part: not a field
    parts = list(loc[1:] if loc and loc[0] in where else loc)
    # A member of a union (``bid``: a number or a name) is named by its type: not a field.
    while parts and isinstance(parts[-1], str) and parts[-1] in ("int", "str", "bool"):
        parts.pop()
    return ".".join(str(p) for p in parts)


def refusal(errors: Sequence[Any]) -> Refused:
    """The refusal of a body from pydantic's errors (the first is named)."""
    if not errors:
        return Refused(NOT_AN_OBJECT)
    error = errors[0]
    kind, ctx = str(error.get("type", "")), error.get("ctx") or {}
    field = _field(error.get("loc", ()))
    if kind == "unsafe_text":
        exc = Refused.format(UNSAFE, where=str(ctx.get("where", field or "(the body)")))
        exc.field = str(ctx.get("where")) if ctx.get("where") else None
        return exc
    if kind == "json_invalid" or not field:
        return Refused(NOT_AN_OBJECT)
    top = field.split(".", 1)[0]
    if field == top and top in FIELDS:
        exc = Refused(FIELDS[top])
    elif kind in TEMPLATES:
        most = ctx.get("max_length", ctx.get("le"))
        params = {"max": most, "min": ctx.get("ge"), "expected": ctx.get("expected")}
        exc = Refused.format(TEMPLATES[kind], field=field, **params)
    else:
        exc = Refused.format(OTHER, field=field)
    exc.field = field
    return exc


class Body(BaseModel):
    """A JSON object of the API: keys it does not use are ignored (as they always were)."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class RequestBody(Body):
    """A whole request body: no string in it may hold what cannot be kept as text."""

    @model_validator(mode="before")
    @classmethod
    def _only_text(cls, data: Any) -> Any:
        where = find_unsafe(data)
        if where is not None:
            raise PydanticCustomError("unsafe_text", UNSAFE, {"where": where})
        return data


class Answer(BaseModel):
    """An answer of the API: the fields named are always there; there may be more."""

    model_config = ConfigDict(extra="allow")


# ---------------------------------------------------------------- tables


class SeatIn(Body):
    """A seat of a new table: a person (``public``: offered in the lobby) or a computer
    player of the game's kind ``bot``."""

    name: StrictStr | None = None
    kind: StrictStr = "human"
    bot: StrictStr | None = None
    public: StrictBool = False


class NewTable(RequestBody):
    """``POST /api/tables``: the game, its house rules, its seats or a preset's."""

    game: Game
    rules: dict[str, Any] | None = None
    seats: list[SeatIn] | None = None
    preset: StrictStr | None = None
    hints: StrictBool = False
    seed: StrictInt | None = None

    def seats_data(self) -> list[dict[str, Any]] | None:
        """The seats as the seating service reads them (only the keys that were sent)."""
        if self.seats is None:
            return None
        return [s.model_dump(exclude_unset=True) for s in self.seats]


class HostKey(RequestBody):
    """A host's request: the table's host key (``host_token``)."""

    host_token: StrictStr | None = None


class SeatPublicIn(HostKey):
    """``POST /api/tables/{id}/seats/{seat}/public``: open the seat to everyone or not."""

    public: StrictBool


class RematchIn(RequestBody):
    """``POST /api/tables/{id}/rematch``: the asking player's seat token."""

    token: StrictStr | None = None


class CreatedSeat(Answer):
    seat: int
    name: str
    kind: str
    token: str | None = None
    url: str | None = None
    public: bool | None = None


class TableCreated(Answer):
    """The answer to a new table: the host's key and page, every human seat's link."""

    id: str
    host_token: str
    admin_token: str
    host_url: str
    spectator_url: str
    seats: list[CreatedSeat]


class SeatSummary(Answer):
    seat: int
    name: str
    kind: str
    bot: str | None = None
    bot_label: str | None = None
    free: bool


class TableSummary(Answer):
    """A table as the lobby, the history and ``GET /api/tables/{id}`` show it."""

    id: str
    game: str
    status: str
    created: str
    finished: str | None = None
    seats: list[SeatSummary]
    winners: list[int] | None = None
    scores: list[int] | None = None
    hints: bool


class HistoryEntry(TableSummary):
    """A finished game as ``GET /api/history`` lists it: its summary and the winners' names."""

    winner_names: list[str]


class MyGame(HistoryEntry):
    """A finished game of ``POST /api/history/mine``: with the seat whose link named it."""

    token: str
    seat: int


class MyGamesIn(RequestBody):
    """``POST /api/history/mine``: the seat links one browser holds (only the first 200 are
    looked at)."""

    tokens: list[StrictStr] = []


class SeatClaimed(Answer):
    token: str
    url: str


class SeatLink(Answer):
    seat: int
    token: str
    url: str


class SeatPublic(Answer):
    seat: int
    public: bool


class Rematch(Answer):
    table: str
    url: str


# ---------------------------------------------------------------- score sheets


class NewSheet(RequestBody):
    """``POST /api/sheets``: a score sheet for a game at a real table."""

    game: Game
    title: StrictStr | None = None
    players: list[StrictStr]
    rules: dict[str, Any] | None = None


class SheetEntry(RequestBody):
    """``POST /api/sheets/{id}/entries``: a dice turn (``points`` or ``bust``, ``pfeffer``)
    or a Pepper hand (``bidder``, ``bid``, ``trump``, ``tricks`` per side, or ``passed``);
    ``entry_id`` makes a resent entry count once."""

    entry_id: StrictStr | None = None
    points: StrictInt | None = None
    bust: StrictBool = False
    pfeffer: StrictBool = False
    passed: StrictBool = False
    bidder: StrictInt | None = None
    bid: StrictInt | StrictStr | None = None
    trump: StrictStr | None = None
    tricks: list[StrictInt] | None = None

    def data(self) -> dict[str, Any]:
        """The entry as the sheets read it (only the keys that were sent)."""
        return self.model_dump(exclude_unset=True)


class SheetCreated(Answer):
    id: str
    url: str


class Sheet(Answer):
    """A score sheet as its page shows it (the rest depends on the game: the dice view, the
    Pepper rows); after an entry with an id also ``entry_id`` and ``applied``."""

    game: str
    title: str
    players: list[str]


class SheetEntryCheck(Answer):
    """``POST /api/sheets/{id}/check``: what the entry would do (the engine's
    :class:`~pfeffer.core.entries.EntryCheck`) and the question the page asks before it ("" when
    it needs no confirmation)."""

    ends_game: bool
    reaches_target: bool
    unusual: bool
    points: int
    total: int
    winners: list[str]
    winners_total: int
    needs_confirmation: bool
    question: str


#: Every message template of this module (the catalogues translate each).
MESSAGES = (UNSAFE, NOT_AN_OBJECT, OTHER, *TEMPLATES.values(), *FIELDS.values())
