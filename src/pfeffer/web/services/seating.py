"""Who sits at a new table: the seats of ``POST /api/tables`` (JSON) and of the new-table form,
checked against the game's seat counts and computer players. Errors are TranslatableErrors with
a message the host understands; nothing is quietly changed."""

from __future__ import annotations

from typing import Any

from pfeffer.core.errors import TranslatableError
from pfeffer.core.rulespec import shown
from pfeffer.core.text import check_text
from pfeffer.web.adapters.games import adapter
from pfeffer.web.i18n import translations
from pfeffer.web.storage.repository import SeatSpec

MAX_NAME = 40
GAME_NAMES = {"dice": "Würfel-Pfeffer", "pepper": "Pepper"}


def clean_name(value: Any, default: str) -> str:
    """A player's name as given (white space folded and trimmed, at most MAX_NAME characters),
    else ``default``; :class:`~pfeffer.core.text.UnsafeText` for a name that is not a text or
    holds a character that cannot be kept (a lone surrogate, NUL, a control or direction
    character).

    >>> clean_name("  Anna  ", "Player 1"), clean_name(None, "Player 1")
    ('Anna', 'Player 1')
    """
    if value is None:
        return default
    return check_text(value, field="Name")[:MAX_NAME] or default


def seat_count_error(kind: str) -> TranslatableError:
    """The error for a number of seats the game does not have."""
    ad = adapter(kind)
    return TranslatableError.format(
        "{game}: {low} to {high} seats",
        game=GAME_NAMES[kind],
        low=ad.min_players,
        high=ad.max_players,
    )


def parse_seats(
    kind: str, raw: Any, lang: str = "en", *, computer_only: bool = False
) -> list[SeatSpec]:
    """The seats of ``POST /api/tables`` (a seat without a name is named in ``lang``). A table
    needs a human seat unless ``computer_only`` (tests): computer players alone would play
    at full speed with nobody there (issue 20 §1.7: 110 such tables took both cores)."""
    ad = adapter(kind)
    if not isinstance(raw, list) or not ad.min_players <= len(raw) <= ad.max_players:
        raise seat_count_error(kind)
    out = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict):
            raise TranslatableError("each seat is an object")
        seat_kind = s.get("kind", "human")
        if seat_kind not in ("human", "bot"):
            raise TranslatableError.format(
                "{kind} is not a kind of seat: a seat is 'human' or 'bot'.",
                kind=shown(seat_kind),
            )
        kinds = [b.key for b in ad.bot_kinds()]  # the game's bot registry, the default first
        bot = s.get("bot", kinds[0]) if seat_kind == "bot" else None
        if bot is not None and bot not in kinds:
            raise TranslatableError.format("computer players: {kinds}", kinds=", ".join(kinds))
        gt = translations(lang).gettext  # a seat without a name is named in the host's language
        default = (gt("Bot %(n)s") if seat_kind == "bot" else gt("Player %(n)s")) % {"n": i + 1}
        public = seat_kind == "human" and s.get("public") is True
        out.append(SeatSpec(clean_name(s.get("name"), default), seat_kind, bot, public))
    if not computer_only and all(s.kind == "bot" for s in out):
        raise TranslatableError("At least one seat must be played by a human.")
    return out


def form_seats(kind: str, form: Any) -> list[dict[str, Any]]:
    """The seats of the new-table form; TranslatableError for a count out of range or a kind of
    seat the game does not have (nothing is quietly changed)."""
    ad = adapter(kind)
    raw = str(form.get("players", "")).strip()
    n = int(raw) if raw.isdigit() and len(raw) < 3 else 0
    if not ad.min_players <= n <= ad.max_players:
        raise seat_count_error(kind)
    bot_keys = {b.key for b in ad.bot_kinds()}
    seats = []
    for i in range(n):
        who = str(form.get(f"seat{i}_kind", "human"))
        if who in ("human", "public"):
            seat: dict[str, Any] = {"kind": "human", "public": who == "public"}
        elif who in bot_keys:
            seat = {"kind": "bot", "bot": who}
        else:
            raise TranslatableError.format(
                "{kind} is not a kind of seat: a seat is 'human' or 'bot'.", kind=shown(who)
            )
        seat["name"] = str(form.get(f"seat{i}_name", ""))
        seats.append(seat)
    return seats
