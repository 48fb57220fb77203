"""A state frame written once per seat and version (``Live.frame_text``, what a broadcast sends
every client of a seat) is the frame built the plain way (``state_frame``) written as
Starlette's ``send_json`` writes it, at every step of whole games, for every seat and
spectators, and again after whatever else a frame shows changed: who is online (here and on
another process), a seat open twice, a rematch, the seats read again, a table read again
whole, a finished game."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import MutableMapping
from typing import Any

import pytest
from starlette.websockets import WebSocket

from pfeffer.web.adapters.games import adapter
from pfeffer.web.services.live import SPECTATORS, Live, frame_json, state_frame
from pfeffer.web.storage.repository import SeatRow


class Conn:
    """A client in ``Live.conns`` (never sent anything here)."""

    async def send_json(self, data: Any) -> None:
        raise AssertionError("not sent")

    async def close(self, code: int = 1000) -> None:
        raise AssertionError("not closed")


STATS_FLOATS = ("expected", "chi_square", "p_value")


def plain(live: Live, seat: int | None) -> str:
    """The frame as the server wrote it before: built, then ``json.dumps`` as Starlette does."""
    return json.dumps(state_frame(live, seat), separators=(",", ":"), ensure_ascii=False)


def floats(data: Any, path: str = "") -> set[str]:
    """Where ``data`` holds floats (as ``.view.dice_stats.p_value``)."""
    if isinstance(data, float):
        return {path}
    if isinstance(data, dict):
        return {p for k, v in data.items() for p in floats(v, f"{path}.{k}")}
    if isinstance(data, list | tuple):
        return {p for v in data for p in floats(v, path + "[]")}
    return set()


def check(live: Live, seats: list[int | None]) -> None:
    for seat in seats:
        text = live.frame_text(seat)
        assert text == plain(live, seat)
        # frame_json writes floats with json only there (orjson writes 1e-07 as 1e-7).
        assert floats(state_frame(live, seat)) <= {".view.dice_stats." + k for k in STATS_FLOATS}
        assert json.loads(text) == state_frame(live, seat)
        assert live.frame_text(seat) is text  # nothing changed: the same text again


def new_live(kind: str, players: int, seed: int) -> Live:
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    seats = [
        SeatRow(
            table_id="t1",
            seat=i,
            name=n,
            kind="human" if i < 2 else "bot",
            bot=None if i < 2 else "heuristic",
            token=f"tok{i}",
            public=False,
            claimed=False,
        )
        for i, n in enumerate(names)
    ]
    table = adapter(kind).table({}, names, seed)
    return Live("t1", kind, table, seats, 0, "running", None)


@pytest.mark.parametrize(
    ("kind", "players", "seed"), [("dice", 2, 1), ("dice", 3, 2), ("pepper", 4, 3)]
)
def test_frame_text_equals_the_plain_frame_through_whole_games(
    kind: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    live = new_live(kind, players, seed)
    everyone: list[int | None] = [None, *range(players)]
    ann, ann_again, watcher = Conn(), Conn(), Conn()
    steps = 0
    while True:
        check(live, everyone)
        # What a frame shows besides the game, changed now and then between two moves.
        change = rng.randrange(8)
        if change == 0:
            live.conns[ann] = 0  # Ann comes online
        elif change == 1:
            live.conns[ann_again] = 0  # her seat open twice: "elsewhere"
        elif change == 2:
            live.conns.pop(ann_again, None)
        elif change == 3:
            live.conns[watcher] = None
        elif change == 4:
            live.remote["p2"] = {1: 1, SPECTATORS: 2}  # Bob on another process
        elif change == 5:
            live.remote.pop("p2", None)
        elif change == 6:
            live.seats = list(live.seats)  # the seats read again (a revoked link)
        check(live, everyone)
        game = live.game
        if game.is_over or steps > 600:
            break
        seat = game.current_player
        assert seat is not None
        legal = game.legal_actions()
        action = rng.choice(legal)
        if rng.random() < 0.5:
            live.table = live.table.after(action, seat)  # as the acting process does
        else:
            game.apply(action)  # as another process's copy does (services/sync.py)
        live.version += 1
        live.last = {"seat": seat, "action": action}
        live.status = "finished" if live.game.is_over else "running"
        steps += 1
    assert steps > 10
    if live.game.is_over:
        live.rematch_id = "t2"
        check(live, everyone)
    # The whole table read again from the database (same version, a new table object).
    live.table = adapter(kind).table({}, live.names, seed, list(live.game.actions))
    check(live, everyone)


def test_frame_json_is_what_send_json_writes() -> None:
    """Starlette's ``WebSocket.send_json`` (the plain path) writes exactly ``frame_json``."""
    sent: list[dict[str, Any]] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    async def receive() -> MutableMapping[str, Any]:
        return {"type": "websocket.connect"}

    ws = WebSocket({"type": "websocket", "path": "/ws/t1", "headers": []}, receive, send)
    live = new_live("dice", 2, 5)
    live.last = {"seat": 0, "action": "roll"}
    live.seats[0].name = "Ännchen ☃"  # not ASCII: written as it is
    frame = state_frame(live, 0)

    async def talk() -> None:
        await ws.accept()
        await ws.send_json(frame)

    asyncio.run(talk())
    assert sent[-1] == {"type": "websocket.send", "text": frame_json(frame)}
    assert live.frame_text(0) == frame_json(frame)


@pytest.mark.parametrize("p_value", [1e-07, 1e-05, 3.2e-10, 0.156, 1e16, 0.0])
def test_frame_json_writes_floats_and_odd_data_as_json_does(p_value: float) -> None:
    """The dice statistics' floats in exponent form too, names with control characters and
    characters beyond the BMP, and what orjson refuses (a key that is not a string, a huge
    integer) come out as ``json.dumps`` writes them."""
    live = new_live("dice", 2, 5)
    live.seats[0].name = 'A\u0001\u007f\u2028 \U0001f3b2 "q" \\ /'
    frame = state_frame(live, 0)
    frame["view"]["dice_stats"]["p_value"] = p_value
    frame["view"]["dice_stats"]["chi_square"] = p_value * 3
    assert frame_json(frame) == json.dumps(frame, separators=(",", ":"), ensure_ascii=False)
    for odd in ({1: "x", None: 2}, 2**70, -(2**64)):
        other = {**frame, "last": odd}
        assert frame_json(other) == json.dumps(other, separators=(",", ":"), ensure_ascii=False)
