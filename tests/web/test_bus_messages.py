"""Issue 20 §3: the messages between server processes are models (``services.messages``), the
same JSON on the wire as before (``p`` first, the kind under ``k``), checked when they arrive."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from pfeffer.web.services import messages as m
from pfeffer.web.services.bus import LocalBus, LocalNetwork

EXAMPLES: list[tuple[m.Message, dict[str, Any]]] = [
    (
        m.Act(start=3, end=4, actions=["keep 15"], seat=1, last={"seat": 1, "action": "keep 15"},
              applied=(1, "keep 15", 3, 4)),
        {"k": "act", "from": 3, "to": 4, "actions": ["keep 15"], "seat": 1,
         "last": {"seat": 1, "action": "keep 15"}, "applied": [1, "keep 15", 3, 4],
         "status": "running"},
    ),
    (m.Presence(seats={0: 1, -1: 2}), {"k": "presence", "seats": {"0": 1, "-1": 2}}),
    (m.Who(), {"k": "who"}),
    (m.ChatPosted(message={"id": 1}), {"k": "chat", "message": {"id": 1}}),
    (m.RematchMade(table="t2"), {"k": "rematch", "table": "t2"}),
    (m.SeatsChanged(revoked=1), {"k": "seats", "revoked": 1}),
    (m.SeatsChanged(), {"k": "seats", "revoked": None}),
    (m.Expired(), {"k": "expired"}),
    (m.Beat(), {"k": "beat"}),
    (m.Bye(), {"k": "bye"}),
]  # fmt: skip


@pytest.mark.parametrize(("message", "wire"), EXAMPLES)
def test_each_message_is_the_json_of_before_and_reads_back(
    message: m.Message, wire: dict[str, Any]
) -> None:
    sent = json.loads(json.dumps(message.wire("node-a")))
    assert sent == {"p": "node-a", **wire} and next(iter(sent)) == "p"
    back = m.parse(sent)
    assert back is not None and back.node == "node-a"
    assert back.model_dump(exclude={"node"}) == message.model_dump(exclude={"node"})


@pytest.mark.parametrize(
    "data",
    [
        {"p": "b", "k": "act", "from": "x", "to": 2, "actions": [], "seat": 0},
        {"p": "b", "k": "act", "from": 1},
        {"p": "b", "k": "presence", "seats": ["0"]},
        {"p": "b", "k": "nothing"},
        {"p": "b"},
        ["act"],
    ],
)
def test_a_malformed_message_is_dropped(data: Any) -> None:
    assert m.parse(data) is None


def test_the_local_fan_out_delivers_models_and_skips_what_it_cannot_read() -> None:
    async def run() -> list[tuple[str | None, m.Message]]:
        net = LocalNetwork()
        a, b = LocalBus(net, node="a"), LocalBus(net, node="b")
        got: list[tuple[str | None, m.Message]] = []

        async def deliver(table: str | None, message: m.Message) -> None:
            got.append((table, message))

        async def nothing() -> None:
            pass

        await a.start(deliver, nothing)
        await b.start(deliver, nothing)
        a._queue.put_nowait(("t1", json.dumps({"p": "b", "k": "act"})))  # malformed: dropped
        b.publish("t1", m.RematchMade(table="t2"))
        for _ in range(50):
            await asyncio.sleep(0.01)
            if got:
                break
        await a.stop()
        await b.stop()
        return got

    got = asyncio.run(run())
    assert got == [("t1", m.RematchMade(node="b", table="t2"))]
