"""Score sheets for games played at a real table: the JSON API (``/api/sheets...``) and the pages
(``/sheets``: a new sheet, ``/sheet/{id}``: one sheet). The sums and checks are the engines'
(``pfeffer.web.adapters.sheets``); entries and undos are written by
``pfeffer.web.services.sheets``, one transaction each. The app's manifest and service worker are in
``pfeffer.web.routes.pwa``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from pfeffer.web.i18n import translate_error
from pfeffer.web.render import lang_of, render
from pfeffer.web.routes.deps import SheetsDep
from pfeffer.web.schemas.rest import NewSheet, Sheet, SheetCreated, SheetEntry
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
