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
