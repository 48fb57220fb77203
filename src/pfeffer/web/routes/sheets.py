"""Score sheets for games played at a real table: the JSON API (``/api/sheets...``) and the pages
(``/sheets``: a new sheet, ``/sheet/{id}``: one sheet). The sums and checks are the engines'
(``pfeffer.web.adapters.sheets``); entries and undos are written by
``pfeffer.web.services.sheets``, one transaction each. The app's manifest and service worker are in
``pfeffer.web.routes.pwa``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from pfeffer.core.entries import EntryCheck
from pfeffer.web.i18n import translate_error, translations
from pfeffer.web.render import lang_of, render
from pfeffer.web.routes.deps import SheetsDep
from pfeffer.web.schemas.rest import NewSheet, Sheet, SheetCreated, SheetEntry, SheetEntryCheck
from pfeffer.web.services.seating import MAX_NAME

router = APIRouter()


# ----------------------------------------------------------------- the API


@router.post("/api/sheets", status_code=201, response_model=SheetCreated)
async def api_sheet_new(request: Request, body: NewSheet, sheets: SheetsDep) -> dict[str, Any]:
    try:
        row = await sheets.create(body.model_dump(exclude_unset=True))
    except ValueError as exc:
        raise HTTPException(400, translate_error(exc, lang_of(request))) from None
    return {"id": row.id, "url": f"/sheet/{row.id}"}


@router.get("/api/sheets/{sheet_id}", response_model=Sheet)
async def api_sheet(sheet_id: str, sheets: SheetsDep) -> dict[str, Any]:
    shown = await sheets.shown(sheet_id)
    if shown is None:
        raise HTTPException(404, "no such sheet")
    return shown


@router.post("/api/sheets/{sheet_id}/entries", response_model=Sheet)
async def api_sheet_entry(
    request: Request, sheet_id: str, body: SheetEntry, sheets: SheetsDep
) -> dict[str, Any]:
    if await sheets.sheet(sheet_id) is None:
        raise HTTPException(404, "no such sheet")
    try:  # one transaction; an entry_id the sheet has already is acknowledged, not applied
        shown = await sheets.enter(sheet_id, body.data())
    except ValueError as exc:
        raise HTTPException(400, translate_error(exc, lang_of(request))) from None
    if shown is None:
        raise HTTPException(404, "no such sheet")
    return shown


@router.post("/api/sheets/{sheet_id}/check", response_model=SheetEntryCheck)
async def api_sheet_check(
    request: Request, sheet_id: str, body: SheetEntry, sheets: SheetsDep
) -> dict[str, Any]:
    """What an entry would do, without entering it: the page asks the players to confirm one
    that ends the game, reaches the target or looks like a typo (a slip of the finger must not
    declare a winner). The body is an entry as ``/entries`` takes it."""
    try:
        found = await sheets.check(sheet_id, body.data())
    except ValueError as exc:
        raise HTTPException(400, translate_error(exc, lang_of(request))) from None
    if found is None:
        raise HTTPException(404, "no such sheet")
    check, who = found
    return {**check.to_dict(), "question": entry_question(check, who, lang_of(request))}


def entry_question(check: EntryCheck, who: str, lang: str) -> str:
    """The question the page asks before an entry that needs confirmation ("" if none)."""
    t = translations(lang)
    if check.unusual:
        return t.gettext(
            "%(points)s points in one turn? One turn in 100,000 makes that much. Enter it?"
        ) % {"points": check.points}
    if check.ends_game:
        return t.ngettext(
            "This entry ends the game: %(names)s wins with %(total)s. Enter it?",
            "This entry ends the game: %(names)s win with %(total)s. Enter it?",
            len(check.winners),
        ) % {"names": ", ".join(check.winners), "total": check.winners_total}
    if check.reaches_target:
        return t.gettext(
            "With this entry %(name)s reaches %(total)s, the target: the final round starts. "
            "Enter it?"
        ) % {"name": who, "total": check.total}
    return ""


@router.post("/api/sheets/{sheet_id}/undo", response_model=Sheet)
async def api_sheet_undo(sheet_id: str, sheets: SheetsDep) -> dict[str, Any]:
    shown = await sheets.undo(sheet_id)
    if shown is None:
        raise HTTPException(404, "no such sheet")
    return shown


# ----------------------------------------------------------------- the pages


@router.get("/sheets", response_class=HTMLResponse)
async def page_sheets(request: Request) -> HTMLResponse:
    return render(request, "sheets.html", error=None)


@router.post("/sheets")
async def page_sheets_post(request: Request, sheets: SheetsDep) -> Response:
    form = await request.form()
    kind = str(form.get("game", "dice"))
    names = [str(form.get(f"name{i}", "")).strip() for i in range(8)]
    names = [n[:MAX_NAME] for n in names if n]
    try:
        row = await sheets.create(
            {"game": kind, "title": str(form.get("title", ""))[:80], "players": names}
        )
    except ValueError as exc:
        return render(
            request, "sheets.html", status_code=400, error=translate_error(exc, lang_of(request))
        )
    return RedirectResponse(f"/sheet/{row.id}", status_code=303)


@router.get("/sheet/{sheet_id}", response_class=HTMLResponse)
async def page_sheet(request: Request, sheet_id: str, sheets: SheetsDep) -> HTMLResponse:
    row = await sheets.sheet(sheet_id)
    if row is None:
        raise HTTPException(404, "no such sheet")
    return render(request, "sheet.html", sheet=row)
