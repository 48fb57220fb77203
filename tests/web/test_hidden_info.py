"""Issue 4, item 4: every WebSocket frame of a whole 4-player Pepper game is checked against the
true hands: no frame holds a card of another seat's unplayed hand, or the seed."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from pfeffer.pepper import CARD_STR, PepperGame
from tests.web.conftest import ServerProcess
from tests.web.wsclient import Player, play_all

CARDS = frozenset(CARD_STR)


def strings(value: Any) -> list[str]:
    """Every word of every string (keys included) in a JSON value."""
    out: list[str] = []
    if isinstance(value, str):
        out.extend(w for w in re.split(r"[\s/,]+", value) if w)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.extend(strings(k))
            out.extend(strings(v))
    elif isinstance(value, list):
        for v in value:
            out.extend(strings(v))
    return out


def test_no_frame_shows_another_seats_unplayed_card(server: ServerProcess) -> None:
    made = server.post(
        "/api/tables",
        {
            "game": "pepper",
            "seats": [
                {"name": "Anna", "kind": "human"},
                {"name": "Ben", "kind": "bot", "bot": "heuristic"},
                {"name": "Cyril", "kind": "human"},
                {"name": "Dana", "kind": "bot", "bot": "random"},
            ],
        },
    )
    tid = made["id"]
    humans = [s for s in made["seats"] if s["kind"] == "human"]
    players = [Player(server.ws_base, tid, s["token"], seed=i) for i, s in enumerate(humans)]
    spectator = Player(server.ws_base, tid, None)
    asyncio.run(play_all([*players, spectator], timeout=240))

    # The game is over: the record (now downloadable) gives the true hands after every action.
    rec = server.get(f"/api/tables/{tid}/record?token={humans[0]['token']}")  # a private table
    seed = rec["seed"]
    game = PepperGame(players=4, seed=seed, dealer=rec["dealer"], names=rec["players"])
    hands_at = [[set(game.hand(s)) for s in range(4)]]
    for action in rec["actions"]:
        game.apply(action)
        hands_at.append([set(game.hand(s)) for s in range(4)])
    assert game.is_over and game.hand_number >= 2

    checked = 0
    for player, seat in [(players[0], 0), (players[1], 2), (spectator, None)]:
        assert player.frames, "no frames received"
        for text, frame in zip(player.raw, [json.loads(t) for t in player.raw], strict=True):
            assert str(seed) not in text
            assert "seed" not in strings(frame)
            if frame["type"] != "state":
                continue
            hidden = set().union(
                *(h for s, h in enumerate(hands_at[frame["version"]]) if s != seat)
            )
            leaked = hidden & set(strings(frame))
            assert not leaked, f"seat {seat} saw {leaked} at version {frame['version']}"
            if seat is not None:  # and it does see its own hand
                assert set(frame["view"]["hand"]) == hands_at[frame["version"]][seat]
            checked += 1
    assert checked > 100
    assert all(s["status"] == "finished" for s in (players[0].frames[-1], spectator.frames[-1]))
