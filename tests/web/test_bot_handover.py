"""The computer players' task and a human's move in the same instant (a CI hang, found there).

When the computer player's turn ends, its task gives the lease back (``Bus.release``: an await)
before it ends. A human who moves in that moment, so that the computer player is to move again,
found the task still running (so ``kick`` started none) and the table stood still for good. Here
the release is held open on purpose while the human plays a whole turn.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from pfeffer.web.games import adapter
from pfeffer.web.services.bus import LocalBus
from pfeffer.web.services.tables import Hub
from pfeffer.web.storage import SeatSpec, Store, make_engine, migrate
from tests.web.test_cluster import settle


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


def test_a_human_who_moves_while_the_bot_task_gives_its_lease_back(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    migrate(make_engine(url))
    store = Store(make_engine(url))
    seats = [SeatSpec("Ann", "human"), SeatSpec("Bot", "bot", "heuristic")]
    row, _ = store.create_table("dice", adapter("dice").parse_rules({}), 7, seats)

    async def scenario() -> None:
        bus = HeldRelease()
        hub = Hub(store, bot_delay=0, bus=bus)
        await hub.start()
        live = await hub.get(row.id)
        assert live is not None
        # Ann plays turns until the computer player has had one and is giving its lease back.
        while not bus.releasing.is_set():
            await settle(lambda: live.game.current_player == 0 or bus.releasing.is_set())
            if bus.releasing.is_set():
                break
            legal = live.table.legal_actions(0)
            act = "bank" if "bank" in legal else next((a for a in legal if "keep" in a), "roll")
            await hub.act(live, 0, act)
        await settle(lambda: live.game.current_player == 0)
        # While the release is held open, Ann plays her whole turn: the computer player is next.
        while live.game.current_player == 0:
            legal = live.table.legal_actions(0)
            act = "bank" if "bank" in legal else next((a for a in legal if "keep" in a), "roll")
            await hub.act(live, 0, act)
        version = live.version
        bus.go_on.set()
        await settle(lambda: live.version > version)  # the computer player moved
        await hub.stop()

    asyncio.run(scenario())
