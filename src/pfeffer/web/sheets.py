"""Score sheets for people who play with real dice or real cards and only write results down.

Dice: every turn is entered as points banked or a bust, with or without a Pfeffer call; the dice
engine (``DiceGame.enter_turn`` through the ``turn N`` / ``bust`` / ``pfeffer`` actions) applies the
minimum, the stakes, the penalties, Auto-Pfeffer, the final round and names the winner. The stored
data is the engine's own record.

Pepper: every hand is entered as bidder, bid, trump and tricks per side; the points come from the
engine's ``score_hand`` (P10), after the same checks the engine makes (bid on the ladder for the
player count, tricks adding up to the hand).
"""

from __future__ import annotations

from typing import Any

from pfeffer.core.errors import IllegalAction
from pfeffer.dice import DiceGame, DiceRules
from pfeffer.pepper import PepperRules, bid_ladder, cards_per_hand, score_hand, side_of, sides
from pfeffer.web.games import jsonable

MAX_TITLE = 80


def new_sheet(body: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """Check a request for a new sheet; returns (game, title, initial data)."""
    kind = body.get("game")
    players = body.get("players")
    title = str(body.get("title") or "")[:MAX_TITLE]
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise ValueError("players: a list of names")
    names = [p.strip()[:40] for p in players]
    rules = body.get("rules") or {}
    if not isinstance(rules, dict):
        raise ValueError("rules: an object of house rules")
    if kind == "dice":
        try:
            game = DiceGame(names, DiceRules.from_dict(rules), seed=0)
        except (IllegalAction, ValueError, TypeError) as exc:
            raise ValueError(str(exc)) from None
        return "dice", title, game.to_record()
    if kind == "pepper":
        if len(names) not in (2, 3, 4):
            raise ValueError("Pepper is played by 2, 3 or 4 players.")
        try:
            PepperRules.from_dict(rules)
        except (ValueError, TypeError) as exc:
            raise ValueError(str(exc)) from None
        return "pepper", title, {"players": names, "rules": rules, "hands": []}
    raise ValueError("game must be 'dice' or 'pepper'")


# ------------------------------------------------------------------ dice


def _dice(data: dict[str, Any]) -> DiceGame:
    return DiceGame.from_record(data)


def _dice_add(data: dict[str, Any], body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ValueError('send an object like {"points": 450, "pfeffer": false}')
    game = _dice(data)
    points = body.get("points")
    bust = bool(body.get("bust")) or points is None
    pfeffer = bool(body.get("pfeffer"))
    try:
        if pfeffer:
            game.apply("pfeffer")
        if bust:
            game.apply("bust")
        else:
            if isinstance(points, bool) or not isinstance(points, int):
                raise ValueError("points: a whole number, or bust")
            game.enter_turn(points)
    except IllegalAction as exc:
        raise ValueError(str(exc)) from None
    return game.to_record()


def _dice_undo(data: dict[str, Any]) -> dict[str, Any]:
    actions = list(data.get("actions", []))
    if actions:
        actions.pop()
        while actions and actions[-1] == "pfeffer":
            actions.pop()
    game = DiceGame.from_record({**data, "actions": actions})
    return game.to_record()


def _dice_present(data: dict[str, Any]) -> dict[str, Any]:
    game = _dice(data)
    view = game.view(None)
    return {
        "players": list(game.players),
        "view": jsonable(view),
        "can_pfeffer": view.can_call_pfeffer,
    }


# ------------------------------------------------------------------ pepper


def _pepper_totals(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[int], list[int]]:
    """Rows (each hand with its points and running scores), totals and winners (sides)."""
    n = len(data["players"])
    rules = PepperRules.from_dict(data.get("rules") or {})
    totals = [0] * sides(n)
    rows = []
    winners: list[int] = []
    for hand in data["hands"]:
        points = score_hand(rules, n, side_of(n, hand["bidder"]), hand["bid"], hand["tricks"])
        totals = [a + b for a, b in zip(totals, points, strict=True)]
        rows.append({**hand, "points": points, "scores": list(totals)})
    if rows and max(totals) >= rules.target:  # P11
        best = max(totals)
        winners = [i for i, s in enumerate(totals) if s == best]
    return rows, totals, winners


def _pepper_add(data: dict[str, Any], body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ValueError("send an object with bidder, bid, trump and tricks")
    n = len(data["players"])
    rules = PepperRules.from_dict(data.get("rules") or {})
    _, _, winners = _pepper_totals(data)
    if winners:
        raise ValueError("The game is over.")
    bidder, bid, trump, tricks = (body.get(k) for k in ("bidder", "bid", "trump", "tricks"))
    if isinstance(bidder, bool) or not isinstance(bidder, int) or not 0 <= bidder < n:
        raise ValueError(f"bidder: a seat from 0 to {n - 1}")
    bid = str(bid).lower()
    if bid not in bid_ladder(n):
        raise ValueError(f"bid: one of {', '.join(bid_ladder(n))}")
    trumps = ("C", "D", "H", "S", "NT") if rules.no_trump else ("C", "D", "H", "S")
    trump = str(trump).upper()
    if trump not in trumps:
        raise ValueError(f"trump: one of {', '.join(trumps)}")
    if (
        not isinstance(tricks, list)
        or len(tricks) != sides(n)
        or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in tricks)
    ):
        raise ValueError(f"tricks: {sides(n)} whole numbers, one per side")
    if sum(tricks) != cards_per_hand(n):
        raise ValueError(f"The tricks must add up to {cards_per_hand(n)}, not {sum(tricks)}.")
    hand = {"bidder": bidder, "bid": bid, "trump": trump, "tricks": tricks}
    return {**data, "hands": [*data["hands"], hand]}


def _pepper_present(data: dict[str, Any]) -> dict[str, Any]:
    rows, totals, winners = _pepper_totals(data)
    n = len(data["players"])
    return {
        "players": data["players"],
        "rows": rows,
        "scores": totals,
        "winners": winners,
        "is_over": bool(winners),
        "bids": list(bid_ladder(n)),
        "sides": sides(n),
        "tricks_per_hand": cards_per_hand(n),
        "rules": PepperRules.from_dict(data.get("rules") or {}).to_dict(),
    }


# ------------------------------------------------------------------ dispatch


def add_entry(kind: str, data: dict[str, Any], body: Any) -> dict[str, Any]:
    """The sheet data with one more entry; ValueError (with a clear message) if impossible."""
    return _dice_add(data, body) if kind == "dice" else _pepper_add(data, body)


def undo(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The sheet data without its last entry."""
    if kind == "dice":
        return _dice_undo(data)
    return {**data, "hands": list(data["hands"])[:-1]}


def present(kind: str, title: str, data: dict[str, Any]) -> dict[str, Any]:
    """What a sheet page shows."""
    body = _dice_present(data) if kind == "dice" else _pepper_present(data)
    return {"game": kind, "title": title, **body}
