"""Live play: one WebSocket per connection at ``/ws/{table}?token=<seat token>`` (no token: a
spectator). Protocol version 1 (docs/web.md): the server sends ``state`` frames (``version``,
``view``, ``legal``), ``error`` replies and ``pong``; the client sends ``action``, ``sync`` and
``ping`` messages, ``hint`` (answered to that connection alone with a ``hint`` frame) and
``hand_review`` (a finished Pepper hand's review, to that connection alone).
The table service (``services.tables``) applies an action and broadcasts."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketState

from pfeffer.core.errors import ActionError, NotYourTurn
from pfeffer.web.i18n import LANGUAGES, translate_error, translations
from pfeffer.web.routes.deps import HubDep
from pfeffer.web.services import chat
from pfeffer.web.services.errors import StorageUnavailable, TableMoved, unavailable
from pfeffer.web.services.hand_reviews import HandReviewRefused, hand_review_frame
from pfeffer.web.services.hints import HintRefused, hint_frame
from pfeffer.web.services.live import Live, Outbox
from pfeffer.web.services.live import send_error as ws_error
from pfeffer.web.services.tables import Hub, action_key
from pfeffer.web.tokens import seat_with_token

router = APIRouter()
MAX_MESSAGE = 2048  # characters; a real message is far below this
MAX_ACTION = 64
MAX_ACTIONS = 4  # actions in one message taken as one step ("keep 15" then "roll")
MESSAGE_TYPES = ("action", "sync", "ping", "chat", "hint", "hand_review")


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
        # The seat of the token, compared with every seat in constant time (web/tokens.py).
        row = seat_with_token(live.seats, token) if live is not None and token else None
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
                    "message": gt("This link is not valid for this table."),
                }
            )
            await ws.close(code=4403)
            return
        seat = row.seat
    # Frames go out through a queue of their own (services/live.py): a broadcast never waits
    # for this client, and replies keep their order among the broadcasts.
    out = Outbox(ws)
    out.lang = lang
    live = await hub.joined(live, out, seat)  # the table in memory (it may have been let go)
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
            await _message(hub=hub, live=live, ws=out, seat=seat, talk=talk, msg=msg, lang=lang)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.left(live, out)
        await out.finish()
        if ws.client_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


def _action_of(data: dict[str, Any]) -> str | list[str] | None:
    """The message's action (``"action"``: a short text) or actions (``"actions"``: a list of
    1 to :data:`MAX_ACTIONS` short texts); None if it is malformed."""
    if "actions" in data:
        steps = data["actions"]
        if not isinstance(steps, list) or not 0 < len(steps) <= MAX_ACTIONS:
            return None
    else:
        steps = [data.get("action")]
    checked = [a for a in steps if isinstance(a, str) and 0 < len(a) <= MAX_ACTION]
    if len(checked) != len(steps):
        return None
    return checked if "actions" in data else checked[0]


def _away(lang: str) -> str:
    return translate_error(unavailable(), lang)


async def _message(
    *,
    hub: Hub,
    live: Live,
    ws: Outbox,
    seat: int | None,
    talk: chat.Speaker,
    msg: Any,
    lang: str,
) -> None:
    """Answer one message of the client (protocol v1, see the module doc)."""
    gt = translations(lang).gettext
    text = msg.get("text")
    if text is None:
        await ws_error(ws, "malformed", gt("Send JSON text messages."))
        return
    if len(text) > MAX_MESSAGE:
        await ws_error(ws, "too_large", gt("That message is too long."))
        return
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # deep nesting: RecursionError
        await ws_error(ws, "malformed", gt("That message is not valid JSON."))
        return
    if not isinstance(data, dict) or data.get("type") not in MESSAGE_TYPES:
        await ws_error(ws, "malformed", gt("Unknown message type."))
        return
    if data["type"] == "chat":  # the table chat (web/services/chat.py)
        try:
            await hub.say(live, talk, data)
        except chat.ChatRefused as exc:
            await ws_error(ws, exc.code, translate_error(exc, lang))
        return
    if data["type"] == "hint":  # the advisor, for this seat only (services/hints.py)
        try:
            await ws.send_json(await hint_frame(live, seat, lang))
        except HintRefused as exc:
            await ws_error(ws, exc.code, translate_error(exc, lang))
        return
    if data["type"] == "hand_review":  # a finished hand, for this connection (hand_reviews.py)
        try:
            await ws.send_json(await hand_review_frame(live, seat, data.get("hand"), lang))
        except HandReviewRefused as exc:
            await ws_error(ws, exc.code, translate_error(exc, lang))
        return
    if data["type"] == "ping":
        await ws.send_json({"type": "pong"})
        return
    if data["type"] == "sync":
        await ws.send_text(live.frame_text(seat))
        return
    # "actions": several actions of the seat taken as one step, all or none (an addition to
    # protocol v1 that older clients never send; docs/web.md): "keep 15" and "roll" in one
    # round trip, not two.
    action = _action_of(data)
    if action is None:
        await ws_error(ws, "malformed", gt("An action must be a short text."))
        return
    if seat is None:
        await ws_error(ws, "spectator", gt("Spectators cannot play."))
        return
    if live.status != "running":
        await ws_error(ws, "over", gt("The game is over."))
        return
    expected = data.get("version")
    if live.applied is not None and live.applied[:3] == (seat, action_key(action), expected):
        # The same action again from the same state (a double click, a resend after
        # a reconnect, also to another process): it was applied once; answer with the state.
        await ws.send_text(live.frame_text(seat))
        return
    if expected is not None and expected != live.version:
        await ws_error(ws, "stale", gt("The table moved on; here is the current state."))
        await ws.send_text(live.frame_text(seat))
        return
    try:
        await hub.act(live, seat, action)
    except TableMoved:  # another process took this version first: the table was read again
        await ws_error(ws, "stale", gt("The table moved on; here is the current state."))
        await ws.send_text(live.frame_text(seat))
    except NotYourTurn as exc:  # the engine checks the seat
        await ws_error(ws, "not_your_turn", translate_error(exc, lang))
    except ActionError as exc:
        await ws_error(ws, "illegal", translate_error(exc, lang))
    except StorageUnavailable as exc:  # nothing was applied; the table stays as it was
        await ws_error(ws, "unavailable", translate_error(exc, lang))
