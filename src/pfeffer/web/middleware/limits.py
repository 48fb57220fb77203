"""Rate limits and a cap on connections per table (issue 9 §4), as one ASGI middleware.

Per address (the client's IP; behind a reverse proxy uvicorn takes it from ``X-Forwarded-For``
of the proxies in ``--forwarded-allow-ips``): HTTP requests, new tables and score sheets, and
joins (WebSocket connections, claimed lobby seats), counted by the app's
:class:`~pfeffer.web.services.ratelimit.Limiter` (shared by the processes through Redis when
there is one). Per WebSocket connection: messages, counted by a limiter of the connection's
own. Per table, in this process: open spectator connections (in all, and from one address)
and the windows of one seat link; the seats never share a cap with the spectators, so
watchers cannot lock a player out (issue 20 §1.3). A refused request is an HTTP 429
(an HTML page or the API's JSON ``{"detail": ...}``, with ``Retry-After``); a refused WebSocket
message or connection an ``error`` frame of protocol v1 (codes ``rate_limited``,
``table_full``).

The defaults are far above what people at a table do (a player sends a few messages a
second, a page loads about fifteen files) and stop floods; ``pfeffer serve --limit`` changes
them, ``--limit off`` switches them off (a load test from one address).
"""

from __future__ import annotations

import collections
import json
import math
import re
import urllib.parse
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pfeffer.web.i18n import LANGUAGES, translations
from pfeffer.web.render import http_error
from pfeffer.web.services.ratelimit import Limiter, Limits, Rate

__all__ = ["Limiter", "Limits", "Rate", "RateLimits"]

EXEMPT = ("/healthz", "/readyz", "/metrics")  # probes of the proxy and the monitoring
CREATE = re.compile(r"^/(api/tables|new/[^/]+|play-now/[^/]+|api/sheets|sheets)/?$")
CLAIM = re.compile(r"^/api/tables/[^/]+/claim/[^/]+$")
WS_TABLE = re.compile(r"^/ws/([^/]+)$")
CLOSE_RATE = 4429  # WebSocket close codes (4000 + the HTTP status they correspond to)
CLOSE_FULL = 4503


def address(scope: Scope) -> str:
    """The client's address (``X-Forwarded-For`` is applied by uvicorn for trusted proxies)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def seat_link(scope: Scope) -> str | None:
    """The seat link a WebSocket is opened with (``?token=``), None for a spectator."""
    query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
    token = query.get("token", [""])[-1]
    return token or None


def lang_of_ws(scope: Scope) -> str:
    """The page's language of a WebSocket (play.js sends ``lang``)."""
    query = scope.get("query_string", b"").decode("latin-1")
    m = re.search(r"(?:^|&)lang=([a-z]{2})(?:&|$)", query)
    return m[1] if m and m[1] in LANGUAGES else "en"


class RateLimits:
    """The ASGI middleware that applies ``Limits``."""

    def __init__(
        self, app: ASGIApp, limits: Limits | None = None, limiter: Limiter | None = None
    ) -> None:
        self.app = app
        self.limits = limits or Limits()
        self.limiter = limiter or Limiter()  # the app's: the chat counts with it too
        # Open WebSockets: spectators per table, per table and address; windows per seat link.
        self.open: collections.Counter[tuple[str, ...]] = collections.Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.limits.enabled or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        else:
            await self._websocket(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope["path"]
        if path in EXEMPT:
            await self.app(scope, receive, send)
            return
        addr = address(scope)
        wait = await self.limiter.hit(self.limits.http, "http", addr)
        refusal = HTTPException(429, "Too many requests: please wait a moment and try again.")
        if not wait and scope["method"] == "POST":
            if CREATE.match(path):
                wait = await self.limiter.hit(self.limits.create, "create", addr)
                refusal = HTTPException(
                    429, "Too many new tables from your address: please wait a moment."
                )
            elif CLAIM.match(path):
                wait = await self.limiter.hit(self.limits.join, "join", addr)
                refusal = HTTPException(
                    429, "Too many joins from your address: please wait a moment."
                )
        if not wait:
            await self.app(scope, receive, send)
            return
        response = await http_error(Request(scope), refusal)
        response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
        await response(scope, receive, send)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        m = WS_TABLE.match(scope["path"])
        if m is None:
            await self.app(scope, receive, send)
            return
        table = m[1]
        gt = translations(lang_of_ws(scope)).gettext
        if await self.limiter.hit(self.limits.join, "join", address(scope)):
            text = gt("Too many new connections from your address: please wait a moment.")
            await refuse(receive, send, "rate_limited", text, CLOSE_RATE)
            return
        token = seat_link(scope)
        limits = self.limits
        caps: list[tuple[tuple[str, ...], int]]
        if token is None:
            caps = [(("spectators", table), limits.spectators)]
            caps.append((("spectators", table, address(scope)), limits.spectators_per_address))
            text = gt("This table has too many spectators just now: please try again later.")
        else:  # a seat's windows never count against the spectators, nor theirs against it
            caps = [(("seat", table, token), limits.seat_windows)]
            text = gt("This seat is open in too many windows: close one and try again.")
        if any(self.open[key] >= cap for key, cap in caps):
            await refuse(receive, send, "table_full", text, CLOSE_FULL)
            return
        for key, _ in caps:
            self.open[key] += 1
        refusal = gt("Too many messages: please slow down.")
        try:
            await self.app(scope, self._metered(receive, send, refusal), send)
        finally:
            for key, _ in caps:
                self.open[key] -= 1
                if self.open[key] <= 0:
                    del self.open[key]

    def _metered(self, receive: Receive, send: Send, refusal: str) -> Receive:
        """``receive`` with the connection's message limit: a message beyond it is answered
        with an error frame and not passed on; a client that goes on regardless (as many
        refused messages as the limit's count) is disconnected."""
        own = Limiter()  # only this process sees the connection: its memory counts
        frame = json.dumps({"type": "error", "code": "rate_limited", "message": refusal})
        refused = 0

        async def metered() -> Message:
            nonlocal refused
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                if not await own.hit(self.limits.ws, "ws"):
                    return message
                refused += 1
                if refused > self.limits.ws.count:
                    await send({"type": "websocket.close", "code": 1008, "reason": ""})
                    return {"type": "websocket.disconnect", "code": 1008}
                await send({"type": "websocket.send", "text": frame})

        return metered


async def refuse(receive: Receive, send: Send, code: str, text: str, close: int) -> None:
    """Refuse a WebSocket connection the protocol's way: accept, an error frame, close."""
    message: dict[str, Any] = dict(await receive())
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    frame = json.dumps({"type": "error", "code": code, "message": text})
    await send({"type": "websocket.send", "text": frame})
    await send({"type": "websocket.close", "code": close, "reason": ""})
