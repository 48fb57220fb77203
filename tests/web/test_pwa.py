"""The score sheets as an installable web app (issue 8 §5): the manifest, the service worker's
route and scope, the icons, and the cache list that lets a sheet open without a connection."""

from __future__ import annotations

import re
import struct

from fastapi.testclient import TestClient
from tools import icons

from pfeffer.web.routes.pwa import SCOPE, START, THEME

SHELL = re.compile(r"const SHELL = \[(.*?)\];", re.S)


def sheet_urls(client: TestClient) -> list[str]:
    dice = client.post("/api/sheets", json={"game": "dice", "players": ["A", "B"]}).json()
    pepper = client.post("/api/sheets", json={"game": "pepper", "players": ["A", "B"]}).json()
    return ["/sheets", dice["url"], pepper["url"]]


def shell(client: TestClient) -> list[str]:
    found = SHELL.search(client.get("/sw.js").text)
    assert found is not None
    return re.findall(r'"([^"]+)"', found.group(1))


def test_the_manifest_makes_the_sheets_an_app(client: TestClient) -> None:
    r = client.get("/sheets.webmanifest")
    assert r.status_code == 200 and r.headers["content-type"] == "application/manifest+json"
    m = r.json()
    assert m["id"] == START == "/sheets" and m["display"] == "standalone"
    assert m["start_url"] == "/sheets?lang=en"  # the app opens in the language it was installed in
    assert m["start_url"].startswith(m["scope"]) and m["scope"] == SCOPE
    assert m["theme_color"] == THEME == "#b3261e" and m["name"] == "Pfeffer score sheets"
    sizes = {i["sizes"] for i in m["icons"]}
    assert {"any", "192x192", "512x512"} <= sizes
    assert any(i.get("purpose") == "maskable" for i in m["icons"])
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":  # the size the manifest says is the size of the file
            width, height = struct.unpack(">II", got.content[16:24])
            assert f"{width}x{height}" == icon["sizes"]


def test_the_manifest_speaks_the_pages_language(client: TestClient) -> None:
    de = client.get("/sheets.webmanifest", headers={"accept-language": "de"}).json()
    cs = client.get("/sheets.webmanifest?lang=cs").json()
    assert (de["lang"], de["name"]) == ("de", "Pfeffer-Spielzettel")
    assert (cs["lang"], cs["name"]) == ("cs", "Zápisy skóre Pfeffer")
    assert "Würfel-Pfeffer" in de["description"] and "connection" not in de["description"]


def test_the_service_worker_is_served_from_the_root(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"  # a new worker is found on the next visit
    # sheet-sync.js registers it for the sheets only (the URL prefix /sheet).
    sync = client.get("/static/sheet-sync.js").text
    assert 'register("/sw.js", {scope: "/sheet"})' in sync


def test_every_file_a_sheet_page_loads_is_kept_for_offline(client: TestClient) -> None:
    kept = shell(client)
    for url in kept:  # one missing file would make the worker's installation fail
        assert client.get(url).status_code == 200, url
    for page in sheet_urls(client):
        html = client.get(page).text
        assert 'rel="manifest" href="/sheets.webmanifest?lang=en"' in html
        assert '<meta name="theme-color" content="#b3261e">' in html
        loaded = re.findall(r'<script src="([^"]+)"', html)
        loaded += re.findall(r'<link rel="(?:stylesheet|icon|manifest)" href="([^"]+)"', html)
        loaded = [url.split("?")[0] for url in loaded]  # the worker keeps by path (sw.js kept)
        assert set(loaded) <= set(kept), (page, set(loaded) - set(kept))
        # No inline code: the only script without src is the strings' JSON.
        assert re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", html) == [
            ' id="i18n" type="application/json"'
        ]


def test_only_the_sheet_pages_offer_the_app(client: TestClient) -> None:
    for page in ("/", "/history", "/rules/dice"):
        assert "webmanifest" not in client.get(page).text
        assert "sheet-sync.js" not in client.get(page).text


def test_the_icons_are_the_ones_the_module_draws() -> None:
    for name, (size, maskable) in icons.ICONS.items():
        on_disk = (icons.FOLDER / name).read_bytes()
        drawn = icons.icon_png(size, maskable)
        assert on_disk == drawn, f"{name}: run python -m tools.icons"


def test_the_icon_is_the_favicons_die() -> None:
    px = icons.icon_pixels(64)
    assert tuple(px[32, 32]) == (255, 255, 255, 255)  # the middle pip
    assert tuple(px[32, 8]) == (*icons.RED, 255)  # the die
    assert px[0, 0, 3] == 0  # outside the rounded corner: transparent
    mask = icons.icon_pixels(64, maskable=True)
    assert tuple(mask[0, 0]) == (*icons.RED, 255)  # a maskable icon is red to its edges
    favicon = (icons.FOLDER.parent / "favicon.svg").read_text()
    assert (icons.FOLDER / "icon.svg").read_text() == favicon
