"""Rate limits and a cap on connections per table (issue 9 §4), as one ASGI middleware.

Per address (the client's IP; behind a reverse proxy uvicorn takes it from ``X-Forwarded-For``
of the proxies in ``FORWARDED_ALLOW_IPS``): HTTP requests, new tables and score sheets, and
joins (WebSocket connections, claimed lobby seats). Per WebSocket connection: messages. Per
table: open WebSocket connections in this process. Each limit is a token bucket: ``count``
at once, refilled at ``count`` per ``seconds``. A refused request is an HTTP 429 (an HTML page
or the API's JSON ``{"detail": ...}``, with ``Retry-After``); a refused WebSocket message or
connection an ``error`` frame of protocol v1 (codes ``rate_limited``, ``table_full``).

The defaults are far above what people at a table do (a player sends a few messages a
second, a page loads about fifteen files) and stop floods; ``pfeffer serve --limit`` changes
them, ``--limit off`` switches them off (a load test from one address).
"""

from __future__ import annotations

import collections
import dataclasses
import json
import math
import re
import time
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pfeffer.web.i18n import LANGUAGES, translations
from pfeffer.web.render import http_error

EXEMPT = ("/healthz", "/readyz", "/metrics")  # probes of the proxy and the monitoring
CREATE = re.compile(r"^/(api/tables|new/[^/]+|play-now/[^/]+|api/sheets|sheets)/?$")
CLAIM = re.compile(r"^/api/tables/[^/]+/claim/[^/]+$")
WS_TABLE = re.compile(r"^/ws/([^/]+)$")
CLOSE_RATE = 4429  # WebSocket close codes (4000 + the HTTP status they correspond to)
CLOSE_FULL = 4503


@dataclasses.dataclass(frozen=True)
class Rate:
    """``count`` events at once, refilled at ``count`` per ``seconds``."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``"200/10s"``, ``"60/60"``: count per seconds."""
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+(?:\.\d+)?)\s*s?\s*", text)
        if m is None or int(m[1]) < 1 or float(m[2]) <= 0:
            raise ValueError(f"a rate is COUNT/SECONDS, e.g. 200/10s (got {text!r})")
        return cls(int(m[1]), float(m[2]))

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds:g}s"


@dataclasses.dataclass(frozen=True)
class Limits:
    """The limits of one server process (``create_app(limits=...)``)."""

    enabled: bool = True
    http: Rate = Rate(1000, 10)  # HTTP requests per address
    create: Rate = Rate(60, 60)  # new tables and score sheets per address
    join: Rate = Rate(120, 60)  # WebSocket connections and claimed seats per address
    ws: Rate = Rate(200, 10)  # messages per WebSocket connection
    table_connections: int = 64  # open WebSockets per table (in this process)
    addresses: int = 10_000  # addresses remembered (the least recently seen are dropped)

    @classmethod
    def off(cls) -> Limits:
        """No limits at all."""
        return cls(enabled=False)

    def with_options(self, options: list[str]) -> Limits:
        """These limits changed by ``pfeffer serve --limit`` options: ``off``, ``on``,
        ``ws=200/10s``, ``http=…``, ``create=…``, ``join=…``, ``table_connections=64``."""
        limits = self
        for option in options:
            key, _, value = option.partition("=")
            key = key.strip().replace("-", "_")
            if key in ("off", "on") and not value:
                limits = dataclasses.replace(limits, enabled=key == "on")
            elif key in ("http", "create", "join", "ws"):
                changes: dict[str, Any] = {key: Rate.parse(value)}
                limits = dataclasses.replace(limits, **changes)
            elif key in ("table_connections", "addresses") and value.strip().isdigit():
                changes = {key: int(value)}
                limits = dataclasses.replace(limits, **changes)
            else:
                raise ValueError(
                    f"unknown limit {option!r}: use off, http=N/Ss, create=N/Ss, join=N/Ss, "
                    "ws=N/Ss or table_connections=N"
                )
        return limits


class Bucket:
    """One token bucket."""

    __slots__ = ("stamp", "tokens")

    def __init__(self, tokens: float, stamp: float) -> None:
        self.tokens = tokens
        self.stamp = stamp

    def take(self, rate: Rate, now: float) -> float:
        """Take one token: 0 if there was one, else the seconds until there is one."""
        per_second = rate.count / rate.seconds
        self.tokens = min(rate.count, self.tokens + (now - self.stamp) * per_second)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / per_second


class Buckets:
    """A bucket per key (an address), the least recently used dropped beyond ``size``."""

    def __init__(self, rate: Rate, size: int) -> None:
        self.rate = rate
        self.size = size
        self.buckets: collections.OrderedDict[str, Bucket] = collections.OrderedDict()

    def take(self, key: str, now: float) -> float:
        """Take one token for ``key``: 0, or the seconds to wait."""
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(self.rate.count, now)
            if len(self.buckets) > self.size:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket.take(self.rate, now)


def address(scope: Scope) -> str:
    """The client's address (``X-Forwarded-For`` is applied by uvicorn for trusted proxies)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def lang_of_ws(scope: Scope) -> str:
    """The page's language of a WebSocket (play.js sends ``lang``)."""
    query = scope.get("query_string", b"").decode("latin-1")
    m = re.search(r"(?:^|&)lang=([a-z]{2})(?:&|$)", query)
    return m[1] if m and m[1] in LANGUAGES else "en"


class RateLimits:
    """The ASGI middleware that applies ``Limits``."""

    def __init__(self, app: ASGIApp, limits: Limits | None = None) -> None:
        self.app = app
        self.limits = limits = limits or Limits()
        self.http = Buckets(limits.http, limits.addresses)
        self.create = Buckets(limits.create, limits.addresses)
        self.join = Buckets(limits.join, limits.addresses)
        self.open: collections.Counter[str] = collections.Counter()  # WebSockets per table
        self.clock = time.monotonic

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
        now, addr = self.clock(), address(scope)
        wait = self.http.take(addr, now)
        refusal = HTTPException(429, "Too many requests: please wait a moment and try again.")
        if not wait and scope["method"] == "POST":
            if CREATE.match(path):
                wait = self.create.take(addr, now)
                refusal = HTTPException(
                    429, "Too many new tables from your address: please wait a moment."
                )
            elif CLAIM.match(path):
                wait = self.join.take(addr, now)
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
        if self.join.take(address(scope), self.clock()):
            text = gt("Too many new connections from your address: please wait a moment.")
            await refuse(receive, send, "rate_limited", text, CLOSE_RATE)
            return
        if self.open[table] >= self.limits.table_connections:
            text = gt("This table has too many connections: please try again later.")
            await refuse(receive, send, "table_full", text, CLOSE_FULL)
            return
        self.open[table] += 1
        refusal = gt("Too many messages: please slow down.")
        try:
            await self.app(scope, self._metered(receive, send, refusal), send)
        finally:
            self.open[table] -= 1
            if self.open[table] <= 0:
                del self.open[table]

    def _metered(self, receive: Receive, send: Send, refusal: str) -> Receive:
        """``receive`` with the connection's message limit: a message beyond it is answered
        with an error frame and not passed on; a client that goes on regardless (as many
        refused messages as the limit's count) is disconnected."""
        bucket = Bucket(self.limits.ws.count, self.clock())
        frame = json.dumps({"type": "error", "code": "rate_limited", "message": refusal})
        refused = 0

        async def metered() -> Message:
            nonlocal refused
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                if not bucket.take(self.limits.ws, self.clock()):
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
