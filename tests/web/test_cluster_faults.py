"""Several ``pfeffer serve`` processes on PostgreSQL and Redis, and their faults (issue 9 §1–2),
with real processes: a whole game with clients on two processes; ``kill -9`` of one process in
the middle of a game; Redis gone for a while; PostgreSQL unreachable for a moment.

They need ``PFEFFER_TEST_POSTGRES_URL`` and ``PFEFFER_TEST_REDIS_URL`` (``.ci/run`` sets both) and
skip with the reason otherwise. Redis is a private ``redis-server`` of each test, and the
PostgreSQL outage is a proxy of the test's own: the machine's shared services are never stopped.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from sqlalchemy import create_engine, text

from pfeffer.web.adapters.games import chosen_action
from tests.web.cluster import (
    Player,
    RedisServer,
    Server,
    TcpProxy,
    check_frames,
    need_services,
    pg_port,
    pg_schema,
    record_of,
    start_all,
    via_port,
    wait_for_frame,
)

pytestmark = pytest.mark.cluster


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    with pg_schema(need_services()) as url:
        yield url


@pytest.fixture(scope="module")
def redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def two(
    pg: str, redis: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Server]]:
    """Two processes for the tests of this module, in order: the last one kills one of them
    (each start of a process costs seconds on a busy machine)."""
    logs = tmp_path_factory.mktemp("serve")
    # A computer player's move waits 50 ms: a test sees its turn in progress (with no delay a
    # whole turn can pass between two looks at the frames).
    servers = [Server(pg, redis.url, logs / f"serve{i}.log", bot_delay=0.05) for i in range(2)]
    start_all(servers)
    yield servers
    for s in servers:
        s.stop()


def dice_table(srv: Server, target: int, bots: int = 1, humans: int = 3) -> dict[str, Any]:
    seats = [{"name": f"P{i}", "kind": "human"} for i in range(humans)]
    seats += [{"name": f"R{i}", "kind": "bot", "bot": "heuristic"} for i in range(bots)]
    table: dict[str, Any] = srv.post(
        "/api/tables", {"game": "dice", "rules": {"target": target}, "seats": seats}
    )
    return table


def tokens(table: dict[str, Any]) -> list[str]:
    return [s["token"] for s in table["seats"] if s["kind"] == "human"]


def test_a_whole_game_on_two_processes_every_client_sees_every_move(two: list[Server]) -> None:
    a, b = two
    t = dice_table(a, 1000)
    seats = tokens(t)
    # Seats 0 and 2 play on A, seat 1 on B; a spectator on each.
    players = [
        Player([a.ws_base], t["id"], seats[0], "seat0@A"),
        Player([b.ws_base], t["id"], seats[1], "seat1@B"),
        Player([a.ws_base], t["id"], seats[2], "seat2@A"),
        Player([a.ws_base], t["id"], None, "watch@A"),
        Player([b.ws_base], t["id"], None, "watch@B"),
    ]

    async def play() -> None:
        await asyncio.gather(*(p.run(timeout=60) for p in players))

    asyncio.run(play())
    record = record_of(b, t)
    assert record == record_of(a, t)  # /record answers the same on any process
    for p in players:
        assert p.reconnects == 0 and p.frames[-1]["version"] == len(record)
        check_frames(p, record)
        # Every version from the client's first frame to the end, in order, exactly once.
        versions = [f["version"] for f in p.frames]
        distinct = sorted(set(versions))
        assert distinct == list(range(distinct[0], len(record) + 1)), p.name
    state_a = a.get(f"/api/tables/{t['id']}/state?token={seats[1]}")
    state_b = b.get(f"/api/tables/{t['id']}/state?token={seats[1]}")
    assert state_a["version"] == state_b["version"] == len(record)
    assert state_a["view"] == state_b["view"] and state_a["status"] == "finished"
    assert any(f["seats"][1]["online"] for f in players[0].frames)  # B's client, seen on A


def test_redis_away_for_a_while_the_processes_resync_and_moves_stay_right(
    two: list[Server], redis: RedisServer
) -> None:
    a, b = two
    t = dice_table(a, 2000, bots=1, humans=2)
    seats = tokens(t)
    players = [
        Player([a.ws_base], t["id"], seats[0], "seat0@A"),
        Player([b.ws_base], t["id"], seats[1], "seat1@B"),
    ]
    watchers = [Player([b.ws_base], t["id"], None, "watch@B")]

    async def play() -> None:
        tasks = [asyncio.create_task(p.run(timeout=90)) for p in [*players, *watchers]]
        # Version 15, or the end of a game that was over sooner (a short game of lucky
        # throws: waiting for version 15 then never ended).
        while not (
            watchers[0].frames
            and (
                watchers[0].frames[-1]["version"] >= 15
                or watchers[0].frames[-1]["status"] == "finished"
            )
        ):
            await asyncio.sleep(0.02)
        redis.stop()  # Redis gone: moves go on through the database
        await asyncio.sleep(3)
        down = watchers[0].frames[-1]
        redis.start()  # on the same port: the processes reconnect
        await asyncio.gather(*tasks)
        if down["status"] == "running":  # the game went on after Redis came back
            assert watchers[0].frames[-1]["version"] > down["version"]

    asyncio.run(play())
    record = record_of(b, t)
    assert record == record_of(a, t)
    for p in [*players, *watchers]:
        check_frames(p, record)
        assert p.frames[-1]["version"] == len(record) and p.reconnects == 0


def test_a_link_revoked_while_redis_is_away_stops_on_the_other_process(
    two: list[Server], redis: RedisServer
) -> None:
    """Issue 20 §1.2: the host revokes seat 0's link on A while Redis is away, so B never
    hears of it; the old link's window on B is refused when it acts (the database checks the
    link in the move's commit) and closed, a new window with it on B gets no seat, the new
    link plays."""
    a, b = two
    t = dice_table(a, 5000, bots=0, humans=2)
    old = tokens(t)[0]

    async def scenario() -> None:
        async with websockets.connect(f"{b.ws_base}/ws/{t['id']}?token={old}") as ws:
            assert (await _state(ws))["seat"] == 0
            redis.stop()
            try:
                body = {"host_token": t["host_token"]}
                new = a.post(f"/api/tables/{t['id']}/seats/0/link", body)["token"]
                await ws.send(json.dumps({"type": "action", "action": "roll", "version": 0}))
                assert (await _next(ws, "error"))["code"] == "bad_token"
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await _next(ws, "state")
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
                async with websockets.connect(f"{b.ws_base}/ws/{t['id']}?token={old}") as again:
                    assert (await _next(again, "error"))["code"] == "bad_token"
            finally:
                redis.start()
        assert a.get(f"/api/tables/{t['id']}/state")["version"] == 0  # nothing was stored
        async with websockets.connect(f"{b.ws_base}/ws/{t['id']}?token={new}") as ws:
            assert (await _state(ws))["seat"] == 0
            await ws.send(json.dumps({"type": "action", "action": "roll", "version": 0}))
            assert (await _next(ws, "state"))["version"] == 1

    asyncio.run(scenario())


def test_postgresql_unreachable_a_move_is_refused_and_the_table_recovers(
    pg: str, redis: RedisServer, tmp_path: Path
) -> None:
    proxy = TcpProxy(pg_port(pg))
    srv = Server(via_port(pg, proxy.port), redis.url, tmp_path / "serve.log")
    start_all([srv])
    direct = create_engine(pg)
    try:
        t = dice_table(srv, 5000, bots=0, humans=2)
        url = f"{srv.ws_base}/ws/{t['id']}?token={tokens(t)[0]}"

        def stored() -> tuple[int, int]:
            with direct.connect() as c:
                version = c.execute(
                    text("SELECT version FROM game_tables WHERE id = :i"), {"i": t["id"]}
                ).scalar_one()
                count = c.execute(
                    text("SELECT count(*) FROM actions WHERE table_id = :i"), {"i": t["id"]}
                ).scalar_one()
                return int(version), int(count)

        async def scenario() -> None:
            async with websockets.connect(url) as ws:
                frame = await _state(ws)
                assert frame["legal"] == ["roll"] and frame["version"] == 0
                before = stored()
                proxy.cut()
                # The refused move is the first throw: offered whatever the dice show (after a
                # throw that scores nothing, one game in 43, the next move is the other seat's).
                msg = {"type": "action", "action": "roll", "version": 0}
                await ws.send(json.dumps(msg))
                err = await _next(ws, "error")
                assert err["code"] == "unavailable" and "database" in err["message"]
                assert stored() == before == (0, 0)  # nothing half-applied
                await ws.send(json.dumps({"type": "sync"}))
                assert (await _state(ws))["version"] == 0
                proxy.restore()
                deadline = time.monotonic() + 20
                while True:  # the same move again, once the database answers
                    await ws.send(json.dumps(msg))
                    reply = await _next(ws, "state", "error")
                    if reply["type"] == "state" and reply["version"] == 1:
                        break
                    assert reply.get("code") == "unavailable", reply
                    assert time.monotonic() < deadline
                    await asyncio.sleep(0.5)
                assert reply["last"] == {"seat": 0, "action": "roll"}
                assert stored() == (1, 1)

        asyncio.run(scenario())
    finally:
        srv.stop()
        proxy.close()
        direct.dispose()


def test_workers_2_serve_one_address(pg: str, redis: RedisServer, tmp_path: Path) -> None:
    """``--workers 2``: two processes on one port (the kernel hands each connection to one of
    them); a game with a player and spectators on it goes to the end, each client in order."""
    srv = Server(pg, redis.url, tmp_path / "workers.log")
    srv.extra_args += ["--workers", "2"]
    start_all([srv])
    try:
        t = dice_table(srv, 500, bots=1, humans=1)
        players = [Player([srv.ws_base], t["id"], tokens(t)[0], "seat0")]
        players += [Player([srv.ws_base], t["id"], None, f"watch{i}") for i in range(3)]

        async def play() -> None:
            await asyncio.gather(*(p.run(timeout=60) for p in players))

        asyncio.run(play())
        record = record_of(srv, t)
        for p in players:
            check_frames(p, record)
            assert p.frames[-1]["version"] == len(record) and p.reconnects == 0
    finally:
        srv.stop()


async def _next(ws: Any, *kinds: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if msg["type"] in kinds:
            return msg


async def _state(ws: Any) -> dict[str, Any]:
    return await _next(ws, "state")


def test_kill_9_of_one_process_its_clients_play_on_at_the_other(two: list[Server], pg: str) -> None:
    a, b = two
    t = dice_table(a, 3000, bots=1, humans=2)  # created on A: A moves the computer player
    seats = tokens(t)
    # Both players start on A and fail over to B.
    players = [Player([a.ws_base, b.ws_base], t["id"], s, f"P{i}") for i, s in enumerate(seats)]
    watcher = Player([b.ws_base], t["id"], None, "watch@B")
    killed: list[int] = []

    async def play() -> None:
        tasks = [asyncio.create_task(p.run(timeout=90)) for p in [*players, watcher]]
        # Mid-game, while the computer player (seat 2) is in its turn, A dies without a word:
        # its lease on the computer player lapses and B takes over.
        await wait_for_frame(watcher, bot_turn, "no turn of the computer player to kill A in")
        # The humans hold their next move while A dies, and the computer player's turn is not
        # one of the final round: so the game cannot end before the kill (the computer player
        # can finish its turn on A first, but the humans' moves must go through B).
        for p in players:
            p.pause.clear()
        a.kill9()
        killed.append(watcher.frames[-1]["version"])
        for p in players:
            p.pause.set()
        await asyncio.gather(*tasks)

    asyncio.run(play())
    record = record_of(b, t)
    for p in [*players, watcher]:
        check_frames(p, record)
        assert p.frames[-1]["version"] == len(record)
    assert all(p.reconnects >= 1 for p in players) and watcher.reconnects == 0
    killed_at = killed[0]
    rows = stored_actions(pg, t["id"])
    assert [r[2] for r in rows] == record and [r[0] for r in rows] == list(range(len(record)))
    # No action lost or applied twice: every action of a human seat in the record was sent by
    # that seat's player for exactly that version (a version takes one action, and a resend
    # after the reconnect names the version it was meant for).
    for seq, seat, action in rows:
        if seat in (0, 1):
            assert (seq, chosen_action(action)) in set(players[seat].sent), (seq, seat)
    # The computer player went on after the kill.
    assert any(seat == 2 for seq, seat, _ in rows if seq >= killed_at)


def bot_turn(frame: dict[str, Any]) -> bool:
    """The computer player (seat 2) is in a turn that cannot end the game."""
    view = frame["view"]
    return bool(
        frame["version"] >= 6
        and view["current_player"] == 2
        and not view["final_round"]
        and not view["playoff"]
    )


def stored_actions(pg: str, table_id: str) -> list[tuple[int, int, str]]:
    engine = create_engine(pg)
    try:
        with engine.connect() as c:
            rows = c.execute(
                text("SELECT seq, seat, action FROM actions WHERE table_id = :i ORDER BY seq"),
                {"i": table_id},
            )
            return [(int(q), int(s), str(x)) for q, s, x in rows]
    finally:
        engine.dispose()
