"""REST and WebSocket behaviour of the server (issue 4 items 1-4, 6, 7) on SQLite, in-process."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import form_data

NASTY = "<script>alert(1)</script>"


def make(client: TestClient, game: str = "dice", **extra: Any) -> dict[str, Any]:
    seats = extra.pop("seats", [{"name": NASTY, "kind": "human"}, {"kind": "bot"}])
    r = client.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def first_state(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            return msg


def test_create_lobby_and_pages_escape_names(client: TestClient) -> None:
    t = make(client, seats=[{"name": NASTY, "kind": "human", "public": True}, {"kind": "bot"}])
    token = t["seats"][0]["token"]
    assert len(token) >= 32 and t["seats"][1].get("token") is None
    lobby = client.get("/").text
    assert NASTY not in lobby and "&lt;script&gt;" in lobby
    admin = client.get(f"/table/{t['id']}/{t['admin_token']}").text
    assert NASTY not in admin and token in admin
    assert client.get(f"/table/{t['id']}/wrong").status_code == 404
    assert client.get(f"/play/{t['id']}/{token}").status_code == 200
    assert client.get(f"/play/{t['id']}/nope").status_code == 404
    assert client.get(f"/watch/{t['id']}").status_code == 200
    running = client.get("/api/tables").json()
    assert any(x["id"] == t["id"] for x in running)
    assert "token" not in json.dumps(running) and "seed" not in json.dumps(running)


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess", "seats": []},
        {"game": "dice", "seats": [{"kind": "human"}]},
        {"game": "pepper", "seats": [{"kind": "human"}] * 5},
        {"game": "dice", "rules": {"target": -5}, "seats": [{"kind": "bot"}] * 2},
        {"game": "dice", "rules": {"no_such_rule": 1}, "seats": [{"kind": "bot"}] * 2},
        {"game": "dice", "seats": [{"kind": "bot", "bot": "genius"}] * 2},
    ],
)
def test_bad_tables_are_refused(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and r.json()["detail"]


def test_form_creates_table_with_house_rules(client: TestClient) -> None:
    form = {"players": "3", "seat0_name": "Eva", "seat0_kind": "human", "seat1_kind": "heuristic"}
    form |= {"seat2_kind": "random", "target": "3000", "min_bank": "300", "pfeffer": "on"}
    form |= {"extra_dice": "add", "pfeffer_short_bank": "forbidden", "pfeffer_reward": "stake"}
    form |= {"tie": "shared", "triples_2": "250"}
    for name in ("single_one", "single_five", "fixed_four", "fixed_five", "fixed_six"):
        form[name] = "100"
    r = client.post("/new/dice", data=form_data(client, form), follow_redirects=False)
    assert r.status_code == 303
    tid = r.headers["location"].split("/")[2]
    state = client.get(f"/api/tables/{tid}/state").json()
    rules = state["view"]["rules"]
    assert rules["target"] == 3000 and rules["triples"]["2"] == 250
    assert rules["extra_dice"] == "add" and rules["auto_pfeffer"] is False  # unchecked box
    assert [s["kind"] for s in state["seats"]] == ["human", "bot", "bot"]
    bad = client.post("/new/dice", data=form_data(client, {**form, "target": "abc"}))
    assert bad.status_code == 400 and "error" in bad.text  # the form again, with the error


def test_play_dice_over_websocket_and_errors_change_nothing(client: TestClient) -> None:
    t = make(client, rules={"target": 1000})
    tid, token = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
        s = first_state(ws)
        assert s["seat"] == 0 and s["legal"] == ["roll"] and "seed" not in json.dumps(s)
        assert s["links"] is None  # the game-over banner's links come with the end
        version = s["version"]
        bad_messages = [
            "not json",
            json.dumps([1, 2]),
            json.dumps({"type": "action"}),
            json.dumps({"type": "action", "action": 7}),
            json.dumps({"type": "action", "action": "x" * 100}),
            "x" * 5000,
            json.dumps({"type": "action", "action": "roll 111111"}),  # no hand-entered dice
            json.dumps({"type": "action", "action": "bank"}),
            json.dumps({"type": "action", "action": "keep 1"}),
            json.dumps({"type": "action", "action": "void"}),
            json.dumps({"type": "hack"}),
        ]
        codes = []
        for m in bad_messages:
            ws.send_text(m)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["message"]
            codes.append(reply["code"])
        assert "too_large" in codes and "illegal" in codes and "malformed" in codes
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json()["type"] == "error"
        ws.send_text(json.dumps({"type": "sync"}))
        assert first_state(ws)["version"] == version  # nothing changed, connection alive
        # Stale version: refused with the current state.
        ws.send_text(json.dumps({"type": "action", "action": "roll", "version": version + 5}))
        assert ws.receive_json()["code"] == "stale"
        # Play to the end: bank when possible, else the best keep, else roll.
        s = first_state(ws)
        for _ in range(2000):
            if s["status"] == "finished":
                break
            if s["legal"]:
                legal = s["legal"]
                act = (
                    "bank"
                    if "bank" in legal
                    else next((a for a in legal if a.startswith("keep")), legal[0])
                )
                ws.send_text(json.dumps({"type": "action", "action": act}))
            s = first_state(ws)
        assert s["status"] == "finished" and s["view"]["is_over"]
        links = s["links"]
        key = f"?token={token}"  # a private table: the links carry this seat's key
        assert links == {"review": f"/replay/{tid}{key}#review",
                         "replay": f"/replay/{tid}{key}",
                         "record": f"/api/tables/{tid}/record{key}"}  # fmt: skip
        assert all(client.get(url.split("#")[0]).status_code == 200 for url in links.values())
        assert client.get(f"/replay/{tid}").status_code == 404  # no key, no private game
        assert 'id="review"' in client.get(links["review"]).text
        ws.send_text(json.dumps({"type": "action", "action": "roll"}))
        assert ws.receive_json()["code"] == "over"
    # Finished: history, record, replay (a private table: its seat's, issue 20 §2).
    hist = client.post("/api/history/mine", json={"tokens": [token]}).json()
    assert hist[0]["id"] == tid and hist[0]["winner_names"] and hist[0]["token"] == token
    rec = client.get(f"/api/tables/{tid}/record?token={token}")
    assert rec.status_code == 200 and rec.json()["format"] == "pfeffer-record"
    steps = client.get(f"/api/tables/{tid}/replay?step=0&token={token}").json()["steps"]
    mid = client.get(f"/api/tables/{tid}/replay?step={steps // 2}&token={token}").json()
    assert mid["step"] == steps // 2 and mid["view"]["seat"] is None
    assert NASTY not in client.get("/history").text
    assert client.get(f"/replay/{tid}?token={token}").status_code == 200


def test_out_of_turn_spectator_and_bad_token(client: TestClient) -> None:
    t = make(
        client,
        game="pepper",
        seats=[{"name": n, "kind": "human"} for n in ("A", "B", "C")],
    )
    tid = t["id"]
    toks = [s["token"] for s in t["seats"]]
    with client.websocket_connect(f"/ws/{tid}?token={toks[0]}") as ws0:
        s0 = first_state(ws0)
        dealer = s0["view"]["current_player"]
        other = (dealer + 1) % 3
        with client.websocket_connect(f"/ws/{tid}?token={toks[other]}") as wso:
            first_state(wso)
            wso.send_text(json.dumps({"type": "action", "action": "deal"}))
            assert wso.receive_json()["code"] == "not_your_turn"
        with client.websocket_connect(f"/ws/{tid}") as spec:
            first_state(spec)
            spec.send_text(json.dumps({"type": "action", "action": "deal"}))
            assert spec.receive_json()["code"] == "spectator"
        with client.websocket_connect(f"/ws/{tid}?token=forged") as bad:
            assert bad.receive_json()["code"] == "bad_token"
    # The record of a running game is not served (it holds the seed and the deal), not even
    # to a seat; to anybody else a private table has none.
    assert client.get(f"/api/tables/{tid}/record?token={toks[0]}").status_code == 409
    assert client.get(f"/api/tables/{tid}/replay?token={toks[0]}").status_code == 409
    assert client.get(f"/api/tables/{tid}/record").status_code == 404
    assert client.get(f"/api/tables/{tid}/state?token=forged").status_code == 403


def test_lobby_claim_and_rematch(client: TestClient) -> None:
    t = make(
        client,
        rules={"target": 400},
        seats=[
            {"name": "Host", "kind": "human"},
            {"name": "Guest", "kind": "human", "public": True},
        ],
    )
    tid = t["id"]
    assert client.post(f"/api/tables/{tid}/claim/0").status_code == 403  # the host's own seat
    r = client.post(f"/api/tables/{tid}/claim/1")
    assert r.status_code == 200 and r.json()["token"] == t["seats"][1]["token"]
    assert client.post(f"/api/tables/{tid}/claim/1").status_code == 409
    assert client.post(f"/api/tables/{tid}/rematch", json={"token": "x"}).status_code == 403
    assert (
        client.post(
            f"/api/tables/{tid}/rematch", json={"token": t["seats"][0]["token"]}
        ).status_code
        == 409
    )


def test_all_bot_games_finish_and_rematch(client: TestClient) -> None:
    t = make(
        client,
        game="pepper",
        rules={"target": 5},
        seats=[{"name": "Me", "kind": "human"}, {"kind": "bot"}],
    )
    tid, token = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
        s = first_state(ws)
        for _ in range(500):
            if s["status"] == "finished":
                break
            if s["legal"]:
                legal = s["legal"]
                ws.send_text(
                    json.dumps(
                        {"type": "action", "action": legal[-1] if "pass" in legal else legal[0]}
                    )
                )
            s = first_state(ws)
        assert s["status"] == "finished"
        assert s["view"]["hands"], "the score pad lists the hands"
        r = client.post(f"/api/tables/{tid}/rematch", json={"token": token})
        assert r.status_code == 200
        assert ws.receive_json() == {"type": "rematch", "table": r.json()["table"]}
    again = client.post(f"/api/tables/{tid}/rematch", json={"token": token}).json()
    assert again == r.json()
    new = client.get(f"/api/tables/{again['table']}").json()
    assert [s["name"] for s in new["seats"]] == ["Me", "Bot 2"]


def test_dice_score_sheet(client: TestClient) -> None:
    r = client.post(
        "/api/sheets", json={"game": "dice", "players": ["Anna", NASTY], "title": "Fri"}
    )
    assert r.status_code == 201
    sid = r.json()["id"]

    def add(body: dict[str, Any]) -> Any:
        return client.post(f"/api/sheets/{sid}/entries", json=body)

    assert add({"points": 300}).status_code == 400  # below the minimum of 350
    assert add({"points": 425}).status_code == 400  # not a multiple of 50
    assert add({"points": 400}).status_code == 200
    s = add({"bust": True, "pfeffer": True}).json()  # Pfeffer on 450, busted: -900
    assert s["view"]["scores"] == [400, -900]
    s = add({"bust": True}).json()  # Auto-Pfeffer after a bust: -1000
    assert s["view"]["scores"] == [-600, -900]
    s = client.post(f"/api/sheets/{sid}/undo").json()
    assert s["view"]["scores"] == [400, -900]
    page = client.get(f"/sheet/{sid}").text
    assert NASTY not in page and "print.css" in page


def test_pepper_score_pad_hand_everyone_passed(client: TestClient) -> None:
    r = client.post(
        "/api/sheets",
        json={"game": "pepper", "players": ["A", "B", "C"], "rules": {"all_pass": "redeal"}},
    )
    sid = r.json()["id"]
    s = client.post(f"/api/sheets/{sid}/entries", json={"passed": True}).json()
    assert s["rows"][0]["bidder"] is None and s["scores"] == [0, 0, 0]
    plain = client.post("/api/sheets", json={"game": "pepper", "players": ["A", "B"]}).json()
    refused = client.post(f"/api/sheets/{plain['id']}/entries", json={"passed": True})
    assert refused.status_code == 400 and "all_pass=redeal" in refused.json()["detail"]


def test_pepper_score_pad(client: TestClient) -> None:
    r = client.post("/api/sheets", json={"game": "pepper", "players": ["A", "B", "C", "D"]})
    sid = r.json()["id"]

    def add(body: dict[str, Any]) -> Any:
        return client.post(f"/api/sheets/{sid}/entries", json=body)

    assert add({"bidder": 0, "bid": "3", "trump": "H", "tricks": [4, 3]}).status_code == 400
    assert add({"bidder": 0, "bid": "7", "trump": "H", "tricks": [4, 2]}).status_code == 400
    s = add({"bidder": 1, "bid": "5", "trump": "NT", "tricks": [2, 4]}).json()
    assert s["scores"] == [2, -6]
    s = add({"bidder": 0, "bid": "big", "trump": "S", "tricks": [6, 0]}).json()
    assert s["scores"] == [14, -6]
    for _ in range(3):
        s = add({"bidder": 0, "bid": "small", "trump": "C", "tricks": [6, 0]}).json()
    assert s["is_over"] and s["winners"] == [0] and s["scores"] == [32, -6]
    assert add({"bidder": 0, "bid": "1", "trump": "C", "tricks": [6, 0]}).status_code == 400
