"""The JSON shapes the server sends: table summaries (lobby, history), the answer to a new table
and a replay step (the state frames are ``services.live.state_frame``).

Only shapes live here: what a seat may see comes from the engine's ``view(seat)`` through the
table's adapter (``games.py``); nothing here reads a request or the database.
"""

from __future__ import annotations

from typing import Any

from pfeffer.web.adapters.games import Table, adapter
from pfeffer.web.storage.repository import SeatRow, TableRow


def table_summary(t: TableRow, seats: list[SeatRow]) -> dict[str, Any]:
    """A table as the lobby, the history and ``GET /api/tables/{id}`` list it."""
    labels = {b.key: b.label for b in adapter(t.game).bot_kinds()}
    return {
        "id": t.id,
        "game": t.game,
        "status": t.status,
        "created": t.created_at.isoformat() + "Z",
        "finished": t.finished_at.isoformat() + "Z" if t.finished_at else None,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot,
                "bot_label": labels.get(s.bot, s.bot) if s.bot else None,
                # Offered in the lobby: a human seat the host opened to the public, not taken.
                "free": s.kind == "human" and s.public and not s.claimed,
            }
            for s in seats
        ],
        "winners": t.winners,
        "scores": t.scores,
        "hints": t.hints,
    }


def winner_names(t: TableRow, seats: list[SeatRow]) -> list[str]:
    """Names of the winning sides (teams as "Ann & Cy"), as the game names its sides."""
    sides = adapter(t.game).side_names([s.name for s in seats])
    return [sides[w] for w in t.winners or []]


def history_entry(t: TableRow, seats: list[SeatRow]) -> dict[str, Any]:
    """A finished game as the history lists it: its summary and the winners' names."""
    return {**table_summary(t, seats), "winner_names": winner_names(t, seats)}


def created_table(table: TableRow, seats: list[SeatRow]) -> dict[str, Any]:
    """The answer to ``POST /api/tables``: the host's token and every human seat's link."""
    return {
        "id": table.id,
        "admin_token": table.admin_token,
        "host_token": table.admin_token,  # revokes and reissues links, opens seats
        "host_url": f"/table/{table.id}/{table.admin_token}",
        "spectator_url": f"/watch/{table.id}",
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                **(
                    {
                        "token": s.token,
                        "url": f"/play/{table.id}/{s.token}",
                        "public": s.public,
                    }
                    if s.kind == "human"
                    else {}
                ),
            }
            for s in seats
        ],
    }


def replay_step(
    t: TableRow,
    seats: list[SeatRow],
    table: Table,
    *,
    step: int,
    actions: list[str],
    acted_by: list[int | None],
    log_before: int = 0,
) -> dict[str, Any]:
    """Step ``step`` of a finished game's replay: ``table`` holds the game after the first
    ``step`` of its ``actions`` (``acted_by``: the seat that took each; ``log_before``: how many
    log events the game had before that step's action, so that ``events`` holds the events the
    action added, which the page shows as sentences as the table's log does)."""
    view = table.reveal()  # the game is over: every hand may be shown
    start = view["log_count"] - len(view["log"])  # the index in the whole log of view["log"][0]
    return {
        "step": step,
        "steps": len(actions),
        "action": actions[step - 1] if step else None,
        "seat": acted_by[step - 1] if step else None,  # who took that action
        "names": [s.name for s in seats],
        "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in seats],
        "game": t.game,
        "view": view,
        "events": view["log"][max(0, log_before - start) :] if step else [],
    }
