"""Several table services on one database (issue 9 §1), in one process: two ``Hub``s with stores
of their own on one SQLite file, joined by local buses on one network, behave as two server
processes on one Redis. The same with real processes, PostgreSQL and Redis: test_cluster_faults.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from pfeffer.web.adapters.games import adapter, chosen_action
from pfeffer.web.services import bus as busmod
from pfeffer.web.services import chat
from pfeffer.web.services.bots import bot_to_move
from pfeffer.web.services.bus import LocalBus, LocalNetwork
from pfeffer.web.services.errors import TableMoved
from pfeffer.web.services.live import Live
from pfeffer.web.services.tables import Hub
from pfeffer.web.storage.repository import SeatSpec, Store, make_engine, migrate


class Recorder:
    """A client that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def send_json(self, data: Any) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000) -> None:
        self.sent.append({"type": "closed", "code": code})

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == "state"]


def stores(tmp_path: Path, n: int = 2) -> list[Store]:
    url = f"sqlite:///{tmp_path / 'cluster.db'}"
    migrate(make_engine(url))
    return [Store(make_engine(url)) for _ in range(n)]


async def hubs(stores_: list[Store]) -> list[Hub]:
    net = LocalNetwork()
    out = [Hub(s, bot_delay=0, bus=LocalBus(net)) for s in stores_]
    for h in out:
        await h.start()
    return out


async def settle(check: Callable[[], bool], timeout: float = 10) -> None:
    """Let the event loop run until ``check()`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, "did not settle"
        await asyncio.sleep(0.01)


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())  # type: ignore[arg-type]


def assert_every_version_once_in_order(rec: Recorder, record: list[str]) -> None:
    """The client saw each version from its first frame on, in order, and each version's
    ``last`` is the action the record holds (as its player chose it)."""
    versions: list[int] = []
    for frame in rec.states():
        v = frame["version"]
        if versions and v == versions[-1]:
            continue  # the same state again (somebody came or went)
        assert not versions or v == versions[-1] + 1, (versions[-3:], v)
        versions.append(v)
        if v > 0:
            assert frame["last"]["action"] == chosen_action(record[v - 1])
    assert versions and versions[-1] == len(record)


@pytest.fixture
def two(tmp_path: Path) -> list[Store]:
    return stores(tmp_path)


def test_a_whole_game_on_two_services_every_client_sees_every_version(two: list[Store]) -> None:
    a_store, _ = two
    seats = [SeatSpec("Ann", "human"), SeatSpec("Bo", "human"), SeatSpec("Cy", "human")]
    row, _ = a_store.create_table("dice", adapter("dice").parse_rules({"target": 1500}), 3, seats)

    async def scenario() -> None:
        a, b = await hubs(two)
        la, lb = await a.get(row.id), await b.get(row.id)
        assert la is not None and lb is not None
        # Ann and a spectator on A; Bo, Cy and a spectator on B.
        clients = {0: (a, la, Recorder()), 1: (b, lb, Recorder()), 2: (b, lb, Recorder())}
        watchers = [(a, la, Recorder()), (b, lb, Recorder())]
        for seat, (hub, live, rec) in clients.items():
            await hub.joined(live, rec, seat)
        for hub, live, rec in watchers:
            await hub.joined(live, rec, None)
        await settle(lambda: la.online() == {0, 1, 2} == lb.online())
        steps = 0
        while True:
            await settle(lambda: la.version == lb.version)
            if la.status != "running":
                break
            mover = la.game.current_player
            assert mover is not None
            hub, live, _ = clients[mover]
            legal = live.table.legal_actions(mover)
            act = "bank" if "bank" in legal else next((x for x in legal if "keep" in x), legal[0])
            await hub.act(live, mover, act, live.seats[mover].token)
            steps += 1
            assert steps < 2000
        await settle(lambda: lb.status == "finished" and lb.version == la.version)
        record = [x.action for x in a_store.actions(row.id)]
        assert len(record) == la.version == steps
        for _, _, rec in [*clients.values(), *watchers]:
            assert_every_version_once_in_order(rec, record)
        assert lb.game.to_record() == la.game.to_record()
        for h in (a, b):
            await h.stop()

    run(scenario)


def test_two_services_race_for_one_version_and_only_one_wins(two: list[Store]) -> None:
    a_store, _ = two
    row, _ = a_store.create_table(
        "dice", adapter("dice").parse_rules({}), 5, [SeatSpec("Ann", "human")] * 2
    )

    async def scenario() -> None:
        a, b = await hubs(two)
        la, lb = await a.get(row.id), await b.get(row.id)
        assert la is not None and lb is not None
        got = await asyncio.gather(
            a.act(la, 0, "roll", la.seats[0].token),
            b.act(lb, 0, "roll", lb.seats[0].token),
            return_exceptions=True,
        )
        assert sorted(type(g).__name__ for g in got) == ["NoneType", "TableMoved"]
        assert [type(g) for g in got].count(TableMoved) == 1
        await settle(lambda: la.version == lb.version == 1)
        assert la.table.view(0) == lb.table.view(0)  # the loser read the winner's throw
        assert len(a_store.actions(row.id)) == 1
        for h in (a, b):
            await h.stop()

    run(scenario)


def test_a_gap_in_the_messages_is_read_from_the_database(two: list[Store]) -> None:
    a_store, _ = two
    row, _ = a_store.create_table(
        "dice", adapter("dice").parse_rules({}), 9, [SeatSpec("Ann", "human")] * 2
    )

    async def scenario() -> None:
        a, b = await hubs(two)
        la, lb = await a.get(row.id), await b.get(row.id)
        assert la is not None and lb is not None
        rec = Recorder()
        await b.joined(lb, rec, 1)
        publish = a.bus.publish
        a.bus.publish = lambda table_id, message: None  # type: ignore[method-assign]
        await a.act(la, 0, "roll", la.seats[0].token)  # lost on the way
        a.bus.publish = publish  # type: ignore[method-assign]
        legal = la.table.legal_actions(0)
        keep = next(x for x in legal if x.startswith("keep"))
        await a.act(la, 0, keep, la.seats[0].token)
        await settle(lambda: lb.version == 2)
        assert b.sync.resyncs >= 1
        # A process that loads the table now tells a newcomer the last move too.
        again = Hub._build(a_store.table(row.id), a_store.seats(row.id), a_store.actions(row.id))  # type: ignore[arg-type]
        assert again.version == 2 and again.last == la.last == lb.last
        record = [x.action for x in a_store.actions(row.id)]
        assert_every_version_once_in_order(rec, record)
        for h in (a, b):
            await h.stop()

    run(scenario)


def test_computer_players_move_once_under_one_lease(two: list[Store]) -> None:
    a_store, _ = two
    bots = [SeatSpec("R1", "bot", "heuristic"), SeatSpec("R2", "bot", "heuristic")]
    row, _ = a_store.create_table("dice", adapter("dice").parse_rules({"target": 1000}), 1, bots)

    async def scenario() -> None:
        a, b = await hubs(two)
        la, lb = await a.get(row.id), await b.get(row.id)
        assert la is not None and lb is not None
        a.kick_bots(la)
        b.kick_bots(lb)  # both try; the lease lets one move
        await settle(lambda: la.status == lb.status == "finished", timeout=60)
        await settle(lambda: la.version == lb.version)
        moves = [a.bots.moves, b.bots.moves]
        assert sum(moves) == la.version == len(a_store.actions(row.id))
        assert 0 in moves  # one process moved them all: the lease was never lost
        for h in (a, b):
            await h.stop()

    run(scenario)


def test_computer_players_are_taken_over_when_their_process_dies(
    two: list[Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(busmod, "LEASE_TTL", 0.5)
    a_store, _ = two
    seats = [SeatSpec("R1", "bot", "heuristic"), SeatSpec("R2", "bot", "heuristic")]
    row, _ = a_store.create_table("dice", adapter("dice").parse_rules({"target": 2000}), 2, seats)

    async def scenario() -> None:
        a, b = await hubs(two)
        la, lb = await a.get(row.id), await b.get(row.id)
        assert la is not None and lb is not None
        a.bot_delay = 0.05
        a.kick_bots(la)
        await settle(lambda: lb.version >= 3)
        # A dies: its computer players stop where they are, its lease is never given back.
        a.bus.release = _never  # type: ignore[method-assign]
        assert la.bot_task is not None
        la.bot_task.cancel()
        a.sync._loop.cancel()  # type: ignore[union-attr]
        a.bus.network.buses.remove(a.bus)  # type: ignore[attr-defined]
        await asyncio.sleep(0.2)  # a write A had under way lands (or not) meanwhile
        stopped_at = len(a_store.actions(row.id))
        await settle(lambda: lb.status == "finished", timeout=60)
        record = [x.action for x in a_store.actions(row.id)]
        assert lb.version == len(record) > stopped_at
        # B made every move since A stopped (one write A had under way may have landed late).
        assert lb.version - stopped_at - 1 <= b.bots.moves <= lb.version - stopped_at
        await b.stop()

    run(scenario)


async def _never(table_id: str) -> None:
    return None


def test_presence_chat_and_rematch_reach_the_other_service(two: list[Store]) -> None:
    a_store, _ = two
    row, _ = a_store.create_table(
        "dice", adapter("dice").parse_rules({"target": 500}), 4, [SeatSpec("Ann", "human")] * 2
    )

    async def scenario() -> None:
        a, b = await hubs(two)
        la, lb = await a.get(row.id), await b.get(row.id)
        assert la is not None and lb is not None
        ann, bo, bo2 = Recorder(), Recorder(), Recorder()
        await a.joined(la, ann, 0)
        await b.joined(lb, bo, 1)
        await settle(lambda: bo.states()[-1]["seats"][0]["online"])
        await settle(lambda: ann.states()[-1]["seats"][1]["online"])
        await a.joined(la, bo2, 1)  # Bo opens his seat on A too: "elsewhere" on both
        await settle(lambda: bo.states()[-1]["elsewhere"] and bo2.states()[-1]["elsewhere"])
        await a.left(la, bo2)
        await settle(lambda: not bo.states()[-1]["elsewhere"])
        await a.say(la, a.chats.speaker(row.id, 0), {"type": "chat", "text": "hi"})
        await settle(lambda: any(m.get("type") == "chat" for m in bo.sent))
        assert [m["messages"][0]["text"] for m in [b.chats.history(row.id)]] == ["hi"]
        with pytest.raises(chat.ChatRefused):
            await b.say(lb, b.chats.speaker(row.id, None), {"type": "chat", "text": "x"})
        await _finish(a, la, b, lb)
        first, second = await asyncio.gather(a.rematch(la), b.rematch(lb))
        assert first == second  # one rematch, whichever process was asked
        assert a_store.table(row.id).rematch_id == first  # type: ignore[union-attr]
        await settle(lambda: any(m.get("type") == "rematch" for m in bo.sent))
        assert {m["table"] for m in ann.sent + bo.sent if m.get("type") == "rematch"} == {first}
        await b.left(lb, bo)
        await settle(lambda: not ann.states()[-1]["seats"][1]["online"])
        for h in (a, b):
            await h.stop()

    run(scenario)


async def _finish(a: Hub, la: Live, b: Hub, lb: Live) -> None:
    while la.status == "running":
        seat = la.game.current_player
        assert seat is not None
        legal = la.table.legal_actions(seat)
        await a.act(la, seat, "bank" if "bank" in legal else legal[0], la.seats[seat].token)
    await settle(lambda: lb.status == "finished")


def test_a_process_that_goes_silent_is_no_longer_shown_online(
    two: list[Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pfeffer.web.services import sync

    monkeypatch.setattr(sync, "PEER_TIMEOUT", 1.5)
    a_store, _ = two
    row, _ = a_store.create_table("dice", {}, 4, [SeatSpec("Ann", "human")] * 2)

    async def scenario() -> None:
        a, b = await hubs(two)
        la, lb = await a.get(row.id), await b.get(row.id)
        assert la is not None and lb is not None
        bo = Recorder()
        await b.joined(lb, bo, 1)
        await a.joined(la, Recorder(), 0)
        await settle(lambda: 0 in lb.online())
        a.sync._loop.cancel()  # type: ignore[union-attr]  # no more heartbeats: A died
        a.bus.network.buses.remove(a.bus)  # type: ignore[attr-defined]
        await settle(lambda: 0 not in lb.online(), timeout=10)
        assert not bo.states()[-1]["seats"][0]["online"]
        await b.stop()

    run(scenario)


def test_a_bot_turn_left_by_a_human_move_is_noted_as_work(two: list[Store]) -> None:
    a_store, _ = two
    seats = [SeatSpec("Ann", "human"), SeatSpec("R", "bot", "heuristic")]
    row, _ = a_store.create_table("dice", adapter("dice").parse_rules({}), 8, seats)

    async def scenario() -> None:
        a, b = await hubs(two)
        la = await a.get(row.id)
        assert la is not None
        net: LocalNetwork = a.bus.network  # type: ignore[attr-defined]
        while bot_to_move(la) is None:
            legal = la.table.legal_actions(0)
            # Bank as soon as the engine offers it: the turn goes to the computer player.
            await a.act(la, 0, "bank" if "bank" in legal else legal[0], la.seats[0].token)
        assert row.id in net.work or row.id in net.leases  # noted, or already being moved
        for h in (a, b):
            await h.stop()

    run(scenario)


def test_serve_refuses_several_workers_without_redis() -> None:
    from typer.testing import CliRunner

    from pfeffer.cli import app

    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--db", "sqlite:///x.db"])
    assert result.exit_code != 0
    assert "--redis" in result.output


def test_a_table_nobody_is_at_leaves_memory_and_comes_back_from_the_database(
    two: list[Store],
) -> None:
    a_store, _ = two
    row, _ = a_store.create_table("dice", {}, 6, [SeatSpec("Ann", "human")] * 2)

    async def scenario() -> None:
        hub = Hub(a_store, bot_delay=0)
        live = await hub.get(row.id)
        assert live is not None
        ann = Recorder()
        await hub.joined(live, ann, 0)
        await hub.act(live, 0, "roll", live.seats[0].token)
        await hub.left(live, ann)
        assert row.id not in hub.lives  # a long-running server keeps only tables in use
        again = await hub.get(row.id)
        assert again is not None and again is not live
        assert again.version == 1 and again.table.view(0) == live.table.view(0)
        await hub.stop()

    run(scenario)
