"""Score sheets for people who play with real dice or real cards and only write results down.

This module only translates between HTTP bodies and the engines' own score sheets; no rule lives
here. Dice: :class:`pfeffer.dice.sheet.DiceSheet` (turn results, stakes, penalties, Auto-Pfeffer,
final round, winner); the stored data is its dice game record. Pepper:
:class:`pfeffer.pepper.sheet.PepperSheet` (bidder, bid, trump and tricks per side; points by the
engine's ``score_hand``, the end by ``winners_of``); the stored data is its ``pepper-sheet``
record.
"""

from __future__ import annotations

from typing import Any

from pfeffer.core.errors import ActionError, TranslatableError
from pfeffer.dice import DiceRules
from pfeffer.dice.sheet import DiceSheet
from pfeffer.pepper import PepperRules, bid_ladder, cards_per_hand
from pfeffer.pepper.sheet import PepperSheet
from pfeffer.web.games import dice_view

MAX_TITLE = 80


def new_sheet(body: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """Check a request for a new sheet; returns (game, title, initial data)."""
    kind = body.get("game")
    players = body.get("players")
    title = str(body.get("title") or "")[:MAX_TITLE]
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise TranslatableError("players: a list of names")
    names = [p.strip()[:40] for p in players]
    rules = body.get("rules") or {}
    if not isinstance(rules, dict):
        raise TranslatableError("rules: an object of house rules")
    try:
        if kind == "dice":
            return "dice", title, DiceSheet(names, DiceRules.from_dict(rules)).to_record()
        if kind == "pepper":
            return "pepper", title, PepperSheet(names, PepperRules.from_dict(rules)).to_record()
    except TranslatableError:
        raise  # IllegalAction or RulesError: a ValueError the server translates
    except (ValueError, TypeError) as exc:
        raise ValueError(str(exc)) from None
    raise TranslatableError("game must be 'dice' or 'pepper'")


# ------------------------------------------------------------------ dice


def _dice_add(data: dict[str, Any], body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise TranslatableError('send an object like {"points": 450, "pfeffer": false}')
    sheet = DiceSheet.from_json(data)
    points = body.get("points")
    bust = bool(body.get("bust")) or points is None
    if not bust and (isinstance(points, bool) or not isinstance(points, int)):
        raise TranslatableError("points: a whole number, or bust")
    sheet.enter(None if bust else points, pfeffer=bool(body.get("pfeffer")))
    return sheet.to_record()


def _dice_present(data: dict[str, Any]) -> dict[str, Any]:
    sheet = DiceSheet.from_json(data)
    view = sheet.view()
    return {
        "players": list(sheet.players),
        # The rows, the points step of an entry, the Pfeffer offer: all from the engine's view.
        "view": dice_view(view),
        "can_pfeffer": view.can_call_pfeffer,
    }


# ------------------------------------------------------------------ pepper


def _pepper_add(data: dict[str, Any], body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise TranslatableError("send an object with bidder, bid, trump and tricks")
    sheet = PepperSheet.from_json(data)
    if body.get("passed") is True:  # a hand everybody passed (house rule all_pass="redeal")
        sheet.enter_passed()
        return sheet.to_record()
    bid, trump, tricks = body.get("bid"), body.get("trump"), body.get("tricks")
    if not isinstance(bid, int | str) or not isinstance(trump, str) or not isinstance(tricks, list):
        raise TranslatableError(
            "send bidder (a seat), bid, trump and tricks (a list, one per side)"
        )
    sheet.enter(body.get("bidder"), bid, trump, tricks)  # type: ignore[arg-type]
    return sheet.to_record()


def _pepper_present(data: dict[str, Any]) -> dict[str, Any]:
    sheet = PepperSheet.from_json(data)
    n = len(sheet.players)
    rows = [
        {
            "number": r.hand_number,
            "bidder": r.bidder,
            "bid": r.bid,
            "trump": r.trump,
            "tricks": list(r.tricks),
            "points": list(r.points),
            "scores": list(r.scores),
        }
        for r in sheet.rows()
    ]
    return {
        "players": list(sheet.players),
        "rows": rows,
        "scores": sheet.totals,
        "winners": sheet.winners,
        "side_names": sheet.side_names,
        "winner_names": [sheet.side_names[w] for w in sheet.winners],
        "is_over": sheet.is_over,
        "bids": list(bid_ladder(n)),
        "trumps": list(sheet.rules.trumps),
        "can_enter_passed": sheet.rules.all_pass == "redeal",
        "tricks_per_hand": cards_per_hand(n),
        "rules": sheet.rules.to_dict(),
    }


# ------------------------------------------------------------------ dispatch


def add_entry(kind: str, data: dict[str, Any], body: Any) -> dict[str, Any]:
    """The sheet data with one more entry; ValueError (with a clear message) if impossible: the
    engine's IllegalAction (a ValueError) passes through, for the server to translate."""
    return _dice_add(data, body) if kind == "dice" else _pepper_add(data, body)


def undo(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The sheet data without its last entry (unchanged if there is none)."""
    sheet = DiceSheet.from_json(data) if kind == "dice" else PepperSheet.from_json(data)
    try:
        sheet.undo()
    except ActionError:
        return data
    return sheet.to_record()


def present(kind: str, title: str, data: dict[str, Any]) -> dict[str, Any]:
    """What a sheet page shows."""
    body = _dice_present(data) if kind == "dice" else _pepper_present(data)
    return {"game": kind, "title": title, **body}
