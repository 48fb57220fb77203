"""The table chat: short messages and quick reactions at a table, over the table's WebSocket.

Everyone connected to a table reads the chat; only players write in it (a spectator's link is
public, so spectators could flood a table they merely watch). What a client sends and gets
(additions to WebSocket protocol v1; clients that do not know them ignore them):

- client → server: ``{"type": "chat", "text": "hi"}`` or ``{"type": "chat", "reaction":
  "well_played"}`` (one of :data:`REACTIONS`);
- server → every client of the table: ``{"type": "chat", "message": {"id", "seat", "name",
  "text", "reaction", "time"}}``; a reaction's ``text`` is its emoji or English words, which a
  page shows in its own language by the ``reaction`` key;
- server → a client that (re)connects to a table with messages, after its first state frame:
  ``{"type": "chat_history", "messages": [...]}``, the last :data:`HISTORY` messages (nothing
  at a table nobody wrote at, so a client that does not chat gets exactly the frames it did);
- refusals: ``{"type": "error", "code": ..., "message": ...}`` with the codes of
  :class:`ChatRefused` (``chat_spectator``, ``chat_empty``, ``chat_too_long``, ``chat_rate``,
  ``chat_malformed``), the message in the page's language.

A text is kept as written (runs of white space, line breaks included, fold into one space), at
most :data:`MAX_TEXT` characters long; one with a character that cannot be kept as text (a lone
surrogate, NUL or another control character, a direction override: :mod:`pfeffer.core.text`)
is refused with ``chat_malformed``, never kept or passed on. Pages show a text as text, never
as HTML. Each seat may send ``Limits.chat`` messages (5 in 10 seconds) however many
connections it has, counted by the app's rate limiter (``services/ratelimit.py``, the same as
the HTTP limits': shared by the processes through Redis). The chat lives in the server's memory
(the last messages of the :data:`MAX_ROOMS` tables chatted at most recently); it is not part of
the game record.

>>> import asyncio
>>> rooms = Chat()
>>> anna = rooms.speaker("t1", seat=0)
>>> def say(speaker, data): return asyncio.run(speaker.say(data, ["Anna", "Ben"]))
>>> say(anna, {"type": "chat", "text": " <b>hi</b>\\n"})["message"]["text"]
'<b>hi</b>'
>>> say(anna, {"type": "chat", "text": "x\\ud800y"})
Traceback (most recent call last):
...
pfeffer.web.services.chat.ChatRefused: Chat message: a character that is not text (a damaged ...
>>> say(rooms.speaker("t1", seat=None), {"type": "chat", "text": "hi"})
Traceback (most recent call last):
...
pfeffer.web.services.chat.ChatRefused: Spectators can read the chat, but only players write in it.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import datetime as dt
from collections.abc import Sequence
from typing import Any, Self

from pfeffer.core.errors import TranslatableError
from pfeffer.core.text import UnsafeText, check_text
from pfeffer.web.services.ratelimit import Limiter, Limits, Rate

MAX_TEXT = 200
"""The longest chat message, in characters."""
HISTORY = 50
"""How many of a table's last messages a (re)connecting client gets."""
MAX_ROOMS = 1000
"""Tables whose chat is kept; the one chatted at least recently is dropped first."""
CHAT_RATE = Limits().chat
"""Messages per seat unless the app says otherwise (``pfeffer serve --limit chat=…``)."""
REACTIONS: dict[str, str] = {
    "thumbs_up": "👍",
    "laugh": "😄",
    "wow": "😮",
    "party": "🎉",
    "well_played": "Well played!",
    "good_luck": "Good luck!",
    "thanks": "Thanks!",
}
"""The quick reactions: key → what a client that does not know the key shows."""


class ChatRefused(TranslatableError):
    """A chat message the server does not pass on; ``code`` is the WebSocket error code."""

    code: str = "chat_malformed"

    @classmethod
    def coded(cls, code: str, template: str, /, **params: Any) -> Self:
        """The refusal with error ``code`` and the message ``template`` filled with ``params``."""
        exc = cls.format(template, **params)
        exc.code = code
        return exc


@dataclasses.dataclass
class Room:
    """One table's chat: its last messages and the next message's number."""

    messages: collections.deque[dict[str, Any]] = dataclasses.field(
        default_factory=lambda: collections.deque(maxlen=HISTORY)
    )
    next_id: int = 1

    def post(self, seat: int, name: str, text: str, reaction: str | None) -> dict[str, Any]:
        """Keep a message and return it."""
        message = {
            "id": self.next_id,
            "seat": seat,
            "name": name,
            "text": text,
            "reaction": reaction,
            "time": dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        }
        self.next_id += 1
        self.messages.append(message)
        return message

    def receive(self, message: dict[str, Any]) -> None:
        """Keep a message another server process took (its number stays; ours go on after)."""
        self.messages.append(message)
        with contextlib.suppress(KeyError, TypeError, ValueError):
            self.next_id = max(self.next_id, int(message["id"]) + 1)


class Chat:
    """The chats of every table of this server process (see module doc)."""

    def __init__(self, limiter: Limiter | None = None, rate: Rate | None = CHAT_RATE) -> None:
        self.limiter = limiter or Limiter()  # the app's (web/services/ratelimit.py)
        self.rate = rate  # messages per seat; None: no limit (--limit off)
        self._rooms: collections.OrderedDict[str, Room] = collections.OrderedDict()

    def room(self, table_id: str) -> Room:
        """The chat of table ``table_id`` (a new one if it has none)."""
        room = self._rooms.get(table_id)
        if room is None:
            room = self._rooms[table_id] = Room()
            while len(self._rooms) > MAX_ROOMS:
                self._rooms.popitem(last=False)
        self._rooms.move_to_end(table_id)
        return room

    def forget(self, table_ids: Sequence[str]) -> None:
        """Drop the chats of tables that are gone (expired)."""
        for table_id in table_ids:
            self._rooms.pop(table_id, None)

    def speaker(self, table_id: str, seat: int | None) -> Speaker:
        """One connection's voice at table ``table_id``: ``seat`` (None: a spectator)."""
        return Speaker(self, table_id, seat)

    async def pace(self, table_id: str, seat: int) -> None:
        """Count a message of ``seat`` at the table; ChatRefused ``chat_rate`` beyond the rate."""
        rate = self.rate
        if rate is not None and await self.limiter.hit(rate, "chat", table_id, str(seat)):
            raise ChatRefused.coded(
                "chat_rate",
                "Not so fast: at most {count} messages in {seconds} seconds.",
                count=rate.count,
                seconds=rate.seconds,
            )

    def history(self, table_id: str) -> dict[str, Any]:
        """The frame a (re)connecting client gets: the table's last messages, oldest first."""
        room = self._rooms.get(table_id)
        return {"type": "chat_history", "messages": list(room.messages) if room else []}


@dataclasses.dataclass
class Speaker:
    """A connection's voice: who it is at the table."""

    chat: Chat
    table_id: str
    seat: int | None

    async def say(self, data: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
        """The ``chat`` frame to send every client of the table for the client message
        ``data``; :class:`ChatRefused` (nothing kept, nothing sent) if it is refused."""
        if self.seat is None:
            raise spectator()
        text, reaction = _parse(data)  # a malformed message is not counted
        await self.chat.pace(self.table_id, self.seat)
        message = self.chat.room(self.table_id).post(self.seat, names[self.seat], text, reaction)
        return {"type": "chat", "message": message}


def spectator() -> ChatRefused:
    """The refusal of anything a spectator writes."""
    return ChatRefused.coded(
        "chat_spectator", "Spectators can read the chat, but only players write in it."
    )


def malformed(field: str) -> ChatRefused:
    """The refusal of a chat message whose ``field`` (``text`` or ``reaction``) is wrong."""
    if field == "reaction":
        return ChatRefused.coded(
            "chat_malformed", "A reaction is one of: {reactions}.", reactions=", ".join(REACTIONS)
        )
    return ChatRefused.coded("chat_malformed", "A chat message is a text.")


def _parse(data: dict[str, Any]) -> tuple[str, str | None]:
    """The text and reaction key of a client's chat message; ChatRefused if it is not one."""
    reaction = data.get("reaction")
    if reaction is not None:
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            raise malformed("reaction")
        return REACTIONS[reaction], reaction
    raw = data.get("text")
    if not isinstance(raw, str):
        raise malformed("text")
    try:
        text = check_text(raw, field="Chat message")
    except UnsafeText as exc:  # a lone surrogate, NUL, a control or direction character
        raise ChatRefused.coded("chat_malformed", exc.template, **exc.params) from None
    if not text:
        raise ChatRefused.coded("chat_empty", "Write something first.")
    if len(text) > MAX_TEXT:
        raise ChatRefused.coded(
            "chat_too_long",
            "A chat message has at most {max} characters; this one has {n}.",
            max=MAX_TEXT,
            n=len(text),
        )
    return text, None
