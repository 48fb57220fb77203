"""The game-over banner of a dice table (issue 21): "Game review" and "Replay" are there at once
(they were three clicks away), from the links the server's frame carries, and lead to the
review and the replay page; at a desktop width and a phone's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"
)


def play_to_the_end(page: Any) -> None:
    """Click through a short game (bank when allowed, else set aside, else roll)."""
    for _ in range(300):
        if page.locator(".result").count():
            return
        buttons = page.locator("#actions [data-action]")
        if buttons.count() == 0:
            page.wait_for_timeout(30)
            continue
        actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        version = page.locator("#app").get_attribute("data-version")
        keeps = [a for a in actions if a and a.startswith("keep")]
        choice = "bank" if "bank" in actions else (keeps[0] if keeps else "roll")
        page.locator(f'#actions [data-action="{choice}"]').first.click()
        page.wait_for_function(
            f"() => document.getElementById('app').dataset.version !== '{version}'", timeout=10_000
        )
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_game_over_offers_review_and_replay(
    browser: Any, server: ServerProcess, width: int, height: int
) -> None:
    # Target 50: the first bank ends the game after the computer's last turn.
    t = server.post(
        "/api/tables",
        {
            "game": "dice",
            "rules": {"target": 50, "min_bank": 50},
            "seats": [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot"}],
        },
    )
    page = browser.new_page(viewport={"width": width, "height": height}, locale="en-GB")
    url = server.base + t["seats"][0]["url"]
    page.goto(url)
    page.wait_for_selector("#actions [data-action]")
    assert page.locator("#to-review").count() == 0  # only once the game is over
    play_to_the_end(page)
    review, replay = page.locator("#banner #to-review"), page.locator("#banner #to-replay")
    review.wait_for()
    assert review.is_visible() and replay.is_visible()
    assert review.inner_text() == "Game review" and replay.inner_text() == "Replay"
    assert page.locator("#banner #rematch").is_visible()  # still there too
    for button in (review, replay):  # whole, on screen (the phone width too)
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"dice-game-over-{width}.png"), full_page=True)
    review.click()
    key = f"?token={t['seats'][0]['token']}"  # a private table: the seat's key comes along
    page.wait_for_url(f"**/replay/{t['id']}{key}#review")
    page.locator("#review").wait_for()
    page.wait_for_selector("#stepinfo:has-text('Step')")
    page.goto(url)
    page.locator("#banner #to-replay").click()
    page.wait_for_url(f"**/replay/{t['id']}{key}")
    page.wait_for_selector("#stepinfo:has-text('Step')")
    page.close()
