"""Asyncio locks and semaphores that belong to the running event loop.

A lock made once at module level is bound to the first loop that waited on it; a server
process has one loop, but the tests (and an embedding program) start many apps, each on a loop
of its own, one after another. Such a lock, left held or with a waiter when its loop stopped,
makes every later loop wait for good, or refuses it ("bound to a different event loop"). So
each loop gets its own, made on first use and dropped with the loop.

>>> import asyncio
>>> async def same() -> bool:
...     return semaphore("x", 2) is semaphore("x", 2)
>>> asyncio.run(same())
True
>>> async def one() -> asyncio.Semaphore:
...     return semaphore("x", 2)
>>> asyncio.run(one()) is asyncio.run(one())
False
"""

from __future__ import annotations

import asyncio
import weakref

_SEMAPHORES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]] = (
    weakref.WeakKeyDictionary()
)


def semaphore(name: str, value: int) -> asyncio.Semaphore:
    """The running loop's semaphore ``name`` (``value`` slots), made on first use."""
    own = _SEMAPHORES.setdefault(asyncio.get_running_loop(), {})
    found = own.get(name)
    if found is None:
        found = own[name] = asyncio.Semaphore(value)
    return found
