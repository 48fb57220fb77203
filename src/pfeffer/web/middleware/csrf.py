"""CSRF protection of the HTML forms (issue 9 §4): a double-submit cookie, as ASGI middleware.

Every page is sent with a random token in the cookie ``pfeffer_csrf`` (HttpOnly, SameSite=Lax,
Secure over HTTPS; set when the browser has none) and the same token in each form's hidden
field ``csrf_token`` (``render`` puts it in the templates). A form post (any POST outside
``/api/``) must send the field, or the header ``X-CSRF-Token``, equal to the cookie (compared
in constant time); otherwise it gets a 403 page and reaches no route. Another site can make a
browser post a form here, but it can neither read the cookie nor have it sent with a cross-site
post (SameSite), so it cannot match it.

The JSON API (``/api/...``) is not checked: it uses no cookie at all (seat and host tokens
travel in the body or the URL), so a forged request carries nothing the forger lacks, and
scripts call it without a page first.
"""

from __future__ import annotations

import hmac
import re
import secrets
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pfeffer.web.render import http_error

COOKIE = "pfeffer_csrf"
FIELD = "csrf_token"
HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_FORM = 1 << 20  # bytes: the forms of this site are a few kilobytes
TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,64}$")
YEAR = 365 * 24 * 3600


def new_token() -> str:
    """A fresh CSRF token (256 random bits)."""
    return secrets.token_urlsafe(32)


def same(given: str, expected: str) -> bool:
    """Whether two tokens are equal, compared in constant time."""
    return hmac.compare_digest(given.encode(), expected.encode())


class CsrfProtect:
    """The middleware: puts the token in ``request.state.csrf_token`` and checks form posts."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        cookie = request.cookies.get(COOKIE, "")
        fresh = not TOKEN.match(cookie)
        token = new_token() if fresh else cookie
        scope.setdefault("state", {})["csrf_token"] = token
        sending = self._with_cookie(send, token if fresh else None, scope.get("scheme") == "https")
        if scope["method"] not in SAFE_METHODS and not scope["path"].startswith("/api/"):
            body = await read_body(receive)
            if body is None:
                refusal = HTTPException(413, "That request is too large.")
            elif fresh or not same(await sent_token(scope, body), token):
                refusal = HTTPException(
                    403,
                    "This form has expired or was not sent from this site: "
                    "reload the page and try again.",
                )
            else:
                await self.app(scope, replay(body, receive), send)
                return
            response = await http_error(Request(scope), refusal)
            await response(scope, receive, sending)
            return
        await self.app(scope, receive, sending)

    @staticmethod
    def _with_cookie(send: Send, token: str | None, secure: bool) -> Send:
        """``send`` that sets the cookie ``token`` (if any) on an HTML response."""
        if token is None:
            return send

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if headers.get("content-type", "").startswith("text/html"):
                    headers.append("set-cookie", cookie_header(token, secure))
            await send(message)

        return sending


def cookie_header(token: str, secure: bool) -> str:
    """The ``Set-Cookie`` value for ``token`` (``Secure`` when the page came over HTTPS)."""
    attributes = f"Max-Age={YEAR}; Path=/; SameSite=Lax; HttpOnly"
    return f"{COOKIE}={token}; {attributes}" + ("; Secure" if secure else "")


async def read_body(receive: Receive) -> bytes | None:
    """The whole request body, or None beyond ``MAX_FORM`` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk: bytes = message.get("body", b"")
        size += len(chunk)
        if size > MAX_FORM:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def sent_token(scope: Scope, body: bytes) -> str:
    """The token the request sent: the header, else the form's field ("" if neither)."""
    request = Request(scope, replay(body, _nothing))
    header = request.headers.get(HEADER)
    if header:
        return header
    try:
        async with request.form() as form:
            value: Any = form.get(FIELD)
    except Exception:  # not a form, or a malformed one: no token
        return ""
    return value if isinstance(value, str) else ""


def replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` once, then waits on the real one (a disconnect)."""
    done = False

    async def replaying() -> Message:
        nonlocal done
        if not done:
            done = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replaying


async def _nothing() -> Message:
    return {"type": "http.disconnect"}
