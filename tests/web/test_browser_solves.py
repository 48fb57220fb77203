"""Background solves in a browser (issue 21 §1): the new-table form says where the strategy
for the rules filled in stands (ready for a shipped preset, solved when the table is created
for new rules, too long for Classic Farkle); a table of new rules (target 500, solved in
seconds with the test bound) shows its solve waiting behind another one with the optimal
player's note, a hint asked meanwhile says "no hint yet", and once the solve is done the note
says ready and the hint turns into the options with their chances without a move; the strategy
page open meanwhile draws its charts without a reload. Screenshot:
tests/web/screenshots/solves-table-1280.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import cache
from pfeffer.web.adapters import solves
from pfeffer.web.services import solves as service
from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess, free_port
from tests.web.test_browser_faults import CSP_LISTENER
from tests.web.test_browser_hints import DESKTOP, open_page

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"
)


def state_is(page: Any, state: str, timeout: float = 30_000) -> None:
    page.wait_for_function(
        "(s) => { const b = document.getElementById('solvestatus');"
        " return b && !b.hidden && b.dataset.state === s; }",
        arg=state,
        timeout=timeout,
    )


def test_the_form_note_and_a_tables_progress_turning_into_a_hint(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = tmp_path / "machine.lock"
    monkeypatch.setenv(service.BACKGROUND_ENV, "1")
    monkeypatch.setenv(cache.DATA_DIR_ENV, str(tmp_path / "data"))
    monkeypatch.setenv(solves.LOCK_ENV, str(lock))
    monkeypatch.setenv(solves.TEST_LOWER_ENV, "10")
    srv = ServerProcess(f"sqlite:///{tmp_path / 'live.db'}", free_port())
    srv.start()
    try:
        ctx = browser.new_context(**DESKTOP)
        ctx.add_init_script(CSP_LISTENER)
        page = ctx.new_page()
        page.goto(srv.base + "/new/dice?preset=short")
        # An arrow function: Playwright polls a string predicate with eval, which the CSP forbids.
        page.wait_for_function(
            "() => document.getElementById('solvestatus').dataset.state === 'ready'"
        )
        assert page.locator("#solvestatus").is_hidden()  # nothing asks for it: nothing said
        page.check("input[name=hints]")
        page.wait_for_selector("#solvestatus:not([hidden])")
        assert page.locator("#solvestatus").inner_text() == "Strategy for these rules: ready."
        page.click("details.more summary")
        page.fill("input[name=target]", "6000")
        state_is(page, "idle")
        assert "solved when the table is created, about" in page.inner_text("#solvestatus")
        page.goto(srv.base + "/new/dice?preset=farkle&lang=de")
        state_is(page, "too_long")
        assert "mehr als die erlaubte Stunde" in page.inner_text("#solvestatus")
        assert page.evaluate("window.__csp") == []
        ctx.close()

        seats = [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot",
                                                      "bot": "optimal"}]  # fmt: skip
        rules = DiceRules(target=500, min_bank=300).to_dict()  # two house rules changed
        with solves._flock(lock, wait=False) as held:  # another solve takes the machine
            assert held
            t = srv.post("/api/tables", {"game": "dice", "seats": seats, "hints": True,
                                         "rules": rules})  # fmt: skip
            ctx, page, hints = open_page(browser, DESKTOP, srv.base + t["seats"][0]["url"])
            state_is(page, "waiting")
            text = page.inner_text("#solvestatus")
            assert "waiting for another solve" in text
            assert "plays as the heuristic player until the strategy" in text
            page.wait_for_selector("#hint:enabled")
            page.click("#hint")
            page.wait_for_selector("#hintbox .hint-none")
            assert "No hint for these rules yet" in page.inner_text("#hintbox")
            assert srv.get(f"/api/strategy/dice?table={t['id']}")["available"] is False
            charts = ctx.new_page()  # the strategy page, open meanwhile
            charts.goto(srv.base + f"/strategy/dice?table={t['id']}")
            charts.wait_for_selector("#strategy .rnone")
            state_is(charts, "waiting")
        # The machine is free: the solve runs, the note says ready, the hint comes by itself.
        page.wait_for_selector("#hintbox ol.hintlist li", timeout=120_000)
        assert hints[-1]["options"][0]["action"] == "roll" and hints[-1]["none"] is None
        assert page.locator("#solvestatus").inner_text() == "Strategy for these rules: ready."
        assert "heuristic" not in page.inner_text("#solvestatus")
        page.screenshot(path=str(SHOTS / "solves-table-1280.png"), full_page=True)
        assert srv.get(f"/api/strategy/dice?table={t['id']}")["available"] is True
        charts.wait_for_selector("#strategy .chartbox", timeout=60_000)  # drawn without a reload
        assert charts.locator("#strategy .rnone").count() == 0
        assert page.evaluate("window.__csp") == [] and charts.evaluate("window.__csp") == []
        ctx.close()
    finally:
        srv.stop()


def test_a_short_game_table_has_its_hint_and_strategy_at_once(browser: Any, tmp_path: Path) -> None:
    srv = ServerProcess(f"sqlite:///{tmp_path / 'live.db'}", free_port())
    srv.start()
    try:
        seats = [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot",
                                                      "bot": "optimal"}]  # fmt: skip
        t = srv.post("/api/tables", {"game": "dice", "preset": "short", "seats": seats,
                                     "hints": True})  # fmt: skip
        ctx, page, hints = open_page(browser, DESKTOP, srv.base + t["seats"][0]["url"])
        page.wait_for_selector("#hint:enabled")
        page.click("#hint")
        page.wait_for_selector("#hintbox ol.hintlist li")
        assert hints[-1]["options"][0]["action"] == "roll"
        assert page.locator("#solvestatus").is_hidden()  # ready from the start: nothing to say
        data = srv.get(f"/api/strategy/dice?table={t['id']}")
        assert data["available"] is True and data["rules"]["target"] == 5000
        assert page.evaluate("window.__csp") == []
        ctx.close()
    finally:
        srv.stop()
