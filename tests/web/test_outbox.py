"""A WebSocket whose send fails is logged and closed (issue 20, item 1.1): before, the outbox's
writer stopped silently and the connection stayed half alive, reading but never written to."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from pfeffer.web.services.live import ClientGone, Outbox


class Socket:
    """A WebSocket stand-in whose second frame cannot be written."""

    def __init__(self) -> None:
        self.sent: list[Any] = []
        self.closed: list[int] = []

    async def send_json(self, data: Any) -> None:
        if data.get("bad"):
            raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")
        self.sent.append(data)

    async def send_text(self, data: str) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000) -> None:
        self.closed.append(code)


def test_a_failed_send_closes_the_socket_and_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> Socket:
        ws = Socket()
        out = Outbox(ws)
        await out.send_json({"n": 1})
        await out.send_json({"bad": True})
        await out.send_json({"n": 3})  # queued before the writer ran: never written
        for _ in range(20):
            await asyncio.sleep(0)
        assert out.gone
        with pytest.raises(ClientGone):
            await out.send_json({"n": 4})
        await out.finish()
        return ws

    with caplog.at_level(logging.WARNING, logger="pfeffer.web"):
        ws = asyncio.run(scenario())
    assert ws.sent == [{"n": 1}]
    assert ws.closed == [1011]
    assert any("send failed: UnicodeEncodeError" in r.getMessage() for r in caplog.records)
