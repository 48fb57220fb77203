"""Pepper's house rules in the browser trainer (issue 23): the page's rules picker offers the
new-table form's Pepper house rules in its labels and the page's language; their puzzles are
made on the server once per rules key in a worker process (``next`` says ``preparing`` until
they are), played under those rules, answered and rated under the rules key; rules the page
does not offer are refused. The worker plays 8 hands here (``PFEFFER_TEST_HOUSE_HANDS``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.pepper.puzzles import PepperPuzzle
from pfeffer.web.adapters import pepper_house
from pfeffer.web.adapters import puzzles as adapter

RULE = "all_pass=redeal"
#: The hands the worker plays in the tests (the page's: 60).
TEST_HANDS = "8"


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Nothing made yet in this process; the worker plays :data:`TEST_HANDS` hands."""
    monkeypatch.setenv(pepper_house.TEST_HANDS_ENV, TEST_HANDS)
    monkeypatch.setattr(pepper_house, "_MADE", {})
    monkeypatch.setattr(pepper_house, "_PENDING", {})
    adapter._by_id.cache_clear()
    yield
    pepper_house.shutdown()
    adapter._by_id.cache_clear()


def next_until_ready(client: TestClient, body: dict[str, Any]) -> tuple[int, list[Any]]:
    """Ask for puzzles until they are made: how many answers said "preparing", the puzzles."""
    waits = 0
    deadline = time.monotonic() + 240
    while True:
        r = client.post("/api/train/next", json=body)
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["game"] == "pepper" and data["rules"] == body["rules"]
        if not data.get("preparing"):
            return waits, data["puzzles"]
        assert data["puzzles"] == []
        waits += 1
        assert time.monotonic() < deadline, "the puzzles were not made in time"
        time.sleep(0.5)


def test_the_page_offers_the_forms_house_rules(client: TestClient) -> None:
    page = client.get("/train?lang=de").text
    assert 'data-game="pepper" data-rules="all_pass=redeal">Wenn alle passen: Neu geben<' in page
    assert 'data-rules="no_trump=false">Ohne Trumpf erlaubt: nein<' in page
    en = client.get("/train?lang=en").text
    assert 'data-rules="all_pass=redeal">When everybody passes: Deal again<' in en
    assert 'data-rules="no_trump=false">No trump allowed: no<' in en


@pytest.mark.usefixtures("fresh")
def test_puzzles_of_a_house_rule_are_made_then_answered(client: TestClient) -> None:
    body = {"game": "pepper", "rules": RULE, "count": 5}
    waits, found = next_until_ready(client, body)
    assert waits >= 1  # the first answer came at once, before the puzzles were made
    assert len(found) == 5
    pool = {p.id: p for p in adapter.puzzles("pepper", RULE)}
    assert all(isinstance(p, PepperPuzzle) for p in pool.values())
    assert all(p.game().rules.all_pass == "redeal" for p in pool.values())  # type: ignore[union-attr]
    z = pool[found[0]["id"]]
    given = {"game": "pepper", "rules": RULE, "puzzle": z.id, "answer": z.answer}
    r = client.post("/api/train/answer", json=given)
    assert r.status_code == 200 and r.json()["correct"] is True, r.text
    assert r.json()["progress"]["game"] == "pepper"
    ratings = client.app.state.trainer.ratings  # type: ignore[attr-defined]
    assert set(ratings.ratings("pepper", RULE)) == {z.id}
    assert ratings.ratings("pepper", "") == {}
    # the same puzzle under the default rules is no puzzle; asked again, they are ready at once
    assert client.post("/api/train/answer", json={**given, "rules": ""}).status_code == 404
    assert next_until_ready(client, {**body, "theme": "open", "count": 2})[0] == 0


@pytest.mark.parametrize("rules", ["target=15", "no_trump=true", "nosuch", "short"])
def test_rules_the_page_does_not_offer_are_refused(client: TestClient, rules: str) -> None:
    r = client.post("/api/train/next", json={"game": "pepper", "rules": rules})
    assert r.status_code == 400 and "rules" in r.json()["detail"]
    r = client.post(
        "/api/train/answer", json={"game": "pepper", "rules": rules, "puzzle": "x", "answer": "AH"}
    )
    assert r.status_code == 404
