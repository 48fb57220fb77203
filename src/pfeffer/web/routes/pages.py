"""The HTML pages: the lobby, a new table's form, the host's page, the rules, a seat's and a
spectator's table, the history and a replay (the score sheets' pages are in ``sheets``)."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from pfeffer.core.errors import RulesError, TranslatableError
from pfeffer.core.rulespec import parse_form
from pfeffer.web.i18n import translate_error
from pfeffer.web.invite import qr_svg
from pfeffer.web.render import lang_of, render
from pfeffer.web.routes.deps import (
    HubDep,
    LobbyDep,
    SettingsDep,
    create_table,
    host_table,
    new_link,
    set_public,
)
from pfeffer.web.rules_text import RULES, RULES_INTRO
from pfeffer.web.services import newtable, trainer
from pfeffer.web.services.catalog import ADAPTERS, CHOICE_LABELS, adapter
from pfeffer.web.services.device import device_url
from pfeffer.web.services.errors import NoSuchTable, NotFinished
from pfeffer.web.services.lobby import is_public, share_key
from pfeffer.web.services.seating import GAME_NAMES, MAX_NAME, form_seats
from pfeffer.web.site import only_here

router = APIRouter()
STATIC = Path(__file__).resolve().parent.parent / "static"


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


PageNo = Annotated[int, Query(ge=1, le=100_000)]


@router.get("/", response_class=HTMLResponse)
async def page_lobby(
    request: Request, lobby: LobbyDep, hub: HubDep, settings: SettingsDep, page: PageNo = 1
) -> HTMLResponse:
    await hub.expire(settings.table_ttl)
    tables = await lobby.open_tables(page)
    today = datetime.datetime.now(datetime.UTC).date()
    puzzle = trainer.daily("dice", today, lang=lang_of(request))  # issue 23: the day's puzzle
    return render(request, "lobby.html", tables=tables.items, page=tables, max_name=MAX_NAME,
                  daily=puzzle)  # fmt: skip


def new_table_form(
    request: Request, kind: str, error: Any, preset: str | None = None
) -> HTMLResponse:
    """The form for a new table of ``kind`` (presets, seats, house rules under the chosen
    preset: web/services/newtable.py), with an error if any."""
    ad = adapter(kind)
    state = newtable.form_state(kind, preset, ad.bot_kinds()[0].key)
    if error is None and state.error is not None:
        error = translate_error(state.error, lang_of(request))
    return render(
        request,
        "new.html",
        kind=kind,
        options=ad.rule_specs(),
        form=state,
        choice_labels=CHOICE_LABELS,
        bots=ad.bot_kinds(),
        max_players=ad.max_players,
        min_players=ad.min_players,
        error=error,
        status_code=200 if error is None else 400,
    )


@router.get("/new/{kind}", response_class=HTMLResponse)
async def page_new(request: Request, kind: str, preset: str | None = None) -> HTMLResponse:
    if kind not in ADAPTERS:
        raise HTTPException(404, "no such game")
    return new_table_form(request, kind, error=None, preset=preset)


@router.post("/new/{kind}")
async def page_new_post(request: Request, kind: str, hub: HubDep) -> Response:
    if kind not in ADAPTERS:
        raise HTTPException(404, "no such game")
    ad = adapter(kind)
    form = await request.form()
    preset = str(form.get("preset") or "") or None  # the form shown again keeps it
    try:
        rules = parse_form(ad.rule_specs(), form)
    except RulesError as exc:
        return new_table_form(request, kind, translate_error(exc, lang_of(request)), preset)
    try:
        seats_in = form_seats(kind, form)
        hints = form.get("hints") is not None  # a checkbox: sent only when ticked
        table, _ = await create_table(hub, kind, rules, seats_in, lang_of(request), hints=hints)
    except TranslatableError as exc:
        return new_table_form(request, kind, translate_error(exc, lang_of(request)), preset)
    except HTTPException as exc:
        return new_table_form(request, kind, exc.detail, preset)
    return RedirectResponse(f"/table/{table.id}/{table.admin_token}", status_code=303)


@router.get("/table/{table_id}/{admin_token}", response_class=HTMLResponse)
async def page_admin(
    request: Request, table_id: str, admin_token: str, lobby: LobbyDep, settings: SettingsDep
) -> HTMLResponse:
    t = await host_table(lobby, table_id, admin_token)
    # The public URL, or the address asked for if the server is served there: never a Host
    # header made up by the client (web/site.py).
    base = settings.site.link_base(request.url.scheme, request.headers.get("host", ""))
    labels = {b.key: b.label for b in adapter(t.game).bot_kinds()}
    seats = await lobby.seats(table_id)
    links = {s.seat: f"{base}/play/{table_id}/{s.token}" for s in seats if s.kind == "human"}
    return render(
        request,
        "admin.html",
        table=t,
        seats=seats,
        base=base,
        links=links,
        qr={seat: qr_svg(url) for seat, url in links.items()},
        bot_labels=labels,
        device_url=device_url(table_id, admin_token),  # pepper-table: one device for the table
        # A private table's replay, record and review: for whom the host sends this link.
        share_url=None if is_public(seats) else f"/replay/{table_id}?token={share_key(t)}",
        # Links a phone cannot open (localhost): the page says so, and how to let phones in.
        only_here=only_here(base),
        local_only=settings.site.local_only,
        host_path=request.url.path,
    )


@router.get("/rules/{kind}", response_class=HTMLResponse)
async def page_rules(request: Request, kind: str) -> HTMLResponse:
    if kind not in RULES:
        raise HTTPException(404, "no such page")
    specs = adapter(kind).rule_specs()
    return render(
        request,
        "rules.html",
        kind=kind,
        game_name=GAME_NAMES[kind],
        games=GAME_NAMES,  # both games' rules, one tap apart
        intro=RULES_INTRO[kind],
        rules=RULES[kind],
        house={r.id: [s for s in specs if s.rule == r.id] for r in RULES[kind]},
        choice_labels=CHOICE_LABELS,
    )


@router.post("/table/{table_id}/{admin_token}/seat/{seat}/{what}")
async def page_host_seat(
    request: Request,
    table_id: str,
    admin_token: str,
    seat: int,
    what: str,
    *,
    hub: HubDep,
    lobby: LobbyDep,
) -> Response:
    await host_table(lobby, table_id, admin_token)
    if what == "link":
        await new_link(hub, table_id, seat)
    elif what in ("public", "private"):
        await set_public(hub, table_id, seat, what == "public")
    else:
        raise HTTPException(404, "no such page")
    return RedirectResponse(f"/table/{table_id}/{admin_token}#seat{seat}", status_code=303)


@router.get("/play/{table_id}/{token}", response_class=HTMLResponse)
async def page_play(request: Request, table_id: str, token: str, lobby: LobbyDep) -> HTMLResponse:
    found = await lobby.seat_table(table_id, token)
    if found is None:
        # A friend whose link the host replaced reads what to do (issue 22 §2).
        raise HTTPException(
            404,
            "This link is not valid for this table. If the host replaced it, "
            "ask them for the new link.",
        )
    t, row = found
    if t.status == "expired":
        raise HTTPException(410, "this table expired: nobody played at it for a week")
    return render(request, "play.html", table=t, token=token, seat=row.seat)


@router.get("/watch/{table_id}", response_class=HTMLResponse)
async def page_watch(request: Request, table_id: str, lobby: LobbyDep) -> HTMLResponse:
    t = await lobby.table(table_id)
    if t is None:
        raise HTTPException(404, "no such table")
    if t.status == "expired":
        raise HTTPException(410, "this table expired: nobody played at it for a week")
    return render(request, "play.html", table=t, token="", seat=None)


@router.get("/history", response_class=HTMLResponse)
async def page_history(request: Request, lobby: LobbyDep, page: PageNo = 1) -> HTMLResponse:
    games = await lobby.history(page)
    return render(request, "history.html", games=games.items, page=games)


@router.get("/replay/{table_id}", response_class=HTMLResponse)
async def page_replay(
    request: Request, table_id: str, lobby: LobbyDep, token: str | None = None
) -> HTMLResponse:
    try:  # a private game's replay is for its seats (and whom the host shares it with)
        t = await lobby.finished_table(table_id, token)
    except NoSuchTable:
        raise HTTPException(404, "no such table") from None
    except NotFinished:
        request.state.error_link = (f"/watch/{table_id}", "Watch this game")
        raise HTTPException(409, "replays are available when the game is over") from None
    return render(request, "replay.html", table=t, token=token or "")


@router.post("/play-now/{kind}")
async def page_play_now(request: Request, kind: str, hub: HubDep) -> Response:
    """One click from the home page: a table with you and computer players, your seat."""
    if kind not in ADAPTERS:
        raise HTTPException(404, "no such game")
    form = await request.form()
    rules, seats_in = newtable.play_now(kind, form.get("name"))  # the name the visitor gave
    # Against the computer nobody minds a hint: the advisor is on (an online table's host
    # switches it on in the form).
    table, seats = await create_table(hub, kind, rules, seats_in, lang_of(request), hints=True)
    mine = next(s for s in seats if s.kind == "human")
    return RedirectResponse(f"/play/{table.id}/{mine.token}", status_code=303)
