"""The fan-out over Redis (``pfeffer serve --redis redis://...``): pub/sub between the processes,
``SET NX PX`` leases for the computer players (:mod:`pfeffer.web.services.bus` says what for).

Channels and keys (``pfeffer`` is the prefix): ``pfeffer:t:<table>`` carries a table's messages
(every process subscribes to ``pfeffer:t:*`` once, before it serves anything, so no message of a
table it loads later can slip past), ``pfeffer:nodes`` the processes' heartbeats;
``pfeffer:lease:<table>`` holds the name of the process moving that table's computer players, and
the sorted set ``pfeffer:work`` the tables whose computer players are to move, scored by when
their lease lapses (a process that finds one lapsed takes the work over).

Redis may go away: publishing then drops messages (the table service notices the gap by the
table's version and reads the table from the database) and the listener reconnects with a short
back-off, then calls ``reconnected`` so that every table is checked against the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from pfeffer.web.services.bus import LEASE_TTL, Deliver, Reconnected, new_node
from pfeffer.web.services.messages import BusMessage, parse

log = logging.getLogger("pfeffer.web")

QUEUE_LIMIT = 20_000  # messages waiting to be published; beyond, the oldest are dropped
WATCHDOG = 5.0  # seconds without any message (heartbeats come every second): reconnect
BACKOFF = (0.1, 0.2, 0.5, 1.0)
FRESH = LEASE_TTL / 3  # seconds a lease Redis confirmed is taken as held without asking

# Take the lease if it is free or ours (then renew it); note the table's work until it lapses.
HOLD = """
local v = redis.call('GET', KEYS[1])
if v and v ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1
"""
# Give the lease back only if it is ours; the work note goes with it (also when nobody holds
# the lease: then the note was an orphan's and there is nothing left to do).
RELEASE = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('DEL', KEYS[1]) end
if (not v) or v == ARGV[1] then redis.call('ZREM', KEYS[2], ARGV[2]) return 1 end
return 0
"""


class RedisBus:
    """The :class:`~pfeffer.web.services.bus.Bus` of several processes, over Redis."""

    shared = True

    def __init__(self, url: str, node: str | None = None, prefix: str = "pfeffer") -> None:
        self.url = url
        self.node = node or new_node()
        self.prefix = prefix
        self.redis = aioredis.from_url(
            url, socket_connect_timeout=1.0, socket_timeout=3.0, retry=Retry(NoBackoff(), 0)
        )
        self._hold = self.redis.register_script(HOLD)
        self._release = self.redis.register_script(RELEASE)
        self._queue: asyncio.Queue[tuple[str, str, str]] = asyncio.Queue()
        self._held: dict[str, float] = {}  # table → when Redis last confirmed the lease
        self._tasks: list[asyncio.Task[None]] = []
        self._connected = asyncio.Event()
        self.connected_once = False
        self.dropped = 0  # messages lost while Redis was away (the tables resync)
        # How this process's own messages begin (``publish``): every process hears its own
        # too (one pattern for every table), and drops them unread.
        self._own = b'{"p":' + orjson.dumps(self.node) + b","

    def _channel(self, table_id: str | None) -> str:
        return f"{self.prefix}:nodes" if table_id is None else f"{self.prefix}:t:{table_id}"

    async def start(self, deliver: Deliver, reconnected: Reconnected) -> None:
        self._tasks = [
            asyncio.create_task(self._listen(deliver, reconnected)),
            asyncio.create_task(self._publisher()),
            asyncio.create_task(self._renew()),
        ]
        # Serve only once subscribed (so no table message can slip past); a Redis that is
        # away at the start delays nothing further: the listener keeps trying meanwhile.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._connected.wait(), 5.0)
        if not self._connected.is_set():
            log.warning("Redis at %s is not reachable yet; serving, and retrying", self.url)

    # ------------------------------------------------------------------ listening

    async def _listen(self, deliver: Deliver, reconnected: Reconnected) -> None:
        table_prefix = f"{self.prefix}:t:"
        attempt = 0
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.psubscribe(f"{table_prefix}*")
                await pubsub.subscribe(self._channel(None))
                confirmed = 0
                while confirmed < 2:  # both subscriptions are in place
                    msg = await pubsub.get_message(timeout=WATCHDOG)
                    if msg is None:
                        raise TimeoutError("no subscription confirmation")
                    if msg["type"] in ("subscribe", "psubscribe"):
                        confirmed += 1
                attempt = 0
                first = not self.connected_once
                self.connected_once = True
                self._connected.set()
                if not first:
                    log.warning("Redis is back; every table is checked against the database")
                    await reconnected()
                quiet_since = time.monotonic()
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is None:
                        if time.monotonic() - quiet_since > WATCHDOG:
                            raise TimeoutError("Redis sent nothing, not even heartbeats")
                        continue
                    quiet_since = time.monotonic()
                    channel = msg["channel"].decode()
                    table_id = channel[len(table_prefix) :] if msg["type"] == "pmessage" else None
                    raw = msg["data"]
                    if isinstance(raw, bytes) and raw.startswith(self._own):
                        continue  # this process's own message
                    try:
                        data = orjson.loads(raw)
                    except ValueError:  # orjson.JSONDecodeError
                        continue
                    message = parse(data)
                    if message is not None and message.node != self.node:
                        try:
                            await deliver(table_id, message)
                        except Exception:
                            log.exception("message for table %s not handled", table_id)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError, TimeoutError) as exc:
                if self._connected.is_set():
                    log.warning("lost Redis (%s); reconnecting", exc)
                self._connected.clear()
                await asyncio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
                attempt += 1
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    # ------------------------------------------------------------------ publishing

    def publish(self, table_id: str | None, message: BusMessage) -> None:
        """Queue ``message`` for the table's channel, marked with this process (first, so that
        the listener knows its own from the first bytes), written by orjson."""
        data = orjson.dumps(message.wire(self.node))
        self._put(("publish", self._channel(table_id), data.decode()))

    def note_work(self, table_id: str) -> None:
        deadline = int((time.time() + LEASE_TTL) * 1000)
        self._put(("work", table_id, str(deadline)))

    def _put(self, item: tuple[str, str, str]) -> None:
        if self._queue.qsize() >= QUEUE_LIMIT:
            self._queue.get_nowait()
            self.dropped += 1
        self._queue.put_nowait(item)

    async def _publisher(self) -> None:
        """Send what was queued, in order, many messages to one round trip."""
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 500:
                batch.append(self._queue.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for op, key, value in batch:
                        if op == "publish":
                            pipe.publish(key, value)
                        else:  # a work note: only raise a deadline that is not there yet
                            pipe.zadd(f"{self.prefix}:work", {key: int(value)}, nx=True)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                # Lost: the receivers find the gap by the version and read the database.
                self.dropped += len(batch)
                log.warning("could not publish %d messages: %s", len(batch), exc)
                await asyncio.sleep(0.2)

    # ------------------------------------------------------------------ leases

    def _lease(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    def _hold_args(self, table_id: str) -> dict[str, Any]:
        deadline = int((time.time() + LEASE_TTL) * 1000)
        return {
            "keys": [self._lease(table_id), f"{self.prefix}:work"],
            "args": [self.node, int(LEASE_TTL * 1000), deadline, table_id],
        }

    async def hold(self, table_id: str) -> bool:
        """Take or renew the lease. A lease Redis confirmed less than ``FRESH`` seconds ago
        has most of its time left (nobody else can have it before it lapses), so it is not
        asked again: a computer player's moves, ``bot_delay`` apart, cost no round trip each
        (``_renew`` keeps it alive meanwhile)."""
        now = time.monotonic()
        confirmed = self._held.get(table_id)
        if confirmed is not None and now - confirmed < FRESH:
            return True
        try:
            got = await self._hold(**self._hold_args(table_id))
        except (RedisError, OSError):
            return False  # no Redis, no lease: the computer players wait
        if got:
            self._held[table_id] = now
        else:
            self._held.pop(table_id, None)
        return bool(got)

    async def release(self, table_id: str) -> None:
        self._held.pop(table_id, None)
        with contextlib.suppress(RedisError, OSError):
            await self._release(
                keys=[self._lease(table_id), f"{self.prefix}:work"], args=[self.node, table_id]
            )

    async def _renew(self) -> None:
        """Renew the leases this process holds (a computer player may think for a while):
        every ``FRESH / 2`` seconds those not confirmed for ``FRESH``, all in one round trip."""
        while True:
            await asyncio.sleep(FRESH / 2)
            await self.renew_due()

    async def renew_due(self) -> None:
        """Renew the leases not confirmed for ``FRESH`` seconds, in one round trip; a lease
        found taken by another process is no longer held here."""
        now = time.monotonic()
        due = [t for t, confirmed in self._held.items() if now - confirmed >= FRESH]
        if not due:
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id in due:
                    await self._hold(**self._hold_args(table_id), client=pipe)
                got = await pipe.execute()
        except (RedisError, OSError):
            return  # Redis away: the leases lapse, the computer players wait
        for table_id, ok in zip(due, got, strict=True):
            if table_id not in self._held:
                continue  # given back meanwhile
            if ok:
                self._held[table_id] = now
            else:
                self._held.pop(table_id, None)

    async def orphans(self) -> list[str]:
        now = int(time.time() * 1000)
        try:
            due = await self.redis.zrangebyscore(f"{self.prefix}:work", "-inf", now)
            if not due:
                return []
            ids = [d.decode() if isinstance(d, bytes) else str(d) for d in due]
            held = await self.redis.mget([self._lease(t) for t in ids])
        except (RedisError, OSError):
            return []
        return [t for t, h in zip(ids, held, strict=True) if h is None]

    async def stop(self) -> None:
        for table_id in list(self._held):
            await self.release(table_id)
        # Let what is queued (the goodbye) go out; a task cancelled in the middle of a Redis
        # round trip may not end at once, so its end is waited for only briefly.
        for _ in range(50):
            if self._queue.empty():
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.05)
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=2)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.aclose(), 2)
