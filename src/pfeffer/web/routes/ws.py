"""Live play: one WebSocket per connection at ``/ws/{table}?token=<seat token>`` (no token: a
spectator). Protocol version 1 (docs/web.md): the server sends ``state`` frames (``version``,
``view``, ``legal``), ``error`` replies and ``pong``; the client sends ``action``, ``sync`` and
``ping`` messages, ``hint`` (answered to that connection alone with a ``hint`` frame) and
``hand_review`` (a finished Pepper hand's review, to that connection alone).
The table service (``services.tables``) applies an action and broadcasts."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketState

from pfeffer.core.errors import ActionError, NotYourTurn
from pfeffer.web.i18n import LANGUAGES, translate_error, translations
from pfeffer.web.jsondata import too_deep
from pfeffer.web.routes.deps import HubDep
from pfeffer.web.schemas.ws import (
    MAX_MESSAGE,
    ActionMessage,
    ChatMessage,
    ClientMessage,
    HandReviewMessage,
    InvalidMessage,
    UnknownMessage,
    parse_message,
)
from pfeffer.web.services import chat
from pfeffer.web.services.errors import (
    SeatRevoked,
    StorageUnavailable,
    TableMoved,
    unavailable,
)
from pfeffer.web.services.hand_reviews import HandReviewRefused, hand_review_frame
from pfeffer.web.services.hints import HintRefused, hint_frame
from pfeffer.web.services.live import Live, Outbox
from pfeffer.web.services.live import send_error as ws_error
from pfeffer.web.services.tables import Hub, action_key

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def ws_table(
    ws: WebSocket,
    table_id: str,
    token: str | None = None,
    lang: str = "en",
    *,
    hub: HubDep,
) -> None:
    lang = lang if lang in LANGUAGES else "en"  # the page's language (play.js sends it)
    gt = translations(lang).gettext
    await ws.accept()
    try:
        live = await hub.get(table_id, fresh=True)  # on any process: as the database has it
        # The seat of the token as the database has it, compared with every seat in constant
        # time (web/tokens.py).
        row = await hub.seat_for(live, token) if live is not None and token else None
        if live is not None and row is not None:
            await hub.seat_opened(live.id, row)
    except SQLAlchemyError:
        await ws.send_json({"type": "error", "code": "unavailable", "message": _away(lang)})
        await ws.close(code=1013)  # try again later
        return
    if live is None:
        await ws.send_json(
            {"type": "error", "code": "no_table", "message": gt("There is no such table.")}
        )
        await ws.close(code=4404)
        return
    seat: int | None = None
    if token:
        if row is None:
            await ws.send_json(
                {
                    "type": "error",
                    "code": "bad_token",
                    "message": gt(
                        "This link is not valid for this table. If the host replaced it, "
                        "ask them for the new link."
                    ),
                }
            )
            await ws.close(code=4403)
            return
        seat = row.seat
    # Frames go out through a queue of their own (services/live.py): a broadcast never waits
    # for this client, and replies keep their order among the broadcasts.
    out = Outbox(ws)
    out.lang = lang
    live = await hub.joined(live, out, seat, token)  # the table in memory (it may have been let go)
    talk = hub.speaker(live, seat)  # the table chat (web/services/chat.py)
    history = hub.chat_history(live)
    if history is not None:
        await out.send_json(history)
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            if out.gone:
                break  # fell behind or was revoked: it reconnects
            await _message(
                hub=hub, live=live, ws=out, seat=seat, token=token, talk=talk, msg=msg, lang=lang
            )
    except WebSocketDisconnect:
        pass
    finally:
        await hub.left(live, out)
        await out.finish()
        if ws.client_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


def _away(lang: str) -> str:
    return translate_error(unavailable(), lang)


@dataclasses.dataclass(frozen=True)
class Conn:
    """One connection as its messages are answered: the table, the client's seat (None: a
    spectator), its voice in the chat and the page's language."""

    hub: Hub
    live: Live
    ws: Outbox
    seat: int | None
    token: str | None  # the seat link it was opened with: every action checks it still holds
    talk: chat.Speaker
    lang: str

    @property
    def gt(self) -> Callable[[str], str]:
        """The page's gettext (its texts are msgids: tests/web/test_error_i18n.py finds them)."""
        return translations(self.lang).gettext

    async def error(self, code: str, message: str) -> None:
        await ws_error(self.ws, code, message)


async def _message(
    *,
    hub: Hub,
    live: Live,
    ws: Outbox,
    seat: int | None,
    token: str | None,
    talk: chat.Speaker,
    msg: Any,
    lang: str,
) -> None:
    """Answer one message of the client (protocol v1, see the module doc): the text is read
    as JSON, validated as one of the messages of ``schemas.ws`` and handed to its handler."""
    conn = Conn(hub, live, ws, seat, token, talk, lang)
    gt = conn.gt
    text = msg.get("text")
    if text is None:
        await conn.error("malformed", gt("Send JSON text messages."))
        return
    if len(text) > MAX_MESSAGE:
        await conn.error("too_large", gt("That message is too long."))
        return
    unreadable = too_deep(text)  # refused unparsed (see jsondata.too_deep)
    try:
        data = None if unreadable else json.loads(text)  # json keeps a lone surrogate: the
    except ValueError:  # chat refuses it by name
        unreadable = True
    if unreadable:
        await conn.error("malformed", gt("That message is not valid JSON."))
        return
    try:
        message = parse_message(data)
    except UnknownMessage:
        await conn.error("malformed", gt("Unknown message type."))
        return
    except InvalidMessage as exc:
        await INVALID[exc.kind](conn, exc.field)
        return
    await HANDLERS[message.type](conn, message)


# ---------------------------------------------------------------- the handlers, by type


async def _on_action(conn: Conn, message: ClientMessage) -> None:
    """One action, or several of the seat taken as one step, all or none (``"actions"``, an
    addition to protocol v1 that older clients never send): "keep 15" and "roll" in one round
    trip, not two."""
    gt = conn.gt
    assert isinstance(message, ActionMessage)
    action = message.steps()
    if action is None:
        await _bad_action(conn, "action")
        return
    live, seat = conn.live, conn.seat
    if seat is None:
        await conn.error("spectator", gt("Spectators cannot play."))
        return
    if live.status != "running":
        await conn.error("over", gt("The game is over."))
        return
    expected = message.version
    if live.applied is not None and live.applied[:3] == (seat, action_key(action), expected):
        # The same action again from the same state (a double click, a resend after
        # a reconnect, also to another process): it was applied once; answer with the state.
        await conn.ws.send_text(live.frame_text(seat))
        return
    stale = gt("The table moved on; here is the current state.")
    if expected is not None and expected != live.version:
        await conn.error("stale", stale)
        await conn.ws.send_text(live.frame_text(seat))
        return
    try:
        await conn.hub.act(live, seat, action, conn.token)
    except TableMoved:  # another process took this version first: the table was read again
        await conn.error("stale", stale)
        await conn.ws.send_text(live.frame_text(seat))
    except NotYourTurn as exc:  # the engine checks the seat
        await conn.error("not_your_turn", translate_error(exc, conn.lang))
    except ActionError as exc:
        await conn.error("illegal", translate_error(exc, conn.lang))
    except StorageUnavailable as exc:  # nothing was applied; the table stays as it was
        await conn.error("unavailable", translate_error(exc, conn.lang))
    except SeatRevoked as exc:  # the host revoked this link: nothing was applied
        if not conn.ws.gone:  # not yet closed by the seats read again (services/live.py)
            await conn.error("bad_token", translate_error(exc, conn.lang))
            await conn.ws.close(code=4403)


async def _bad_action(conn: Conn, field: str) -> None:
    """An action message whose fields are wrong: ``malformed``, checked before the seat."""
    gt = conn.gt
    if field == "version":
        await conn.error("malformed", gt("The version is a whole number."))
    else:
        await conn.error("malformed", gt("An action must be a short text."))


async def _on_chat(conn: Conn, message: ClientMessage) -> None:
    """The table chat (web/services/chat.py), to everyone at the table."""
    assert isinstance(message, ChatMessage)
    await _say(conn, message.model_dump(exclude_none=True))


async def _bad_chat(conn: Conn, field: str) -> None:
    """A chat message whose text or reaction is no text: ``chat_malformed`` (a spectator's
    ``chat_spectator`` first, as for any message a spectator writes)."""
    exc = chat.spectator() if conn.seat is None else chat.malformed(field)
    await conn.error(exc.code, translate_error(exc, conn.lang))


async def _say(conn: Conn, data: dict[str, Any]) -> None:
    try:
        await conn.hub.say(conn.live, conn.talk, data)
    except chat.ChatRefused as exc:
        await conn.error(exc.code, translate_error(exc, conn.lang))


async def _on_hint(conn: Conn, message: ClientMessage) -> None:
    """The advisor, for this seat only (services/hints.py)."""
    try:
        await conn.ws.send_json(await hint_frame(conn.live, conn.seat, conn.lang))
    except HintRefused as exc:
        await conn.error(exc.code, translate_error(exc, conn.lang))


async def _on_hand_review(conn: Conn, message: ClientMessage) -> None:
    """A finished hand's review, for this connection (services/hand_reviews.py)."""
    assert isinstance(message, HandReviewMessage)
    await _review(conn, message.hand)


async def _bad_hand_review(conn: Conn, field: str) -> None:
    """A ``hand`` that is no whole number: refused as a missing one is (after the checks of
    the table: hints off, not a Pepper table)."""
    await _review(conn, None)


async def _review(conn: Conn, hand: int | None) -> None:
    try:
        await conn.ws.send_json(await hand_review_frame(conn.live, conn.seat, hand, conn.lang))
    except HandReviewRefused as exc:
        await conn.error(exc.code, translate_error(exc, conn.lang))


async def _on_ping(conn: Conn, message: ClientMessage) -> None:
    await conn.ws.send_json({"type": "pong"})


async def _on_sync(conn: Conn, message: ClientMessage) -> None:
    await conn.ws.send_text(conn.live.frame_text(conn.seat))


Handler = Callable[[Conn, ClientMessage], Awaitable[None]]
Refusal = Callable[[Conn, str], Awaitable[None]]

HANDLERS: dict[str, Handler] = {
    "action": _on_action,
    "chat": _on_chat,
    "hint": _on_hint,
    "hand_review": _on_hand_review,
    "ping": _on_ping,
    "sync": _on_sync,
}
"""Each message type of protocol v1 and its handler (``schemas.ws.ClientMessage``)."""

INVALID: dict[str, Refusal] = {
    "action": _bad_action,
    "chat": _bad_chat,
    "hand_review": _bad_hand_review,
}
"""How a message of each type is refused when a field is wrong (the field named): each type
keeps its error code of protocol v1. Types without fields are never invalid."""
