"""Every text that enters over HTTP is checked at the edge (issue 20, item 1.1): a body with a
string that cannot be kept as text (a lone surrogate, NUL, a control or direction character)
is refused with 400 and a message naming the field; before, a name with a lone surrogate gave
500 on POST /api/tables and /api/sheets."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

BAD = ["A\\ud800", "A\\u0000", "A\\u202eB", "A\\u2066", "A\\u001b"]


def post_raw(client: TestClient, url: str, body: str, lang: str = "en") -> Any:
    """POST a JSON text as it is (the escapes stay escapes: json= would refuse to encode a
    lone surrogate)."""
    return client.post(
        url,
        content=body.encode(),
        headers={"content-type": "application/json", "accept-language": lang},
    )


@pytest.mark.parametrize("bad", BAD)
def test_a_table_with_a_name_that_is_not_text_is_refused(client: TestClient, bad: str) -> None:
    body = (
        '{"game": "dice", "seats": [{"name": "Anna", "kind": "human"},'
        ' {"name": "' + bad + '", "kind": "human"}]}'
    )
    r = post_raw(client, "/api/tables", body)
    assert r.status_code == 400, r.text
    assert r.json()["detail"].startswith("seats.1.name: ")
    assert "nosniff" in r.headers.get("x-content-type-options", "")
    assert client.get("/api/tables").status_code == 200  # the server goes on


@pytest.mark.parametrize("bad", BAD)
def test_a_sheet_with_a_name_or_title_that_is_not_text_is_refused(
    client: TestClient, bad: str
) -> None:
    r = post_raw(client, "/api/sheets", '{"game": "dice", "players": ["Anna", "' + bad + '"]}')
    assert r.status_code == 400 and r.json()["detail"].startswith("players.1: ")
    body = '{"game": "dice", "players": ["Anna", "Ben"], "title": "' + bad + '"}'
    r = post_raw(client, "/api/sheets", body, lang="de")
    assert r.status_code == 400
    assert r.json()["detail"].startswith("title: ein Zeichen, das nicht als Text")


def test_a_sheet_entry_and_a_rematch_with_such_a_string_are_refused(client: TestClient) -> None:
    sheet = client.post("/api/sheets", json={"game": "dice", "players": ["Anna", "Ben"]}).json()
    before = client.get(f"/api/sheets/{sheet['id']}").json()
    r = post_raw(client, f"/api/sheets/{sheet['id']}/entries", '{"points": 400, "x": "\\ud800"}')
    assert r.status_code == 400 and r.json()["detail"].startswith("x: ")
    assert client.get(f"/api/sheets/{sheet['id']}").json() == before  # nothing entered
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    t = client.post("/api/tables", json={"game": "dice", "seats": seats}).json()
    r = post_raw(client, f"/api/tables/{t['id']}/rematch", '{"token": "\\udfff"}')
    assert r.status_code == 400 and r.json()["detail"].startswith("token: ")


def test_names_are_kept_with_white_space_folded_and_non_text_names_refused(
    client: TestClient,
) -> None:
    seats = [{"name": "  Anna \t Maria ", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    t = client.post("/api/tables", json={"game": "dice", "seats": seats}).json()
    assert [s["name"] for s in t["seats"]] == ["Anna Maria", "Ben"]
    seats[1]["name"] = {"first": "Ben"}  # type: ignore[assignment]
    r = client.post("/api/tables", json={"game": "dice", "seats": seats})
    # Refused at the edge (web/schemas/rest.py), naming the field (issue 20 §1.9).
    assert r.status_code == 400 and r.json()["detail"] == "seats.1.name: a text."
    assert r.json()["field"] == "seats.1.name"
