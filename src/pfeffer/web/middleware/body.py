"""The edge of the JSON API (``/api/...``): how large a body may be and what it must be.

- **Size**: a body above :data:`MAX_BODY` bytes is refused with 413, when its
  ``Content-Length`` says so (before a byte is read) and, for a body sent in chunks or whose
  length lies, as soon as the bytes read pass the limit: the rest is never read or kept. (A
  table's body is about a kilobyte; before, 256 MiB were read whole into memory.)
- **Depth**: a body that nests arrays and objects more than ``jsondata.MAX_DEPTH`` deep is
  refused with 400 before anything parses it (``jsondata.too_deep``). So the body is read here
  whole (it is at most :data:`MAX_BODY` bytes) and handed on as one message.
- **Type**: a request with a body must say ``Content-Type: application/json``; anything else
  is refused with 415. A page on another site can post ``text/plain`` (or a form) here without
  asking the browser first; it cannot send ``application/json`` without a CORS preflight,
  which this server never allows. The pages' own scripts send the header.

The refusals are the API's JSON errors (``render.http_error``) in the request's language; the
security headers are added outside (``middleware.security``). Form posts outside ``/api/`` are
limited by ``middleware.csrf``.
"""

from __future__ import annotations

from fastapi import HTTPException
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pfeffer.core.errors import TranslatableError
from pfeffer.web.i18n import translate_error
from pfeffer.web.jsondata import too_deep
from pfeffer.web.render import http_error, lang_of

MAX_BODY = 64 * 1024
"""Bytes of one JSON body; the largest the pages send (a new table) is about a kilobyte."""
JSON_TYPE = "application/json"
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def too_large(request: Request, limit: int) -> HTTPException:
    """The 413 refusal, naming the limit, in the request's language."""
    exc = TranslatableError.format(
        "The request is too large: the API takes at most {limit} bytes.", limit=limit
    )
    return HTTPException(413, translate_error(exc, lang_of(request)))


def not_json(request: Request) -> HTTPException:
    """The 415 refusal, in the request's language."""
    exc = TranslatableError.format(
        "The API takes JSON: send the body with the header Content-Type: {type}.",
        type=JSON_TYPE,
    )
    return HTTPException(415, translate_error(exc, lang_of(request)))


def media_type(headers: Headers) -> str:
    """The body's media type without its parameters (``; charset=utf-8``), in lower case."""
    return headers.get("content-type", "").split(";", 1)[0].strip().lower()


class JsonBodies:
    """The middleware: checks the size and type of every body sent to ``/api/``."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] not in BODY_METHODS
            or not scope["path"].startswith("/api/")
        ):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        length = headers.get("content-length")
        chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        request = Request(scope)
        refusal = None
        if length is not None and (not length.strip().isdigit() or int(length) > self.max_body):
            refusal = too_large(request, self.max_body)
        elif (chunked or (length is not None and int(length) > 0)) and media_type(
            headers
        ) != JSON_TYPE:
            refusal = not_json(request)
        if refusal is not None:
            response = await http_error(request, refusal)
            await response(scope, receive, send)
            return
        try:
            body = await self._read(request, receive)
            if body is None:  # the client went away before the body was whole
                return
            if too_deep(body):
                deep = TranslatableError.format("send a JSON object")  # as schemas.rest
                raise HTTPException(400, translate_error(deep, lang_of(request)))
        except HTTPException as exc:
            response = await http_error(request, exc)
            await response(scope, receive, send)
            return
        await self.app(scope, self._replay(body, receive), send)

    async def _read(self, request: Request, receive: Receive) -> bytes | None:
        """The whole body (None if the client went away first); past the limit, the 413
        refusal (the rest is never read)."""
        chunks: list[bytes] = []
        read = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None
            chunk = message.get("body", b"")
            read += len(chunk)
            if read > self.max_body:
                raise too_large(request, self.max_body)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    @staticmethod
    def _replay(body: bytes, receive: Receive) -> Receive:
        """``receive`` that gives the body read as one message, then what the client sends."""
        given = False

        async def replay() -> Message:
            nonlocal given
            if given:
                return await receive()
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        return replay
