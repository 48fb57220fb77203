"""Invites and explanation (issue 8, sections 3 and 4): seat links with copy and share buttons
and a QR code drawn by segno; what ``pfeffer serve`` prints for phones on the network; the rules
pages of both games in every language."""

from __future__ import annotations

import re
import socket
from typing import Any

import pytest
import segno
from fastapi.testclient import TestClient
from markupsafe import escape

from pfeffer.dice.rules import DICE_RULE_SPECS
from pfeffer.pepper.rules import PEPPER_RULE_SPECS
from pfeffer.web import invite
from pfeffer.web.i18n import translations
from pfeffer.web.invite import QR_BORDER, lan_url, qr_svg, qr_text, serve_text
from pfeffer.web.rules_text import RULES
from pfeffer.web.server import create_app
from pfeffer.web.site import Site
from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess
from tests.web.test_browser_faults import ALLOW, WORD, catalogue_words

SVG = re.compile(r'<svg data-url="([^"]+)"[^>]*>.*?</svg>', re.S)


def svg_matrix(svg: str) -> list[list[bool]]:
    """The dark modules of segno's SVG path (``M x y.5 h n m dx dy …``) as rows of booleans."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))  # type: ignore[union-attr]
    path = re.search(r'class="qr-dark"[^>]* d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    grid = [[False] * size for _ in range(size)]
    x = y = 0.0
    for cmd, args in re.findall(r"([MmHh])([-\d. ]+)", path):
        nums = [float(n) for n in args.split()]
        if cmd == "M":
            x, y = nums
        elif cmd == "m":
            x, y = x + nums[0], y + nums[1]
        else:  # h: a run of dark modules on row y
            for i in range(int(nums[0])):
                grid[int(y)][int(x) + i] = True
            x += nums[0]
    inner = size - 2 * QR_BORDER
    return [row[QR_BORDER : QR_BORDER + inner] for row in grid[QR_BORDER : QR_BORDER + inner]]


def segno_matrix(url: str) -> list[list[bool]]:
    return [[bool(m) for m in row] for row in segno.make(url).matrix]


def host_page(client: TestClient, game: str = "dice", **kw: Any) -> tuple[dict[str, Any], str]:
    seats = [
        {"name": "Anna", "kind": "human"},
        {"name": "Robo", "kind": "bot"},
        {"name": "Petr", "kind": "human"},
    ]
    t = client.post("/api/tables", json={"game": game, "seats": seats}).json()
    return t, client.get(t["host_url"], **kw).text


def test_the_host_page_has_a_qr_code_copy_and_share_per_human_seat(client: TestClient) -> None:
    t, page = host_page(client)
    codes = SVG.findall(page)
    links = [f"http://testserver{s['url']}" for s in t["seats"] if s["kind"] == "human"]
    assert codes == links  # one per human seat, none for the computer
    for svg in SVG.finditer(page):
        url = svg.group(1)
        assert svg_matrix(svg.group(0)) == segno_matrix(url)  # what a camera reads is the link
        assert svg.group(0) == qr_svg(url)
    for seat in (0, 2):
        assert f'data-copy="link{seat}"' in page and f'id="link{seat}"' in page
        assert re.search(rf'data-share="link{seat}"[^>]* hidden>', page)
    assert '<script src="/static/host.js"></script>' in page
    scripts = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", page)
    assert all('type="application/json"' in s for s in scripts)  # data only, no inline code
    assert " style=" not in page and "<style" not in page


def test_a_host_page_opened_as_localhost_gives_the_lan_address(db_url: str) -> None:
    site = Site.for_server("0.0.0.0", 8000, ["192.168.1.5"], lan_url="http://192.168.1.5:8000")
    app = create_app(db_url, bot_delay=0, site=site)
    with TestClient(app, base_url="http://localhost:8000") as client:
        t, page = host_page(client, "pepper")
        human = t["seats"][0]["url"]
        assert f'data-url="http://192.168.1.5:8000{human}"' in page
        assert (
            f'id="link0" rows="3" spellcheck="false" aria-label="Invite link">http://192.168.1.5:8000{human}</textarea>'
            in page
        )


@pytest.mark.parametrize(
    ("site", "base", "told"),
    [
        # pfeffer serve (127.0.0.1): the links reach no phone; how to let phones in
        (
            Site.for_server("127.0.0.1", 8000, network=["192.168.1.5"]),
            "http://127.0.0.1:8000",
            [
                '<code class="command">pfeffer serve --host 0.0.0.0</code>',
                "http://192.168.1.5:8000/table/",
            ],
        ),
        (  # another port, no network address found
            Site.for_server("localhost", 8123),
            "http://localhost:8123",
            ["pfeffer serve --host 0.0.0.0 --port 8123", "ip addr or ipconfig"],
        ),
        # on the network, opened as localhost with no LAN address found: open it at one
        (Site.for_server("0.0.0.0", 8000, []), "http://localhost:8000", ["ip addr or ipconfig"]),
        # links a phone opens: nothing to say
        (
            Site.for_server("0.0.0.0", 8000, ["192.168.1.5"], lan_url="http://192.168.1.5:8000"),
            "http://localhost:8000",
            None,
        ),
        (
            Site.for_server("127.0.0.1", 8000, public_url="https://club.example"),
            "http://127.0.0.1:8000",
            None,
        ),
    ],
)
def test_a_host_page_whose_links_reach_no_phone_says_so(
    db_url: str, site: Site, base: str, told: list[str] | None
) -> None:
    """Issue 22 §2: the page said to scan codes of links to 127.0.0.1, which no phone opens."""
    with TestClient(create_app(db_url, bot_delay=0, site=site), base_url=base) as client:
        _, page = host_page(client)
    if told is None:
        assert 'id="reach"' not in page and "Each player scans their code" in page
        return
    assert 'id="reach"' in page and "work on this computer only" in page
    assert "Each player scans their code" not in page
    for text in told:
        assert text in page, text

    """Issue 20 (1.10): the links and QR codes took the request's Host header, so a request
    with ``Host: evil.example`` (a forged header, a poisoned cache) handed out links there."""
    site = Site.for_server("0.0.0.0", 8000, ["192.168.1.5", "10.0.0.9"])
    app = create_app(db_url, bot_delay=0, site=site)
    with TestClient(app, base_url="http://10.0.0.9:8000") as client:
        t, page = host_page(client, "pepper")  # an address the server is served under: kept
        assert f'data-url="http://10.0.0.9:8000{t["seats"][0]["url"]}"' in page
    with TestClient(app, base_url="http://evil.example:8000") as client:
        t, page = host_page(client, "pepper")
        assert "evil.example" not in page
        assert f'data-url="http://192.168.1.5:8000{t["seats"][0]["url"]}"' in page
    public = Site.for_server("0.0.0.0", 8000, ["192.168.1.5"], public_url="https://Club.example/")
    with TestClient(create_app(db_url, bot_delay=0, site=public), base_url="http://x:8000") as c:
        t, page = host_page(c, "pepper")
        assert f'data-url="https://club.example{t["seats"][0]["url"]}"' in page


def test_the_host_page_is_translated(client: TestClient) -> None:
    _, page = host_page(client, headers={"accept-language": "cs"})
    assert "Kopírovat" in page and "Sdílet" in page and "QR kód odkazu pro hráče Anna" in page
    js = translations("de").gettext
    assert js("Copied") == "Kopiert"


def test_serve_prints_every_lan_address_and_a_qr_code_of_the_first() -> None:
    text = serve_text("0.0.0.0", 8123, ["192.168.1.5", "10.0.0.7"])
    assert "http://localhost:8123/" in text
    assert "  http://192.168.1.5:8123/\n" in text and "  http://10.0.0.7:8123/\n" in text
    block = qr_text("http://192.168.1.5:8123/")
    assert text.endswith(block)
    size = len(segno.make("http://192.168.1.5:8123/").matrix) + 2 * QR_BORDER
    rows = block.rstrip("\n").split("\n")
    assert len(rows) == (size + 1) // 2 and all(len(r) == size for r in rows)
    assert set("".join(rows)) <= set("█▀▄ ")


def test_serve_text_on_this_machine_only_or_without_an_address() -> None:
    local = serve_text("127.0.0.1", 8000, [])
    assert "http://localhost:8000/" in local and "--host 0.0.0.0" in local and "█" not in local
    none = serve_text("0.0.0.0", 8000, [])
    assert "No network address found" in none and "█" not in none
    named = serve_text("192.168.7.7", 8000)
    assert "http://192.168.7.7:8000/" in named and "█" in named
    assert lan_url("0.0.0.0", 80, ["10.1.1.1"]) == "http://10.1.1.1:80"
    assert lan_url("127.0.0.1", 80, ["10.1.1.1"]) is None
    assert lan_url("0.0.0.0", 80, []) is None


def test_lan_addresses_skip_loopback_and_put_private_first(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_getaddrinfo(*args: Any, **kw: Any) -> list[Any]:
        found = ["127.0.1.1", "203.0.113.9", "192.168.1.5", "169.254.1.1"]
        return [(socket.AF_INET, socket.SOCK_DGRAM, 0, "", (a, 0)) for a in found]

    class NoRoute:
        def __init__(self, *args: Any) -> None:
            raise OSError("no network")

    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo)
    monkeypatch.setattr(socket, "socket", NoRoute)
    assert invite.lan_addresses() == ["192.168.1.5", "203.0.113.9"]


def test_lan_addresses_on_this_machine() -> None:
    for address in invite.lan_addresses():
        assert not address.startswith("127.") and address.count(".") == 3


# ------------------------------------------------------------------ the rules pages


def text_of(page: str) -> str:
    main = page[page.index("<main>") : page.index("</main>")]
    return re.sub(r"\S*/\S*", " ", re.sub(r"<[^>]+>", " ", main))


@pytest.mark.parametrize("lang", ["en", "de", "cs"])
@pytest.mark.parametrize("game", ["dice", "pepper"])
def test_the_rules_pages_explain_every_rule_and_house_rule(
    client: TestClient, game: str, lang: str
) -> None:
    page = client.get(f"/rules/{game}?lang={lang}").text
    gt = translations(lang).gettext
    ids = [r.id for r in RULES[game]]
    assert ids == [f"{'D' if game == 'dice' else 'P'}{i}" for i in range(1, len(ids) + 1)]
    assert len(ids) == (14 if game == "dice" else 11)
    for rule in RULES[game]:
        assert f'id="{rule.id}"' in page and f'<span class="rule-id">{rule.id}</span>' in page
        assert escape(gt(rule.text)) in page and (lang == "en" or gt(rule.text) != rule.text)
    specs = DICE_RULE_SPECS if game == "dice" else PEPPER_RULE_SPECS
    for spec in specs:
        assert f"<dt>{escape(gt(spec.label))}</dt>" in page, spec.name
    if lang != "en":
        english = catalogue_words("en", "id") - catalogue_words(lang, "string") - ALLOW
        hits = {w for w in WORD.findall(text_of(page)) if w.lower() in english}
        raw = {c for s in specs for c in s.choices if re.search(rf"\b{c}\b", text_of(page))}
        assert hits == set() and raw == set()


def test_every_page_links_its_rules(client: TestClient) -> None:
    lobby = client.get("/").text
    assert 'href="/rules/dice"' in lobby and 'href="/rules/pepper"' in lobby
    for game in ("dice", "pepper"):
        t, host = host_page(client, game)
        assert f'href="/rules/{game}"' in host
        assert f'href="/rules/{game}"' in client.get(t["seats"][0]["url"]).text
        assert f'href="/rules/{game}"' in client.get(f"/watch/{t['id']}").text
        assert f'href="/rules/{game}"' in client.get(f"/new/{game}").text
    assert client.get("/rules/chess").status_code == 404


# ------------------------------------------------------------------ in a browser


@pytest.mark.skipif(CHROMIUM is None, reason="browser tests need Debian's chromium")
def test_copy_a_seat_link_on_a_phone(browser: Any, server: ServerProcess) -> None:
    """On localhost (a secure context) Copy puts the link on the clipboard; the page and its QR
    codes fit a 390 px phone; the share button shows only where the browser can share."""
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    t = server.post("/api/tables", {"game": "dice", "seats": seats})
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="de-DE"
    )
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    page = ctx.new_page()
    page.goto(server.base + t["host_url"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("figure.qr svg").count() == 2
    box = page.locator("figure.qr").first.bounding_box()
    assert box["width"] >= 120  # large enough to scan
    can_share = page.evaluate("typeof navigator.share === 'function'")
    assert page.locator("[data-share]").first.is_visible() == can_share
    page.click("[data-copy=link1]")
    page.wait_for_selector("#seat1 .copied:not(:empty)")
    assert page.locator("#seat1 .copied").inner_text() == "Kopiert"
    link = server.base + t["seats"][1]["url"]
    assert page.evaluate("navigator.clipboard.readText()") == link
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "invite-host-390.png"), full_page=True)
    page.goto(server.base + "/rules/pepper")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "rules-pepper-390.png"), full_page=True)
    ctx.close()


@pytest.mark.skipif(CHROMIUM is None, reason="browser tests need Debian's chromium")
def test_without_a_clipboard_the_link_is_selected(browser: Any, server: ServerProcess) -> None:
    t = server.post("/api/tables", {"game": "pepper", "seats": [{"kind": "human"}] * 2})
    ctx = browser.new_context(locale="cs-CZ")
    page = ctx.new_page()
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page.goto(server.base + t["host_url"])
    page.click("[data-copy=link0]")
    page.wait_for_selector("#seat0 .copied:not(:empty)")
    assert "ručně" in page.locator("#seat0 .copied").inner_text()
    selected = page.evaluate("window.getSelection().toString() || document.activeElement.value")
    assert selected == server.base + t["seats"][0]["url"]
    ctx.close()
