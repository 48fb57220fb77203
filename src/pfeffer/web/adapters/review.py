"""The review of a finished game for its replay page, worked out by the server and drawn by the
page (``static/review.js``); ``GET /api/tables/{id}/review`` serves it, cached per table.

Dice (rules with a solved table): every decision of each player with the chance to win it cost
(:mod:`pfeffer.dice.solver.review`), the biggest mistakes first, each with its record step; with
more than two players valued by the documented approximation (the two-player table against the
highest total of the others, ``method="approx"``, as the hints), which the review says
(``note``, a msgid with ``note_params``). Pepper: per hand the double-dummy result of the deal
for each side (what it could have taken with best play by all,
:func:`pfeffer.pepper.double_dummy` on the full deal at the first card) against the tricks it
took, and every card that cost its side a trick (the side's double-dummy total before the card
against after it).

>>> from pfeffer.pepper import PepperGame
>>> g = PepperGame(players=3, seed=4, dealer=0)
>>> while g.current_player is not None and g.hand_number < 2:
...     g.apply(g.legal_actions()[0])
>>> r = pepper_review(g)
>>> h = r["hands"][0]
>>> sorted(h) == ["bid", "bidder", "costly", "dealer", "leader", "number", "sides", "step",
...               "trump"]
True
>>> all(s["best"] <= 8 and s["taken"] <= 8 for s in h["sides"])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pfeffer.dice import DiceGame
from pfeffer.dice.game import DiceAction
from pfeffer.dice.solver import review as dice_decisions
from pfeffer.dice.solver.approx import ApproxStrategy
from pfeffer.pepper import PepperGame, double_dummy, double_dummy_from
from pfeffer.web.adapters.advisor import UNSOLVED, dice_strategy

#: What the review of more than two players says of itself (a msgid; ``%(n)s``: the players).
APPROX = (
    "This review is an approximation for %(n)s players: each decision is valued by the "
    "two-player strategy, with the player's own total against the highest total of the others."
)


def _option(action: str) -> dict[str, Any]:
    """An action of a decision as the page draws it: its kind and, for a set-aside, the dice."""
    parsed = DiceAction.parse(action)
    out: dict[str, Any] = {"action": action, "kind": parsed.kind}
    if parsed.kind == "keep":
        out["dice"] = list(parsed.dice)
    return out


def dice_review(game: DiceGame) -> dict[str, Any]:
    """Every decision of every player of ``game`` valued by the solver, the costliest first,
    with each player's totals; or why there is no review (``none``, ``message``: a msgid). More
    than two players: the approximation, with ``approximation`` true and its ``note``."""
    n = len(game.players)
    two = dice_strategy(game.rules)
    if two is None:
        return {"game": "dice", "available": False, "none": "unsolved", "message": UNSOLVED}
    strategy = two if n == 2 else ApproxStrategy(two)
    found = dice_decisions.decisions(strategy, game, range(n))
    players = []
    for seat in range(n):
        s = dice_decisions.summary(found, seat)
        players.append({"seat": seat, "decisions": s.decisions, "best": s.best, "lost": s.lost})
    note = {"note": APPROX, "note_params": {"n": n}} if n > 2 else {}
    return {
        "game": "dice",
        "available": True,
        "approximation": n > 2,
        **note,
        "players": players,
        "decisions": [
            {
                "seat": d.seat,
                "round": d.round,
                "step": d.step,
                "played": _option(d.played),
                "best": _option(d.best),
                "played_win": d.played_win,
                "best_win": d.best_win,
                "cost": d.cost,
                "is_best": d.is_best,
                "phase": d.phase,
                "own": d.own,
                "other": d.other,
                "turn_total": d.turn_total,
                "roll": list(d.roll),
                "dice_to_roll": d.dice_to_roll,
                "pfeffer": d.pfeffer,
            }
            for d in dice_decisions.ranked(found)
        ],
    }


def _sides(n: int) -> list[int]:
    """One seat of each side (4 players: seats 0 and 1 for the teams)."""
    return [0, 1] if n == 4 else list(range(n))


def pepper_review(record: PepperGame) -> dict[str, Any]:
    """Per played hand of ``record``: the deal's double-dummy result for each side, the tricks
    each took, and each card that cost its side tricks (``lost``), with its record ``step``."""
    n = len(record.players)
    start = record.to_record()
    start["actions"] = []
    start.pop("scores", None)
    game = PepperGame.from_record(start)  # the same table before its first action
    hands: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for step, action in enumerate(record.actions):
        seat = game.current_player
        if game.phase == "play" and current is None:  # the first card of a hand: the full deal
            assert seat is not None
            deal = [game.hand(s) for s in range(n)]
            current = {
                "number": game.hand_number,
                "dealer": game.dealer,
                "bidder": game.bidder,
                "bid": game.contract,
                "trump": game.trump,
                "leader": seat,
                "step": step,
                "sides": [
                    {
                        "side": game.side_of(s),
                        "seat": s,
                        "best": double_dummy(deal, game.trump, seat, seat=s),
                    }
                    for s in _sides(n)
                ],
                "costly": [],
            }
            hands.append(current)
        if game.phase == "play" and seat is not None and len(game.legal_actions()) > 1:
            side = game.side_of(seat)
            before = game.tricks_won[side] + double_dummy_from(game, seat=seat)
            number = game.hand_number
            game.apply(action)
            if game.phase == "play" and game.hand_number == number:
                after = game.tricks_won[side] + double_dummy_from(game, seat=seat)
            else:
                last = game.last_hand
                after = last.tricks[side] if last is not None else before
            if after < before and current is not None:
                current["costly"].append(
                    {"step": step, "seat": seat, "card": action, "lost": before - after}
                )
        else:
            game.apply(action)
        if current is not None and game.phase != "play":  # the hand is over: what was taken
            last = game.last_hand
            for s in current["sides"]:
                s["taken"] = last.tricks[s["side"]] if last is not None else 0
            current = None
    return {"game": "pepper", "available": True, "hands": hands}


def review(game: Any) -> dict[str, Any]:
    """The review of a finished ``game`` (a :class:`DiceGame` or :class:`PepperGame`)."""
    if isinstance(game, DiceGame):
        return dice_review(game)
    return pepper_review(game)


__all__: Sequence[str] = ["dice_review", "pepper_review", "review"]
