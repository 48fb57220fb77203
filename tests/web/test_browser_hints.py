"""The hint button in a browser (issue 10 §4, issue 11 §6): on a table with hints, at 1280 px
with the mouse and the key H and on a 390 px touch phone. Dice: the advice panel lists exactly
the options of the server's answer, best first, with its percentages, and the advised set-aside
is highlighted; Pepper: the expert's bid and card are highlighted and the reason shown; no
button on a table without hints; German texts; no CSP violation. Every answer is read off the
WebSocket (Playwright's frame events), so the test compares the page with what the server said.
Screenshots: tests/web/screenshots/hints-*.png."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess, free_port
from tests.web.test_browser_faults import CSP_LISTENER

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"
)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    path: Path = tmp_path_factory.mktemp("hints") / "hints.db"
    s = ServerProcess(f"sqlite:///{path}", free_port(), bot_delay=0.2)
    s.start()
    yield s
    s.stop()


def open_page(
    browser: Any, device: dict[str, Any], url: str, kind: str = "hint", codes: str = "hint"
) -> tuple[Any, Any, list[Any]]:
    """A page at ``url`` recording every frame of type ``kind`` the server sends it, and every
    error whose code starts with ``codes``."""
    ctx = browser.new_context(**device)
    ctx.add_init_script(CSP_LISTENER)
    page = ctx.new_page()
    hints: list[Any] = []

    def on_ws(ws: Any) -> None:
        def got(payload: Any) -> None:
            msg = json.loads(payload)
            if msg.get("type") == kind or str(msg.get("code", "")).startswith(codes):
                hints.append(msg)

        ws.on("framereceived", got)

    page.on("websocket", on_ws)
    page.goto(url)
    page.wait_for_function("() => document.getElementById('app').dataset.version !== undefined")
    return ctx, page, hints


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def check_dice_panel(page: Any, answer: dict[str, Any]) -> None:
    rows = page.locator("#hintbox ol.hintlist li")
    assert rows.count() == len(answer["options"])
    for i, o in enumerate(answer["options"]):
        row = rows.nth(i)
        assert row.get_attribute("data-option") == o["action"]
        assert row.locator(".hwin").inner_text() == percent(o["win"])
        if o["kind"] == "keep":
            assert row.locator("svg.die").count() == len(o["dice"])
    assert "best" in (rows.nth(0).get_attribute("class") or "")
    hinted = page.locator(".hinted")
    assert hinted.count() == 1 and hinted.get_attribute("data-action") == answer["best"]


@pytest.mark.parametrize(("device", "name"), [(DESKTOP, "1280"), (PHONE, "390")])
def test_dice_hint_lists_the_options_with_their_win_chances(
    browser: Any, srv: ServerProcess, device: dict[str, Any], name: str
) -> None:
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot"}]
    t = srv.post("/api/tables", {"game": "dice", "seats": seats, "hints": True})
    ctx, page, hints = open_page(browser, device, srv.base + t["seats"][0]["url"])
    press = page.tap if device is PHONE else page.click
    page.wait_for_selector("#hint:enabled")
    press("#hint")
    page.wait_for_selector("#hintbox ol.hintlist li")
    assert hints[-1]["options"][0]["action"] == "roll"
    check_dice_panel(page, hints[-1])
    for _ in range(40):  # throw until Anna has a scoring throw to choose from
        page.wait_for_selector("#board .die-btn:enabled, #actions [data-action=roll]:enabled")
        if page.locator("#board .die-btn:enabled").count():
            break
        before = page.locator("#app").get_attribute("data-version")
        press("#actions [data-action=roll]")
        page.wait_for_function(
            "(v) => document.getElementById('app').dataset.version !== v", arg=before
        )
    assert page.locator("#hintbox").is_hidden()  # the old answer went with the move
    count = len(hints)
    if device is PHONE:
        press("#hint")
    else:
        page.keyboard.press("h")  # the key asks too
    page.wait_for_function("(n) => document.querySelectorAll('#hintbox li').length > 0", arg=1)
    assert len(hints) == count + 1
    answer = hints[-1]
    legal_keeps = page.locator("#actions button.keep")
    keeps = {legal_keeps.nth(i).get_attribute("data-action") for i in range(legal_keeps.count())}
    assert {o["action"] for o in answer["options"]} == keeps
    wins = [o["win"] for o in answer["options"]]
    assert wins == sorted(wins, reverse=True)
    check_dice_panel(page, answer)
    assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"]
    page.locator("#hintbox").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"hints-dice-{name}.png"), full_page=True)
    # Taking the advice: the highlighted set-aside is played, and the panel goes.
    before = page.locator("#app").get_attribute("data-version")
    press(".hinted")
    page.wait_for_function(
        "(v) => document.getElementById('app').dataset.version !== v", arg=before
    )
    assert page.locator("#hintbox").is_hidden() and page.locator(".hinted").count() == 0
    assert page.evaluate("window.__csp") == []
    ctx.close()


@pytest.mark.parametrize(("device", "name"), [(DESKTOP, "1280"), (PHONE, "390")])
def test_pepper_hint_highlights_the_experts_bid_and_card(
    browser: Any, srv: ServerProcess, device: dict[str, Any], name: str
) -> None:
    seats = [{"name": "Anna", "kind": "human"}] + [
        {"name": n, "kind": "bot"} for n in ("Bert", "Cyril", "Dana")
    ]
    t = srv.post("/api/tables", {"game": "pepper", "rules": {"target": 1}, "seats": seats,
                                 "hints": True})  # fmt: skip
    ctx, page, hints = open_page(browser, device, srv.base + t["seats"][0]["url"] + "?lang=de")
    press = page.tap if device is PHONE else page.click
    assert page.locator("#hint").inner_text() == "Tipp"
    seen: set[str] = set()
    for _ in range(200):
        if page.locator(".result").count() or {"auction", "play"} <= seen:
            break
        page.wait_for_selector(
            "#actions [data-action]:enabled, .phand [data-action]:enabled, .result",
            timeout=20_000,
        )
        if page.locator(".result").count():
            break
        phase = page.evaluate(
            "() => document.querySelector('.phand button[data-action]') ? 'play' : "
            "document.querySelector('.bidbtn') ? 'auction' : 'other'"
        )
        before = page.locator("#app").get_attribute("data-version")
        if phase in ("auction", "play") and phase not in seen:
            count = len(hints)
            press("#hint")
            page.wait_for_selector("#hintbox .hint-action", timeout=20_000)
            answer = hints[count]
            assert answer["version"] == int(before or -1) and answer["reason"]
            hinted = page.locator(".hinted")
            assert hinted.count() == 1 and hinted.get_attribute("data-action") == answer["best"]
            assert page.locator("#hintbox .hint-reason").inner_text() == answer["reason"]
            assert "Der Experte würde wählen" in page.locator("#hintbox .hint-action").inner_text()
            width = device["viewport"]["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(SHOTS / f"hints-pepper-{phase}-{name}.png"), full_page=True)
            seen.add(phase)
            press(".hinted")
        else:
            press("#actions [data-action]:enabled, .phand [data-action]:enabled")
        page.wait_for_function(
            "(v) => document.getElementById('app').dataset.version !== v", arg=before
        )
    assert "play" in seen or "auction" in seen
    assert page.evaluate("window.__csp") == []
    ctx.close()


def test_no_hint_button_without_hints(browser: Any, srv: ServerProcess) -> None:
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot"}]
    t = srv.post("/api/tables", {"game": "dice", "seats": seats})
    ctx, page, hints = open_page(browser, PHONE, srv.base + t["seats"][0]["url"])
    page.wait_for_selector("#actions [data-action=roll]:enabled")
    assert page.locator("#hint").count() == 0 and page.locator("#hintbox").count() == 0
    page.keyboard.press("h")  # nothing is asked
    page.wait_for_timeout(300)
    assert hints == []
    ctx.close()


# ------------------------------------------------------------------ the review after each hand


@pytest.mark.parametrize(
    ("device", "name", "lang"), [(DESKTOP, "1280", "de"), (PHONE, "390", "en")]
)
def test_pepper_hand_review_after_each_hand(
    browser: Any, srv: ServerProcess, device: dict[str, Any], name: str, lang: str
) -> None:
    """A live 4-player table against computer players, hints on: once the hand is over, the
    review of Anna's side appears under the hand's result, the lines of the server's answer."""
    seats = [{"name": "Anna", "kind": "human"}] + [
        {"name": n, "kind": "bot"} for n in ("Bert", "Cyril", "Dana")
    ]
    t = srv.post("/api/tables", {"game": "pepper", "seats": seats, "hints": True})
    url = srv.base + t["seats"][0]["url"] + f"?lang={lang}"
    ctx, page, reviews = open_page(browser, device, url, kind="hand_review", codes="hand_")
    press = page.tap if device is PHONE else page.click
    assert page.locator("#handreview").is_hidden()
    for _ in range(300):
        page.wait_for_selector(
            "#actions [data-action]:enabled, .phand [data-action]:enabled, #handreview[data-hand]",
            timeout=30_000,
        )
        if page.locator("#handreview[data-hand]").count():
            break
        assert reviews == []  # nothing is asked while the hand is played
        before = page.locator("#app").get_attribute("data-version")
        if page.locator(".bidbtn.pass:enabled").count():
            press(".bidbtn.pass")  # the computer players bid
        else:
            press("#actions [data-action]:enabled, .phand [data-action]:enabled")
        page.wait_for_function(
            "(v) => document.getElementById('app').dataset.version !== v", arg=before
        )
    box = page.locator("#board #handreview")  # on the board, under the hand's result
    box.wait_for(state="visible")
    (answer,) = reviews
    assert answer["type"] == "hand_review" and answer["seat"] == 0
    assert box.get_attribute("data-hand") == str(answer["hand"])
    assert page.locator("#handreviewtitle").inner_text() == answer["title"]
    assert box.locator("li").all_inner_texts() == answer["lines"]
    ((side,),) = [answer["sides"]]
    assert side["name"] == "Anna & Cyril" and len(answer["lines"]) >= 1 + len(side["costly"])
    if lang == "de":
        assert answer["title"] == f"Rückblick auf Runde {answer['hand']} für Anna & Cyril:"
        assert answer["lines"][0].startswith("Bei bestem Spiel hätte euer Team ")
    else:
        assert answer["lines"][0].startswith("With best play your side could have taken ")
    assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"]
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"handreview-pepper-{name}.png"), full_page=True)
    # Closed, it stays closed for this hand.
    press("#handreview .hint-close")
    assert page.locator("#handreview").is_hidden()
    assert page.evaluate("window.__csp") == []
    ctx.close()


# ------------------------------------------------------------------ the game review


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose computer players move at once (whole games for the review)."""
    path: Path = tmp_path_factory.mktemp("review") / "review.db"
    s = ServerProcess(f"sqlite:///{path}", free_port())
    s.start()
    yield s
    s.stop()


def finished(srv: ServerProcess, game: str, seats: int, rules: dict[str, Any]) -> str:
    body = {"game": game, "rules": rules, "seats": [{"kind": "bot"}] * seats}
    tid: str = srv.post("/api/tables", body)["id"]
    for _ in range(1200):
        if srv.get(f"/api/tables/{tid}")["status"] == "finished":
            return tid
        time.sleep(0.1)
    raise AssertionError("the computer players did not finish")


@pytest.mark.parametrize(("device", "name"), [(DESKTOP, "1280"), (PHONE, "390")])
def test_dice_review_on_the_replay_page(
    browser: Any, fast: ServerProcess, device: dict[str, Any], name: str
) -> None:
    tid = finished(fast, "dice", 2, {})
    want = fast.get(f"/api/tables/{tid}/review")
    mistakes = [d for d in want["decisions"] if not d["is_best"]]
    ctx = browser.new_context(**device)
    ctx.add_init_script(CSP_LISTENER)
    page = ctx.new_page()
    page.goto(fast.base + f"/replay/{tid}?lang=de")
    page.wait_for_selector("#review[data-ready]")
    assert page.locator("#review h2").inner_text() == "Spielanalyse"
    players = page.locator("#review ul.rplayers li")
    assert players.count() == 2
    for i, p in enumerate(want["players"]):
        noun = "Entscheidung" if p["decisions"] == 1 else "Entscheidungen"
        assert f"{p['decisions']} {noun}," in players.nth(i).inner_text()
        assert "Prozentpunkt" in players.nth(i).inner_text()
    shown = page.locator("#review li.rmistake:visible")
    assert shown.count() == min(10, len(mistakes)) > 0
    top = mistakes[0]
    first = shown.nth(0)
    assert first.get_attribute("data-step") == str(top["step"])
    assert f"{100 * top['cost']:.2f}".replace(".", ",") in first.locator(".rcost").inner_text()
    assert first.locator(".rchoice svg.die").count() == len(top["played"].get("dice", [])) + len(
        top["best"].get("dice", [])
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"]
    page.locator("#review").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"review-dice-{name}.png"), full_page=True)
    # The link goes to the decision's step of the replay.
    first.locator("a.steplink").click()
    page.wait_for_function(
        "(s) => document.getElementById('step').value === s", arg=str(top["step"])
    )
    assert page.locator("#stepinfo").inner_text().startswith(f"Schritt {top['step']} ")
    assert page.evaluate("window.__csp") == []
    ctx.close()


@pytest.mark.parametrize(("device", "name"), [(DESKTOP, "1280"), (PHONE, "390")])
def test_pepper_review_on_the_replay_page(
    browser: Any, fast: ServerProcess, device: dict[str, Any], name: str
) -> None:
    tid = finished(fast, "pepper", 4, {"target": 12})
    want = fast.get(f"/api/tables/{tid}/review")
    ctx = browser.new_context(**device)
    ctx.add_init_script(CSP_LISTENER)
    page = ctx.new_page()
    page.goto(fast.base + f"/replay/{tid}")
    page.wait_for_selector("#review[data-ready]")
    hands = page.locator("#review section.rhand")
    assert hands.count() == len(want["hands"]) > 0
    for i, h in enumerate(want["hands"]):
        sides = hands.nth(i).locator("ul.rsides li")
        for k, s in enumerate(h["sides"]):
            text = sides.nth(k).inner_text()
            trick = "trick" if s["best"] == 1 else "tricks"
            assert f"with best play {s['best']} {trick}, taken {s['taken']}" in text
        cards = hands.nth(i).locator("li.rmistake")
        assert cards.count() == len(h["costly"])
        for k, c in enumerate(h["costly"]):
            assert f"tricks lost by this card: {c['lost']}" in cards.nth(k).inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"]
    page.locator("#review").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"review-pepper-{name}.png"), full_page=True)
    assert page.evaluate("window.__csp") == []
    ctx.close()


# ------------------------------------------------------------------ the strategy page


@pytest.mark.parametrize(("device", "name"), [(DESKTOP, "1280"), (PHONE, "390")])
def test_strategy_page_draws_the_servers_data(
    browser: Any, srv: ServerProcess, device: dict[str, Any], name: str
) -> None:
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot"}]
    t = srv.post("/api/tables", {"game": "dice", "seats": seats})
    want = srv.get(f"/api/strategy/dice?table={t['id']}")
    ctx = browser.new_context(**device)
    ctx.add_init_script(CSP_LISTENER)
    page = ctx.new_page()
    page.goto(srv.base + t["seats"][0]["url"])
    page.click(".strategy-link a")  # from the table, with its rules
    page.wait_for_selector("#strategy[data-ready]")
    assert f"table={t['id']}" in page.url
    n = len(want["map"]["totals"])
    assert page.locator("svg.winmap rect[data-own]").count() == n * n
    cell = page.locator('svg.winmap rect[data-own="0"][data-other="0"]')
    assert f"{100 * want['first_player']:.1f}%" in cell.locator("title").text_content()
    grids = page.locator("figure.gridbox")
    assert grids.count() == 6
    for dice in (1, 5):
        row = want["bank"]["thresholds"][str(dice)]
        for i, own in enumerate(want["bank"]["totals"][:3]):
            for j, other in enumerate(want["bank"]["totals"][:3]):
                g = page.locator(
                    f'figure[data-dice="{dice}"] g.bcell[data-own="{own}"][data-other="{other}"]'
                )
                v = row[i][j]
                assert g.get_attribute("data-bank") == ("" if v is None else str(v))
    assert page.evaluate("document.documentElement.scrollWidth") <= device["viewport"]["width"]
    page.screenshot(path=str(SHOTS / f"strategy-dice-{name}.png"), full_page=True)
    page.goto(srv.base + "/strategy/dice?lang=cs")
    page.wait_for_selector("#strategy[data-ready]")
    assert page.locator("h1").inner_text() == "Strategie hry Würfel-Pfeffer"
    assert page.locator("#st-bank").inner_text() == "Kdy si zapsat body"
    assert page.evaluate("window.__csp") == []
    ctx.close()
