"""What two newcomers met in a real browser at 1280 px and 390 px in German, Czech and English
(issue 22 §2): Pepper by keys alone (the deal, bid and trump buttons, a skip link, the key line),
the Pepper table on a phone (names in the felt's corners, the header's tap targets, the status
line), the host page of a server only this machine reaches, and a friend's page whose link the
host replaced. Playwright drives Debian's Chromium; screenshots go to tests/web/screenshots/
(``newcomer-*.png``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pfeffer.web.invite import lan_addresses
from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess, free_port

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"
)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES: dict[str, dict[str, Any]] = {"390": PHONE, "1280": DESKTOP}
LOCALES = {"en": "en-GB", "de": "de-DE", "cs": "cs-CZ"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module, bound to 127.0.0.1 as ``pfeffer serve`` is by default."""
    path: Path = tmp_path_factory.mktemp("newcomer") / "nc.db"
    s = ServerProcess(f"sqlite:///{path}", free_port())
    s.start()
    yield s
    s.stop()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"newcomer-{name}.png"), full_page=True)


# ------------------------------------------------------------------ a replaced link


REPLACED = {
    "en": "The host replaced the link to this seat",
    "de": "Der Gastgeber hat den Link zu diesem Platz ersetzt",
    "cs": "Hostitel nahradil odkaz na toto místo",
}

STATUS = {
    "en": "This link was replaced",
    "de": "Dieser Link wurde ersetzt",
    "cs": "Tento odkaz byl nahrazen",
}

ASK = {
    "en": "If the host replaced it, ask them for the new link.",
    "de": "Wenn der Gastgeber ihn ersetzt hat, frag ihn nach dem neuen Link.",
    "cs": "Pokud ho hostitel nahradil, požádej ho o nový odkaz.",
}


@pytest.mark.parametrize(("size", "lang"), [("1280", "de"), ("390", "cs"), ("1280", "en")])
def test_a_replaced_link_says_so_instead_of_your_turn(
    browser: Any, srv: ServerProcess, size: str, lang: str
) -> None:
    """The host made a new link for a friend's seat while the friend's page was open at their
    turn: the page said "your turn" on with buttons that did nothing. Now it says plainly that
    the link was replaced and to ask the host for the new one, and offers no buttons."""
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    t = srv.post("/api/tables", {"game": "dice", "seats": seats})
    ctx = browser.new_context(**SIZES[size], locale=LOCALES[lang])
    page = ctx.new_page()
    page.goto(srv.base + t["seats"][0]["url"] + f"?lang={lang}")
    page.wait_for_selector("#actions button[data-action]")
    assert "mine" in (page.locator("#status").get_attribute("class") or "")  # Anna's turn
    srv.post(f"/api/tables/{t['id']}/seats/0/link", {"host_token": t["host_token"]})
    page.wait_for_selector("#status.revoked")
    assert page.locator("#status").inner_text() == STATUS[lang]
    assert "mine" not in (page.locator("#status").get_attribute("class") or "")
    assert page.locator("#board button, #actions button").count() == 0  # nothing dead to press
    banner = page.locator("#banner")
    assert banner.is_visible() and REPLACED[lang] in banner.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= int(size)
    shot(page, f"replaced-{size}-{lang}")
    response = page.reload()  # the old link, opened again: what to do, in the page's language
    assert response is not None and response.status == 404
    assert ASK[lang] in page.locator("main").inner_text()
    ctx.close()


# ------------------------------------------------------------------ a server on localhost


ONLY_HERE = {
    "en": "These links and QR codes work on this computer only",
    "de": "Diese Links und QR-Codes funktionieren nur auf diesem Computer",
    "cs": "Tyto odkazy a QR kódy fungují jen na tomto počítači",
}
SCAN = {
    "en": "Each player scans their code",
    "de": "Jeder scannt seinen Code",
    "cs": "naskenuje svůj kód fotoaparátem",
}
LINK_BOX = """(id) => {
  const link = document.getElementById(id), copy = document.querySelector(`[data-copy="${id}"]`);
  const a = link.getBoundingClientRect(), b = copy.getBoundingClientRect();
  const cut = link.scrollWidth > link.clientWidth + 1 || link.scrollHeight > link.clientHeight + 1;
  return {cut: cut, text: link.value, copyTop: b.top, copyLeft: b.left,
          linkBottom: a.bottom, linkRight: a.right};
}"""


@pytest.mark.parametrize(("size", "lang"), [("1280", "de"), ("390", "cs"), ("390", "en")])
def test_the_host_page_of_a_server_only_this_machine_reaches(
    browser: Any, srv: ServerProcess, size: str, lang: str
) -> None:
    """``pfeffer serve`` listens on 127.0.0.1 unless told otherwise: its links and QR codes
    cannot reach a phone, yet the host page said to scan them. It now says so and how to let
    phones in (``--host 0.0.0.0``, then this page at the machine's LAN address); each link is
    shown whole, with Copy beside it, not below."""
    seats = [{"name": "Anna", "kind": "human"}, {"kind": "bot"}, {"name": "Ben", "kind": "human"}]
    t = srv.post("/api/tables", {"game": "pepper", "seats": seats})
    ctx = browser.new_context(**SIZES[size], locale=LOCALES[lang])
    page = ctx.new_page()
    page.goto(srv.base + t["host_url"] + f"?lang={lang}")
    note = page.locator("#reach")
    assert note.is_visible()
    text = note.inner_text()
    assert ONLY_HERE[lang] in text, text
    assert f"pfeffer serve --host 0.0.0.0 --port {srv.port}" in text, text
    lan = lan_addresses()
    if lan:  # where the phones open this page once the server listens on the network
        assert f"http://{lan[0]}:{srv.port}{t['host_url']}" in text, text
    assert SCAN[lang] not in page.locator("main").inner_text()
    for seat in (0, 2):
        box = page.evaluate(LINK_BOX, f"link{seat}")
        assert box["text"] == srv.base + t["seats"][seat]["url"]
        assert not box["cut"], box  # the whole link is seen
        assert box["copyTop"] < box["linkBottom"] and box["copyLeft"] >= box["linkRight"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= int(size)
    shot(page, f"host-{size}-{lang}")
    ctx.close()


# ------------------------------------------------------------------ the Pepper table on a phone


PHONE_NAMES = {
    "en": ["Player 1", "Computer 1", "Player 2", "Computer 2"],
    "de": ["Bartholomäus", "Computer 1", "Spieler 2", "Computer 2"],
    "cs": ["Hráč 1", "Počítač 1", "Hráč 2", "Počítač 2"],
}
CUT = """() => {
  const felt = document.querySelector(".ptable").getBoundingClientRect();
  /* A word broken across two lines ("Compute" / "r 1") is cut too. */
  function broken(e) {
    const node = e.firstChild, text = e.textContent;
    if (!node || node.nodeType !== 3) return false;
    let at = 0;
    return text.split(" ").some((word) => {
      const r = document.createRange();
      r.setStart(node, at); r.setEnd(node, at + word.length); at += word.length + 1;
      return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
    });
  }
  return [...document.querySelectorAll(".ptable .pname, .ptable .sname, .ptable .taker")]
    .filter((e) => e.scrollWidth > e.clientWidth + 1 || broken(e) ||
                   e.getBoundingClientRect().right > felt.right)
    .map((e) => e.textContent);
}"""
CHOICES = "#actions [data-action]:enabled, .phand [data-action]:enabled"
TAPS = """() => [...document.querySelectorAll("header.top nav a, header.top .langs button")]
  .map((e) => [e.textContent.trim(), e.getBoundingClientRect().height,
               e.getBoundingClientRect().width])"""
STATUS_BOX = """() => {
  const s = document.getElementById("status"), r = s.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(s).lineHeight);
  return {text: s.textContent, lines: Math.round((s.clientHeight - 12) / line),
          table: document.querySelector(".ptable").getBoundingClientRect().top + scrollY};
}"""


@pytest.mark.parametrize("lang", ["cs", "de", "en"])
def test_the_pepper_table_on_a_phone_cuts_no_name_and_stays_put(
    browser: Any, srv: ServerProcess, lang: str
) -> None:
    """At 390 px the team and computer names were cut off in the felt's corners ("Hráč 1 &
    Počí…", "Compute…"), the header's links and language buttons were 21–23 px tall, and the
    status line wrapped and pushed the table down. Now every name is whole, every header tap
    target is 44 px tall, and the status keeps one line, so the table stays where it is."""
    names = PHONE_NAMES[lang]
    kinds = ["human", "bot", "bot", "bot"]
    body = {
        "game": "pepper",
        "rules": {"target": 1},
        "hints": True,
        "seats": [{"name": n, "kind": k} for n, k in zip(names, kinds, strict=True)],
    }
    t = srv.post("/api/tables", body)
    ctx = browser.new_context(**PHONE, locale=LOCALES[lang])
    page = ctx.new_page()
    page.goto(srv.base + t["seats"][0]["url"] + f"?lang={lang}")
    page.wait_for_selector(".ptable .pcorner.score .sname")
    for text, height, width in page.evaluate(TAPS):
        assert height >= 44, (text, height)
        if len(text) == 2:  # a language button
            assert width >= 44, (text, width)
    tops = set()
    for _ in range(12):  # the auction and the first tricks: the status changes
        page.wait_for_selector(f"{CHOICES}, .result")
        assert page.evaluate(CUT) == [], page.evaluate(CUT)
        if page.locator(".result").count():  # the game's result stands above the table
            break
        box = page.evaluate(STATUS_BOX)
        assert box["lines"] == 1, box
        tops.add(round(box["table"]))
        before = page.locator("#app").get_attribute("data-version")
        page.locator(CHOICES).first.tap()
        page.wait_for_function(
            f"() => document.querySelector('#app').dataset.version !== '{before}'"
        )
        box = page.evaluate(STATUS_BOX)
        assert box["lines"] == 1, box
        if not page.locator(".result").count():  # the game's result stands above the table
            tops.add(round(box["table"]))
    assert len(tops) == 1, tops  # the felt never moved while the game ran
    side_names = [page.locator(".pcorner.score .sname").nth(i).inner_text() for i in (0, 1)]
    assert side_names == [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"phone-{lang}")
    ctx.close()


# ------------------------------------------------------------------ Pepper by keys alone


SKIP = {"en": "Skip to the table", "de": "Zum Tisch springen", "cs": "Přeskočit ke stolu"}
KEY_LINE = {
    "en": ["Keys:", "D deal", "P pass", "B Big Pepper", "name trump"],
    "de": ["Tasten:", "D geben", "P passen", "B Großer Pfeffer", "Trumpf ansagen"],
    "cs": ["Klávesy:", "D rozdat", "P pasovat", "B Velký pepř", "určit trumf"],
}
BID_KEYS = {"pass": "P", "small": "S", "big": "B"}
FOCUSED = (
    "document.activeElement && (document.activeElement.dataset.action || "
    "document.activeElement.textContent.trim())"
)


def key_line(page: Any) -> str:
    line = page.locator("#actions .kbd-hint")
    assert line.is_visible()
    return str(line.inner_text())


def press_key(page: Any, key: str) -> None:
    """``key`` with the focus on no button (so Enter or Space cannot be what presses one)."""
    before = page.locator("#app").get_attribute("data-version")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press(key)
    page.wait_for_function(
        f"() => document.querySelector('#app').dataset.version !== '{before}'", timeout=10_000
    )


@pytest.mark.parametrize("lang", ["en", "de", "cs"])
def test_pepper_deal_bid_and_trump_by_their_keys(
    browser: Any, srv: ServerProcess, lang: str
) -> None:
    """It took 11 Tab presses to reach "Deal" and 26 to reach "Pass". Now the first Tab offers
    a link that skips to the table, whose next Tab is "Deal"; and the deal (D), every bid (its
    number, S, B, P) and the trump suits (1 to 5, as numbered) have keys, shown on the buttons
    and in a key line under them, as the dice table's."""
    words = KEY_LINE[lang]
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot"}]
    body = {"game": "pepper", "rules": {"target": 30}, "seats": seats, "seed": 2}
    t = srv.post("/api/tables", body)  # seed 2: Anna deals the first hand
    ctx = browser.new_context(**DESKTOP, locale=LOCALES[lang])
    page = ctx.new_page()
    page.goto(srv.base + t["seats"][0]["url"] + f"?lang={lang}")
    deal = page.locator('#actions [data-action="deal"]')
    deal.wait_for()
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == SKIP[lang]
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "deal"  # three key presses, not eleven
    assert deal.get_attribute("aria-keyshortcuts") == "D"
    assert deal.locator("kbd").inner_text() == "D"
    assert words[0] in key_line(page) and words[1] in key_line(page)
    shot(page, f"keys-deal-{lang}")
    press_key(page, "d")

    phases: set[str] = set()
    for _ in range(40):
        page.wait_for_selector("#actions [data-action]:enabled, .phand [data-action]:enabled")
        buttons = page.locator("#actions [data-action]")
        actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        if "pass" in actions or "big" in actions:
            phases.add("bid")
            for i, action in enumerate(actions):
                key = BID_KEYS.get(str(action), str(action))
                assert buttons.nth(i).get_attribute("aria-keyshortcuts") == key, action
                assert buttons.nth(i).locator("kbd").inner_text() == key
            line = key_line(page)
            assert words[0] in line and words[3] in line, line
            assert "pass" not in actions or words[2] in line, line
            shot(page, f"keys-bid-{lang}")
            press_key(page, "b" if "big" in actions else "p")
        elif "H" in actions:
            phases.add("trump")
            for i in range(len(actions)):
                assert buttons.nth(i).get_attribute("aria-keyshortcuts") == str(i + 1)
            assert words[4] in key_line(page)
            shot(page, f"keys-trump-{lang}")
            press_key(page, "1")
            assert page.locator('#actions [data-action="H"]').count() == 0
        else:
            break  # the cards: their keys were there before (1 to 9)
    assert phases == {"bid", "trump"}
    shot(page, f"keys-{lang}")
    ctx.close()
