"""An asyncio WebSocket player for the tests: records every frame, acts when its seat may act."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import websockets

Chooser = Callable[[dict[str, Any]], str]


class Player:
    """One browser tab, minus the browser: a seat token (or none: spectator) and a policy."""

    def __init__(
        self,
        ws_base: str,
        table: str,
        token: str | None,
        seed: int = 0,
        max_actions: int | None = None,
    ) -> None:
        self.url = f"{ws_base}/ws/{table}" + (f"?token={token}" if token else "")
        self.rng = random.Random(seed)
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.errors: list[dict[str, Any]] = []
        self.max_actions = max_actions
        self.sent = 0

    def choose(self, frame: dict[str, Any]) -> str:
        legal: list[str] = frame["legal"]
        if frame["game"] == "pepper":
            # Pass when allowed (the computer players bid), else bid low; cards at random.
            if "pass" in legal:
                return "pass"
            if frame["view"]["phase"] == "auction":
                return legal[0]
            return self.rng.choice(legal)
        # Dice: bank when possible, else keep the most points, else roll (a short, sane game).
        if "bank" in legal:
            return "bank"
        keeps = [a for a in legal if a.startswith("keep ")]
        if keeps:
            return keeps[0]
        return self.rng.choice(legal)

    async def run(self, until_over: bool = True, timeout: float = 120) -> None:
        """Play until the game is over (or ``max_actions`` were sent and the seat waits)."""
        async with websockets.connect(self.url, max_size=2**22) as ws:
            await asyncio.wait_for(self._loop(ws, until_over), timeout)

    async def _loop(self, ws: Any, until_over: bool) -> None:
        last_acted = -1
        while True:
            text = await ws.recv()
            self.raw.append(text)
            msg = json.loads(text)
            if msg["type"] == "error":
                self.errors.append(msg)
                continue
            if msg["type"] != "state":
                continue
            self.frames.append(msg)
            if msg["status"] == "finished":
                return
            if msg["legal"] and msg["version"] != last_acted:
                if self.max_actions is not None and self.sent >= self.max_actions:
                    if not until_over:
                        return
                    continue
                last_acted = msg["version"]
                action = self.choose(msg)
                self.sent += 1
                await ws.send(json.dumps({"type": "action", "action": action}))


async def play_all(players: list[Player], timeout: float = 120) -> None:
    """Run several players at once until the game ends."""
    await asyncio.gather(*(p.run(timeout=timeout) for p in players))
