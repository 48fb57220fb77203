"""The messages the server processes send each other over the fan-out (``services.bus``), as
pydantic models: a tagged union on the kind, checked when it arrives (``parse``), so a process
never reads a message by hand. On the wire each is a JSON object whose first key ``p`` names
the sending process and ``k`` the kind (the short keys keep the Redis traffic small, and the
format is the one processes of the previous release send and read).

>>> Act(start=3, end=4, actions=["roll"], seat=0).wire("n1")
{'p': 'n1', 'k': 'act', 'from': 3, 'to': 4, 'actions': ['roll'], 'seat': 0, 'last': None, \
'applied': None, 'status': 'running'}
>>> parse({"p": "n1", "k": "presence", "seats": {"0": 2}})
Presence(node='n1', kind='presence', seats={0: 2})
>>> parse({"p": "n1", "k": "nothing"}) is None
True
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

log = logging.getLogger("pfeffer.web")


def _kind(kind: str) -> Any:
    """The field of a message's kind: ``k`` on the wire."""
    return Field(default=kind, validation_alias="k", serialization_alias="k")


class Message(BaseModel):
    """What every message has: the process that sent it (``p``, set when it is sent)."""

    model_config = ConfigDict(frozen=True, validate_by_name=True, extra="ignore")
    node: str = Field(default="", validation_alias="p", serialization_alias="p")

    def wire(self, node: str) -> dict[str, Any]:
        """The JSON object to send, ``p`` first (a process knows its own by the first bytes)."""
        return {"p": node, **self.model_dump(mode="json", by_alias=True, exclude={"node"})}


class Act(Message):
    """Actions committed at a table: the version before (``from``) and after (``to``), the
    actions as stored, the seat, the public ``last`` action and ``applied`` (seat, action,
    before, after: a human's request, known again when it is resent)."""

    kind: Literal["act"] = _kind("act")
    start: int = Field(validation_alias="from", serialization_alias="from")
    end: int = Field(validation_alias="to", serialization_alias="to")
    actions: list[str]
    seat: int
    last: dict[str, Any] | None = None
    applied: tuple[int, str, int, int] | None = None
    status: str = "running"


class Presence(Message):
    """This process's connections to the table, by seat (spectators under their own key)."""

    kind: Literal["presence"] = Field(
        default="presence", validation_alias="k", serialization_alias="k"
    )
    seats: dict[int, int]


class Who(Message):
    """Asks the others to tell their presence (for a table, or for every table: ``None``)."""

    kind: Literal["who"] = _kind("who")


class ChatPosted(Message):
    """A chat message kept by the sending process (the ``message`` of the chat frame)."""

    kind: Literal["chat"] = _kind("chat")
    message: dict[str, Any]


class RematchMade(Message):
    """The table's rematch: the new table's id."""

    kind: Literal["rematch"] = Field(
        default="rematch", validation_alias="k", serialization_alias="k"
    )
    table: str


class SeatsChanged(Message):
    """The table's seats changed; ``revoked``: the seat whose link was revoked."""

    kind: Literal["seats"] = _kind("seats")
    revoked: int | None = None


class Expired(Message):
    """The table expired."""

    kind: Literal["expired"] = Field(
        default="expired", validation_alias="k", serialization_alias="k"
    )


class Beat(Message):
    """A heartbeat (every second)."""

    kind: Literal["beat"] = _kind("beat")


class Bye(Message):
    """The sending process stops."""

    kind: Literal["bye"] = _kind("bye")


BusMessage = Annotated[
    Act | Presence | Who | ChatPosted | RematchMade | SeatsChanged | Expired | Beat | Bye,
    Field(discriminator="kind"),
]
_BUS_MESSAGE: TypeAdapter[BusMessage] = TypeAdapter(BusMessage)


def parse(data: Any) -> BusMessage | None:
    """The message ``data`` (parsed JSON from another process) as its model; None (logged)
    for one that is none of the kinds or is malformed: it is dropped, never half read."""
    try:
        return _BUS_MESSAGE.validate_python(data)
    except ValidationError as exc:
        log.warning("dropped a malformed message from another process: %s", exc.errors()[:1])
        return None
