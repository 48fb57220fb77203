"""Faults found when the browser game was tried as a new user would (issue 8, section 1), one test
each that failed before the fix; the browser-side ones are in test_browser_faults.py."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets
from fastapi.testclient import TestClient

from pfeffer.core.errors import IllegalAction
from pfeffer.dice.game import MAX_TURN_POINTS
from pfeffer.dice.sheet import DiceSheet
from tests.web.conftest import ServerProcess, form_data


def make(client: TestClient, game: str = "dice", **extra: Any) -> dict[str, Any]:
    seats = extra.pop("seats", [{"name": "Anna", "kind": "human"}, {"kind": "bot"}])
    r = client.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg


# ------------------------------------------------------------------ 3: WebSocket input


def test_deeply_nested_json_is_malformed_and_the_socket_stays(client: TestClient) -> None:
    t = make(client)
    with client.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
        next_of(ws, "state")
        ws.send_text("[" * 1020 + "]" * 1020)
        err = next_of(ws, "error")
        assert err["code"] == "malformed"
        ws.send_text(json.dumps({"type": "ping"}))
        assert next_of(ws, "pong") == {"type": "pong"}


def test_a_message_over_64_kib_gets_too_large(server: ServerProcess) -> None:
    t = server.post("/api/tables", {"game": "dice", "seats": [{"kind": "human"}, {"kind": "bot"}]})

    async def run() -> list[dict[str, Any]]:
        url = f"{server.ws_base}/ws/{t['id']}?token={t['seats'][0]['token']}"
        async with websockets.connect(url, max_size=2**22) as ws:
            got = []
            for size in (70_000, 500_000):
                await ws.send(json.dumps({"type": "action", "action": "x" * size}))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == "error":
                        got.append(msg)
                        break
            await ws.send(json.dumps({"type": "ping"}))
            while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "pong":
                pass
            return got

    errors = asyncio.run(run())
    assert [e["code"] for e in errors] == ["too_large", "too_large"]


# ------------------------------------------------------------------ 4: house rules and seats


def test_unbounded_rules_are_refused_in_the_page_language(client: TestClient) -> None:
    body = {"game": "dice", "rules": {"min_bank": 10**399}, "seats": [{"kind": "bot"}] * 2}
    r = client.post("/api/tables?lang=de", json=body)
    assert r.status_code == 400 and "min_bank muss zwischen" in r.json()["detail"]
    form = {"players": "2", "seat0_kind": "human", "seat1_kind": "heuristic"}
    page = client.post(
        "/new/dice?lang=de", data=form_data(client, {**form, "min_bank": str(10**399)})
    )
    assert page.status_code == 400 and "min_bank muss zwischen" in page.text
    assert "Infinity" not in page.text


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"players": "9"}, "od 2 do 8 míst"),
        ({"players": "1"}, "od 2 do 8 míst"),
        ({"players": "x"}, "od 2 do 8 míst"),
        ({"players": "2", "seat1_kind": "alien"}, "alien"),
    ],
)
def test_the_form_refuses_bad_seats(client: TestClient, form: dict[str, str], words: str) -> None:
    before = client.app.state.store.count_tables()  # type: ignore[attr-defined]
    data = {"seat0_kind": "human", "seat1_kind": "heuristic", **form}
    r = client.post("/new/dice?lang=cs", data=form_data(client, data), follow_redirects=False)
    assert r.status_code == 400 and words in r.text and 'class="error"' in r.text
    assert client.app.state.store.count_tables() == before  # type: ignore[attr-defined]


def test_the_api_refuses_an_unknown_seat_kind_by_name(client: TestClient) -> None:
    body = {"game": "dice", "seats": [{"kind": "human"}, {"kind": "alien"}]}
    r = client.post("/api/tables?lang=de", json=body)
    assert r.status_code == 400 and "'alien'" in r.json()["detail"]


# ------------------------------------------------------------------ 6: bad links


@pytest.mark.parametrize("lang", ["de", "cs", "en"])
def test_bad_links_answer_an_html_page(client: TestClient, lang: str) -> None:
    t = make(client)
    words = {"de": "Zurück zu den Tischen", "cs": "Zpět ke stolům", "en": "Back to the tables"}
    for path, status in [
        ("/watch/nosuch", 404),
        (f"/play/{t['id']}/forged-invite-token", 404),
        ("/play/nosuch/forged", 404),
        (f"/replay/{t['id']}?token={t['seats'][0]['token']}", 409),  # a seat's link
        (f"/replay/{t['id']}", 404),  # a private table has no replay for anybody else
        ("/replay/nosuch", 404),
        ("/sheet/nosuch", 404),
        ("/new/chess", 404),
        (f"/table/{t['id']}/forged", 404),
    ]:
        r = client.get(f"{path}{'&' if '?' in path else '?'}lang={lang}")
        assert r.status_code == status, path
        assert r.headers["content-type"].startswith("text/html"), path
        assert "detail" not in r.text and words[lang] in r.text and 'href="/"' in r.text
    # The API keeps answering JSON.
    r = client.get("/api/tables/nosuch")
    assert r.status_code == 404 and r.json()["detail"]


# ------------------------------------------------------------------ 7: sheet bound, favicon


def test_a_dice_sheet_refuses_absurd_turns() -> None:
    s = DiceSheet(["Anna", "Ben"])
    with pytest.raises(IllegalAction):
        s.enter(10**20)
    with pytest.raises(IllegalAction):
        s.enter(MAX_TURN_POINTS + 50)
    s.enter(MAX_TURN_POINTS)
    assert s.totals == [MAX_TURN_POINTS, 0]


def test_the_sheet_api_refuses_absurd_turns_translated(client: TestClient) -> None:
    sid = client.post("/api/sheets", json={"game": "dice", "players": ["A", "B"]}).json()["id"]
    r = client.post(f"/api/sheets/{sid}/entries?lang=de", json={"points": 10**20})
    assert r.status_code == 400 and "höchstens" in r.json()["detail"]
    assert client.get(f"/api/sheets/{sid}").json()["view"]["scores"] == [0, 0]


def test_favicon(client: TestClient) -> None:
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/")
    assert 'rel="icon"' in client.get("/").text


# ------------------------------------------------------------------ 5: a duplicate action


def test_the_same_action_twice_from_the_same_state_is_applied_once(client: TestClient) -> None:
    t = make(client, seats=[{"kind": "human"}, {"kind": "human"}])
    with client.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
        version = next_of(ws, "state")["version"]
        for _ in range(2):
            ws.send_text(json.dumps({"type": "action", "action": "roll", "version": version}))
        first, second = ws.receive_json(), ws.receive_json()
        assert first["type"] == second["type"] == "state"
        assert first["version"] == second["version"] == version + 1
    rows = client.app.state.store.actions(t["id"])  # type: ignore[attr-defined]
    assert [r.action.split()[0] for r in rows] == ["roll"]


# ------------------------------------------------------------------ 2: private tables


def test_tables_are_private_unless_the_host_opens_seats(client: TestClient) -> None:
    private = make(client, seats=[{"name": "Friend", "kind": "human"}, {"kind": "bot"}])
    token = private["seats"][0]["token"]
    assert private["host_token"] == private["admin_token"]
    lobby = client.get("/").text
    assert private["id"] not in lobby and token not in lobby
    assert all(t["id"] != private["id"] for t in client.get("/api/tables").json())
    r = client.post(f"/api/tables/{private['id']}/claim/0")
    assert r.status_code == 403 and token not in r.text
    opened = make(
        client,
        seats=[
            {"name": "Open", "kind": "human", "public": True},
            {"name": "Friend", "kind": "human"},
        ],
    )
    lobby = client.get("/").text
    assert f'data-claim="{opened["id"]}" data-seat="0"' in lobby
    assert 'data-seat="1"' not in lobby
    assert opened["seats"][1]["token"] not in lobby
    r = client.post(f"/api/tables/{opened['id']}/claim/1")  # the invited friend's seat
    assert r.status_code == 403 and opened["seats"][1]["token"] not in r.text
    r = client.post(f"/api/tables/{opened['id']}/claim/0")
    assert r.status_code == 200 and r.json()["token"] == opened["seats"][0]["token"]
    assert client.post(f"/api/tables/{opened['id']}/claim/0").status_code == 409
    assert f'data-claim="{opened["id"]}"' not in client.get("/").text


def test_the_host_opens_a_seat_and_issues_a_new_link(client: TestClient) -> None:
    t = make(client, seats=[{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}])
    host, old = t["host_url"], t["seats"][0]["token"]
    page = client.get(host).text
    assert f"{host}/seat/0/public" in page and f"{host}/seat/0/link" in page
    r = client.post(f"{host}/seat/1/public", data=form_data(client), follow_redirects=False)
    assert r.status_code == 303
    assert f'data-claim="{t["id"]}" data-seat="1"' in client.get("/").text
    client.post(f"{host}/seat/1/private", data=form_data(client))
    assert t["id"] not in client.get("/").text
    # A wrong host token changes nothing.
    bad = client.post(f"/api/tables/{t['id']}/seats/0/link", json={"host_token": "guess"})
    assert bad.status_code == 404
    with client.websocket_connect(f"/ws/{t['id']}?token={old}") as ws:
        next_of(ws, "state")
        r = client.post(f"/api/tables/{t['id']}/seats/0/link", json={"host_token": t["host_token"]})
        assert r.status_code == 200
        new = r.json()["token"]
        assert new != old and r.json()["url"] == f"/play/{t['id']}/{new}"
        assert next_of(ws, "error")["code"] == "bad_token"  # the old link's window is closed
    assert client.get(f"/play/{t['id']}/{old}").status_code == 404
    assert client.get(f"/play/{t['id']}/{new}").status_code == 200
    with client.websocket_connect(f"/ws/{t['id']}?token={old}") as ws:
        assert ws.receive_json()["code"] == "bad_token"


def test_the_page_says_when_a_seat_is_open_twice(client: TestClient) -> None:
    t = make(client)
    url = f"/ws/{t['id']}?token={t['seats'][0]['token']}"
    with client.websocket_connect(url) as one:
        assert next_of(one, "state")["elsewhere"] is False
        with client.websocket_connect(url) as two:
            assert next_of(two, "state")["elsewhere"] is True
            assert next_of(one, "state")["elsewhere"] is True
    assert "another device" in client.get(t["seats"][0]["url"]).text


def test_unused_tables_expire(client: TestClient) -> None:
    import datetime as dt

    from sqlalchemy import update

    from pfeffer.web.storage.repository import TableRow

    store = client.app.state.store  # type: ignore[attr-defined]
    old = make(client, seats=[{"kind": "human", "public": True}, {"kind": "bot"}])
    fresh = make(client, seats=[{"kind": "human", "public": True}, {"kind": "bot"}])
    with store.session() as db, db.begin():
        long_ago = dt.datetime(2000, 1, 1)
        db.execute(update(TableRow).where(TableRow.id == old["id"]).values(last_active=long_ago))
    lobby = client.get("/").text
    assert old["id"] not in lobby and fresh["id"] in lobby
    assert store.table(old["id"]).status == "expired"
    r = client.get(old["seats"][0]["url"] + "?lang=de")
    assert r.status_code == 410 and "abgelaufen" in r.text
    with client.websocket_connect(f"/ws/{old['id']}?token={old['seats'][0]['token']}") as ws:
        assert ws.receive_json()["code"] == "no_table"


# ------------------------------------------------------------------ 11: words


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", ("Gebot", "Bieter", "2 bieten", "Computer: Heuristik")),
        ("cs", ("Nabídka", "Dražitel", "Dražit 2", "Počítač: heuristický")),
    ],
)
def test_the_pepper_words_are_nouns_and_computer_seats_translated(
    client: TestClient, lang: str, words: tuple[str, str, str, str]
) -> None:
    bid, bidder, button, computer = words
    t = make(client, "pepper", seats=[{"kind": "human"}] + [{"kind": "bot"}] * 3)
    page = client.get(t["seats"][0]["url"] + f"?lang={lang}").text
    strings = json.loads(page.split('<script id="i18n" type="application/json">')[1].split("<")[0])
    assert strings["bid"] == bid and strings["bidder"] == bidder
    assert strings["bid_button"].replace("%(bid)s", "2") == button
    host = client.get(t["host_url"] + f"?lang={lang}").text
    assert computer in host and "heuristic)" not in host
