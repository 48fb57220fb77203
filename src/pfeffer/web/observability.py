"""What an operator sees (issue 9 §4): Prometheus metrics, structured logs, readiness checks.

- ``Metrics``: the counters of one app in its own registry (``/metrics``, prometheus-client):
  moves committed, the time from a WebSocket ``action`` message to the first answer on that
  connection (``pfeffer_move_seconds``: what the player waits; the move's commit alone is
  ``pfeffer_commit_seconds``), open WebSockets, errors by code, HTTP requests by status, and
  what holds up the event loop (``LoopWatch``: its lag, the garbage collector's pauses).
- ``Observe``: the ASGI middleware that measures requests and WebSockets and writes one log
  line per request (the route's template, never a URL with a token in it), per WebSocket
  connection and per error frame.
- ``instrument_store``: counts and logs each committed move (one line per move), without
  touching the table service: the store's ``append_actions`` is where every accepted action
  of a human or a computer player is committed, exactly once, on any process.
- ``JsonFormatter`` / ``configure_logging``: ``pfeffer serve --log-format json`` writes every
  log line (ours and uvicorn's) as one JSON object.
- ``redact`` / ``redact_tokens``: no log line of any logger, in any format, holds a seat or
  host token: uvicorn logs the URL of a request or WebSocket as it came (``/ws/<id>?token=``,
  ``/play/<id>/<token>``), so every record's message and arguments are cleaned where the
  record is made.
- ``ReadinessCheck``: ``/readyz`` runs ``app.state.readiness``, a list of (name, check);
  the database is the first, and more (Redis) are appended where they are configured.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import gc
import json
import logging
import re
import sys
import time
from collections.abc import Callable, Coroutine
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from sqlalchemy import Engine, text
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pfeffer.web.jsondata import too_deep
from pfeffer.web.storage.repository import Store

ReadinessCheck = Callable[[], Coroutine[Any, Any, None]]  # raises when the dependency is not there
access_log = logging.getLogger("pfeffer.web.access")
move_log = logging.getLogger("pfeffer.web.moves")
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
ERROR_FRAME = re.compile(r'^\{"type":\s*"error"')
WS_TABLE = re.compile(r"^/ws/([^/]+)$")
MAX_PEEK = 2048  # characters of a client message looked at (the protocol's limit)


class Metrics:
    """The metrics of one app, in a registry of its own (tests build many apps)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.moves = Counter("pfeffer_moves", "Actions committed to the database.", registry=r)
        self.move_seconds = Histogram(
            "pfeffer_move_seconds",
            "From a WebSocket action message to the first answer on its connection.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.commit_seconds = Histogram(
            "pfeffer_commit_seconds",
            "Writing one accepted move to the database.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.connections = Gauge(
            "pfeffer_websocket_connections", "Open WebSocket connections.", registry=r
        )
        self.errors = Counter(
            "pfeffer_errors",
            "Errors: WebSocket error frames by code, HTTP answers >= 400 by status.",
            ["code"],
            registry=r,
        )
        self.requests = Counter(
            "pfeffer_http_requests", "HTTP requests by status class.", ["status"], registry=r
        )
        self.loop_lag = Histogram(
            "pfeffer_event_loop_lag_seconds",
            f"How late the event loop woke from a {LAG_TICK} s sleep (what every frame waits "
            "for when the loop is busy or stalled).",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.gc_pause = Histogram(
            "pfeffer_gc_pause_seconds",
            "Collections of Python's cyclic garbage collector, by generation (the event loop "
            "stands still meanwhile).",
            ["generation"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )


LAG_TICK = 0.1  # seconds between two samples of the event loop's lag


class LoopWatch:
    """Feeds ``Metrics.loop_lag`` and ``Metrics.gc_pause`` while the app runs (``start`` in its
    lifespan, ``stop`` at its end): a task that sleeps ``LAG_TICK`` again and again and notes
    how late it wakes, and a callback of the garbage collector (``gc.callbacks``, process-wide,
    so it is removed again at the end)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self._task: asyncio.Task[None] | None = None
        self._gc_start = 0.0

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            pause = time.perf_counter() - self._gc_start
            self.metrics.gc_pause.labels(generation=str(info.get("generation"))).observe(pause)

    async def _watch(self) -> None:
        lag = self.metrics.loop_lag
        while True:
            t = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            lag.observe(max(0.0, time.perf_counter() - t - LAG_TICK))

    def start(self) -> None:
        gc.callbacks.append(self._gc)
        self._task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._gc)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


def route_of(scope: Scope) -> str:
    """The matched route's template (``/play/{table_id}/{token}``), never the URL itself."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "unmatched"


class Observe:
    """The middleware: metrics and a log line per request, WebSocket and error frame."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            self.metrics.errors.labels(code="exception").inc()
            access_log.exception(
                "request failed", extra={"event": "error", "route": route_of(scope)}
            )
            raise
        finally:
            self.metrics.requests.labels(status=f"{status // 100}xx").inc()
            if status >= 400:
                self.metrics.errors.labels(code=f"http_{status}").inc()
            access_log.info(
                "%s %s %s",
                scope["method"],
                route_of(scope),
                status,
                extra={
                    "event": "request",
                    "method": scope["method"],
                    "route": route_of(scope),
                    "status": status,
                    "ms": round((time.perf_counter() - start) * 1000, 2),
                    "client": (scope.get("client") or ("", 0))[0],
                },
            )

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        m = WS_TABLE.match(scope["path"])
        table = m[1] if m else ""
        metrics = self.metrics
        waiting: list[float] = []  # the start of an action message not yet answered
        opened = time.perf_counter()

        async def receiving() -> Message:
            message = await receive()
            text_in = message.get("text")
            if (
                message["type"] == "websocket.receive"
                and isinstance(text_in, str)
                and len(text_in) <= MAX_PEEK
                and '"action"' in text_in
                and not too_deep(text_in)
            ):
                try:
                    data = json.loads(text_in)
                except ValueError:
                    data = None
                if isinstance(data, dict) and data.get("type") == "action":
                    waiting[:] = [time.perf_counter()]
            return message

        async def sending(message: Message) -> None:
            await send(message)
            if message["type"] != "websocket.send":
                return
            text_out = message.get("text") or ""
            if waiting:
                metrics.move_seconds.observe(time.perf_counter() - waiting.pop())
            if ERROR_FRAME.match(text_out):
                code = str(json.loads(text_out).get("code", "unknown"))
                metrics.errors.labels(code=code).inc()
                access_log.info(
                    "websocket error %s",
                    code,
                    extra={"event": "ws_error", "code": code, "table": table},
                )

        metrics.connections.inc()
        try:
            await self.app(scope, receiving, sending)
        finally:
            metrics.connections.dec()
            access_log.info(
                "websocket %s closed",
                route_of(scope),
                extra={
                    "event": "websocket",
                    "route": route_of(scope),
                    "table": table,
                    "seconds": round(time.perf_counter() - opened, 3),
                },
            )


def instrument_store(store: Store, metrics: Metrics) -> None:
    """Count, time and log every committed move (``Store.append_actions``) of ``store``."""
    append = store.append_actions

    def append_actions(
        table_id: str, version: int, seat: int | None, actions: list[str], **kw: Any
    ) -> int:
        start = time.perf_counter()
        new_version = append(table_id, version, seat, actions, **kw)
        seconds = time.perf_counter() - start
        metrics.commit_seconds.observe(seconds)
        metrics.moves.inc(len(actions))
        move_log.info(
            "move %s at %s",
            table_id,
            new_version,
            extra={
                "event": "move",
                "table": table_id,
                "seat": seat,
                "actions": len(actions),
                "version": new_version,
                "finished": bool(kw.get("finished")),
                "ms": round(seconds * 1000, 2),
            },
        )
        return new_version

    store.append_actions = append_actions  # type: ignore[method-assign]


def database_check(engine: Engine, timeout: float = 2.0) -> ReadinessCheck:
    """A readiness check: ``SELECT 1`` on the database, in a thread, within ``timeout``."""

    def ping() -> None:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    async def check() -> None:
        await asyncio.wait_for(asyncio.to_thread(ping), timeout)

    return check


def redis_check(url: str, timeout: float = 2.0) -> ReadinessCheck:
    """A readiness check: ``PING`` to the Redis server the processes share, within ``timeout``."""

    async def check() -> None:
        import redis.asyncio as aioredis

        client = aioredis.from_url(url)
        try:
            await asyncio.wait_for(client.ping(), timeout)
        finally:
            await client.aclose()

    return check


# ----------------------------------------------------------------- logs

REDACTED = "[redacted]"
# A token in a query (``token=``, ``host_token=``) and the key in a seat's or host's link.
_QUERY_TOKEN = re.compile(r"(?i)(\b[\w-]*token=)[^&\s\"'#]*")
# A route's template (``/play/{table_id}/{token}``) is left as it is.
_LINK_TOKEN = re.compile(r"(/(?:play|table|device)/[^/\s?#\"']+/)(?!\{)[^/\s?#\"']+")
_LINK_WORDS = ("token", "/play/", "/table/", "/device/")


def redact(text: str) -> str:
    """``text`` with every seat or host token in it replaced by ``[redacted]``, valid or not."""
    if not any(word in text for word in _LINK_WORDS) and "TOKEN" not in text.upper():
        return text
    return _LINK_TOKEN.sub(r"\1" + REDACTED, _QUERY_TOKEN.sub(r"\1" + REDACTED, text))


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


def redact_tokens() -> None:
    """Clean every log record of this process as it is made (the record factory: whichever
    logger, handler or format writes it): its message and its arguments, where uvicorn puts
    the URL. Installed once; ``create_app`` and ``configure_logging`` call it."""
    old = logging.getLogRecordFactory()
    if getattr(old, "redacts_tokens", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = old(*args, **kwargs)
        # The arguments one by one (uvicorn's access formatter reads them as they are) ...
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        # ... then the whole line, where a token's context is in the message and the token an
        # argument (``"host_token=%s"``): the line is then kept as cleaned, written out.
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: logging reports it as ever
            return record
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return record

    factory.redacts_tokens = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


STANDARD = frozenset({*vars(logging.makeLogRecord({})), "message", "asctime", "taskName"})


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and the record's extras."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False, default=str)


def configure_logging(log_format: str) -> None:
    """``text``: as before (warnings and errors only); ``json``: every line as JSON on
    stderr, with a line per request, move and error. Tokens are cleaned from both."""
    redact_tokens()
    if log_format != "json":
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    logging.getLogger("uvicorn.access").disabled = True  # ours has the route, not the URL
