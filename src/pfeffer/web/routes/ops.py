"""For the operator and the proxy: ``/healthz`` (the process answers), ``/readyz`` (its
dependencies answer: the database, and whatever else ``app.state.readiness`` lists) and
``/metrics`` (Prometheus). Not in the OpenAPI schema: they are no part of the game's API."""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from pfeffer.web.observability import Metrics, ReadinessCheck

router = APIRouter(include_in_schema=False)
log = logging.getLogger("pfeffer.web.ready")


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up and its event loop answers."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Ready for traffic: every check of ``app.state.readiness`` passes (503 otherwise). The
    answer says only that: what failed, with the database's or Redis' address in its error,
    goes to the log, since anyone may ask (issue 20, 1.10)."""
    checks: list[tuple[str, ReadinessCheck]] = request.app.state.readiness
    results = await asyncio.gather(*(check() for _, check in checks), return_exceptions=True)
    failed = {
        name: f"{type(result).__name__}: {result}"[:200]
        for (name, _), result in zip(checks, results, strict=True)
        if result is not None
    }
    if failed:
        log.warning(
            "not ready: %s",
            ", ".join(failed),
            extra={"event": "not_ready", "checks": failed},
        )
    return JSONResponse(
        {"status": "unavailable" if failed else "ready"}, status_code=503 if failed else 200
    )


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """The app's metrics in Prometheus' text format."""
    m: Metrics = request.app.state.metrics
    return Response(generate_latest(m.registry), media_type=CONTENT_TYPE_LATEST)
