"""The fan-out between server processes and the computer players' leases, behind one small
interface (:class:`Bus`).

- ``publish(table_id, message)``: every other process serving tables gets ``message`` (one of
  the models of ``services.messages``, sent as JSON) for the table (``None``: for the
  processes themselves: heartbeats). It never waits: messages queue and go out in the order
  they were published.
- ``hold(table_id)`` / ``release(table_id)``: the lease on moving a table's computer players. At
  most one process holds it; it lapses ``LEASE_TTL`` seconds after its last renewal, so when its
  holder dies another process takes over (``orphans()`` lists the tables whose lease lapsed while
  their computer players still had work, ``note_work`` says a table has such work).

:class:`LocalBus` is the single-process default: no Redis, nothing leaves the process. Several
``LocalBus`` objects on one :class:`LocalNetwork` behave like processes on one Redis (the tests
run two table services in one process that way); :class:`pfeffer.web.services.redisbus.RedisBus`
is the same over Redis pub/sub and ``SET NX PX`` for processes on several machines.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from pfeffer.web.services.messages import BusMessage, parse

log = logging.getLogger("pfeffer.web")

Deliver = Callable[[str | None, BusMessage], Awaitable[None]]
"""Called for each message from another process: (table id or None, message)."""
Reconnected = Callable[[], Awaitable[None]]
"""Called after the fan-out came back from an outage (messages may have been lost)."""

LEASE_TTL = 5.0
"""Seconds a computer players' lease lasts without renewal (renewed every third of it)."""


def new_node() -> str:
    """A name for this process among the processes of one site."""
    return secrets.token_hex(6)


class Bus(Protocol):
    """What the table service needs from the fan-out (see the module doc)."""

    node: str

    @property
    def shared(self) -> bool:
        """Whether other processes may serve the same tables."""

    async def start(self, deliver: Deliver, reconnected: Reconnected) -> None:
        """Start delivering other processes' messages to ``deliver``."""

    def publish(self, table_id: str | None, message: BusMessage) -> None:
        """Send ``message`` to the other processes (queued; never waits)."""

    async def hold(self, table_id: str) -> bool:
        """Take or renew the lease on the table's computer players; whether this process has it."""

    async def release(self, table_id: str) -> None:
        """Give the lease back (if this process holds it) and drop the table's work note
        (unless another process holds the lease)."""

    def note_work(self, table_id: str) -> None:
        """Note that the table's computer players are to move (queued; never waits)."""

    async def orphans(self) -> list[str]:
        """Tables whose computer players have work but whose lease lapsed."""

    async def stop(self) -> None:
        """Stop; the leases this process held are given back."""


class LocalNetwork:
    """What the local buses of one process share: their queues, leases and work notes."""

    def __init__(self) -> None:
        self.buses: list[LocalBus] = []
        self.leases: dict[str, tuple[str, float]] = {}  # table → (node, deadline)
        self.work: dict[str, float] = {}  # table → deadline


class LocalBus:
    """The fan-out inside one process (the default). Alone on its network it sends nothing."""

    def __init__(self, network: LocalNetwork | None = None, node: str | None = None) -> None:
        self.network = network or LocalNetwork()
        self.node = node or new_node()
        self.network.buses.append(self)
        self._queue: asyncio.Queue[tuple[str | None, str]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._deliver: Deliver | None = None

    @property
    def shared(self) -> bool:
        return len(self.network.buses) > 1

    async def start(self, deliver: Deliver, reconnected: Reconnected) -> None:
        self._deliver = deliver
        self._task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        while True:
            table_id, text = await self._queue.get()
            message = parse(json.loads(text))
            if self._deliver is not None and message is not None:
                try:
                    await self._deliver(table_id, message)
                except Exception:  # one bad message must not stop the fan-out
                    log.exception("message for table %s not handled", table_id)

    def publish(self, table_id: str | None, message: BusMessage) -> None:
        text = json.dumps(message.wire(self.node))  # as over Redis: only JSON travels
        for bus in self.network.buses:
            if bus is not self and bus._task is not None:
                bus._queue.put_nowait((table_id, text))

    async def hold(self, table_id: str) -> bool:
        now = time.monotonic()
        owner = self.network.leases.get(table_id)
        if owner is not None and owner[0] != self.node and owner[1] > now:
            return False
        self.network.leases[table_id] = (self.node, now + LEASE_TTL)
        self.network.work[table_id] = now + LEASE_TTL
        return True

    async def release(self, table_id: str) -> None:
        owner = self.network.leases.get(table_id)
        if owner is not None and owner[0] == self.node:
            del self.network.leases[table_id]
            owner = None
        if owner is None or owner[1] < time.monotonic():
            self.network.work.pop(table_id, None)

    def note_work(self, table_id: str) -> None:
        if self.shared:
            self.network.work.setdefault(table_id, time.monotonic() + LEASE_TTL)

    async def orphans(self) -> list[str]:
        now = time.monotonic()
        return [
            t
            for t, deadline in self.network.work.items()
            if deadline < now and self.network.leases.get(t, ("", 0.0))[1] < now
        ]

    async def stop(self) -> None:
        for table_id, (node, _) in list(self.network.leases.items()):
            if node == self.node:
                del self.network.leases[table_id]
        if self in self.network.buses:
            self.network.buses.remove(self)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
