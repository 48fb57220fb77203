"""Score sheets (the service of ``routes/sheets.py``): a new sheet, a sheet as shown, and the
writes, each one transaction of the store: read the sheet, let the
engine take the entry (:mod:`pfeffer.web.adapters.sheets`), write it back. Between reading and
writing nothing else runs on the sheet (a locked row on PostgreSQL; no ``await`` in between in this
single-process server), so entries sent at once by two phones are both kept, in the order the
server took them, and an entry sent twice with one ``entry_id`` counts once."""

from __future__ import annotations

from typing import Any

from pfeffer.core.entries import EntryCheck
from pfeffer.web.adapters import sheets
from pfeffer.web.storage.aio import AsyncStore
from pfeffer.web.storage.repository import SheetRow, Store

Change = tuple[dict[str, Any], list[str]] | None


def enter(store: Store, sheet_id: str, body: Any) -> dict[str, Any] | None:
    """Add one entry; what the sheet page shows afterwards, or None if there is no such sheet.
    With an ``entry_id`` the answer also says it and whether this request ``applied`` the entry
    (False: the sheet had it already). The engine's ValueError passes on and nothing changes."""
    eid = sheets.entry_id(body)  # checked first: a malformed id changes nothing
    applied = False

    def change(game: str, data: dict[str, Any], ids: list[str]) -> Change:
        nonlocal applied
        new, new_ids, applied = sheets.add_entry_once(game, data, ids, body)
        return (new, new_ids) if applied else None

    row = store.change_sheet(sheet_id, change)
    if row is None:
        return None
    shown = sheets.present(row.game, row.title, row.data)
    if eid is not None:
        shown |= {"entry_id": eid, "applied": applied}
    return shown


def undo(store: Store, sheet_id: str) -> dict[str, Any] | None:
    """Take back the last entry (nothing if there is none); the sheet as shown afterwards, or
    None if there is no such sheet. The ids of undone entries stay remembered: an undone entry
    that arrives again is not put back."""
    row = store.change_sheet(sheet_id, lambda game, data, ids: (sheets.undo(game, data), ids))
    return None if row is None else sheets.present(row.game, row.title, row.data)


class Sheets:
    """The score sheets on the app's store (each call off the event loop). The engines' checks
    (``adapters.sheets``) raise ValueErrors the routes word for the page."""

    def __init__(self, db: AsyncStore) -> None:
        self.db = db

    async def create(self, body: Any) -> SheetRow:
        """A new sheet from ``{"game", "title", "players"}``; ValueError if the engine refuses."""
        kind, title, data = sheets.new_sheet(body)
        return await self.db.create_sheet(kind, title, data)

    async def sheet(self, sheet_id: str) -> SheetRow | None:
        """The sheet's row (for its page), or None."""
        return await self.db.sheet(sheet_id)

    async def shown(self, sheet_id: str) -> dict[str, Any] | None:
        """The sheet as the API shows it, or None."""
        row = await self.db.sheet(sheet_id)
        return None if row is None else sheets.present(row.game, row.title, row.data)

    async def enter(self, sheet_id: str, body: Any) -> dict[str, Any] | None:
        """One entry in one transaction (:func:`enter`)."""
        return await self.db.run(enter, self.db.sync, sheet_id, body)

    async def check(self, sheet_id: str, body: Any) -> tuple[EntryCheck, str] | None:
        """What an entry would do, without entering it, and whose it is (a player's or a side's
        name); None if there is no such sheet; the engine's ValueError passes on."""
        row = await self.db.sheet(sheet_id)
        if row is None:
            return None
        check = sheets.check_entry(row.game, row.data, body)
        return check, sheets.entry_player(row.game, row.data, body)

    async def undo(self, sheet_id: str) -> dict[str, Any] | None:
        """Take back the last entry in one transaction (:func:`undo`)."""
        return await self.db.run(undo, self.db.sync, sheet_id)
