"""What the game table draws comes in the frames (issue 8 section 2): the log of both games, the
dice statistics of the table's record and, for every way to set dice aside, what follows it."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.dice import DiceAction, DiceGame
from pfeffer.dice.log import dice_log
from pfeffer.dice.stats import face_stats
from pfeffer.pepper import PepperGame
from pfeffer.pepper.log import pepper_log
from pfeffer.web.adapters.games import LOG_TAIL, adapter
from pfeffer.web.jsondata import jsonable
from tests.web.test_frames import STATIC, first_state


def test_a_dice_frame_carries_log_stats_and_what_each_keep_leads_to(client: TestClient) -> None:
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    t = client.post("/api/tables", json={"game": "dice", "seats": seats}).json()
    with client.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
        frame = first_state(ws)
        assert frame["view"]["log"] == [{"kind": "round", "number": 1}]
        assert frame["view"]["dice_stats"]["dice"] == 0
        assert frame["view"]["dice_stats"]["p_value"] is None
        ws.send_text(json.dumps({"type": "action", "action": "roll"}))
        view = first_state(ws)["view"]
    throws = [e for e in view["log"] if e["kind"] == "throw"]
    assert len(throws) == 1 and throws[0]["seat"] == 0 and len(throws[0]["dice"]) == 6
    counts = [throws[0]["dice"].count(f) for f in range(1, 7)]
    assert view["dice_stats"]["counts"] == counts and view["dice_stats"]["throws"] == 1
    assert view["log_count"] == len(view["log"])
    if view["phase"] != "keep":  # the first throw scored nothing (about one in 40)
        assert view["log"][2] == {"kind": "bust", "seat": 0, "points": 0, "total": 0}
        return
    assert view["log"][-1] == throws[0] and view["roll"] == throws[0]["dice"]
    for option in view["keep_options"]:
        nxt = option["next"]
        assert nxt["action"] == option["action"]
        assert nxt["turn_total"] == option["points"]
        left = 6 - len(option["dice"])
        assert nxt["dice_to_roll"] == (left or 6) and nxt["hot_dice"] == (left == 0)
        # D8 (350 to bank) and D7 (all six scored: throw again first)
        assert nxt["can_bank"] == (option["points"] >= 350 and left > 0)


def test_the_dice_log_is_the_engines_and_long_games_send_its_tail() -> None:
    table = adapter("dice").table({"target": 5000}, ["Ann", "Bob", "Cy"], 21)
    while not table.game.is_over:
        seat = table.game.current_player
        assert seat is not None
        table = table.after(table.bot_action(seat, None, 0), seat)
    game = table.game
    assert isinstance(game, DiceGame)
    view = table.view(1)
    events = dice_log(game.view(1))
    assert len(events) > LOG_TAIL
    assert view["log_count"] == len(events)
    assert view["log"] == jsonable(events[-LOG_TAIL:])
    stats = face_stats(game.actions)
    assert view["dice_stats"] == jsonable(stats)
    rolled = [d for a in game.actions if a.startswith("roll") for d in DiceAction.parse(a).dice]
    assert sum(view["dice_stats"]["counts"]) == len(rolled)


def test_a_pepper_frame_carries_the_same_log_for_every_seat() -> None:
    table = adapter("pepper").table({}, ["Ann", "Bob", "Cy", "Di"], 5)
    for _ in range(14):  # deal, auction, trump and a few cards
        seat = table.game.current_player
        assert seat is not None
        table = table.after(table.bot_action(seat, "heuristic", 1), seat)
    logs = [table.view(s)["log"] for s in (None, 0, 1, 2, 3)]
    assert all(log == logs[0] for log in logs)
    kinds = [e["kind"] for e in logs[0]]
    assert kinds[0] == "deal" and "trump" in kinds and "play" in kinds
    game = table.game
    assert isinstance(game, PepperGame)
    assert logs[0] == jsonable(pepper_log(game.view(None), game.history))


def test_the_replay_carries_the_log_and_the_stats(client: TestClient) -> None:
    seats = [{"name": "Robo", "kind": "bot"}, {"name": "Tron", "kind": "bot"}]
    t = client.post(
        "/api/tables", json={"game": "dice", "rules": {"target": 500}, "seats": seats}
    ).json()
    deadline = time.monotonic() + 20
    while client.get(f"/api/tables/{t['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the computer players did not finish"
        time.sleep(0.02)
    record: dict[str, Any] = client.get(f"/api/tables/{t['id']}/record").json()
    rolls = [a for a in record["actions"] if a.startswith("roll")]
    steps = len(record["actions"])
    last = client.get(f"/api/tables/{t['id']}/replay?step={steps}").json()
    assert last["view"]["dice_stats"] == jsonable(face_stats(rolls))
    assert last["view"]["log"][-1]["kind"] == "win"
    first = client.get(f"/api/tables/{t['id']}/replay?step=1").json()
    assert first["view"]["dice_stats"]["throws"] == 1


# ---------------------------------------------------------------------- the scripts only match


@pytest.mark.parametrize("script", ["dice-table.js", "table.js"])
def test_the_table_scripts_hold_no_scoring(script: str) -> None:
    """The dice the player taps are looked up in the engine's keep options; the scripts hold no
    points, no minimum, no house rule that decides a score (only the view's numbers)."""
    text = (STATIC / script).read_text(encoding="utf-8")
    points = re.findall(r"\b(?:50|100|200|250|300|350|400|500|600|1000|1500)\b", text)
    assert points == []
    rules = (
        "min_bank",
        "single_one",
        "single_five",
        "triples",
        "hot_dice_must_roll",
        "pfeffer_margin",
        "auto_pfeffer_penalty",
        "straight",
        "three_pairs",
        "extra_dice",
    )
    assert [r for r in rules if r in text] == []
    assert "keep_options" in text or script == "table.js"  # the dice are matched, not scored
