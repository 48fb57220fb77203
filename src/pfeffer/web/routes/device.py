"""The one-device page: every human seat of a table in one browser
(``pfeffer.web.services.device``)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from pfeffer.web.render import render
from pfeffer.web.routes.deps import LobbyDep, host_table
from pfeffer.web.services.catalog import adapter
from pfeffer.web.services.device import device_seats

router = APIRouter()


@router.get("/device/{table_id}/{host_token}", response_class=HTMLResponse)
async def page_device(
    request: Request, table_id: str, host_token: str, lobby: LobbyDep
) -> HTMLResponse:
    """The table played on one device: only the host's key opens it."""
    t = await host_table(lobby, table_id, host_token)
    if t.status == "expired":
        raise HTTPException(410, "this table expired: nobody played at it for a week")
    seats = device_seats(await lobby.seats(table_id))
    host = f"/table/{table_id}/{host_token}"
    # A pass screen between two players only where a seat sees what the others must not.
    hides = adapter(t.game).private_hands
    return render(request, "device.html", table=t, device_seats=seats, host_url=host, hides=hides)
