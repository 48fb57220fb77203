"""One device for the whole table: every human seat of a table played in one browser (a tablet
passed round), reached from the host page at ``/device/<table>/<host token>``.

The page (``templates/device.html``, ``static/device.js``) opens one WebSocket per human seat with
that seat's token, exactly as the seat's own link would, and one without a token (the spectator's
view) for the moments when nobody holds the device yet. Every seat therefore gets its own frames,
built from ``view(seat)``; the page shows the frames of the seat whose turn it is. Between the
turns of two different people it shows a full-screen "Pass the device to Anna" screen and removes
the table from the page (no hand stays in the DOM) until Anna taps "I am Anna".

The page needs the host token, which already gives every seat's link, so it opens nothing the
host could not open before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pfeffer.web.storage.repository import SeatRow


def device_url(table_id: str, host_token: str) -> str:
    """The one-device page of a table.

    >>> device_url("t1", "k")
    '/device/t1/k'
    """
    return f"/device/{table_id}/{host_token}"


def device_seats(seats: Sequence[SeatRow]) -> list[dict[str, Any]]:
    """The seats the device plays, in seat order: every human seat with its name and token
    (computer players move by themselves)."""
    return [
        {"seat": s.seat, "name": s.name, "token": s.token}
        for s in sorted(seats, key=lambda s: s.seat)
        if s.kind == "human"
    ]
