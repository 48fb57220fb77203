"""A revoked seat link stops working everywhere (issue 20 §1.2): on a process that never heard
of the revoke (the fan-out was away), for windows opened before it, and for every action,
which the database checks against the seat's link as it stands when it commits."""

from __future__ import annotations

from pathlib import Path

import pytest

from pfeffer.web.adapters.games import adapter
from pfeffer.web.services.errors import SeatRevoked
from pfeffer.web.storage.repository import SeatSpec, Store
from tests.web.test_cluster import Recorder, hubs, run, settle, stores

SEATS = [SeatSpec("Ann", "human"), SeatSpec("Bo", "human")]


def closed(rec: Recorder) -> bool:
    codes = [m.get("code") for m in rec.sent]
    return "bad_token" in codes and 4403 in codes


def make(store: Store) -> tuple[str, str]:
    row, seats = store.create_table("dice", adapter("dice").parse_rules({}), 5, SEATS)
    return row.id, seats[0].token


def test_a_revoke_the_other_process_missed_is_refused_when_its_old_link_acts(
    tmp_path: Path,
) -> None:
    two = stores(tmp_path)
    table_id, old = make(two[0])

    async def scenario() -> None:
        a, b = await hubs(two)
        la, lb = await a.get(table_id), await b.get(table_id)
        assert la is not None and lb is not None
        window = Recorder()
        await b.joined(lb, window, 0, old)  # Ann's window on B, opened with her old link
        publish = a.bus.publish
        a.bus.publish = lambda table_id, message: None  # type: ignore[method-assign]
        new = await a.new_link(table_id, 0)  # the host revokes it on A; Redis is away
        a.bus.publish = publish  # type: ignore[method-assign]
        assert lb.holds(0, old)  # B's copy of the seats still has the old link
        with pytest.raises(SeatRevoked):
            await b.act(lb, 0, "roll", old)  # refused by the database's check of the link
        assert two[0].actions(table_id) == [] and lb.version == 0
        assert closed(window) and window not in lb.conns  # the old window was closed too
        assert await b.seat_for(lb, old) is None  # a new window with the old link: no seat
        assert (await b.seat_for(lb, new)).seat == 0  # type: ignore[union-attr]
        await b.act(lb, 0, "roll", new)
        assert lb.version == 1
        for h in (a, b):
            await h.stop()

    run(scenario)


def test_after_any_seat_reload_windows_of_an_old_link_are_closed(
    tmp_path: Path,
) -> None:
    two = stores(tmp_path)
    table_id, old = make(two[0])

    async def scenario() -> None:
        a, b = await hubs(two)
        lb = await b.get(table_id)
        assert lb is not None
        stale, other, watcher = Recorder(), Recorder(), Recorder()
        await b.joined(lb, stale, 0, old)
        await b.joined(lb, other, 1, lb.seats[1].token)
        await b.joined(lb, watcher, None)
        publish = a.bus.publish
        a.bus.publish = lambda table_id, message: None  # type: ignore[method-assign]
        await a.new_link(table_id, 0)  # the message naming the seat is lost
        a.bus.publish = publish  # type: ignore[method-assign]
        await b.sync.reconnected()  # Redis is back: the seats are read again (no seat named)
        await settle(lambda: closed(stale))
        assert stale not in lb.conns and lb.conns.keys() == {other, watcher}
        assert not closed(other) and not closed(watcher)
        with pytest.raises(SeatRevoked):
            await b.act(lb, 0, "roll", old)  # the copy in memory refuses it now as well
        for h in (a, b):
            await h.stop()

    run(scenario)
