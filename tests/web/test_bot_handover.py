"""The computer players' task and a human's move in the same instant, and a table let go while
a client connects to it (two CI hangs, found there).

When the computer player's turn ends, its task gives the lease back (``Bus.release``: an await)
before it ends. A human who moves in that moment, so that the computer player is to move again,
found the task still running (so ``kick`` started none) and the table stood still for good. Here
the release is held open on purpose while the human plays a whole turn.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from pfeffer.web.adapters.games import adapter
from pfeffer.web.services.bus import LocalBus
from pfeffer.web.services.live import Live
from pfeffer.web.services.tables import Hub
from pfeffer.web.storage.repository import SeatSpec, Store, make_engine, migrate
from tests.web.test_cluster import Recorder, settle


class HeldRelease(LocalBus):
    """A bus whose ``release`` waits until the test lets it go on."""

    def __init__(self) -> None:
        super().__init__()
        self.releasing = asyncio.Event()
        self.go_on = asyncio.Event()

    async def release(self, table_id: str) -> None:
        self.releasing.set()
        await self.go_on.wait()
        await super().release(table_id)


def ann_and_bot(tmp_path: Path) -> tuple[Store, str]:
    """A store with a dice table of Ann (seat 0) against a computer player: the store, the id."""
    url = f"sqlite:///{tmp_path / 't.db'}"
    migrate(make_engine(url))
    store = Store(make_engine(url))
    seats = [SeatSpec("Ann", "human"), SeatSpec("Bot", "bot", "heuristic")]
    row, _ = store.create_table("dice", adapter("dice").parse_rules({}), 7, seats)
    return store, row.id


def ann_choice(live: Live) -> str:
    """Ann's next action: bank when she may, else the first keep, else roll."""
    legal = live.table.legal_actions(0)
    return "bank" if "bank" in legal else next((a for a in legal if "keep" in a), "roll")


async def play_turn(hub: Hub, live: Live) -> None:
    """Ann plays her whole turn (the computer player is next)."""
    while live.game.current_player == 0:
        await hub.act(live, 0, ann_choice(live), live.seats[0].token)


def test_a_human_who_moves_while_the_bot_task_gives_its_lease_back(tmp_path: Path) -> None:
    store, table_id = ann_and_bot(tmp_path)

    async def scenario() -> None:
        bus = HeldRelease()
        hub = Hub(store, bot_delay=0, bus=bus)
        await hub.start()
        live = await hub.get(table_id)
        assert live is not None
        # Ann plays turns until the computer player has had one and is giving its lease back.
        while not bus.releasing.is_set():
            await settle(lambda: live.game.current_player == 0 or bus.releasing.is_set())
            if bus.releasing.is_set():
                break
            await hub.act(live, 0, ann_choice(live), live.seats[0].token)
        await settle(lambda: live.game.current_player == 0)
        # While the release is held open, Ann plays her whole turn: the computer player is next.
        await play_turn(hub, live)
        version = live.version
        bus.go_on.set()
        await settle(lambda: live.version > version)  # the computer player moved
        await hub.stop()

    asyncio.run(scenario())


def test_a_table_let_go_while_a_client_connects_is_held_again(tmp_path: Path) -> None:
    """The WebSocket handler reads the table (``get``), then awaits the database (the seat's
    claim) before it joins. When the computer player's task ended in that moment, it let the
    table go (nobody was at it yet): the client then played on a copy no computer player ever
    moved again. ``joined`` holds the copy again and returns it."""
    store, table_id = ann_and_bot(tmp_path)

    async def scenario() -> None:
        hub = Hub(store, bot_delay=0, bus=LocalBus())
        await hub.start()
        live = await hub.get(table_id)
        assert live is not None
        hub.release_if_idle(live)  # what the ending task does, while the handler awaits
        assert table_id not in hub.lives
        ann = Recorder()
        at = await hub.joined(live, ann, 0)
        assert at is live and hub.lives[table_id] is live
        await play_turn(hub, at)  # the computer player is next: it moves
        version = at.version
        await settle(lambda: at.version > version)
        await hub.stop()

    asyncio.run(scenario())


def test_a_client_joins_the_copy_loaded_meanwhile(tmp_path: Path) -> None:
    """Let go and read again by another client meanwhile: the late client joins that copy."""
    store, table_id = ann_and_bot(tmp_path)

    async def scenario() -> None:
        hub = Hub(store, bot_delay=0, bus=LocalBus())
        await hub.start()
        old = await hub.get(table_id)
        assert old is not None
        hub.release_if_idle(old)
        new = await hub.get(table_id)  # another client's connection read it again
        assert new is not None and new is not old
        watcher = Recorder()
        assert await hub.joined(new, watcher, None) is new
        ann = Recorder()
        at = await hub.joined(old, ann, 0)
        assert at is new and set(new.conns) == {watcher, ann} and not old.conns
        await play_turn(hub, at)
        version = at.version
        await settle(lambda: at.version > version)
        assert ann.states()[-1]["version"] == at.version
        await hub.stop()

    asyncio.run(scenario())
