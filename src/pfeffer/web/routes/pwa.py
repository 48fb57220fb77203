"""The score sheets as an installable web app: the manifest and the service worker's route.

A service worker controls only the pages under the folder it is served from, so
``static/sw.js`` is served as ``/sw.js`` (the root; no ``Service-Worker-Allowed`` header is
needed then) and sheet-sync.js registers it with the scope ``/sheet``, a URL prefix that covers
``/sheets`` and every ``/sheet/<id>`` and nothing else: the live tables, the lobby and the rest
of the site never go through it. The manifest (``/sheets.webmanifest?lang=de``: a browser fetches
it without cookies, so the page names its language) is in the page's language and opens the app
at ``/sheets`` in that language.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from pfeffer.web.i18n import translations

RED = (0xB3, 0x26, 0x1E)  # the site's accent colour (app.css --accent), the manifest's theme
# The icons in static/icons/ (drawn by tools/icons.py): file name: (size in pixels, maskable).
ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
}
HERE = Path(__file__).resolve().parent.parent
SCOPE = "/sheet"
START = "/sheets"
THEME = "#{:02x}{:02x}{:02x}".format(*RED)
BACKGROUND = "#faf7f2"  # app.css --bg


def manifest(lang: str) -> dict[str, Any]:
    """The web app manifest in ``lang``."""
    _ = translations(lang).gettext
    icons: list[dict[str, str]] = [
        {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"}
    ]
    for name, (size, maskable) in ICONS.items():
        icons.append(
            {
                "src": f"/static/icons/{name}",
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "maskable" if maskable else "any",
            }
        )
    return {
        "id": START,
        "name": _("Pfeffer score sheets"),
        "short_name": "Pfeffer",
        "description": _(
            "Score sheets for Würfel-Pfeffer and Pepper played with real dice and cards; "
            "they also take entries without a connection."
        ),
        "lang": lang,
        # The installed app opens in the language it was installed in (the id stays START:
        # one app whatever the language).
        "start_url": f"{START}?lang={lang}",
        "scope": SCOPE,
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icons,
    }


def router(lang_of: Callable[[Request], str]) -> APIRouter:
    """The routes of the manifest and the service worker; ``lang_of`` picks a request's
    language as every page does (``?lang=``, cookie, ``Accept-Language``)."""
    routes = APIRouter()

    @routes.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        # no-cache: the browser asks for a newer worker on every visit instead of a day later.
        return FileResponse(
            HERE / "static" / "sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
        )

    @routes.get("/sheets.webmanifest", include_in_schema=False)
    async def web_manifest(request: Request) -> JSONResponse:
        return JSONResponse(manifest(lang_of(request)), media_type="application/manifest+json")

    return routes
