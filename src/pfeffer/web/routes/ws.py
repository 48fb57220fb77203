"""Live play: one WebSocket per connection at ``/ws/{table}?token=<seat token>`` (no token: a
spectator). Protocol version 1 (docs/web.md): the server sends ``state`` frames (``version``,
``view``, ``legal``), ``error`` replies and ``pong``; the client sends ``action``, ``sync`` and
``ping`` messages, and ``hint`` (answered to that connection alone with a ``hint`` frame).
The table service (``services.tables``) applies an action and broadcasts."""

from __future__ import annotations

import contextlib
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from pfeffer.core.errors import ActionError, NotYourTurn
from pfeffer.web import chat
from pfeffer.web.i18n import LANGUAGES, translate_error, translations
from pfeffer.web.routes.deps import HubDep, StoreDep, ws_error
from pfeffer.web.services.hints import HintRefused, hint_frame
from pfeffer.web.tokens import seat_with_token

router = APIRouter()
MAX_MESSAGE = 2048  # characters; a real message is far below this
MAX_ACTION = 64
MESSAGE_TYPES = ("action", "sync", "ping", "chat", "hint")


@router.websocket("/ws/{table_id}")
async def ws_table(
    ws: WebSocket,
    table_id: str,
    token: str | None = None,
    lang: str = "en",
    *,
    hub: HubDep,
    store: StoreDep,
) -> None:
    lang = lang if lang in LANGUAGES else "en"  # the page's language (play.js sends it)
    gt = translations(lang).gettext
    await ws.accept()
    live = await hub.get(table_id)
    if live is None:
        await ws.send_json(
            {"type": "error", "code": "no_table", "message": gt("There is no such table.")}
        )
        await ws.close(code=4404)
        return
    seat: int | None = None
    if token:
        row = seat_with_token(live.seats, token)
        if row is None:
            await ws.send_json(
                {
                    "type": "error",
                    "code": "bad_token",
                    "message": gt("This link is not valid for this table."),
                }
            )
            await ws.close(code=4403)
            return
        seat = row.seat
        if not row.claimed:
            store.mark_claimed(live.id, seat)
            row.claimed = True
        else:
            store.touch(live.id)
    live.conns[ws] = seat
    await hub.broadcast(live)
    talk = hub.chats.speaker(live.id, seat)  # the table chat (web/chat.py)
    if hub.chats.history(live.id)["messages"]:
        await ws.send_json(hub.chats.history(live.id))
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            text = msg.get("text")
            if text is None:
                await ws_error(ws, "malformed", gt("Send JSON text messages."))
                continue
            if len(text) > MAX_MESSAGE:
                await ws_error(ws, "too_large", gt("That message is too long."))
                continue
            try:
                data = json.loads(text)
            except (ValueError, RecursionError):  # deep nesting: RecursionError
                await ws_error(ws, "malformed", gt("That message is not valid JSON."))
                continue
            if not isinstance(data, dict) or data.get("type") not in MESSAGE_TYPES:
                await ws_error(ws, "malformed", gt("Unknown message type."))
                continue
            if data["type"] == "chat":  # the table chat (web/chat.py)
                try:
                    await hub.broadcast(live, talk.say(data, live.names))
                except chat.ChatRefused as exc:
                    await ws_error(ws, exc.code, translate_error(exc, lang))
                continue
            if data["type"] == "hint":  # the advisor, for this seat only (services/hints.py)
                try:
                    await ws.send_json(await hint_frame(live, seat, lang))
                except HintRefused as exc:
                    await ws_error(ws, exc.code, translate_error(exc, lang))
                continue
            if data["type"] == "ping":
                await ws.send_json({"type": "pong"})
                continue
            if data["type"] == "sync":
                await ws.send_json(live.frame(seat))
                continue
            action = data.get("action")
            if not isinstance(action, str) or not action or len(action) > MAX_ACTION:
                await ws_error(ws, "malformed", gt("An action must be a short text."))
                continue
            if seat is None:
                await ws_error(ws, "spectator", gt("Spectators cannot play."))
                continue
            if live.status != "running":
                await ws_error(ws, "over", gt("The game is over."))
                continue
            expected = data.get("version")
            if live.applied is not None and live.applied[:3] == (seat, action, expected):
                # The same action again from the same state (a double click, a resend after
                # a reconnect): it was applied once; answer with the state, not an error.
                await ws.send_json(live.frame(seat))
                continue
            if expected is not None and expected != live.version:
                await ws_error(ws, "stale", gt("The table moved on; here is the current state."))
                await ws.send_json(live.frame(seat))
                continue
            try:
                await hub.act(live, seat, action)
            except NotYourTurn as exc:  # the engine checks the seat
                await ws_error(ws, "not_your_turn", translate_error(exc, lang))
            except ActionError as exc:
                await ws_error(ws, "illegal", translate_error(exc, lang))
    except WebSocketDisconnect:
        pass
    finally:
        live.conns.pop(ws, None)
        if ws.client_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()
        await hub.broadcast(live)
