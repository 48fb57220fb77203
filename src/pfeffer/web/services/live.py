"""One table held in memory: the engine's game with its adapter, its seats and its clients."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any, Protocol

from pfeffer.core.game import Game
from pfeffer.web.games import Table
from pfeffer.web.serialize import state_frame
from pfeffer.web.storage import SeatRow


class Client(Protocol):
    """A connected client (a WebSocket): it is sent JSON frames and can be closed."""

    async def send_json(self, data: Any) -> None:
        """Send one JSON message."""

    async def close(self, code: int = 1000) -> None:
        """Close the connection."""


@dataclasses.dataclass
class Live:
    """A table held in memory: the engine's game (with its adapter) and the clients connected."""

    id: str
    kind: str
    table: Table
    seats: list[SeatRow]
    version: int
    status: str
    rematch_id: str | None
    hints: bool = False  # the players may ask the advisor (the host's choice)
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    conns: dict[Client, int | None] = dataclasses.field(default_factory=dict)
    last: dict[str, Any] | None = None
    # The last action a human seat had applied: (seat, action, version before, version after).
    applied: tuple[int, str, int, int] | None = None
    bot_task: asyncio.Task[None] | None = None

    @property
    def game(self) -> Game[object]:
        """The engine's game."""
        return self.table.game

    @property
    def names(self) -> list[str]:
        """Player names in seat order."""
        return [s.name for s in self.seats]

    def frame(self, seat: int | None) -> dict[str, Any]:
        """The state frame for one seat (or a spectator), built from the engine's view."""
        return state_frame(self, seat)
