"""Score sheets for people who play with real dice or real cards and only write results down.

This module only translates between HTTP bodies and the engines' own score sheets; no rule lives
here. Dice: :class:`pfeffer.dice.sheet.DiceSheet` (turn results, stakes, penalties, Auto-Pfeffer,
final round, winner); the stored data is its dice game record. Pepper:
:class:`pfeffer.pepper.sheet.PepperSheet` (bidder, bid, trump and tricks per side; points by the
engine's ``score_hand``, the end by ``winners_of``); the stored data is its ``pepper-sheet``
record.

Every entry may carry a client-made ``entry_id`` (a phone that kept entries while offline sends
each with its id): :func:`add_entry_once` applies an entry whose id the sheet has not seen and
only acknowledges one it has, so an entry sent twice (a lost answer, a retry) counts once.
"""

from __future__ import annotations

import re
from typing import Any

from pfeffer.core.entries import EntryCheck
from pfeffer.core.errors import ActionError, TranslatableError
from pfeffer.core.text import check_text
from pfeffer.dice import DiceRules
from pfeffer.dice.sheet import DiceSheet
from pfeffer.pepper import PepperRules, bid_ladder, cards_per_hand, side_of
from pfeffer.pepper.sheet import PepperSheet
from pfeffer.web.adapters.games import dice_view

MAX_TITLE = 80
# A client's id of one entry: long enough to be unique by chance (sheet.js sends 32 hex digits).
ENTRY_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def new_sheet(body: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """Check a request for a new sheet; returns (game, title, initial data)."""
    kind = body.get("game")
    players = body.get("players")
    title = check_text(body.get("title") or "", field="Title")[:MAX_TITLE]
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise TranslatableError("players: a list of names")
    names = [check_text(p, field="Name")[:40] for p in players]
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
        # Whether these house rules let anybody call Pfeffer at all: a phone that holds entries
        # offline (and so does not know the state after them) offers the call only then.
        "may_call_pfeffer": sheet.rules.pfeffer,
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


# ------------------------------------------------------------------ checks before an entry


def check_entry(kind: str, data: dict[str, Any], body: Any) -> EntryCheck:
    """What an entry would do (the engine's ``check``: ends the game, reaches the target, looks
    like a typo), without entering it; the same ValueErrors as :func:`add_entry`."""
    if kind == "dice":
        if not isinstance(body, dict):
            raise TranslatableError('send an object like {"points": 450, "pfeffer": false}')
        points = body.get("points")
        bust = bool(body.get("bust")) or points is None
        if not bust and (isinstance(points, bool) or not isinstance(points, int)):
            raise TranslatableError("points: a whole number, or bust")
        dice = DiceSheet.from_json(data)
        return dice.check(None if bust else points, pfeffer=bool(body.get("pfeffer")))
    if not isinstance(body, dict):
        raise TranslatableError("send an object with bidder, bid, trump and tricks")
    if body.get("passed") is True:
        return EntryCheck()  # a hand everybody passed scores nothing
    bid, trump, tricks = body.get("bid"), body.get("trump"), body.get("tricks")
    if not isinstance(bid, int | str) or not isinstance(trump, str) or not isinstance(tricks, list):
        raise TranslatableError(
            "send bidder (a seat), bid, trump and tricks (a list, one per side)"
        )
    pad = PepperSheet.from_json(data)
    return pad.check(body.get("bidder"), bid, trump, tricks)  # type: ignore[arg-type]


def entry_player(kind: str, data: dict[str, Any], body: Any) -> str:
    """The name of the player (dice) or side (Pepper: the bidder's) an entry is for."""
    if kind == "dice":
        dice = DiceSheet.from_json(data)
        seat = dice.current_player
        return "" if seat is None else dice.players[seat]
    pad = PepperSheet.from_json(data)
    bidder = body.get("bidder") if isinstance(body, dict) else None
    if isinstance(bidder, bool) or not isinstance(bidder, int):
        return ""
    if not 0 <= bidder < len(pad.players):
        return ""
    return pad.side_names[side_of(len(pad.players), bidder)]


# ------------------------------------------------------------------ dispatch


def add_entry(kind: str, data: dict[str, Any], body: Any) -> dict[str, Any]:
    """The sheet data with one more entry; ValueError (with a clear message) if impossible: the
    engine's IllegalAction (a ValueError) passes through, for the server to translate."""
    return _dice_add(data, body) if kind == "dice" else _pepper_add(data, body)


def entry_id(body: Any) -> str | None:
    """The client's id of an entry (``"entry_id"`` of its body), or None when it has none;
    :class:`TranslatableError` for an id that is not 8 to 64 letters, digits, ``-`` or ``_``."""
    if not isinstance(body, dict) or body.get("entry_id") is None:
        return None
    value = body["entry_id"]
    if not isinstance(value, str) or not ENTRY_ID.fullmatch(value):
        raise TranslatableError("entry_id: 8 to 64 letters, digits, '-' or '_'")
    return value


def add_entry_once(
    kind: str, data: dict[str, Any], entry_ids: list[str], body: Any
) -> tuple[dict[str, Any], list[str], bool]:
    """(data, entry ids, applied): the sheet with the entry added and its id remembered, or,
    when the sheet has that id already, the sheet unchanged and ``applied`` False: the entry
    was taken before (maybe undone since) and is acknowledged, not applied again. An entry
    without an id is always applied (the API before ids)."""
    eid = entry_id(body)
    if eid is not None and eid in entry_ids:
        return data, entry_ids, False
    new = add_entry(kind, data, body)
    return new, entry_ids + ([eid] if eid is not None else []), True


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
