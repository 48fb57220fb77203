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
