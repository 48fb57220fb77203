"""The rate limits of the server, in one place (issue 20, 1.11): what they are (:class:`Rate`,
:class:`Limits`, ``pfeffer serve --limit``) and how they are counted (:class:`Limiter`).

Counting is the ``limits`` library's sliding-window counter: in this process's memory for one
process, in Redis when the server runs with ``--redis``, so that the processes behind one
address share each address's and each seat's count. The HTTP requests, new tables and joins
(``middleware/limits.py``) and the chat (``services/chat.py``) go through the same
:class:`Limiter`; a connection's messages, which only its own process sees, through a
:class:`Limiter` of the connection's own in memory.

>>> import asyncio
>>> limiter = Limiter()
>>> [asyncio.run(limiter.hit(Rate(2, 60), "chat", "t1", "0")) == 0 for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from typing import Any

from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.errors import StorageError

from pfeffer.core.errors import TranslatableError

log = logging.getLogger("pfeffer.web.limits")
REDIS_PREFIX = "pfeffer:rl"  # the limits' keys in the Redis the processes share
REDIS_TIMEOUT = 1.0  # seconds: a Redis that does not answer lets the request through


@dataclasses.dataclass(frozen=True)
class Rate:
    """At most ``count`` events in ``seconds`` (a sliding window)."""

    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``"200/10s"``, ``"60/60"``: count per whole seconds."""
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*s?\s*", text)
        if m is None or int(m[1]) < 1 or int(m[2]) < 1:
            raise TranslatableError.format(
                "a rate is COUNT/SECONDS in whole seconds, e.g. 200/10s (got {text})",
                text=repr(text),
            )
        return cls(int(m[1]), int(m[2]))

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds}s"


CAPS = ("spectators", "spectators_per_address", "seat_windows")


@dataclasses.dataclass(frozen=True)
class Limits:
    """The limits of the server (``create_app(limits=...)``, ``pfeffer serve --limit``)."""

    enabled: bool = True
    http: Rate = Rate(1000, 10)  # HTTP requests per address
    create: Rate = Rate(60, 60)  # new tables and score sheets per address
    join: Rate = Rate(120, 60)  # WebSocket connections and claimed seats per address
    ws: Rate = Rate(200, 10)  # messages per WebSocket connection
    chat: Rate = Rate(5, 10)  # chat messages per seat of a table
    # Open WebSockets per table in this process: spectators (no seat link) in all and from one
    # address, and the windows of one seat link (a player's phone, tablet and laptop); the seats
    # never share a cap with the spectators, so watchers cannot lock a player out.
    spectators: int = 64
    spectators_per_address: int = 8
    seat_windows: int = 8

    @classmethod
    def off(cls) -> Limits:
        """No limits at all."""
        return cls(enabled=False)

    def with_options(self, options: list[str]) -> Limits:
        """These limits changed by ``pfeffer serve --limit`` options: ``off``, ``on``,
        ``ws=200/10s``, ``http=…``, ``create=…``, ``join=…``, ``chat=…``, ``spectators=64``,
        ``spectators_per_address=8``, ``seat_windows=8`` (``table_connections``: the old name
        of ``spectators``)."""
        limits = self
        for option in options:
            key, _, value = option.partition("=")
            key = key.strip().replace("-", "_")
            if key == "table_connections":  # before issue 20, one cap for seats and spectators
                key = "spectators"
            if key in ("off", "on") and not value:
                limits = dataclasses.replace(limits, enabled=key == "on")
            elif key in ("http", "create", "join", "ws", "chat"):
                changes: dict[str, Any] = {key: Rate.parse(value)}
                limits = dataclasses.replace(limits, **changes)
            elif key in CAPS and value.strip().isdigit():
                caps: dict[str, Any] = {key: int(value)}
                limits = dataclasses.replace(limits, **caps)
            else:
                raise TranslatableError.format(
                    "unknown limit {option}: use off, http=N/Ss, create=N/Ss, join=N/Ss, "
                    "ws=N/Ss, chat=N/Ss, spectators=N, spectators_per_address=N or "
                    "seat_windows=N",
                    option=repr(option),
                )
        return limits


class Limiter:
    """Counts events against rates, per key, on one storage: this process's memory (no
    ``redis_url``) or the Redis at ``redis_url``, shared by every process that uses it.

    Redis away: the event is let through (a warning in the log, once per outage), as moves
    go on without Redis too; the limits hold again when it is back."""

    def __init__(self, redis_url: str | None = None, prefix: str = REDIS_PREFIX) -> None:
        self.shared = bool(redis_url)
        self.storage: Storage
        if redis_url:
            self.storage = RedisStorage(
                "async+" + redis_url,
                implementation="redispy",  # the redis package the fan-out uses already
                key_prefix=prefix,
                wrap_exceptions=True,
                socket_timeout=REDIS_TIMEOUT,
                socket_connect_timeout=REDIS_TIMEOUT,
            )
        else:
            self.storage = MemoryStorage()
        self.strategy = SlidingWindowCounterRateLimiter(self.storage)
        self._away = False

    async def hit(self, rate: Rate, *key: str) -> float:
        """Count one event of ``key`` against ``rate``: 0 if it is allowed, else the seconds
        until one is (at least a little above 0)."""
        item = RateLimitItemPerSecond(rate.count, rate.seconds)
        try:
            if await self.strategy.hit(item, *key):
                self._back()
                return 0.0
            stats = await self.strategy.get_window_stats(item, *key)
        except StorageError as exc:
            if not self._away:
                self._away = True
                log.warning(
                    "rate limits not counted: %s", exc, extra={"event": "limits_unavailable"}
                )
            return 0.0
        self._back()
        return max(0.1, stats.reset_time - time.time())

    def _back(self) -> None:
        if self._away:
            self._away = False
            log.warning("rate limits counted again", extra={"event": "limits_available"})

    async def aclose(self) -> None:
        """Close the connection to Redis (nothing to do in memory)."""
        client = getattr(getattr(self.storage, "bridge", None), "storage", None)
        if client is not None and hasattr(client, "aclose"):
            await client.aclose()
