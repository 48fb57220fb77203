"""The client's WebSocket messages of protocol v1 (docs/web.md, "WebSocket messages") as a
tagged union on ``type``: one model per message, validated once at the edge
(``routes/ws.py`` answers each through a table of handlers keyed by the same tag).

Keys a message does not use are ignored, as protocol v1 always did (older clients may send
more); the fields a message uses are strict (no number for a text, no text for a number).

>>> parse_message({"type": "action", "action": "roll", "version": 3})
ActionMessage(type='action', action='roll', actions=None, version=3)
>>> parse_message({"type": "ping", "extra": 1})
PingMessage(type='ping')
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

MAX_MESSAGE = 2048  # characters of one message; a real message is far below this
MAX_ACTION = 64  # characters of one action
MAX_ACTIONS = 4  # actions in one message taken as one step ("keep 15" then "roll")

ActionText = Annotated[StrictStr, Field(min_length=1, max_length=MAX_ACTION)]


class Message(BaseModel):
    """What every client message shares: its ``type``; other keys are ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class ActionMessage(Message):
    """``{"type": "action", "action": "keep 15", "version": 12}``, or several actions of the
    seat as one step, all or none: ``"actions": ["keep 15", "roll"]``. ``version``: the table's
    version the client saw (a stale one is refused)."""

    type: Literal["action"]
    action: ActionText | None = None
    actions: Annotated[list[ActionText], Field(min_length=1, max_length=MAX_ACTIONS)] | None = None
    version: StrictInt | None = None

    def steps(self) -> str | list[str] | None:
        """The action, or the list of actions (when the message has ``actions``); None if the
        message names none."""
        if "actions" in self.model_fields_set:
            return self.actions
        return self.action


class ChatMessage(Message):
    """``{"type": "chat", "text": "..."}`` or ``{"type": "chat", "reaction": "well_played"}``;
    the chat service checks the text and the reaction's key."""

    type: Literal["chat"]
    text: StrictStr | None = None
    reaction: StrictStr | None = None


class HandReviewMessage(Message):
    """``{"type": "hand_review", "hand": 3}``: the review of a finished Pepper hand."""

    type: Literal["hand_review"]
    hand: StrictInt | None = None


class HintMessage(Message):
    """``{"type": "hint"}`` (a ``version`` may come along; the hint is for the table as it is)."""

    type: Literal["hint"]


class SyncMessage(Message):
    """``{"type": "sync"}``: send the current state again."""

    type: Literal["sync"]


class PingMessage(Message):
    """``{"type": "ping"}``: answered with ``{"type": "pong"}``."""

    type: Literal["ping"]


ClientMessage = Annotated[
    ActionMessage | ChatMessage | HandReviewMessage | HintMessage | SyncMessage | PingMessage,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
MESSAGE_TYPES = ("action", "sync", "ping", "chat", "hint", "hand_review")


class UnknownMessage(ValueError):
    """Not an object with a ``type`` of protocol v1."""


class InvalidMessage(ValueError):
    """A message of a known ``type`` whose fields are not what that message takes."""

    def __init__(self, kind: str, field: str) -> None:
        super().__init__(f"{kind}: {field}")
        self.kind = kind
        self.field = field


def parse_message(data: Any) -> ClientMessage:
    """The message ``data`` (parsed JSON) as its model. :class:`UnknownMessage` when it is no
    object or its ``type`` is none of :data:`MESSAGE_TYPES`; :class:`InvalidMessage` (the
    ``type`` and the first field at fault) when a field is wrong.

    >>> parse_message({"type": "chat", "text": 5})
    Traceback (most recent call last):
    ...
    pfeffer.web.schemas.ws.InvalidMessage: chat: text
    >>> parse_message(["ping"])
    Traceback (most recent call last):
    ...
    pfeffer.web.schemas.ws.UnknownMessage
    """
    if not isinstance(data, dict) or data.get("type") not in MESSAGE_TYPES:
        raise UnknownMessage
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        loc = exc.errors()[0]["loc"]  # (tag, field, ...) in a tagged union
        raise InvalidMessage(str(data["type"]), ".".join(str(p) for p in loc[1:2])) from None
