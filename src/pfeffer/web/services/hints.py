"""Hints over the WebSocket (``{"type": "hint"}``, an addition to protocol v1, docs/web.md): the
advisor (``web/adapters/advisor.py``) asked for the asking seat, from that seat's engine view
only, in a worker thread, and the answer sent to that connection alone.

A hint is worked out for the table as it is when asked (its ``version`` goes with the answer,
so a page drops an answer that a newer frame overtook). At most :data:`AT_ONCE` hints are worked
out at a time in the whole server; a connection asks one at a time, since its messages are read
in order.
"""

from __future__ import annotations

import asyncio
import zlib
from typing import Any, Self

from pfeffer.core.errors import TranslatableError
from pfeffer.web.adapters.advisor import hint
from pfeffer.web.i18n import translations
from pfeffer.web.services.live import Live
from pfeffer.web.services.looplocal import semaphore

#: Hints worked out at the same time (each takes a core for up to a second).
AT_ONCE = 2


class HintRefused(TranslatableError):
    """No hint for this connection now; ``code`` is the WebSocket error code."""

    code: str = "hints_off"

    @classmethod
    def coded(cls, code: str, template: str) -> Self:
        """The refusal with error ``code`` and the message ``template`` (a msgid)."""
        exc = cls(template)
        exc.code = code
        return exc


def hint_seed(table_id: str, version: int, seat: int) -> int:
    """The expert's seed for a hint: the same table, state and seat give the same answer."""
    return zlib.crc32(f"{table_id}:{version}:{seat}".encode())


async def hint_frame(live: Live, seat: int | None, lang: str) -> dict[str, Any]:
    """The ``hint`` frame for ``seat`` in ``lang``; :class:`HintRefused` when there is none."""
    if not live.hints:
        raise HintRefused.coded("hints_off", "Hints are off at this table.")
    if seat is None:
        raise HintRefused.coded("hint_spectator", "Spectators get no hints.")
    table, version = live.table, live.version  # a snapshot: the table is replaced, not changed
    legal = table.legal_actions(seat)
    if live.status != "running" or not legal:
        raise HintRefused.coded("hint_not_your_turn", "A hint is for your own turn.")
    view = table.engine_view(seat)  # the seat's view: nothing it may not see
    async with semaphore("hints", AT_ONCE):
        answer = await asyncio.to_thread(
            hint, live.kind, view, legal, hint_seed(live.id, version, seat)
        )
    gt = translations(lang).gettext
    reason = None
    if answer.reason is not None:
        reason = gt(answer.reason) % answer.params if answer.params else gt(answer.reason)
        reason = reason[:1].upper() + reason[1:]  # the expert's reasons are phrases
    return {
        "type": "hint",
        "version": version,
        "game": answer.game,
        "seat": seat,
        "best": answer.best,
        "options": answer.options,
        "reason": reason,
        "none": answer.none,
        "message": gt(answer.message) if answer.message else None,
    }
