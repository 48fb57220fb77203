"""The finish a player notices (issue 22 §2, the rest of the browser items), in Debian's
Chromium at 1280 px and 390 px in English, German and Czech: one device for a dice table goes
from player to player without a pass screen (nothing is hidden) and shows the log and the chat;
the log names a throw once the dice lie still; "Play now" takes the player's name; the installed
score-sheet app's manifest speaks the page's language; the hint button goes when the game is
over; the Pepper pads show +3 with its sign; the header's "Rules" leads to both games; the live
hand review says what "best play" means. Screenshots: tests/web/screenshots/finish-*.png."""

from __future__ import annotations

import json
import re
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
SIZES: dict[str, dict[str, Any]] = {"390": PHONE, "1280": DESKTOP}
LOCALES = {"en": "en-GB", "de": "de-DE", "cs": "cs-CZ"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    path: Path = tmp_path_factory.mktemp("finish") / "finish.db"
    s = ServerProcess(f"sqlite:///{path}", free_port(), bot_delay=0.2)
    s.start()
    yield s
    s.stop()


def open_page(browser: Any, size: str, lang: str, url: str) -> tuple[Any, Any]:
    """A context of ``size`` whose browser speaks English, at ``url`` in ``lang`` (?lang=):
    what the page shows follows the page's language, not the browser's."""
    ctx = browser.new_context(**SIZES[size], locale=LOCALES["en"])
    ctx.add_init_script(CSP_LISTENER)
    page = ctx.new_page()
    sep = "&" if "?" in url else "?"
    page.goto(url + f"{sep}lang={lang}")
    return ctx, page


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"finish-{name}.png"), full_page=True)


def fits(page: Any, size: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= int(size)
    assert page.evaluate("window.__csp") == []


def signed(p: int) -> str:
    return f"+{p}" if p > 0 else f"−{-p}" if p < 0 else "0"


# ------------------------------------------------------------------ one device for the dice

PASS_SEEN = """() => {
  window.__passShown = 0;
  const pass = document.getElementById("pass");
  new MutationObserver(() => { if (!pass.hidden) window.__passShown++; })
    .observe(pass, {attributes: true});
}"""
DEVICE_NOTE = {
    "en": "One device for the whole table: pass it to the player whose turn it is.",
    "de": "Ein Gerät für den ganzen Tisch: Gib es dem Spieler, der am Zug ist.",
    "cs": "Jedno zařízení pro celý stůl: podej ho hráči, který je na tahu.",
}


def dice_move(page: Any) -> None:
    """One choice of the player at the device's table: bank if allowed, else set aside the
    first option, else throw."""
    page.wait_for_selector("#actions [data-action]:enabled")
    buttons = page.locator("#actions [data-action]:enabled")
    actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
    before = page.locator("#device").get_attribute("data-version")
    keep = [a for a in actions if a and a.startswith("keep")]
    choice = "bank" if "bank" in actions else (keep[0] if keep else actions[0])
    page.locator(f'#actions [data-action="{choice}"]').first.click()
    page.wait_for_function(
        f"() => document.getElementById('device').dataset.version !== '{before}'",
        timeout=10_000,
    )


@pytest.mark.parametrize(("size", "lang"), [("1280", "de"), ("390", "cs")])
def test_one_device_for_dice_passes_no_screen_and_shows_the_log_and_chat(
    browser: Any, srv: ServerProcess, size: str, lang: str
) -> None:
    """Hot-seat dice showed the "pass the device" screen before every turn, though a dice
    table hides nothing from anybody, and had neither the log nor the chat of a seat's page.
    Now the next player just plays on, the status names who holds the device, and the log
    and the chat are there (each chat message once, though the page has a socket per seat)."""
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    t = srv.post("/api/tables", {"game": "dice", "rules": {"target": 3000}, "seats": seats})
    ctx, page = open_page(browser, size, lang, srv.base + f"/device/{t['id']}/{t['host_token']}")
    page.wait_for_selector("#actions [data-action]:enabled")
    page.evaluate(PASS_SEEN)
    assert DEVICE_NOTE[lang] in page.locator(".devicenote").inner_text()
    holders: list[str] = []
    for _ in range(80):  # until the device has gone Anna → Ben → Anna
        holder = page.locator("#device").get_attribute("data-holder") or ""
        if not holders or holders[-1] != holder:
            holders.append(holder)
            name = "Anna" if holder == "0" else "Ben"
            assert name in page.locator("#status").inner_text()  # who plays now
        if len(holders) == 3:
            break
        assert page.locator("#pass").is_hidden()
        dice_move(page)
    assert holders == ["0", "1", "0"]
    assert page.evaluate("window.__passShown") == 0  # not once
    log = page.locator("#log li")
    assert log.count() >= 3 and page.locator("#log").is_visible()
    assert any("Ben" in log.nth(i).inner_text() for i in range(log.count()))
    # The chat: Anna holds the device, so she writes; the message comes once.
    page.fill("#chat-text", "Hallo Ben")
    page.locator("#chat-form button[type=submit]").click()
    line = page.locator("#chat-log li.chat-line")
    line.first.wait_for()
    assert "Anna" in line.first.inner_text() and "Hallo Ben" in line.first.inner_text()
    assert "mine" in (line.first.get_attribute("class") or "")
    dice_move(page)  # a while later: still one line
    assert line.count() == 1
    shot(page, f"device-dice-{size}-{lang}")
    fits(page, size)
    ctx.close()


def test_one_device_for_pepper_keeps_its_pass_screen_and_has_the_log_and_chat(
    browser: Any, srv: ServerProcess
) -> None:
    """Pepper hides each hand: the device still shows the pass screen between two people, and
    once a player holds it, the page has the log and the chat too."""
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    t = srv.post("/api/tables", {"game": "pepper", "rules": {"target": 1}, "seats": seats})
    ctx, page = open_page(browser, "390", "en", srv.base + f"/device/{t['id']}/{t['host_token']}")
    page.wait_for_selector("#pass:not([hidden])")
    assert page.locator("#passname").inner_text().startswith("Pass the device to ")
    page.locator("#iam").tap()
    page.wait_for_selector("#board .ptable")
    assert page.locator("#log").count() == 1 and page.locator("#chat-form").count() == 1
    fits(page, "390")
    ctx.close()


# ------------------------------------------------------------------ the log waits for the dice

WATCH_LOG = """() => {
  window.__throwLines = [];  // for each throw line added to the log: dice still tumbling then
  window.__tumbled = 0;      // dice seen tumbling at all
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.classList && n.classList.contains("log-throw"))
        window.__throwLines.push(document.querySelectorAll("#board svg.die.rolling").length);
    }
  }).observe(document.getElementById("log"), {childList: true});
  new MutationObserver(() => {
    window.__tumbled += document.querySelectorAll("#board svg.die.rolling").length;
  }).observe(document.getElementById("board"), {subtree: true, childList: true,
                                                 attributes: true, attributeFilter: ["class"]});
}"""
THROW = {"en": "throws", "de": "wirft", "cs": "hází"}


@pytest.mark.parametrize(("size", "lang"), [("1280", "en"), ("390", "de")])
def test_the_log_names_a_throw_once_the_dice_lie_still(
    browser: Any, srv: ServerProcess, size: str, lang: str
) -> None:
    """The log told "Anna throws 1-5-5-2-3-6" while the dice were still tumbling onto the
    felt, so the surprise was gone before it landed. Now each throw's line is written when
    every die of it lies still."""
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot"}]
    t = srv.post("/api/tables", {"game": "dice", "seats": seats, "seed": 7})
    ctx, page = open_page(browser, size, lang, srv.base + t["seats"][0]["url"])
    page.wait_for_selector("#actions [data-action]:enabled")
    page.evaluate(WATCH_LOG)
    for _ in range(3):  # Anna's throws (and Robo's, while she waits)
        roll = page.locator('#actions [data-action="roll"]:enabled')
        if roll.count():
            roll.first.click()
        else:
            keep = page.locator('#actions [data-action^="keep"]:enabled')
            if keep.count():
                keep.first.click()
        page.wait_for_function("() => window.__throwLines.length > 0")
        page.wait_for_selector("#actions [data-action]:enabled", timeout=30_000)
    lines = page.evaluate("window.__throwLines")
    assert page.evaluate("window.__tumbled") > 0  # the dice did tumble
    assert lines and all(n == 0 for n in lines), lines
    assert THROW[lang] in page.locator("#log li.log-throw").last.inner_text()
    fits(page, size)
    ctx.close()


# ------------------------------------------------------------------ "Play now" with a name

YOUR_NAME = {"en": "Your name", "de": "Dein Name", "cs": "Tvoje jméno"}


@pytest.mark.parametrize(
    ("size", "lang", "game"), [("390", "cs", "dice"), ("1280", "de", "pepper")]
)
def test_play_now_takes_the_players_name(
    browser: Any, srv: ServerProcess, size: str, lang: str, game: str
) -> None:
    """ "Play now" started with a default name ("Player 1"). The home page now asks for a name
    beside the buttons, the table seats the player under it, and the next visit offers it
    again."""
    ctx, page = open_page(browser, size, lang, srv.base + "/")
    field = page.locator("#playname")
    assert YOUR_NAME[lang] in page.locator("label.playname").inner_text()
    assert field.is_visible()
    field.fill("Zuzana")
    shot(page, f"playnow-{size}-{lang}")
    fits(page, size)
    page.locator(f"[data-play-now={game}]").click()
    page.wait_for_url("**/play/**")
    page.wait_for_function("() => document.getElementById('app').dataset.version !== undefined")
    me = page.locator(".players .player.me, .ptable .pseat.me")
    assert me.count() == 1 and "Zuzana" in me.inner_text()
    page.goto(srv.base + "/")
    assert page.locator("#playname").input_value() == "Zuzana"  # remembered in this browser
    ctx.close()


# ------------------------------------------------------------------ the app's manifest

APP_NAME = {"en": "Pfeffer score sheets", "de": "Pfeffer-Spielzettel", "cs": "Zápisy skóre Pfeffer"}


@pytest.mark.parametrize(("size", "lang"), [("1280", "de"), ("390", "cs"), ("390", "en")])
def test_the_installed_apps_manifest_speaks_the_pages_language(
    browser: Any, srv: ServerProcess, size: str, lang: str
) -> None:
    """The score sheets install as an app; its name and description came in the browser's
    language, whatever language the page was in (a browser fetches a manifest without the
    page's cookies). The manifest Chromium reads for the installation now speaks the page's
    language and opens the app in it."""
    ctx, page = open_page(browser, size, lang, srv.base + "/sheets")
    page.wait_for_selector("link[rel=manifest]", state="attached")
    cdp = ctx.new_cdp_session(page)
    got = cdp.send("Page.getAppManifest")
    assert not got.get("errors"), got
    manifest = json.loads(got["data"])
    assert manifest["lang"] == lang and manifest["name"] == APP_NAME[lang]
    assert manifest["start_url"] == f"/sheets?lang={lang}"
    ctx.close()


# ------------------------------------------------------------------ a Pepper game to its end

CHOICES = "#actions [data-action]:enabled, .phand [data-action]:enabled"


def play_pepper(page: Any, until: str) -> None:
    """Play the human seat (a bid rather than a pass, so that a hand is played) until the
    selector ``until`` is on the page."""
    for _ in range(60):
        page.wait_for_selector(f"{CHOICES}, {until}", timeout=30_000)
        if page.locator(until).count():
            return
        buttons = page.locator(CHOICES)
        actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        pick = next((i for i, a in enumerate(actions) if a != "pass"), 0)
        before = page.locator("#app").get_attribute("data-version")
        buttons.nth(pick).click()
        page.wait_for_function(
            f"() => document.querySelector('#app').dataset.version !== '{before}'"
            f" || document.querySelector('{until}') !== null",
            timeout=30_000,
        )
    raise AssertionError(f"{until} never came")


def pepper_table(srv: ServerProcess, hints: bool = True) -> Any:
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot"}]
    body = {"game": "pepper", "rules": {"target": 1}, "seats": seats, "hints": hints, "seed": 2}
    return srv.post("/api/tables", body)  # target 1: the first hand played ends the game


@pytest.mark.parametrize(("size", "lang"), [("1280", "en"), ("390", "de")])
def test_the_hint_button_goes_when_the_game_is_over_and_the_pad_shows_signs(
    browser: Any, srv: ServerProcess, size: str, lang: str
) -> None:
    """At the end of a game the hint button stayed, greyed out, next to the result: there is
    nothing left to ask, so it goes. The table's score pad wrote a hand's points as "3"; now
    "+3" (and "−6"), as the log and the score sheets' pad do."""
    t = pepper_table(srv)
    ctx, page = open_page(browser, size, lang, srv.base + t["seats"][0]["url"])
    page.wait_for_selector("#hint")
    assert page.locator("#hint").is_visible()
    play_pepper(page, ".result")
    page.wait_for_function("() => document.getElementById('hint').hidden")
    assert page.locator("#hint").is_hidden()
    state = srv.get(f"/api/tables/{t['id']}/state?token={t['seats'][0]['token']}")
    hands = [h for h in state["view"]["hands"] if h["bidder"] is not None]
    assert hands
    cells = page.locator("#scores table tbody tr").last.locator("td")
    points = hands[-1]["points"]
    shown = [cells.nth(cells.count() - len(points) + i).inner_text() for i in range(len(points))]
    assert [re.split(r"\s", s)[0] for s in shown] == [signed(p) for p in points], shown
    shot(page, f"over-{size}-{lang}")
    fits(page, size)
    ctx.close()


@pytest.mark.parametrize(("size", "lang"), [("390", "cs"), ("1280", "en")])
def test_the_score_pad_shows_each_hands_points_with_their_sign(
    browser: Any, srv: ServerProcess, size: str, lang: str
) -> None:
    """The Pepper score pad (a sheet for real cards) wrote "3" for three points won: now
    "+3", and "−4" for a contract set."""
    sheet = srv.post("/api/sheets", {"game": "pepper", "players": ["Ann", "Bob", "Cy", "Di"]})
    for i, hand in enumerate(
        [
            {"bidder": 0, "bid": 3, "trump": "H", "tricks": [4, 2]},
            {"bidder": 1, "bid": 4, "trump": "D", "tricks": [3, 3]},
        ]
    ):
        srv.post(f"/api/sheets/{sheet['id']}/entries", {**hand, "entry_id": f"finish-{i:04d}"})
    rows = srv.get(f"/api/sheets/{sheet['id']}")["rows"]
    ctx, page = open_page(browser, size, lang, srv.base + sheet["url"])
    page.wait_for_selector("table.sheet tbody tr")
    body = page.locator("table.sheet tbody tr")
    assert body.count() == len(rows) == 2
    for r, row in enumerate(rows):
        cells = body.nth(r).locator("td")
        n = cells.count()
        shown = [cells.nth(n - 2 + i).inner_text() for i in range(2)]
        assert [re.split(r"\s", s)[0] for s in shown] == [signed(p) for p in row["points"]]
    assert any(p > 0 for r in rows for p in r["points"]) and any(
        p < 0 for r in rows for p in r["points"]
    )
    shot(page, f"pad-{size}-{lang}")
    fits(page, size)
    ctx.close()


# ------------------------------------------------------------------ the live hand review

BEST_PLAY = {
    "en": "with all cards open and every player playing perfectly",
    "de": "alle Karten offen, und jeder spielt fehlerfrei",
    "cs": "všechny karty odkryté a každý hraje bezchybně",
}


@pytest.mark.parametrize(("size", "lang"), [("1280", "de"), ("390", "cs")])
def test_the_hand_review_says_what_best_play_means(
    browser: Any, srv: ServerProcess, size: str, lang: str
) -> None:
    """The live review of a Pepper hand said "with best play you could have taken 1 trick;
    you took 2", which reads as a contradiction. It now says, where it is shown, that best
    play means all cards open and everybody playing perfectly, so a side can take more."""
    t = pepper_table(srv)
    ctx, page = open_page(browser, size, lang, srv.base + t["seats"][0]["url"])
    play_pepper(page, "#handreview:not([hidden]) .handreview-lines")
    box = page.locator("#handreview")
    note = box.locator(".handreview-note")
    assert note.is_visible() and BEST_PLAY[lang] in note.inner_text()
    # Under the review's title, above the figures it explains.
    assert box.evaluate(
        "b => b.querySelector('.handreview-note').compareDocumentPosition("
        "b.querySelector('.handreview-lines')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    shot(page, f"review-{size}-{lang}")
    fits(page, size)
    ctx.close()


# ------------------------------------------------------------------ the header's "Rules"

RULES_OF = {
    "en": ("Rules of Würfel-Pfeffer", "Rules of Pepper"),
    "de": ("Regeln: Würfel-Pfeffer", "Regeln: Pepper"),
    "cs": ("Pravidla: Würfel-Pfeffer", "Pravidla: Pepper"),
}


@pytest.mark.parametrize(("size", "lang"), [("390", "de"), ("1280", "cs"), ("1280", "en")])
def test_the_headers_rules_lead_to_both_games(
    browser: Any, srv: ServerProcess, size: str, lang: str
) -> None:
    """The header's "Rules" led to the dice rules only (from any page but a Pepper one), with
    no way on to Pepper's. The rules page now starts with both games, the one shown marked,
    the other one tap away, in view without scrolling."""
    ctx, page = open_page(browser, size, lang, srv.base + "/")
    page.locator("header.top a.rules-link").click()
    page.wait_for_url("**/rules/**")
    for kind in ("dice", "pepper"):
        link = page.locator(f'nav.rule-games a[href="/rules/{kind}"]')
        assert link.is_visible()
        assert link.evaluate("a => a.getBoundingClientRect().bottom") <= 844
    current = page.locator('nav.rule-games a[aria-current="page"]')
    assert current.count() == 1
    dice, pepper = RULES_OF[lang]
    assert page.locator("h1").inner_text() == dice
    shot(page, f"rules-{size}-{lang}")
    fits(page, size)
    page.locator('nav.rule-games a[href="/rules/pepper"]').click()
    page.wait_for_url("**/rules/pepper")
    assert page.locator("h1").inner_text() == pepper
    back = page.locator('nav.rule-games a[href="/rules/dice"]')
    assert back.is_visible() and back.inner_text() == dice
    ctx.close()
