"""Security headers on every HTTP response: a strict Content-Security-Policy on the HTML pages
(scripts and styles only from this server's files, no inline code, no other host, no framing),
a policy that allows nothing on the JSON answers (a JSON body opened as a page runs nothing),
no MIME sniffing, no Referer (seat links carry their token in the URL), no camera, microphone
or location for any page, and pages kept out of other sites' windows and frames.

A pure ASGI middleware: WebSocket connections pass through untouched.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self' ws: wss:",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
JSON_CSP = "default-src 'none'; frame-ancestors 'none'"
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "Cross-Origin-Resource-Policy": "same-origin",
}
HTML_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "Cross-Origin-Opener-Policy": "same-origin",
}


class SecurityHeaders:
    """Adds ``HEADERS`` to every response, ``HTML_HEADERS`` to pages, ``JSON_CSP`` to JSON."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
                kind = headers.get("content-type", "")
                if kind.startswith("text/html"):
                    for name, value in HTML_HEADERS.items():
                        headers.setdefault(name, value)
                elif kind.startswith("application/json"):
                    headers.setdefault("Content-Security-Policy", JSON_CSP)
            await send(message)

        await self.app(scope, receive, send_with_headers)
