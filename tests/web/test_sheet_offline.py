"""The score sheets at a real table without a connection (issue 8 §5), in Debian's Chromium.

A sheet opened once lets its service worker take control; then the browser goes offline, entries
go in (dice and Pepper), the pages are reloaded (they still open, from the worker's cache), the
browser comes back online and the entries reach the server in order, each exactly once: checked
through the API against the engine's own sheet of the same entries. The same on a 390 x 844
phone with touch; and on an origin that is not secure (no service worker there) entries go
straight to the server. Screenshots: tests/web/screenshots/offline-*.png.

Predicates are arrow functions: a string predicate is eval'd in the page, which the CSP refuses.
These tests take several seconds each: a real browser installs a worker, goes offline and back
and waits for the queue to be sent; that is what they are for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from pfeffer.dice.sheet import DiceSheet
from pfeffer.pepper.sheet import PepperSheet
from pfeffer.web.jsondata import jsonable
from tests.web.conftest import CHROMIUM, FLAGS, SHOTS, ServerProcess, free_port
from tests.web.test_browser_faults import ALLOW, WORD, catalogue_words

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"
)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DICE_PLAYERS = ["Oma", "Opa", "Kind"]
PEPPER_PLAYERS = ["Ann", "Bob", "Cy", "Di"]
# Dice turns entered while offline: (points or None for a bust, Pfeffer called).
DICE_TURNS: list[tuple[int | None, bool]] = [(450, False), (None, False), (600, False), (700, True)]
PEPPER_HANDS: list[dict[str, Any]] = [
    {"bidder": 0, "bid": "3", "trump": "H", "tricks": [4, 2]},
    {"bidder": 1, "bid": "small", "trump": "S", "tricks": [1, 5]},
]
READY = "#sheet[data-offline=ready]"


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module (every test makes its own sheets)."""
    s = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('offline') / 'o.db'}", free_port())
    s.start()
    yield s
    s.stop()


def expected_dice(turns: list[tuple[int | None, bool]]) -> DiceSheet:
    sheet = DiceSheet(DICE_PLAYERS)
    for points, pfeffer in turns:
        sheet.enter(points, pfeffer=pfeffer)  # the engine says whether the test's entries fit
    return sheet


def expected_pepper(hands: list[dict[str, Any]]) -> PepperSheet:
    sheet = PepperSheet(PEPPER_PLAYERS)
    for h in hands:
        bid = int(h["bid"]) if h["bid"].isdigit() else h["bid"]
        sheet.enter(h["bidder"], bid, h["trump"], h["tricks"])
    return sheet


def open_sheet(ctx: Any, srv: ServerProcess, url: str) -> Any:
    """A page of the sheet, once its service worker controls it and keeps a copy of it."""
    page = ctx.new_page()
    page.goto(srv.base + url)
    page.wait_for_selector(READY, timeout=20_000)
    page.wait_for_selector("#add")
    assert page.evaluate("!!navigator.serviceWorker.controller")
    return page


def enter_dice(page: Any, turns: list[tuple[int | None, bool]], tap: bool = False) -> None:
    page.bring_to_front()  # a page behind another gets no animation frames to click in
    press = page.tap if tap else page.click
    for points, pfeffer in turns:
        before = page.locator(".held-list li").count()
        if pfeffer:
            press("input[name=pfeffer]")
        if points is None:
            press("#bust")
        else:
            page.fill("input[name=points]", str(points))
            press("#add")
        page.wait_for_function(
            f"() => document.querySelectorAll('.held-list li').length > {before}", polling=50
        )


def enter_pepper(page: Any, hands: list[dict[str, Any]]) -> None:
    page.bring_to_front()
    for n, h in enumerate(hands, start=1):
        page.select_option("select[name=bidder]", str(h["bidder"]))
        page.select_option("select[name=bid]", h["bid"])
        page.select_option("select[name=trump]", h["trump"])
        for i, tricks in enumerate(h["tricks"]):
            page.fill(f"input[name=tricks{i}]", str(tricks))
        page.click("#add")
        page.wait_for_function(
            f"() => document.querySelectorAll('.held-list li').length === {n}", polling=50
        )


def wait_sent(page: Any) -> None:
    # Polled by time: a page behind another tab gets no animation frames.
    page.wait_for_function(
        "() => !document.querySelector('.held-list li')", polling=50, timeout=20_000
    )


def test_offline_entries_reach_the_server_in_order_exactly_once(
    browser: Any, srv: ServerProcess
) -> None:
    SHOTS.mkdir(exist_ok=True)
    dice = srv.post("/api/sheets", {"game": "dice", "players": DICE_PLAYERS, "title": "Sonntag"})
    pepper = srv.post("/api/sheets", {"game": "pepper", "players": PEPPER_PLAYERS})
    ctx = browser.new_context(viewport={"width": 1000, "height": 900}, locale="en-GB")
    dpage = open_sheet(ctx, srv, dice["url"])
    ppage = open_sheet(ctx, srv, pepper["url"])

    ctx.set_offline(True)
    enter_dice(dpage, DICE_TURNS)
    enter_pepper(ppage, PEPPER_HANDS)
    # Held in the browser, listed as entered, and nothing reached the server.
    assert dpage.locator(".held-list li .what").all_inner_texts() == [
        "450",
        "Bust",
        "600",
        "700 · Pfeffer!",
    ]
    assert ppage.locator(".held-list li .what").all_inner_texts()[0] == "Ann · 3 · ♥ · 4 : 2"
    assert "Kept on this device: 4" in dpage.inner_text("#sync")
    assert dpage.inner_text(".whose") == "Next entry, after the kept ones"
    assert srv.get(f"/api/sheets/{dice['id']}")["view"]["sheet_rows"] == []
    assert srv.get(f"/api/sheets/{pepper['id']}")["rows"] == []

    # Reloaded without a connection the pages still open, with the sheet and the held entries.
    for page in (dpage, ppage):
        page.reload()
        page.wait_for_selector("#sheettable table")
        page.wait_for_selector(".held-list li")
    assert dpage.locator(".held-list li").count() == len(DICE_TURNS)
    assert ppage.locator(".held-list li").count() == len(PEPPER_HANDS)
    assert dpage.inner_text("h1") == "Sonntag"
    dpage.screenshot(path=str(SHOTS / "offline-dice-held.png"), full_page=True)
    ppage.screenshot(path=str(SHOTS / "offline-pepper-held.png"), full_page=True)

    # The start page opens too: both sheets, with what each holds; a new sheet needs the server.
    start = ctx.new_page()
    start.goto(srv.base + "/sheets")
    start.wait_for_selector("#device:not([hidden]) li")
    assert "Sonntag" in start.inner_text("#devicesheets")
    assert "Kept on this device: 4" in start.inner_text("#devicesheets")
    start.fill("input[name=name0]", "Eva")
    start.fill("input[name=name1]", "Jan")
    start.click("#newsheet button")
    start.wait_for_selector("#create-offline:not([hidden])")
    start.screenshot(path=str(SHOTS / "offline-start.png"), full_page=True)

    ctx.set_offline(False)
    wait_sent(dpage)
    wait_sent(ppage)
    d = srv.get(f"/api/sheets/{dice['id']}")
    want = expected_dice(DICE_TURNS)
    assert d["view"]["sheet_rows"] == jsonable(want.view().sheet_rows)
    assert d["view"]["scores"] == want.totals
    p = srv.get(f"/api/sheets/{pepper['id']}")
    assert [r["bidder"] for r in p["rows"]] == [h["bidder"] for h in PEPPER_HANDS]
    assert p["scores"] == expected_pepper(PEPPER_HANDS).totals
    # The page draws what the server answered (its Σ row), and the sync line is gone.
    assert dpage.locator("#sync").is_hidden()
    sums = dpage.locator("table.sheet tr.sum th").all_inner_texts()[1:]
    assert sums == [str(s) for s in want.totals]
    dpage.screenshot(path=str(SHOTS / "offline-dice-sent.png"), full_page=True)
    # The worker controls the sheets only: the lobby is not under it.
    start.goto(srv.base + "/")
    assert start.evaluate("navigator.serviceWorker.controller") is None
    ctx.close()


def test_a_lost_answer_is_sent_again_and_counted_once(browser: Any, srv: ServerProcess) -> None:
    sheet = srv.post("/api/sheets", {"game": "dice", "players": DICE_PLAYERS})
    ctx = browser.new_context(locale="en-GB")
    page = open_sheet(ctx, srv, sheet["url"])
    lost: list[str] = []

    def lose_first_answer(route: Any) -> None:
        if lost:
            route.continue_()
            return
        route.fetch()  # the server takes the entry ...
        lost.append(route.request.post_data or "")
        route.abort("connectionreset")  # ... and the answer never arrives

    ctx.route("**/api/sheets/*/entries*", lose_first_answer)
    page.fill("input[name=points]", "450")
    page.click("#add")
    page.wait_for_selector("#sync[data-state=waiting]")
    wait_sent(page)  # sent again a little later: acknowledged, not applied a second time
    assert lost and '"entry_id"' in lost[0]
    d = srv.get(f"/api/sheets/{sheet['id']}")
    assert d["view"]["scores"] == [450, 0, 0] and d["view"]["current_player"] == 1
    assert page.inner_text(".whose") == "Opa's turn"
    ctx.close()


def test_on_a_phone_with_touch(browser: Any, srv: ServerProcess) -> None:
    SHOTS.mkdir(exist_ok=True)
    sheet = srv.post("/api/sheets", {"game": "dice", "players": DICE_PLAYERS})
    ctx = browser.new_context(**PHONE, locale="de-DE")
    page = open_sheet(ctx, srv, sheet["url"])
    ctx.set_offline(True)
    turns = DICE_TURNS[:3]
    enter_dice(page, turns, tap=True)
    page.reload()
    page.wait_for_selector(".held-list li")
    assert page.locator(".held-list li").count() == 3
    assert "Auf diesem Gerät gespeichert: 3" in page.inner_text("#sync")
    # Every control of the sheet is at least 44 px each way, and the page fits the phone.
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll(
            '#entry button, #entry input:not([type=checkbox]), #entry select, #held button, '
            + '#entry label.check, .sheetbuttons button, #sync button')).map(e => {
              const r = e.getBoundingClientRect();
              return [e.id || e.name || e.className, Math.round(r.width), Math.round(r.height)];
            }).filter(x => x[1] < 44 || x[2] < 44)"""
    )
    assert small == []
    assert page.locator("#entry label.check").count() == 1  # the Pfeffer call: its label is tapped
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # No English in the German page's offline state (the held list, the status line, the form).
    english = catalogue_words("en", "id") - catalogue_words("de", "string") - ALLOW
    shown = re.sub(r"\S*/\S*", " ", page.evaluate("document.body.innerText"))
    names = {n.lower() for n in DICE_PLAYERS}  # "Kind" is a name here
    assert {w for w in WORD.findall(shown) if w.lower() in english - names} == set()
    page.screenshot(path=str(SHOTS / "offline-390-held.png"), full_page=True)
    # A held entry that was a mistake goes with a tap on its ×, before it is ever sent.
    page.locator(".held-list li .remove").nth(1).tap()
    page.wait_for_function("() => document.querySelectorAll('.held-list li').length === 2")
    ctx.set_offline(False)
    wait_sent(page)
    want = expected_dice([turns[0], turns[2]])
    d = srv.get(f"/api/sheets/{sheet['id']}")
    assert d["view"]["sheet_rows"] == jsonable(want.view().sheet_rows)
    page.screenshot(path=str(SHOTS / "offline-390-sent.png"), full_page=True)
    ctx.close()


def test_without_a_secure_origin_entries_go_straight_to_the_server(
    browser: Any, srv: ServerProcess
) -> None:
    """http://pfeffer.test (mapped to 127.0.0.1 inside this browser only) is not a secure
    context: no service worker, no queue; the page says so and sends every entry at once."""
    SHOTS.mkdir(exist_ok=True)
    sheet = srv.post("/api/sheets", {"game": "dice", "players": DICE_PLAYERS})
    plain = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*FLAGS, "--host-resolver-rules=MAP pfeffer.test 127.0.0.1"]
    )
    try:
        ctx = plain.new_context(locale="en-GB")
        page = ctx.new_page()
        base = f"http://pfeffer.test:{srv.port}"
        page.goto(base + sheet["url"])
        page.wait_for_selector("#add")
        assert page.evaluate("window.isSecureContext") is False
        assert page.locator("#offline-no").is_visible() and page.locator("#offline-yes").is_hidden()
        page.fill("input[name=points]", "450")
        page.click("#add")
        page.wait_for_selector("th.current:has-text('Opa')")
        assert srv.get(f"/api/sheets/{sheet['id']}")["view"]["scores"] == [450, 0, 0]

        # Without a connection the entry is not kept: the page says nothing was saved.
        ctx.set_offline(True)
        page.fill("input[name=points]", "500")
        page.click("#add")
        page.wait_for_selector("#error:visible")
        assert "nothing was saved" in page.inner_text("#error")
        assert page.locator(".held-list li").count() == 0
        page.screenshot(path=str(SHOTS / "offline-plain-http.png"), full_page=True)
        ctx.set_offline(False)
        page.wait_for_timeout(500)
        assert srv.get(f"/api/sheets/{sheet['id']}")["view"]["scores"] == [450, 0, 0]

        # Sent again by hand after a lost answer, the same entry counts once: the form's id.
        lost: list[bool] = []

        def lose_first_answer(route: Any) -> None:
            if lost:
                route.continue_()
                return
            # Playwright fetches itself, outside the browser's host mapping: name the address.
            route.fetch(url=route.request.url.replace("pfeffer.test", "127.0.0.1"))
            lost.append(True)
            route.abort("connectionreset")

        ctx.route("**/api/sheets/*/entries*", lose_first_answer)
        page.click("#add")  # 500 is still in the form
        page.wait_for_selector("#error:visible")
        page.click("#add")
        page.wait_for_selector("th.current:has-text('Kind')")
        assert lost == [True]
        assert srv.get(f"/api/sheets/{sheet['id']}")["view"]["scores"] == [450, 500, 0]
        ctx.close()
    finally:
        plain.close()


def test_a_refused_entry_holds_back_the_ones_after_it(browser: Any, srv: ServerProcess) -> None:
    """Offline nobody checks the entries: when the engine refuses one, the page says which and
    why, and the entries after it wait until the player sends them (or removes them)."""
    SHOTS.mkdir(exist_ok=True)
    sheet = srv.post("/api/sheets", {"game": "dice", "players": DICE_PLAYERS})
    ctx = browser.new_context(locale="en-GB")
    page = open_sheet(ctx, srv, sheet["url"])
    ctx.set_offline(True)
    # Opa calls Pfeffer after Oma's 450 and banks 300: below the stake, which the engine refuses.
    turns: list[tuple[int | None, bool]] = [(450, False), (300, True), (None, False)]
    with pytest.raises(ValueError, match="cannot be banked"):
        expected_dice(turns[:2])
    enter_dice(page, turns)
    ctx.set_offline(False)
    page.wait_for_selector("#sendheld")
    assert "“300 · Pfeffer!”" in page.inner_text("#error")
    assert "cannot be banked" in page.inner_text("#error")
    assert page.locator(".held-list li .what").all_inner_texts() == ["Bust"]
    page.screenshot(path=str(SHOTS / "offline-refused.png"), full_page=True)
    page.wait_for_timeout(300)  # paused: nothing more is sent by itself
    assert srv.get(f"/api/sheets/{sheet['id']}")["view"]["scores"] == [450, 0, 0]
    page.click("#sendheld")
    wait_sent(page)
    want = expected_dice([turns[0], turns[2]])
    d = srv.get(f"/api/sheets/{sheet['id']}")
    assert d["view"]["sheet_rows"] == jsonable(want.view().sheet_rows)
    ctx.close()
