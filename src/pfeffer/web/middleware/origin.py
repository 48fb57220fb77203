"""WebSockets only from this server's own pages or listed sites (issue 20, 1.10).

A browser sends a WebSocket to any address a page asks for, with that page's ``Origin``, and
a WebSocket carries no cookie check: without this, a page elsewhere could play a seat whose
link it learned, or open spectator sockets through its visitors. A WebSocket whose
``Origin`` is neither this server (:meth:`pfeffer.web.site.Site.origin_allowed`) nor listed
(``--allowed-origin``, ``--public-url``) is refused before it is accepted (HTTP 403; close
code 4403 for the ASGI server) and logged. No ``Origin`` at all is a program, not a browser
(the tests, scripts, bots), and is let through: it cannot act for a visitor.
"""

from __future__ import annotations

import logging

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from pfeffer.web.site import Site

CLOSE_ORIGIN = 4403
log = logging.getLogger("pfeffer.web.origin")


class OriginCheck:
    """The ASGI middleware that refuses WebSockets from other sites' pages."""

    def __init__(self, app: ASGIApp, site: Site) -> None:
        self.app = app
        self.site = site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin, host = headers.get("origin"), headers.get("host", "")
        if self.site.origin_allowed(origin, host):
            await self.app(scope, receive, send)
            return
        log.warning(
            "WebSocket refused: its page is from another site",
            # The path names the table, never a token (that is in the query, not logged).
            extra={
                "event": "ws_origin_refused",
                "origin": (origin or "")[:200],
                "host": host[:200],
                "path": str(scope.get("path", ""))[:200],
            },
        )
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": CLOSE_ORIGIN, "reason": ""})
