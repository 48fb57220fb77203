"""Strategy for every table's rules (issue 21 §1): when a dice table needs the solved table of
its rules and where that solve stands.

A dice table created with hints or an optimal computer player (the review of a finished game
reads the same table) starts the solve of its rules in the background
(``adapters/solves.py``: a worker process, one solve per rules and one at a time on the
machine) unless the table ships with the package, is cached, or would take more than an hour
here. More than two players read the two-player table of their rules (the documented
approximation), so they start the same solve. ``PFEFFER_BACKGROUND_SOLVES=0`` switches this
off (the tests do, but for this feature's).

The states :func:`state_of` reports: ``ready`` (hints, review, strategy page and the optimal
player have their table), ``solving`` (with ``fraction`` and ``seconds`` left), ``waiting``
(behind another solve), ``too_long`` (never solved on first use: ``pfeffer dice solve`` on a
larger machine), ``idle`` (not started: no table asked for these rules yet).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Iterable, Mapping
from typing import Any

from pfeffer.web.adapters import solves

log = logging.getLogger(__name__)

#: ``0`` switches background solves off.
BACKGROUND_ENV = "PFEFFER_BACKGROUND_SOLVES"
#: The computer player that plays from the solved table.
OPTIMAL_BOT = "optimal"
STATES = ("ready", "solving", "waiting", "too_long", "idle")


def enabled() -> bool:
    """Whether tables start solves (``$PFEFFER_BACKGROUND_SOLVES`` is not ``0``)."""
    return os.environ.get(BACKGROUND_ENV, "1").strip() != "0"


def needs_table(kind: str, hints: bool, bots: Iterable[str | None]) -> bool:
    """Whether a new table of ``kind`` wants its rules solved: dice with hints or an optimal
    computer player."""
    return kind == "dice" and (hints or OPTIMAL_BOT in bots)


async def state_of(rules: Mapping[str, Any]) -> dict[str, Any]:
    """Where the solve of dice ``rules`` stands (see the module's states); file reads and an
    estimate, in a worker thread."""
    return await asyncio.to_thread(solves.status, rules)


async def start(rules: Mapping[str, Any]) -> bool:
    """Start the solve of dice ``rules`` in the background if it is needed and allowed (see
    :func:`pfeffer.web.adapters.solves.start`); whether a worker started. Never raises: a
    failed start leaves the table as it was (no hint for these rules yet)."""
    if not enabled():
        return False
    try:
        started = await asyncio.to_thread(solves.start, rules)
    except Exception:  # pragma: no cover - spawning failed (no memory, no processes left)
        log.exception("could not start a background solve")
        return False
    if started:
        log.info("background solve started for dice rules %s", solves.key(rules))
    return started


async def table_created(
    kind: str, rules: Mapping[str, Any], hints: bool, bots: Iterable[str | None]
) -> None:
    """A table was created: start its solve if it needs one."""
    if needs_table(kind, hints, list(bots)):
        await start(rules)
