"""The puzzle trainer in the browser (issue 23): the page ``/train`` and its API.

- ``POST /api/train/next``: the next puzzles for the player whose progress is sent (the page
  keeps ten ahead, for working offline);
- ``POST /api/train/answer``: an answer checked on the server: right or not, every option's
  chance to win, the sentences to learn from, the rating change and the progress to keep;
- ``GET /api/train/daily``: the day's puzzle (also on the home page).

``next`` and ``answer`` take ``rules``: a dice preset whose house rules have a solved table, or
a Pepper house rule (``all_pass=redeal``: the page's rules picker); its puzzles are made on the
server once per rules key (Pepper's in a worker process: ``next`` says ``"preparing": true``
meanwhile).

The server keeps nothing of a player: the page keeps the progress in local storage
(``services/trainer.py``); it keeps every answer as an attempt, with no player's name or id,
and the puzzles' ratings pooled over them (``services/training.py``)."""

from __future__ import annotations

import datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from pfeffer.core.errors import ActionError, TranslatableError
from pfeffer.web.i18n import translate_error, translations
from pfeffer.web.render import lang_of, render
from pfeffer.web.routes.deps import TrainerDep
from pfeffer.web.schemas.train import TrainAnswer, TrainGame, TrainNext
from pfeffer.web.services import trainer

router = APIRouter()
NO_THEME = "theme: no such theme of this game."
NO_PUZZLE = "puzzle: no puzzle of this game has that id."
NO_RULES = "rules: no solved table for these rules."


def refuse(request: Request, exc: TranslatableError) -> HTTPException:
    return HTTPException(400, translate_error(exc, lang_of(request)))


@router.post("/api/train/next")
async def api_next(request: Request, body: TrainNext, service: TrainerDep) -> dict[str, Any]:
    lang = lang_of(request)
    try:
        return await service.next(body.game, body.progress, lang=lang, theme=body.theme,
                                  count=body.count, exclude=body.exclude,
                                  rules=body.rules)  # fmt: skip
    except trainer.BadProgress as exc:
        raise refuse(request, exc) from None
    except KeyError as exc:
        no = NO_RULES if body.rules and exc.args == (body.rules,) else NO_THEME
        raise HTTPException(400, translations(lang).gettext(no)) from None


@router.post("/api/train/answer")
async def api_answer(request: Request, body: TrainAnswer, service: TrainerDep) -> dict[str, Any]:
    lang = lang_of(request)
    try:
        return await service.answer(body.game, body.puzzle, body.answer, body.progress,
                                    lang=lang, rules=body.rules)  # fmt: skip
    except (trainer.BadProgress, ActionError) as exc:
        raise refuse(request, exc) from None
    except trainer.NoSuchPuzzle:
        raise HTTPException(404, translations(lang).gettext(NO_PUZZLE)) from None


@router.get("/api/train/daily")
async def api_daily(
    request: Request, service: TrainerDep, game: TrainGame = "dice"
) -> dict[str, Any]:
    today = datetime.datetime.now(datetime.UTC).date()
    return await service.daily(game, today, lang=lang_of(request))


@router.get("/train", response_class=HTMLResponse)
async def page_train(request: Request) -> HTMLResponse:
    lang = lang_of(request)
    games = [
        {"key": g, "themes": trainer.theme_list(g, lang), "rules": trainer.rules_list(g, lang)}
        for g in trainer.GAMES
    ]
    return render(request, "train.html", games=games)
