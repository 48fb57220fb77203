"""Issue 20 §1.9 and §3: the API's bodies are checked by pydantic models at the edge
(``pfeffer.web.schemas.rest``): loose types are refused with a 400 naming the field, nothing is
stored, and ``/openapi.json`` documents the bodies and answers."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.web.schemas import rest
from tests.web.test_api_edge import stored

SEATS = [{"name": "Anna", "kind": "human"}, {"name": "Bo", "kind": "human"}]


def table(**body: Any) -> dict[str, Any]:
    return {"game": "dice", "seats": SEATS, **body}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (table(rules=["target", 3000]), "rules"),
        (table(rules="target=3000"), "rules"),
        (table(seats=[{"kind": "human", "public": "yes"}, {"kind": "bot"}]), "seats.0.public"),
        (table(seats=[{"kind": "human", "public": 1}, {"kind": "bot"}]), "seats.0.public"),
        (table(seats=[{"kind": "human", "name": {"first": "A"}}, {"kind": "bot"}]), "seats.0.name"),
        (table(seats=[{"kind": "human", "name": 7}, {"kind": "bot"}]), "seats.0.name"),
        (table(seats=[{"kind": ["human"]}, {"kind": "bot"}]), "seats.0.kind"),
        (table(seats=["human", "bot"]), "seats.0"),
        (table(seats="human,bot"), "seats"),
        (table(hints="yes"), "hints"),
        (table(preset=3), "preset"),
        (table(game="chess"), "game"),
        ({"seats": SEATS}, "game"),
    ],
)
def test_a_new_table_with_a_loose_type_is_refused(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    before = stored(client)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == field and r.json()["detail"].startswith(
        field.split(".", maxsplit=1)[0]
    )
    assert stored(client) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "dice", "players": ["A", "B"], "title": {"t": 1}}, "title"),
        ({"game": "dice", "players": ["A", "B"], "title": False}, "title"),
        ({"game": "dice", "players": ["A", "B"], "rules": []}, "rules"),
        ({"game": "dice", "players": ["A", "B"], "rules": "x"}, "rules"),
        ({"game": "dice", "players": ["A", 5]}, "players.1"),
        ({"game": "dice", "players": "A"}, "players"),
    ],
)
def test_a_new_sheet_with_a_loose_type_is_refused(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    before = stored(client)
    r = client.post("/api/sheets", json=body)
    assert r.status_code == 400 and r.json()["field"] == field, r.text
    assert stored(client) == before


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"bust": 1}, "bust"),
        ({"points": 450, "pfeffer": "yes"}, "pfeffer"),
        ({"points": "450"}, "points"),
        ({"points": 450.0}, "points"),
        ({"points": 450, "entry_id": 12345678}, "entry_id"),
    ],
)
def test_a_sheet_entry_with_a_loose_type_is_refused(
    client: TestClient, entry: dict[str, Any], field: str
) -> None:
    sheet = client.post("/api/sheets", json={"game": "dice", "players": ["A", "B"]}).json()
    r = client.post(f"/api/sheets/{sheet['id']}/entries", json=entry)
    assert r.status_code == 400 and r.json()["field"] == field, r.text
    assert client.get(f"/api/sheets/{sheet['id']}").json()["view"]["sheet_rows"] == []


def test_the_host_and_rematch_bodies_are_typed(client: TestClient) -> None:
    t = client.post("/api/tables", json=table()).json()
    base, key = f"/api/tables/{t['id']}", t["host_token"]
    r = client.post(f"{base}/seats/0/public", json={"host_token": key, "public": "yes"})
    assert r.status_code == 400 and r.json()["field"] == "public"
    r = client.post(f"{base}/seats/0/link", json={"host_token": ["x"]})
    assert r.status_code == 400 and r.json()["field"] == "host_token"
    r = client.post(f"{base}/rematch", json={"token": 5})
    assert r.status_code == 400 and r.json()["field"] == "token"
    ok = client.post(f"{base}/seats/0/public", json={"host_token": key, "public": True})
    assert ok.status_code == 200 and ok.json() == {"seat": 0, "public": True}
    # Keys a body does not use are ignored, as before (older clients may send more).
    assert client.post("/api/tables", json=table(note="x")).status_code == 201


def test_a_refusal_is_worded_in_the_request_language(client: TestClient) -> None:
    seats = [{"kind": "human", "public": "ja"}, {"kind": "bot"}]
    r = client.post("/api/tables?lang=de", json=table(seats=seats))
    assert r.json() == {"detail": "seats.0.public: true oder false.", "field": "seats.0.public"}
    r = client.post("/api/tables?lang=cs", json=table(rules=[]))
    assert r.json()["detail"] == "rules: objekt s domácími pravidly"


def test_the_answers_keep_their_shape(client: TestClient) -> None:
    """The answer models drop nothing and add nothing: a computer seat has no link."""
    seats = [{"name": "A", "kind": "human"}, {"kind": "bot"}]
    t = client.post("/api/tables", json=table(seats=seats)).json()
    assert set(t["seats"][0]) == {"seat", "name", "kind", "token", "url", "public"}
    assert set(t["seats"][1]) == {"seat", "name", "kind"}
    s = client.post("/api/sheets", json={"game": "pepper", "players": ["A", "B", "C"]}).json()
    shown = client.get(f"/api/sheets/{s['id']}").json()
    assert {"rows", "bids", "trumps", "side_names"} <= set(shown)


def test_openapi_lists_the_models_of_the_table_and_sheet_routes(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]

    def ref(name: str) -> str:
        assert name in schemas, name
        return f"#/components/schemas/{name}"

    def body(path: str) -> str:
        content = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        return str(content["schema"])

    def answer(path: str, method: str, status: str) -> str:
        content = spec["paths"][path][method]["responses"][status]["content"]
        return str(content["application/json"]["schema"])

    t = "/api/tables/{table_id}"
    assert ref("NewTable") in body("/api/tables")
    assert ref("TableCreated") in answer("/api/tables", "post", "201")
    assert ref("TableSummary") in answer("/api/tables", "get", "200")
    assert ref("TableSummary") in answer(t, "get", "200")
    assert ref("SeatClaimed") in answer(t + "/claim/{seat}", "post", "200")
    assert ref("HostKey") in body(t + "/seats/{seat}/link")
    assert ref("SeatLink") in answer(t + "/seats/{seat}/link", "post", "200")
    assert ref("SeatPublicIn") in body(t + "/seats/{seat}/public")
    assert ref("SeatPublic") in answer(t + "/seats/{seat}/public", "post", "200")
    assert ref("RematchIn") in body(t + "/rematch")
    assert ref("Rematch") in answer(t + "/rematch", "post", "200")
    assert ref("NewSheet") in body("/api/sheets")
    assert ref("SheetCreated") in answer("/api/sheets", "post", "201")
    assert ref("SheetEntry") in body("/api/sheets/{sheet_id}/entries")
    assert ref("Sheet") in answer("/api/sheets/{sheet_id}/entries", "post", "200")
    assert ref("Sheet") in answer("/api/sheets/{sheet_id}", "get", "200")
    assert schemas["SeatIn"]["properties"]["public"]["type"] == "boolean"


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_every_refusal_of_the_edge_is_translated(lang: str) -> None:
    import string

    from babel.messages.pofile import read_po

    from pfeffer.web.i18n import LOCALE_DIR

    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        cat = read_po(f, locale=lang)

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}

    for template in rest.MESSAGES:
        msg = cat.get(template)
        assert msg is not None and msg.string, template
        assert fields(str(msg.string)) == fields(template), template


def test_a_query_or_path_of_the_wrong_type_is_a_400_naming_it(client: TestClient) -> None:
    """Before, FastAPI's own 422 with a list of errors; now the API's shape."""
    t = client.post("/api/tables", json=table()).json()
    r = client.get(f"/api/tables/{t['id']}/replay?step=abc")
    assert r.status_code == 400 and r.json() == {"detail": "step: a whole number.", "field": "step"}
    r = client.post(f"/api/tables/{t['id']}/claim/first")
    assert r.status_code == 400 and r.json()["field"] == "seat"
    r = client.get("/api/history?page=0")
    assert r.status_code == 400 and r.json()["field"] == "page"
    # (a private table's replay page: with the host's key, else it is a 404 for everybody)
    page = client.get(f"/replay/{t['id']}?step=abc&lang=de&token={t['host_token']}")
    assert page.status_code in (400, 409) and page.headers["content-type"].startswith("text/html")
