"""Karten-Pfeffer's drawing in the terminal: cards, trump, bids, the score pad, the rules summary,
and the ``pfeffer pepper`` command group that the play and score-pad modules add their commands to.
Seats are numbered from 1 on screen (seat 0 of the engine is player 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from pfeffer.cli.common import changed_rules, rule_option, rules_summary, total_cells
from pfeffer.cli.common import winners_text as _winners_text
from pfeffer.cli.words import _, counted, pgettext
from pfeffer.cli.words import shown as shown_name
from pfeffer.core.errors import IllegalAction
from pfeffer.pepper import (
    CARD_PRETTY,
    HandResult,
    PepperRules,
    bid_ladder,
    rules_text,
)
from pfeffer.pepper.cards import CARD_INDEX
from pfeffer.pepper.rules import bid_terms, side_names

app = typer.Typer(help="Karten-Pfeffer / Pepper, the trick-taking card game.", no_args_is_help=True)

SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAME = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "no trump"}


RuleOpt = Annotated[
    list[str] | None, rule_option("--rule target=50 --rule all_pass=redeal", "pepper")
]


def card_markup(card: str) -> str:
    """A card with its suit symbol, red for hearts and diamonds (rich markup).

    >>> card_markup("JD"), card_markup("TS")
    ('[bold red]J♦[/]', '[bold]10♠[/]')
    """
    pretty = CARD_PRETTY[CARD_INDEX[card]]
    return f"[bold red]{pretty}[/]" if card[-1] in "DH" else f"[bold]{pretty}[/]"


def trump_markup(trump: str | None) -> str:
    """Trump as symbol and name, e.g. ``♥ hearts`` (red), or ``no trump``.

    >>> trump_markup("H"), trump_markup("NT")
    ('[bold red]♥ hearts[/]', '[bold]no trump[/]')
    """
    if trump is None or trump == "NT":
        return f"[bold]{_(SUIT_NAME['NT'])}[/]"
    style = "bold red" if trump in "DH" else "bold"
    return f"[{style}]{SUIT_SYMBOL[trump]} {_(SUIT_NAME[trump])}[/]"


def screen_param(name: str, value: object) -> object:
    """A parameter of an engine message as the screen shows it: cards (``TH``, or a list
    ``9C TC``) with suit symbols and 10, a suit letter as its symbol; names and what the
    player typed stay as they are.

    >>> screen_param("playable", "9C TC"), screen_param("suit", "H"), screen_param("player", "AS")
    ('9♣ 10♣', '♥', 'AS')
    """
    if not isinstance(value, str) or name in ("player", "seat_player", "action", "bid", "text"):
        return value
    if name in ("suit", "trump") and value in SUIT_SYMBOL:
        return SUIT_SYMBOL[value]
    words = value.split()
    if words and all(w in CARD_INDEX for w in words):
        return " ".join(CARD_PRETTY[CARD_INDEX[w]] for w in words)
    return value


def trump_symbol(trump: str | None) -> str:
    """Trump as its symbol (red for hearts and diamonds) or ``NT``, for tables (markup).

    >>> trump_symbol("H"), trump_symbol(None)
    ('[bold red]♥[/]', '[bold]NT[/]')
    """
    if trump is None or trump == "NT":
        return "[bold]NT[/]"
    return (
        f"[bold red]{SUIT_SYMBOL[trump]}[/]" if trump in "DH" else f"[bold]{SUIT_SYMBOL[trump]}[/]"
    )


#: The places of a bid's name in a sentence (msgctxt): after "with" ("won the auction with …":
#: German dative, "mit Kleinem Pfeffer") and as the object of "bid" (German accusative, "bietet
#: Kleinen Pfeffer"); each language gives the form its sentence needs.
WITH, OBJECT = "with bid", "bid object"


def bid_text(bid: str | None, place: str | None = None) -> str:
    """A bid as players say it; ``place``: :data:`WITH` or :data:`OBJECT`, where the sentence
    puts it (the nominative if None).

    >>> bid_text("3"), bid_text("small"), bid_text("big"), bid_text("pass")
    ('3', 'Small Pepper', 'Big Pepper', 'pass')
    """
    if bid in ("small", "big"):
        name = {"small": "Small Pepper", "big": "Big Pepper"}[bid]
        return _(name) if place is None else pgettext(place, name)
    return pgettext("bid", "pass") if bid == "pass" else bid or ""


def hand_table(
    players: Sequence[str],
    rows: Sequence[HandResult],
    totals: Sequence[int],
    winners: Sequence[int] = (),
    *,
    max_rows: int | None = None,
) -> Table:
    """The score pad as a rich table: one row per hand (points and running totals per side).

    It fits 80 columns: names wrap at their spaces (a team's players on lines of their own) and
    are never cut off; trump is its symbol.
    """
    players = [shown_name(p) for p in players]
    sides = side_names(players)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True)
    table.add_column("#", justify="right", style="dim")
    table.add_column(pgettext("column", "dealer"), overflow="fold", max_width=11)
    table.add_column(pgettext("column", "bidder"), overflow="fold", max_width=11)
    bid_head = pgettext("column", "bid")
    # As wide as the word for a set contract ("nesplněno"), which wraps below the bid uncut.
    table.add_column(bid_head, overflow="fold", max_width=max(6, len(bid_head), len(_("set"))))
    table.add_column(pgettext("column", "trump"), justify="center")
    table.add_column(pgettext("column", "tricks"), justify="center", no_wrap=True)
    for name in sides:
        head = name.replace(" & ", " &\n")
        widest = max(7, *(len(line) for line in head.splitlines()))
        table.add_column(
            Text(head, style="bold", justify="right"),
            justify="right",
            width=min(widest, 14),
            overflow="fold",
        )
    shown = list(rows)
    if max_rows is not None and len(shown) > max_rows:
        shown = shown[-max_rows:]
        table.add_row("…", *["" for _ in range(5 + len(sides))])
    for r in shown:
        if r.bidder is None:
            table.add_row(
                str(r.hand_number), escape(players[r.dealer]), f"[dim]{_('all passed')}[/]",
                "", "", "",
                *["" for _ in sides],
            )  # fmt: skip
            continue
        cells = []
        for p, s in zip(r.points, r.scores, strict=True):
            style = "red" if p < 0 else ""
            cells.append(Text.assemble((f"{p:+d}", style), (f" {s}", "dim")))
        made = "" if r.made else f" [red]{_('set')}[/]"
        table.add_row(
            str(r.hand_number),
            escape(players[r.dealer]),
            escape(players[r.bidder]),
            bid_text(r.bid) + made,
            trump_symbol(r.trump),
            " : ".join(map(str, r.tricks)),
            *cells,
        )
    table.add_section()
    table.add_row(Text("Σ", style="bold"), "", "", "", "", "", *total_cells(totals, winners))
    return table


def winners_text(players: Sequence[str], winners: Sequence[int], scores: Sequence[int]) -> str:
    """``Winner: Ann & Cy with 31!`` or ``Shared win: Ann and Bob with 30!`` (markup).

    >>> winners_text(["Ann", "Bob"], [0, 1], [30, 30])
    'Shared win: Ann and Bob with 30!'
    """
    return _winners_text(side_names(players), winners, scores)


def by_players(values: dict[int, str]) -> str:
    """Values per player count, equal ones grouped: ``6 with 4 players, 8 with 2 or 3``.

    >>> by_players({4: "6", 2: "8", 3: "8"})
    '6 with 4 players, 8 with 2 or 3'
    >>> by_players({3: "8"}), by_players({2: "5", 3: "5", 4: "5"})
    ('8 with 3 players', '5')
    """
    groups: dict[str, list[int]] = {}
    for n, value in values.items():
        groups.setdefault(value, []).append(n)
    if len(groups) == 1 and len(values) > 1:
        return next(iter(groups))
    parts = []
    for i, (value, counts) in enumerate(groups.items()):
        who = _or(counts)
        if i == 0:
            parts.append(_("%(value)s with %(who)s players") % {"value": value, "who": who})
        else:
            parts.append(_("%(value)s with %(who)s") % {"value": value, "who": who})
    return ", ".join(parts)


def _or(counts: list[int]) -> str:
    return _(" or ").join(map(str, sorted(counts)))


def rules_help(rules: PepperRules, players: int | None = None) -> str:
    """The rules in short (:mod:`pfeffer.pepper.rules_text`, as on the web's rules page) and
    what the changed house rules and the player count make of them (rich markup), for
    ``players`` players or (None) for 4 and for 2 or 3.

    >>> "first side to reach 50" in rules_help(PepperRules(target=50))
    True
    >>> "loses 6 with 4 players, 8 with 2 or 3" in rules_help(PepperRules())
    True
    >>> "loses 8 (with 3 players)" in rules_help(PepperRules(), 3)
    True
    """
    shown = changed_rules(rules) | {"P5", "P10"}  # these two by player count
    lines = {rule: line for rule, line in in_force(rules, players).items() if rule in shown}
    heading = f"[bold]{_('Karten-Pfeffer (Pepper) in short')}[/]" + (
        f" [dim]({counted(players, '%(n)d player', '%(n)d players')})[/]" if players else ""
    )
    return rules_summary(heading, rules_text.INTRO, rules_text.RULES, lines)


def in_force(rules: PepperRules, players: int | None = None) -> dict[str, str]:
    """What the house rules in force make of the rules, by rule id, for ``players`` players or
    (None) for 4 and for 2 or 3: the values the rules' sentences give for the standard game.
    The ladders and the points come from the engine (:func:`~pfeffer.pepper.bid_ladder`,
    :func:`~pfeffer.pepper.rules.bid_terms`).

    >>> in_force(PepperRules(), 4)["P10"]
    'Set → the bidding side loses 6 (with 4 players). Big Pepper wins or loses 12 (with 4 players).'
    """
    counts = [players] if players else [4, 2, 3]
    ladder_parts = []
    for ladder, group in _groups({n: bid_ladder(n) for n in counts}).items():
        ladder_parts.append(f"{', '.join(bid_text(b) for b in ladder)} ({_with(group)})")
    if rules.set_penalty is not None:
        penalty = _("%(points)s (house rule)") % {"points": rules.set_penalty}
    elif players:
        penalty = _with_players(rules.penalty(players), players)
    else:
        penalty = by_players({n: str(rules.penalty(n)) for n in counts})
    big_points = {n: str(bid_terms(rules, n, "big").made_max) for n in counts}
    big = _with_players(big_points[players], players) if players else by_players(big_points)
    return {
        "P5": _("Bids: %(ladders)s.") % {"ladders": "; ".join(ladder_parts)},
        "P6": _("if everybody else passed, the last player must bid.")
        if rules.all_pass == "last_must_bid"
        else _("if everybody passes, the deal passes on (redeal)."),
        "P7": _("a trump suit or no trump.")
        if rules.no_trump
        else _("a trump suit (no trump not allowed)."),
        "P10": _("Set → the bidding side loses %(penalty)s. Big Pepper wins or loses %(big)s.")
        % {"penalty": penalty, "big": big},
        "P11": _("The first side to reach %(target)s wins.") % {"target": rules.target},
    }


def _with_players(value: object, players: int) -> str:
    return counted(
        players, "%(value)s (with %(n)d player)", "%(value)s (with %(n)d players)", value=value
    )


def _groups(values: dict[int, tuple[str, ...]]) -> dict[tuple[str, ...], list[int]]:
    groups: dict[tuple[str, ...], list[int]] = {}
    for n, value in values.items():
        groups.setdefault(value, []).append(n)
    return groups


def _with(counts: list[int]) -> str:
    return _("%(who)s players") % {"who": _or(counts)}


def seat_number(text: str, names: Sequence[str]) -> int:
    """A seat from a player's number (from 1) or name (case-insensitive, unique prefix).

    >>> seat_number("2", ["Ann", "Bob"]), seat_number("an", ["Ann", "Bob"])
    (1, 0)
    """
    t = text.strip()
    if t.isdigit() and 1 <= int(t) <= len(names):
        return int(t) - 1
    low = t.lower()
    exact = [i for i, n in enumerate(names) if n.lower() == low]
    found = exact or [i for i, n in enumerate(names) if low and n.lower().startswith(low)]
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{i + 1} {n}" for i, n in enumerate(names))
    if t.isdigit():
        raise IllegalAction(
            f"There is no player {t}: give a number from 1 to {len(names)} or a name ({listed})."
        )
    raise IllegalAction(
        f"{text!r} is no player: give a number from 1 to {len(names)} or a name ({listed})."
    )
