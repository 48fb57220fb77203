"""Score sheets never lose a game to a typo (issue 22 §1): the page asks before an entry that
ends the game, reaches the target or is more than one turn in 100,000 makes (the engine's
``check``, through ``POST /api/sheets/{id}/check``), and an ended sheet stays undoable. Before,
100000 typed on the dice sheet (or 5000 for 500) declared a winner at once.

The browser tests run in Debian's Chromium at 1280 and 390 px."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import CHROMIUM, ServerProcess, free_port


def new_sheet(client: TestClient, game: str, players: list[str], **rules: Any) -> str:
    body = {"game": game, "players": players, "rules": rules}
    sid: str = client.post("/api/sheets", json=body).json()["id"]
    return sid


def test_check_questions_a_typo_and_changes_nothing(client: TestClient) -> None:
    sid = new_sheet(client, "dice", ["Oma", "Opa"])
    before = client.get(f"/api/sheets/{sid}").json()
    typo = client.post(f"/api/sheets/{sid}/check?lang=de", json={"points": 100000})
    assert typo.status_code == 200
    answer = typo.json()
    assert answer["needs_confirmation"] and answer["unusual"] and not answer["ends_game"]
    assert answer["question"].startswith("Wirklich 100000 Punkte in einem Zug?")
    plain = client.post(f"/api/sheets/{sid}/check", json={"points": 450}).json()
    assert not plain["needs_confirmation"] and plain["question"] == ""
    assert client.get(f"/api/sheets/{sid}").json() == before  # nothing was entered


def test_check_names_the_entry_that_ends_the_game(client: TestClient) -> None:
    sid = new_sheet(client, "dice", ["Oma", "Opa"], target=1000)
    reach = client.post(f"/api/sheets/{sid}/check", json={"points": 1000}).json()
    assert reach["reaches_target"] and not reach["ends_game"]
    assert reach["question"] == (
        "With this entry Oma reaches 1000, the target: the final round starts. Enter it?"
    )
    client.post(f"/api/sheets/{sid}/entries", json={"points": 1000})
    end = client.post(f"/api/sheets/{sid}/check?lang=cs", json={"bust": True}).json()
    assert end["ends_game"] and end["winners"] == ["Oma"] and end["winners_total"] == 1000
    assert end["question"] == "Tento zápis ukončí hru: vyhrává Oma (1000). Zapsat?"
    # The ended sheet stays undoable.
    client.post(f"/api/sheets/{sid}/entries", json={"bust": True})
    assert client.get(f"/api/sheets/{sid}").json()["view"]["is_over"]
    undone = client.post(f"/api/sheets/{sid}/undo").json()
    assert not undone["view"]["is_over"]


def test_check_of_a_pepper_hand_and_the_refusals(client: TestClient) -> None:
    sid = new_sheet(client, "pepper", ["Ann", "Bob"], target=10)
    end = client.post(
        f"/api/sheets/{sid}/check", json={"bidder": 1, "bid": "big", "trump": "S", "tricks": [0, 8]}
    ).json()
    assert end["ends_game"] and end["winners"] == ["Bob"]
    assert end["question"].startswith("This entry ends the game: Bob wins with ")
    passed = client.post(f"/api/sheets/{sid}/check", json={"passed": True}).json()
    assert not passed["needs_confirmation"]
    bad = client.post(
        f"/api/sheets/{sid}/check", json={"bidder": 0, "bid": 3, "trump": "H", "tricks": [5, 2]}
    )
    assert bad.status_code == 400 and "8" in bad.json()["detail"]
    assert client.post("/api/sheets/nosuchsheet/check", json={"points": 50}).status_code == 404
    assert client.get(f"/api/sheets/{sid}").json()["rows"] == []


# ------------------------------------------------------------------ in the browser


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('confirm') / 'c.db'}", free_port())
    s.start()
    yield s
    s.stop()


@pytest.mark.skipif(CHROMIUM is None, reason="browser tests need Debian's chromium")
@pytest.mark.parametrize("width", [1280, 390])
def test_the_sheet_page_asks_before_a_typo_and_the_last_entry(
    browser: Any, srv: ServerProcess, width: int
) -> None:
    sheet = srv.post(
        "/api/sheets", {"game": "dice", "players": ["Oma", "Opa"], "rules": {"target": 1000}}
    )
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    questions: list[str] = []
    answers = iter([False, True, True, True])  # no to the typo; yes to the rest

    def on_dialog(dialog: Any) -> None:
        questions.append(dialog.message)
        if next(answers):
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", on_dialog)
    page.goto(srv.base + sheet["url"])
    page.wait_for_selector("#add")

    def enter(points: int) -> None:
        page.fill("input[name=points]", str(points))
        page.click("#add")

    def asked(n: int) -> None:  # the question comes after the server's check
        for _ in range(200):
            if len(questions) >= n:
                return
            page.wait_for_timeout(50)
        raise AssertionError(f"no question {n}: {questions}")

    enter(100000)  # the typo: asked, and not entered
    asked(1)
    page.wait_for_timeout(300)  # an entry the "no" let through would be on its way now
    assert questions == [
        "100000 points in one turn? One turn in 100,000 makes that much. Enter it?"
    ]
    assert srv.get(f"/api/sheets/{sheet['id']}")["view"]["sheet_rows"] == []
    enter(1000)  # Oma reaches the target: asked, yes
    asked(2)
    page.wait_for_function(
        "() => document.querySelectorAll('table.sheet tbody tr').length >= 1", polling=50
    )
    enter(500)  # Opa's last turn ends the game: asked, yes
    asked(3)
    page.wait_for_selector(".undo-note")
    assert questions[1].startswith("With this entry Oma reaches 1000")
    assert questions[2] == "This entry ends the game: Oma wins with 1000. Enter it?"
    assert "Undo last entry" in page.inner_text(".undo-note")
    assert srv.get(f"/api/sheets/{sheet['id']}")["view"]["is_over"]
    ctx.close()
