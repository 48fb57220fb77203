"""What happened at the dice table, told from the engine's log events (:mod:`pfeffer.dice.log`):
who threw what, set what aside, banked or busted, called Pfeffer. The numbers are the events'
(points, totals, stakes) and the view's (what must be banked, what a bust costs); nothing here
works a rule out again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.markup import escape

from pfeffer.cli.common import winners_text
from pfeffer.cli.dice_draw import dice_text, faces_text
from pfeffer.cli.words import _, said, shown
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
    who = escape(shown(name))
    if e.kind == "pfeffer":
        called = said(name, "%(name)s called %(pfeffer)s", "You called %(pfeffer)s", name=who,
                      pfeffer="[bold yellow]Pfeffer![/]")  # fmt: skip
        terms = _("Stake %(stake)s: bank at least %(need)s this turn, or lose %(cost)s.") % {
            "stake": e.points,
            "need": view.min_to_bank,
            "cost": f"[bold red]{view.bust_penalty}[/]",
        }
        return f"{called} {terms}"
    if e.kind == "auto_pfeffer":
        prev = _predecessor(log, i)
        cost = {"name": escape(shown(name)), "points": f"[bold red]{e.points}[/]"}
        costs = said(name, "a bust costs %(name)s %(points)s.", "a bust costs you %(points)s.",
                     **cost)  # fmt: skip
        if prev is None:
            return f"[bold yellow]Auto-Pfeffer![/] {costs[:1].upper()}{costs[1:]}"
        before = said(
            view.players[prev],
            "%(name)s scored nothing, so",
            "You scored nothing, so",
            name=escape(shown(view.players[prev])),
        )
        return f"[bold yellow]Auto-Pfeffer![/] {before} {costs}"
    if e.kind == "throw":
        threw = said(name, "%(name)s threw", "You threw", name=who)
        return f"{threw}   {dice_text(e.dice)}"
    if e.kind == "keep":
        return said(
            name,
            "%(name)s set aside %(dice)s (+%(points)s): turn total %(total)s",
            "You set aside %(dice)s (+%(points)s): turn total %(total)s",
            name=who,
            dice=faces_text(e.dice),
            points=e.points,
            total=f"[bold]{e.total}[/]",
        )
    if e.kind == "hot_dice":
        again = (
            _("Prove it: throw all six again.")
            if view.rules.hot_dice_must_roll
            else _("All six may be thrown again.")
        )
        return f"[bold magenta]{_('All six dice scored!')}[/] {again}"
    if e.kind == "bank":
        line = said(name, "%(name)s banked %(points)s.", "You banked %(points)s.", name=who,
                    points=f"[bold green]{e.points}[/]")  # fmt: skip
        bonus = log[i + 1] if i + 1 < len(log) and log[i + 1].kind == "bonus" else None
        if bonus is not None:
            won = {"bonus": f"[bold green]+{bonus.points}[/]"}
            line += " " + _("Pfeffer won: %(bonus)s bonus.") % won
        return f"{line} " + _("Total: %(total)s") % {"total": f"[bold]{e.total}[/]"}
    if e.kind == "bust":
        nothing = said(name, "%(name)s scores nothing this turn.",
                       "You score nothing this turn.", name=who)  # fmt: skip
        line = f"[bold red]{_('BUST!')}[/] {nothing}"
        if e.points:
            why = _("Pfeffer lost") if _turn_mode(log, i) == "pfeffer" else "Auto-Pfeffer"
            line += f" {why}: [bold red]-{e.points}[/]."
        return f"{line} " + _("Total: %(total)s") % {"total": f"[bold]{e.total}[/]"}
    return None


def notices(view: DiceView, seat: int, told_final: bool, told_playoff: bool) -> list[str]:
    """After ``seat``'s turn: the final round or the playoff that the view shows and the screen
    has not told yet (``told_final``, ``told_playoff``). Rich markup."""
    out = []
    if view.final_round and not told_final:
        reached = said(
            view.players[seat],
            "%(name)s reached %(target)s!",
            "You reached %(target)s!",
            name=escape(shown(view.players[seat])),
            target=view.rules.target,
        )
        final = _("Final round:")
        out.append(f"[bold magenta]{reached} {final}[/] " + _("everyone else gets one more turn."))
    if view.playoff and not told_playoff:
        tied = ", ".join(escape(shown(view.players[s])) for s in view.playoff)
        tie = _("Playoff between %(players)s until one leads.") % {"players": tied}
        out.append(f"[bold magenta]{_('Tie!')}[/] {tie}")
    return out
