"""What happened at the dice table, told from the engine's log events (:mod:`pfeffer.dice.log`):
who threw what, set what aside, banked or busted, called Pfeffer. The numbers are the events'
(points, totals, stakes) and the view's (what must be banked, what a bust costs); nothing here
works a rule out again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.markup import escape

from pfeffer.cli.common import object_name, verb, winners_text
from pfeffer.cli.dice_draw import dice_text, faces_text
from pfeffer.dice.game import DiceView
from pfeffer.dice.log import DiceEvent

TURN_ENDS = ("bank", "bust")


def turn_part(events: Sequence[DiceEvent]) -> int:
    """How many of ``events`` belong to the turn being played: up to its end (with the Pfeffer
    bonus and the winners after it). What follows opens the next turn (its round, its
    Auto-Pfeffer), which the screen tells under that turn's header.

    >>> turn_part([DiceEvent("keep", 0), DiceEvent("bank", 0), DiceEvent("round", number=2)])
    2
    >>> turn_part([DiceEvent("throw", 0), DiceEvent("keep", 0)])
    2
    """
    for i, e in enumerate(events):
        if e.kind in TURN_ENDS:
            end = i + 1
            while end < len(events) and events[end].kind in ("bonus", "win"):
                end += 1
            return end
    return len(events)


def _turn_mode(log: Sequence[DiceEvent], at: int) -> str | None:
    """The Pfeffer of the turn of ``log[at]`` ("pfeffer", "auto_pfeffer"), if any."""
    for e in reversed(log[:at]):
        if e.kind in TURN_ENDS:
            return None
        if e.kind in ("pfeffer", "auto_pfeffer"):
            return e.kind
    return None


def _predecessor(log: Sequence[DiceEvent], at: int) -> int | None:
    """The seat whose turn ended last before ``log[at]``."""
    return next((e.seat for e in reversed(log[:at]) if e.kind in TURN_ENDS), None)


def tell(log: Sequence[DiceEvent], start: int, view: DiceView) -> Iterator[tuple[str, str]]:
    """The lines for the events ``log[start:]`` (the events before them give the context: the
    turn's Pfeffer, the predecessor), each with its event's kind; ``view`` is the game as it
    stands after them. Rich markup.

    >>> from rich.text import Text
    >>> from pfeffer.dice import DiceGame
    >>> from pfeffer.dice.log import dice_log
    >>> g = DiceGame(["Anna", "You"], seed=1)
    >>> g.roll([1, 5, 2, 3, 4, 6]); g.keep([1, 5, 2, 3, 4, 6]); g.roll([2, 2, 3, 4, 6, 6])
    (1, 5, 2, 3, 4, 6)
    1500
    (2, 2, 3, 4, 6, 6)
    >>> for kind, line in tell(dice_log(g.view()), 2, g.view()):  # from the first keep
    ...     print(f"{kind}: {Text.from_markup(line).plain}")
    keep: Anna set aside 1 2 3 4 5 6 (+1500): turn total 1500
    hot_dice: All six dice scored! Prove it: throw all six again.
    throw: Anna threw   ⚁ 2  ⚁ 2  ⚂ 3  ⚃ 4  ⚅ 6  ⚅ 6
    bust: BUST! Anna scores nothing this turn. Total: 0
    auto_pfeffer: Auto-Pfeffer! Anna scored nothing, so a bust costs you 1000.
    """
    winners: list[int] = []
    for i in range(start, len(log)):
        e = log[i]
        if e.kind == "win" and e.seat is not None:
            winners.append(e.seat)
            if i + 1 == len(log) or log[i + 1].kind != "win":
                yield "win", winners_text(view.players, winners, view.scores)
        elif (line := _line(log, i, view)) is not None:
            yield e.kind, line


def _line(log: Sequence[DiceEvent], i: int, view: DiceView) -> str | None:
    """The line of ``log[i]`` (None: "round", named by the turn's header; "bonus", told with
    its bank)."""
    e = log[i]
    name = view.players[e.seat] if e.seat is not None else ""
    who = escape(name)
    if e.kind == "pfeffer":
        return (
            f"{who} called [bold yellow]Pfeffer![/] Stake {e.points}: bank at least "
            f"{view.min_to_bank} this turn, or lose [bold red]{view.bust_penalty}[/]."
        )
    if e.kind == "auto_pfeffer":
        prev = _predecessor(log, i)
        before = "" if prev is None else f"{escape(view.players[prev])} scored nothing, so "
        return (
            f"[bold yellow]Auto-Pfeffer![/] {before}a bust costs "
            f"{escape(object_name(name))} [bold red]{e.points}[/]."
        )
    if e.kind == "throw":
        return f"{who} threw   {dice_text(e.dice)}"
    if e.kind == "keep":
        return f"{who} set aside {faces_text(e.dice)} (+{e.points}): turn total [bold]{e.total}[/]"
    if e.kind == "hot_dice":
        again = (
            "Prove it: throw all six again."
            if view.rules.hot_dice_must_roll
            else "All six may be thrown again."
        )
        return f"[bold magenta]All six dice scored![/] {again}"
    if e.kind == "bank":
        line = f"{who} banked [bold green]{e.points}[/]."
        bonus = log[i + 1] if i + 1 < len(log) and log[i + 1].kind == "bonus" else None
        if bonus is not None:
            line += f" Pfeffer won: [bold green]+{bonus.points}[/] bonus."
        return f"{line} Total: [bold]{e.total}[/]"
    if e.kind == "bust":
        line = f"[bold red]BUST![/] {who} {verb(name, 'scores', 'score')} nothing this turn."
        if e.points:
            why = "Pfeffer lost" if _turn_mode(log, i) == "pfeffer" else "Auto-Pfeffer"
            line += f" {why}: [bold red]-{e.points}[/]."
        return f"{line} Total: [bold]{e.total}[/]"
    return None


def notices(view: DiceView, seat: int, told_final: bool, told_playoff: bool) -> list[str]:
    """After ``seat``'s turn: the final round or the playoff that the view shows and the screen
    has not told yet (``told_final``, ``told_playoff``). Rich markup."""
    out = []
    if view.final_round and not told_final:
        out.append(
            f"[bold magenta]{escape(view.players[seat])} reached {view.rules.target}! Final "
            "round:[/] everyone else gets one more turn."
        )
    if view.playoff and not told_playoff:
        tied = ", ".join(escape(view.players[s]) for s in view.playoff)
        out.append(f"[bold magenta]Tie![/] Playoff between {tied} until one leads.")
    return out
