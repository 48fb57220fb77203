"""The game review of a finished game (``GET /api/tables/{id}/review``, issue 10 §4, issue 11 §6):
dice decisions against the solver (the biggest mistakes first, each at its record step), Pepper
hands against a double-dummy analysis recomputed here from the record, rules without a solved
table, running and unknown tables, and the cache."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.dice import DiceGame
from pfeffer.dice.game import DiceAction
from pfeffer.dice.solver import ApproxStrategy, advise
from pfeffer.dice.solver import review as solver_review
from pfeffer.pepper import PepperGame, double_dummy, double_dummy_from
from pfeffer.web.adapters import advisor
from pfeffer.web.server import create_app
from pfeffer.web.services import reviews


@pytest.fixture
def client(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("PFEFFER_DATA_DIR", str(tmp_path / "data"))  # only the shipped table
    advisor.forget()
    reviews._cache.clear()
    with TestClient(create_app(db_url, bot_delay=0, computer_tables=True)) as c:
        yield c
    advisor.forget()
    reviews._cache.clear()


def finished(client: TestClient, game: str, seats: int, rules: dict[str, Any]) -> str:
    body = {"game": game, "rules": rules, "seats": [{"kind": "bot"}] * seats}
    tid: str = client.post("/api/tables", json=body).json()["id"]
    deadline = time.monotonic() + 120
    while client.get(f"/api/tables/{tid}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return tid


def record(client: TestClient, tid: str) -> dict[str, Any]:
    rec: dict[str, Any] = client.get(f"/api/tables/{tid}/record").json()
    return rec


def test_dice_review_ranks_every_decision_against_the_solver(client: TestClient) -> None:
    tid = finished(client, "dice", 2, {})  # the default rules: their table ships
    r = client.get(f"/api/tables/{tid}/review").json()
    assert r["available"] and r["game"] == "dice" and len(r["names"]) == 2
    game = DiceGame.from_record(record(client, tid))
    strategy = advisor.dice_strategy(game.rules)
    assert strategy is not None
    want = solver_review.decisions(strategy, game, {0, 1})
    got = r["decisions"]
    assert len(got) == len(want) > 10
    costs = [d["cost"] for d in got]
    assert costs == sorted(costs, reverse=True)  # the biggest mistakes first
    by_step = {d.step: d for d in want}
    actions = game.actions
    head = {k: v for k, v in record(client, tid).items() if k != "scores"}
    for d in got:
        w = by_step[d["step"]]
        assert d["cost"] == pytest.approx(w.cost, abs=1e-12) and d["seat"] == w.seat
        # The step is the decision's place in the record: the replay there shows its choice.
        assert DiceAction.parse(actions[d["step"]]).kind == d["played"]["kind"]
        replay = DiceGame.from_record({**head, "actions": actions[: d["step"]]})
        assert replay.current_player == d["seat"] and replay.turn_total == d["turn_total"]
        tips = advise(strategy, replay)
        assert tips[0].action == d["best"]["action"]
        assert d["best_win"] == pytest.approx(tips[0].win_probability, abs=1e-12)
        if d["played"]["kind"] == "keep":
            assert d["played"]["dice"] == list(DiceAction.parse(d["played"]["action"]).dice)
    for p in r["players"]:
        mine = [d for d in want if d.seat == p["seat"]]
        assert p["decisions"] == len(mine)
        assert p["lost"] == pytest.approx(sum(d.cost for d in mine), abs=1e-9)
        assert p["best"] == sum(d.cost < solver_review.BEST for d in mine)


def test_pepper_review_against_double_dummy_recomputed(client: TestClient) -> None:
    tid = finished(client, "pepper", 4, {"target": 12})
    r = client.get(f"/api/tables/{tid}/review").json()
    rec = record(client, tid)
    game = PepperGame.from_record(rec)
    played = [h for h in game.history if h.bidder is not None]
    assert r["available"] and len(r["hands"]) == len(played) >= 1
    assert r["side_names"][0] == f"{rec['players'][0]} & {rec['players'][2]}"
    actions = rec["actions"]

    def at(step: int) -> PepperGame:
        head = {k: v for k, v in rec.items() if k != "scores"}  # the scores are the end's
        return PepperGame.from_record({**head, "actions": actions[:step]})

    for hand, result in zip(r["hands"], played, strict=True):
        start = at(hand["step"])
        assert start.phase == "play" and start.current_player == hand["leader"]
        deal = [start.hand(s) for s in range(4)]
        for side in hand["sides"]:
            assert side["best"] == double_dummy(
                deal, start.trump, hand["leader"], seat=side["seat"]
            )
            assert side["taken"] == result.tricks[side["side"]]
        assert hand["sides"][0]["best"] + hand["sides"][1]["best"] == 6
        # Every card of the hand: listed exactly when the side's best total fell by it.
        listed = {c["step"]: c for c in hand["costly"]}
        step = hand["step"]
        g = at(step)
        while g.phase == "play":
            seat = g.current_player
            assert seat is not None
            side = g.side_of(seat)
            choice = len(g.legal_actions()) > 1
            before = g.tricks_won[side] + double_dummy_from(g, seat=seat) if choice else 0
            number = g.hand_number
            g.apply(actions[step])
            if choice:
                if g.phase == "play" and g.hand_number == number:
                    after = g.tricks_won[side] + double_dummy_from(g, seat=seat)
                else:
                    after = g.last_hand.tricks[side]  # type: ignore[union-attr]
                lost = before - after
                assert lost >= 0
                assert (step in listed) is (lost > 0)
                if lost:
                    assert listed[step] == {
                        "step": step,
                        "seat": seat,
                        "card": actions[step],
                        "lost": lost,
                    }
            step += 1


def test_no_dice_review_without_a_solved_table(client: TestClient) -> None:
    tid = finished(client, "dice", 2, {"target": 500})
    r = client.get(f"/api/tables/{tid}/review", headers={"accept-language": "de"}).json()
    assert r["available"] is False and r["none"] == "unsolved"
    assert r["message"].startswith("Noch kein Tipp für diese Regeln")
    three = finished(client, "dice", 3, {"target": 500})
    assert client.get(f"/api/tables/{three}/review").json()["none"] == "unsolved"


def test_dice_review_of_three_players_is_the_approximation_and_says_so(
    client: TestClient,
) -> None:
    tid = finished(client, "dice", 3, {})  # the default rules: their two-player table ships
    r = client.get(f"/api/tables/{tid}/review", headers={"accept-language": "de"}).json()
    assert r["available"] and r["approximation"] is True and len(r["players"]) == 3
    assert r["note"].startswith("Diese Spielanalyse ist eine Näherung für 3 Spieler")
    en = client.get(f"/api/tables/{tid}/review", headers={"accept-language": "en"}).json()
    assert en["note"].startswith("This review is an approximation for 3 players")
    game = DiceGame.from_record(record(client, tid))
    two = advisor.dice_strategy(game.rules)
    assert two is not None
    want = solver_review.decisions(ApproxStrategy(two), game, {0, 1, 2})
    assert {d["seat"] for d in r["decisions"]} == {0, 1, 2}
    assert len(r["decisions"]) == len(want) > 10
    by_step = {d.step: d for d in want}
    for d in r["decisions"]:
        w = by_step[d["step"]]
        assert d["cost"] == pytest.approx(w.cost, abs=1e-12) and d["best"]["action"] == w.best
        others = [x for i, x in enumerate(scores_at(game, d["step"])) if i != d["seat"]]
        assert d["other"] == max(others)  # the total the approximation plays against
    two_players = finished(client, "dice", 2, {})
    r2 = client.get(f"/api/tables/{two_players}/review").json()
    assert r2["approximation"] is False and "note" not in r2


def scores_at(game: DiceGame, step: int) -> tuple[int, ...]:
    """The totals before the record's action ``step``."""
    head = {k: v for k, v in game.to_record().items() if k != "scores"}
    replay = DiceGame.from_record({**head, "actions": game.actions[:step]})
    return tuple(replay.scores)


def test_review_needs_a_finished_game_and_is_kept(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = client.post(
        "/api/tables", json={"game": "pepper", "seats": [{"kind": "human"}] * 2}
    ).json()
    key = running["seats"][0]["token"]  # a private table: a seat's link (issue 20 §2)
    assert client.get(f"/api/tables/{running['id']}/review?token={key}").status_code == 409
    assert client.get(f"/api/tables/{running['id']}/review").status_code == 404
    assert client.get("/api/tables/nosuch/review").status_code == 404
    tid = finished(client, "pepper", 2, {"target": 1})
    calls: list[str] = []
    real = reviews.compute

    def counted(*args: Any) -> dict[str, Any]:
        calls.append(args[0])
        return real(*args)

    monkeypatch.setattr(reviews, "compute", counted)
    first = client.get(f"/api/tables/{tid}/review").json()
    assert client.get(f"/api/tables/{tid}/review").json() == first
    assert calls == ["pepper"]  # worked out once
