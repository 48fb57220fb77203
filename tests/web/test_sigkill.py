"""Issue 4, item 5: nothing is lost. The server process is killed hard (SIGKILL) in the middle of
two games, started again on the same database, and both games go on from exactly the last accepted
action, with every client reconnecting through its seat token."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import websockets

from tests.web.conftest import ServerProcess, free_port
from tests.web.wsclient import Player


async def _frame(ws_base: str, table: str, token: str | None) -> dict[str, Any]:
    url = f"{ws_base}/ws/{table}" + (f"?token={token}" if token else "")
    async with websockets.connect(url) as ws:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return msg


def _tables(srv: ServerProcess) -> tuple[dict[str, Any], dict[str, Any]]:
    dice = srv.post(
        "/api/tables",
        {"game": "dice", "seats": [{"name": "Anna", "kind": "human"}, {"kind": "bot"}]},
    )
    pepper = srv.post(
        "/api/tables",
        {
            "game": "pepper",
            "seats": [{"name": n, "kind": "human"} for n in ("Anna", "Ben", "Cyril", "Dana")],
        },
    )
    return dice, pepper


def test_sigkill_then_restart_continues_every_game(tmp_path: Path) -> None:
    srv = ServerProcess(f"sqlite:///{tmp_path / 'kill.db'}", free_port())
    srv.start()
    try:
        dice, pepper = _tables(srv)
        # Play some actions in both games; every player stops when it has acted a few times
        # and it is its turn again (so nothing is in flight when the server dies).
        dice_anna = Player(srv.ws_base, dice["id"], dice["seats"][0]["token"], max_actions=6)
        pep = [
            Player(srv.ws_base, pepper["id"], s["token"], seed=i, max_actions=4)
            for i, s in enumerate(pepper["seats"])
        ]

        async def some_play() -> None:
            await dice_anna.run(until_over=False, timeout=60)
            # Pepper: every seat acts up to 4 times; stop when the player to move is done.
            tasks = [asyncio.create_task(p.run(until_over=False, timeout=60)) for p in pep]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            await asyncio.sleep(0.3)
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run(some_play())
        before = {
            (t["id"], s["seat"]): asyncio.run(_frame(srv.ws_base, t["id"], s.get("token")))
            for t in (dice, pepper)
            for s in t["seats"]
            if s["kind"] == "human"
        }
        assert before[(dice["id"], 0)]["version"] >= 6
        assert before[(pepper["id"], 0)]["version"] >= 5
        srv.kill9()

        srv.start()  # same database, same port
        for (tid, seat), old in before.items():
            token = next(
                s["token"]
                for s in (dice if tid == dice["id"] else pepper)["seats"]
                if s["seat"] == seat
            )
            new = asyncio.run(_frame(srv.ws_base, tid, token))
            assert new["version"] == old["version"], (tid, seat)
            assert new["view"] == old["view"]
            assert new["legal"] == old["legal"]

        # The games go on: the dice game to its end against the computer player.
        asyncio.run(Player(srv.ws_base, dice["id"], dice["seats"][0]["token"]).run(timeout=120))
        assert srv.get(f"/api/tables/{dice['id']}")["status"] == "finished"
    finally:
        srv.stop()


def test_sigkill_right_after_actions_loses_nothing_announced(tmp_path: Path) -> None:
    """Kill while actions are in flight: whatever any client was shown survives the kill."""
    srv = ServerProcess(f"sqlite:///{tmp_path / 'kill2.db'}", free_port())
    srv.start()
    try:
        dice, _ = _tables(srv)
        token = dice["seats"][0]["token"]
        seen: list[int] = []

        async def burst() -> None:
            url = f"{srv.ws_base}/ws/{dice['id']}?token={token}"
            async with websockets.connect(url) as ws:
                for _ in range(40):
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == "state":
                        seen.append(msg["version"])
                        if msg["legal"]:
                            act = "bank" if "bank" in msg["legal"] else msg["legal"][0]
                            await ws.send(json.dumps({"type": "action", "action": act}))
                            if len(seen) > 12:
                                srv.kill9()  # with an action on its way
                                return

        asyncio.run(burst())
        srv.start()
        after = asyncio.run(_frame(srv.ws_base, dice["id"], token))
        assert after["version"] >= max(seen)
    finally:
        srv.stop()
