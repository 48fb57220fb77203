"""The reviews of finished games (``web/adapters/review.py``), worked out in a worker thread
one at a time and kept for the tables reviewed last: a finished game never changes, and a review
replays the whole game through the solver or the double-dummy search (a second or two)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from pfeffer.web.adapters.games import adapter
from pfeffer.web.adapters.review import review
from pfeffer.web.services.looplocal import semaphore

#: Reviews kept in memory (the tables reviewed last).
KEEP = 64
_cache: OrderedDict[str, dict[str, Any]] = OrderedDict()


def compute(
    kind: str, rules: Mapping[str, Any], names: Sequence[str], seed: int, actions: Sequence[str]
) -> dict[str, Any]:
    """The review of the game the table played (replayed from its record)."""
    game = adapter(kind).table(rules, names, seed, actions).game
    data = review(game)
    data["names"] = list(names)
    data["side_names"] = adapter(kind).side_names(names)
    return data


async def review_of(
    table_id: str,
    *,
    kind: str,
    rules: Mapping[str, Any],
    names: Sequence[str],
    seed: int,
    actions: Sequence[str],
) -> dict[str, Any]:
    """The review of the finished table ``table_id``, from the cache or worked out now (off the
    event loop; one at a time in the server)."""
    found = _cache.get(table_id)
    if found is not None:
        _cache.move_to_end(table_id)
        return found
    async with semaphore("reviews", 1):
        found = _cache.get(table_id)
        if found is None:
            found = await asyncio.to_thread(compute, kind, rules, names, seed, actions)
            _cache[table_id] = found
            while len(_cache) > KEEP:
                _cache.popitem(last=False)
    return found
