"""The lobby lists every open public table, newest first, paged (issue 20 §1.8: it limited to
the 50 newest tables before filtering, so 50 newer private tables hid a public one), and
private games stay private (issue 20 §2): ``/history`` lists public tables only, a private
game's replay, record and review need a key of that table (a seat's link, the host's key or
the host's share link), and a browser finds its own seats' games."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from pfeffer.web.adapters.games import adapter
from pfeffer.web.storage.repository import SeatRow, SeatSpec, Store, TableRow

PRIVATE = [SeatSpec("Ann", "human"), SeatSpec("Bo", "human")]
PUBLIC = [SeatSpec("Ann", "human"), SeatSpec("Bo", "human", public=True)]


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return store


def finished(store: Store, seats: list[SeatSpec], seed: int = 3) -> tuple[TableRow, list[SeatRow]]:
    """A dice game played to its end by the engine and stored as the server stores one."""
    rules = adapter("dice").parse_rules({"target": 1000})
    row, rows = store.create_table("dice", rules, seed, seats)
    table = adapter("dice").table(rules, [s.name for s in seats], seed)
    while not table.game.is_over:
        seat = table.game.current_player
        assert seat is not None
        legal = table.legal_actions(seat)
        keep = next((a for a in legal if a.startswith("keep")), None)
        act = "bank" if "bank" in legal else keep or ("roll" if "roll" in legal else legal[0])
        table = table.after(act, seat)
    game = table.game
    store.append_actions(
        row.id, 0, None, game.actions, finished=True, winners=game.winners, scores=game.scores
    )
    return row, rows


def test_a_public_table_stays_in_the_lobby_behind_60_newer_private_ones(
    client: TestClient,
) -> None:
    store = store_of(client)
    public, _ = store.create_table("dice", {}, 1, PUBLIC)
    for i in range(60):
        store.create_table("dice", {}, i, PRIVATE)
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed] == [public.id]
    assert f'data-claim="{public.id}"' in client.get("/").text


def test_the_lobby_is_paged_newest_first(client: TestClient) -> None:
    store = store_of(client)
    ids = []
    for i in range(55):
        ids.append(store.create_table("dice", {}, i, PUBLIC)[0].id)
        store.create_table("pepper", {}, i, [SeatSpec("A", "human")] * 2)  # private
    first = client.get("/api/tables")
    assert [t["id"] for t in first.json()] == ids[::-1][:50]
    assert first.headers["link"] == '</api/tables?page=2>; rel="next"'
    second = client.get("/api/tables?page=2")
    assert [t["id"] for t in second.json()] == ids[::-1][50:]
    assert second.headers["link"] == '</api/tables?page=1>; rel="prev"'
    assert client.get("/api/tables?page=3").json() == []
    assert client.get("/api/tables?page=0").status_code == 400
    page2 = client.get("/?page=2").text
    assert all(f'data-claim="{i}"' in page2 for i in ids[:5])
    assert f'data-claim="{ids[5]}"' not in page2
    assert 'rel="prev" href="?page=1"' in page2 and 'rel="next"' not in page2
    assert 'rel="next" href="?page=2"' in client.get("/").text


def test_a_private_game_is_its_seats_and_the_history_lists_public_ones(
    client: TestClient,
) -> None:
    store = store_of(client)
    mine, seats = finished(store, PRIVATE)
    shown, _ = finished(store, PUBLIC, seed=4)
    other, other_seats = finished(store, PRIVATE, seed=5)
    urls = [
        f"/replay/{mine.id}",
        f"/api/tables/{mine.id}/replay?step=3",
        f"/api/tables/{mine.id}/record",
        f"/api/tables/{mine.id}/review",
    ]
    for url in urls:  # nobody without a key of the table, not even a spectator
        assert client.get(url).status_code == 404, url
    host = client.get(f"/table/{mine.id}/{mine.admin_token}").text
    share = re.search(r'href="/replay/[^"?]+\?token=([^"]+)"', host)
    assert share is not None
    keys = [seats[0].token, seats[1].token, mine.admin_token, share[1]]
    for url in urls:
        sep = "&" if "?" in url else "?"
        for bad in (None, other_seats[0].token, other.admin_token, "forged", seats[0].token[:-1]):
            r = client.get(url if bad is None else f"{url}{sep}token={bad}")
            assert r.status_code == 404, (url, bad)
        for key in keys:
            assert client.get(f"{url}{sep}token={key}").status_code == 200, (url, key)
    assert client.get(f"/replay/{shown.id}").status_code == 200  # a public game: anybody's
    assert client.get(f"/api/tables/{shown.id}/record").status_code == 200
    listed = [g["id"] for g in client.get("/api/history").json()]
    assert listed == [shown.id]
    assert [g["id"] for g in client.get("/api/tables?status=finished").json()] == [shown.id]
    page = client.get("/history").text
    assert f"/replay/{shown.id}" in page and mine.id not in page and other.id not in page
    # A browser's own games, from the seat links it holds: private ones too, with the key.
    asked: dict[str, Any] = {"tokens": [seats[1].token, "forged"]}
    own = client.post("/api/history/mine", json=asked).json()
    assert [(g["id"], g["token"], g["seat"]) for g in own] == [(mine.id, seats[1].token, 1)]
    assert own[0]["winner_names"] and own[0]["seats"][1]["name"]
    assert client.post("/api/history/mine", json={}).json() == []
    for loose in ({"tokens": "x"}, {"tokens": [seats[1].token, 5]}):  # refused at the edge
        r = client.post("/api/history/mine", json=loose)
        assert r.status_code == 400 and "tokens" in r.json()["detail"], r.text
    # The replay page hands its key on to the record, the replay steps and the review.
    replay = client.get(f"/replay/{mine.id}?token={seats[0].token}").text
    assert f'data-token="{seats[0].token}"' in replay
    assert f"/api/tables/{mine.id}/record?token={seats[0].token}" in replay


def test_the_host_page_offers_a_share_link_only_for_a_private_table(client: TestClient) -> None:
    store = store_of(client)
    private, _ = store.create_table("dice", {}, 1, PRIVATE)
    public, _ = store.create_table("dice", {}, 1, PUBLIC)
    assert "share-link" in client.get(f"/table/{private.id}/{private.admin_token}").text
    assert "share-link" not in client.get(f"/table/{public.id}/{public.admin_token}").text
