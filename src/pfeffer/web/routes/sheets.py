"""Score sheets for games played at a real table: the JSON API (``/api/sheets...``) and the pages
(``/sheets``: a new sheet, ``/sheet/{id}``: one sheet). The sums and checks are the engines'
(``pfeffer.web.adapters.sheets``); entries and undos are written by
``pfeffer.web.services.sheets``, one transaction each. The app's manifest and service worker are in
``pfeffer.web.routes.pwa``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from pfeffer.web.adapters import sheets
from pfeffer.web.i18n import translate_error
from pfeffer.web.render import lang_of, render
from pfeffer.web.routes.deps import StoreDep, json_body, json_object
from pfeffer.web.services import sheets as sheet_service
from pfeffer.web.services.seating import MAX_NAME

router = APIRouter()


# ----------------------------------------------------------------- the API


@router.post("/api/sheets")
async def api_sheet_new(request: Request, store: StoreDep) -> JSONResponse:
    body = await json_object(request)
    try:
        kind, title, data = sheets.new_sheet(body)
    except ValueError as exc:
        raise HTTPException(400, translate_error(exc, lang_of(request))) from None
    row = await store.create_sheet(kind, title, data)
    return JSONResponse({"id": row.id, "url": f"/sheet/{row.id}"}, status_code=201)


@router.get("/api/sheets/{sheet_id}")
async def api_sheet(sheet_id: str, store: StoreDep) -> dict[str, Any]:
    row = await store.sheet(sheet_id)
    if row is None:
        raise HTTPException(404, "no such sheet")
    return sheets.present(row.game, row.title, row.data)


@router.post("/api/sheets/{sheet_id}/entries")
async def api_sheet_entry(request: Request, sheet_id: str, store: StoreDep) -> dict[str, Any]:
    if await store.sheet(sheet_id) is None:
        raise HTTPException(404, "no such sheet")
    body = await json_body(request)
    try:  # one transaction; an entry_id the sheet has already is acknowledged, not applied
        shown = await store.run(sheet_service.enter, store.sync, sheet_id, body)
    except ValueError as exc:
        raise HTTPException(400, translate_error(exc, lang_of(request))) from None
    if shown is None:
        raise HTTPException(404, "no such sheet")
    return shown


@router.post("/api/sheets/{sheet_id}/undo")
async def api_sheet_undo(sheet_id: str, store: StoreDep) -> dict[str, Any]:
    shown = await store.run(sheet_service.undo, store.sync, sheet_id)
    if shown is None:
        raise HTTPException(404, "no such sheet")
    return shown


# ----------------------------------------------------------------- the pages


@router.get("/sheets", response_class=HTMLResponse)
async def page_sheets(request: Request) -> HTMLResponse:
    return render(request, "sheets.html", error=None)


@router.post("/sheets")
async def page_sheets_post(request: Request, store: StoreDep) -> Response:
    form = await request.form()
    kind = str(form.get("game", "dice"))
    names = [str(form.get(f"name{i}", "")).strip() for i in range(8)]
    names = [n[:MAX_NAME] for n in names if n]
    try:
        k, title, data = sheets.new_sheet(
            {"game": kind, "title": str(form.get("title", ""))[:80], "players": names}
        )
    except ValueError as exc:
        return render(
            request, "sheets.html", status_code=400, error=translate_error(exc, lang_of(request))
        )
    row = await store.create_sheet(k, title, data)
    return RedirectResponse(f"/sheet/{row.id}", status_code=303)


@router.get("/sheet/{sheet_id}", response_class=HTMLResponse)
async def page_sheet(request: Request, sheet_id: str, store: StoreDep) -> HTMLResponse:
    row = await store.sheet(sheet_id)
    if row is None:
        raise HTTPException(404, "no such sheet")
    return render(request, "sheet.html", sheet=row)
