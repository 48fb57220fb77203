"""In Chromium (issue 20 §2): the play page keeps its seat link in the browser, and the
history's "Your games" lists that seat's finished private game with a replay that opens,
while the public list leaves it out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pfeffer.web.storage.repository import Store, make_engine
from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess
from tests.web.test_lobby_history import PRIVATE, PUBLIC, finished


@pytest.mark.skipif(CHROMIUM is None, reason="browser tests need Debian's chromium")
def test_a_seat_finds_its_private_game_in_the_history(
    browser: Any, server: ServerProcess, tmp_path: Path
) -> None:
    store = Store(make_engine(f"sqlite:///{tmp_path / 'live.db'}"))
    mine, seats = finished(store, PRIVATE)
    shown, _ = finished(store, PUBLIC, seed=4)
    running = server.post("/api/tables", {"game": "dice", "seats": [{"name": "Cy"}, {}]})
    store.engine.dispose()
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = ctx.new_page()
    for table, token in ((mine.id, seats[1].token), (running["id"], running["seats"][0]["token"])):
        page.goto(f"{server.base}/play/{table}/{token}")
        page.wait_for_function("() => (localStorage.getItem('pfeffer.seats') || '').length > 10")
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('pfeffer.seats'))")
    assert kept == [seats[1].token, running["seats"][0]["token"]]
    page.goto(server.base + "/history")
    page.wait_for_function("() => !document.getElementById('mine').hidden")
    rows = page.locator("#mine tbody tr")
    assert rows.count() == 1 and "Ann, Bo" in rows.first.inner_text()
    replay = rows.first.locator("a").first
    assert replay.inner_text() == "Wiedergabe"
    assert replay.get_attribute("href") == f"/replay/{mine.id}?token={seats[1].token}"
    hrefs = "as => as.map(a => a.getAttribute('href'))"
    public = page.eval_on_selector_all("main > table.list a", hrefs)
    assert public == [f"/replay/{shown.id}", f"/api/tables/{shown.id}/record"]  # not hers
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "history-mine-390.png"), full_page=True)
    replay.click()
    page.wait_for_function(
        "() => /\\d+ \\/ \\d+/.test(document.getElementById('stepinfo').textContent)"
    )
    record = page.locator("#replay a.button").get_attribute("href")
    assert record == f"/api/tables/{mine.id}/record?token={seats[1].token}"
    assert shown.id not in page.url
    ctx.close()
