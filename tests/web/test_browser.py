"""Browser tests (issue 4 item 9): Playwright drives Debian's Chromium through a whole dice game
(German) and a whole Pepper hand (Czech) against computer players, by clicking, and saves
screenshots to tests/web/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"
)


def test_whole_dice_game_in_german(browser: Any, server: ServerProcess) -> None:
    SHOTS.mkdir(exist_ok=True)
    t = server.post(
        "/api/tables",
        {
            "game": "dice",
            "rules": {"target": 2000},
            "seats": [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot"}],
        },
    )
    page = browser.new_page(viewport={"width": 412, "height": 900}, locale="de-DE")
    page.goto(server.base + t["seats"][0]["url"] + "?lang=de")
    page.wait_for_selector("text=Du bist dran")
    shot_taken = {"keep": False, "pfeffer": False}
    for _ in range(600):
        if page.locator(".result").count():
            break
        buttons = page.locator("#actions [data-action]")
        if buttons.count() == 0:
            page.wait_for_timeout(30)
            continue
        actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        version = page.locator("#app").get_attribute("data-version")
        if "pfeffer" in actions and not shot_taken["pfeffer"]:
            # The offer is drawn from the view: the stake on the button, need and bust cost.
            offer = page.locator(".pfeffer.offer").inner_text()
            assert "Pfeffer" in offer and any(ch.isdigit() for ch in offer)
            page.screenshot(path=str(SHOTS / "dice-de-pfeffer.png"), full_page=True)
            shot_taken["pfeffer"] = True
        if "bank" in actions:
            choice = "bank"
        elif any(a and a.startswith("keep") for a in actions):
            choice = next(a for a in actions if a and a.startswith("keep"))
            if not shot_taken["keep"]:
                page.screenshot(path=str(SHOTS / "dice-de-keep.png"), full_page=True)
                shot_taken["keep"] = True
        else:
            choice = "roll"
        page.locator(f'#actions [data-action="{choice}"]').first.click()
        page.wait_for_function(
            f"() => document.getElementById('app').dataset.version !== '{version}'", timeout=10_000
        )
    assert page.locator(".result").count() == 1
    assert "Gewinner" in page.locator(".result").inner_text()
    page.screenshot(path=str(SHOTS / "dice-de-result.png"), full_page=True)
    # Its replay and the history page, also in German.
    # A private table's replay: with the seat's link (issue 20 §2).
    page.goto(server.base + f"/replay/{t['id']}?token={t['seats'][0]['token']}")
    page.wait_for_selector("#stepinfo:has-text('Schritt')")
    page.click("[data-go=next]")
    page.click("[data-go=next]")
    page.wait_for_selector("#stepinfo:has-text('Schritt 2')")
    page.screenshot(path=str(SHOTS / "dice-de-replay.png"), full_page=True)
    page.goto(server.base + "/history")
    page.wait_for_selector("#mine tbody tr")  # her own game: under "Your games" (history.js)
    assert "Anna" in page.inner_text("#mine")
    page.close()


def test_whole_pepper_hand_in_czech(browser: Any, server: ServerProcess) -> None:
    SHOTS.mkdir(exist_ok=True)
    t = server.post(
        "/api/tables",
        {
            "game": "pepper",
            "rules": {"target": 1},  # the game ends after its first hand
            "seats": [
                {"name": "Jana", "kind": "human"},
                {"name": "Petr", "kind": "bot"},
                {"name": "Eva", "kind": "bot"},
                {"name": "Karel", "kind": "bot"},
            ],
        },
    )
    page = browser.new_page(viewport={"width": 900, "height": 1000}, locale="cs-CZ")
    page.goto(server.base + t["seats"][0]["url"])  # the language comes from the browser
    page.wait_for_selector("#status")
    shots = set()
    for _ in range(200):
        if page.locator(".result").count():
            break
        buttons = page.locator("#actions [data-action], .hand [data-action]")
        if buttons.count() == 0:
            page.wait_for_timeout(30)
            continue
        actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        version = page.locator("#app").get_attribute("data-version")
        if "pass" in actions:
            choice = "pass"
        elif "deal" in actions:
            choice = "deal"
        else:
            choice = actions[0]
            if len(actions[0] or "") == 2 and "play" not in shots:
                page.screenshot(path=str(SHOTS / "pepper-cs-play.png"), full_page=True)
                shots.add("play")
        page.locator(f'[data-action="{choice}"]').first.click()
        page.wait_for_function(
            f"() => document.getElementById('app').dataset.version !== '{version}'", timeout=10_000
        )
    assert page.locator(".result").count() == 1
    text = page.inner_text("body")
    assert "Vítěz" in text and "Poslední štych" in text
    page.screenshot(path=str(SHOTS / "pepper-cs-result.png"), full_page=True)
    page.close()


def test_score_sheet_page_prints(browser: Any, server: ServerProcess) -> None:
    SHOTS.mkdir(exist_ok=True)
    s = server.post("/api/sheets", {"game": "dice", "players": ["Oma", "Opa", "Kind"]})
    page = browser.new_page(viewport={"width": 800, "height": 700}, locale="en-GB")
    page.goto(server.base + s["url"])
    for points in ("400", "", ""):
        page.wait_for_selector("#add")
        if points:
            page.fill("input[name=points]", points)
            page.click("#add")
        else:
            page.click("#bust")
        page.wait_for_timeout(150)
    page.wait_for_selector("table.sheet td.penalty")  # the Auto-Pfeffer penalty after a bust
    page.screenshot(path=str(SHOTS / "sheet-en.png"), full_page=True)
    page.emulate_media(media="print")
    page.screenshot(path=str(SHOTS / "sheet-en-print.png"), full_page=True)
    assert not page.locator("#add").is_visible()
    page.close()
