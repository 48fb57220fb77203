"""The computer players' leases over Redis (``RedisBus.hold``, ``renew_due``) on a private
``redis-server``: a lease Redis confirmed a moment ago is not asked for again (a computer
player's moves cost no round trip each), the renewal asks for all due leases at once, and a
lease another process took meanwhile is no longer held."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pfeffer.web.services import redisbus
from pfeffer.web.services.redisbus import RedisBus
from tests.web.cluster import RedisServer


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def test_leases_are_confirmed_once_then_renewed_together(redis_url: str) -> None:
    async def run() -> None:
        a, b = RedisBus(redis_url, node="a"), RedisBus(redis_url, node="b")
        calls: list[str] = []
        script = a._hold

        async def counted(**kw: object) -> object:
            calls.append("hold")
            return await script(**kw)  # type: ignore[arg-type]

        a._hold = counted  # type: ignore[assignment]
        try:
            assert await a.hold("t1") and await a.hold("t2")
            assert not await b.hold("t1")  # a holds it
            assert len(calls) == 2
            assert await a.hold("t1")  # confirmed a moment ago: no round trip
            assert len(calls) == 2
            # As if confirmed long ago: both renewed, in one pipeline.
            for t in a._held:
                a._held[t] -= redisbus.FRESH
            await a.renew_due()
            assert len(calls) == 4 and set(a._held) == {"t1", "t2"}
            assert not await b.hold("t2")
            # t2's lease lapses and b takes it: a's next renewal finds it gone.
            await a.redis.delete(a._lease("t2"))
            assert await b.hold("t2")
            for t in a._held:
                a._held[t] -= redisbus.FRESH
            await a.renew_due()
            assert set(a._held) == {"t1"}
            await a.release("t1")
            assert await b.hold("t1")  # given back: free for another process
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(run())
