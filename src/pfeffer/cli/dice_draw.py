"""The dice game's drawing in the terminal: dice, the set-aside options, the score sheet, the rules
summary, and the ``pfeffer dice`` command group that the play, advice, sheet and strategy modules
add their commands to (here, so that none of them imports another for it).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from pfeffer.cli.common import total_cells
from pfeffer.dice.game import PfefferMode, Turn
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import KeepOption
from pfeffer.dice.sheet import SheetRow, turn_text

app = typer.Typer(help="Würfel-Pfeffer, the dice game.", no_args_is_help=True)

GLYPHS = "⚀⚁⚂⚃⚄⚅"

RuleOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        "-r",
        metavar="KEY=VALUE",
        help="House rule, repeatable: e.g. --rule min_bank=500 --rule tie=playoff "
        "(see 'pfeffer dice rules').",
    ),
]


def dice_text(faces: tuple[int, ...] | list[int]) -> str:
    """Dice as faces with their digits, e.g. ``⚀ 1  ⚄ 5`` (rich markup).

    >>> dice_text([1, 5])
    '[bold]⚀ 1[/]  [bold]⚄ 5[/]'
    """
    return "  ".join(f"[bold]{GLYPHS[d - 1]} {d}[/]" for d in faces)


def faces_text(faces: tuple[int, ...]) -> str:
    """Faces as digits with spaces, e.g. ``1 1 5``."""
    return " ".join(map(str, faces))


def option_lines(options: list[KeepOption] | tuple[KeepOption, ...]) -> list[str]:
    """The set-aside options numbered from 1, with points and notation (rich markup).

    >>> from pfeffer.dice.scoring import keep_options
    >>> option_lines(keep_options([1, 5, 2]))
    ['  [bold cyan]1)[/] 1 5      150  [dim]keep 15[/]', '  [bold cyan]2)[/] 1        100  \
[dim]keep 1[/]', '  [bold cyan]3)[/] 5         50  [dim]keep 5[/]']
    """
    width = max(len(faces_text(o.dice)) for o in options)
    pad = len(str(len(options)))
    return [
        f"  [bold cyan]{i:>{pad}})[/] {faces_text(o.dice):<{width}} {o.points:>6}  "
        f"[dim]{o.action}[/]"
        for i, o in enumerate(options, start=1)
    ]


def _cell(turn: Turn | None) -> Text:
    if turn is None:
        return Text("")
    style = "red" if turn.busted else ("yellow" if turn.pfeffer is PfefferMode.CALLED else "")
    return Text(turn_text(turn), style=style)


def sheet_table(
    players: tuple[str, ...],
    rows: list[SheetRow],
    totals: list[int] | tuple[int, ...],
    *,
    max_rows: int | None = None,
    current: int | None = None,
    winners: list[int] | tuple[int, ...] = (),
) -> Table:
    """The score sheet as a rich table: one row per round, then the Σ row."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True)
    table.add_column("#", justify="right", style="dim")
    for seat, name in enumerate(players):
        style = "bold reverse" if seat == current else "bold"
        table.add_column(
            Text(name, style=style, justify="right"), justify="right", min_width=6, overflow="fold"
        )
    shown = rows
    if max_rows is not None and len(rows) > max_rows:
        shown = rows[-max_rows:]
        table.add_row("…", *["" for _ in players])
    for row in shown:
        table.add_row(str(row.number), *[_cell(t) for t in row.turns])
    table.add_section()
    table.add_row(Text("Σ", style="bold"), *total_cells(totals, winners))
    return table


def rules_help(rules: DiceRules) -> str:
    """A short summary of the rules in force, in plain words (rich markup).

    >>> "at least 500" in rules_help(DiceRules(min_bank=500))
    True
    """
    r = rules
    t = r.triples
    if dict(t) == {f: (1000 if f == 1 else 100 * f) for f in range(1, 7)}:
        triples = "three of a kind = 100 × the face, three 1s = 1000"
    else:
        triples = "three of a kind: " + ", ".join(f"{f}s {t[f]}" for f in range(1, 7))
    extra = {
        "double": "every further die of the same face doubles it (four 6s = 1200)",
        "add": "every further die of the same face adds the triple again",
        "fixed": f"four / five / six of a kind score {r.fixed_four} / {r.fixed_five} / "
        f"{r.fixed_six}",
    }[r.extra_dice]
    lines = [
        "[bold]Würfel-Pfeffer in short[/]",
        "• Your turn starts with all six dice. After every throw set aside at least one scoring "
        "die (only combinations within that one throw count), then throw the rest or bank.",
        f"• Scores: single 1 = {r.single_one}, single 5 = {r.single_five}; {triples}; {extra}; "
        f"1-2-3-4-5-6 = {r.straight}; three pairs = {r.three_pairs}.",
        "• A throw with nothing to score is a [red]bust[/]: the turn scores nothing.",
        "• All six dice set aside (hot dice): "
        + (
            "you must throw all six again and keep adding."
            if r.hot_dice_must_roll
            else "you may throw all six again and keep adding, or bank."
        ),
        f"• You may bank only with at least {r.min_bank} points in the turn"
        + (" until you have banked once." if r.min_bank_opening_only else "."),
    ]
    if r.pfeffer:
        reward = " Win it and the stake is added as a bonus." if r.pfeffer_reward == "stake" else ""
        short = (
            " (House rule: banking below the stake is allowed and costs nothing.)"
            if r.pfeffer_short_bank == "allowed"
            else ""
        )
        lines.append(
            "• [yellow]Pfeffer![/] Before your first throw you may bet against the player before "
            f"you, who banked R: the stake is R + {r.pfeffer_margin}, you must bank at least "
            f"that, and a bust costs you {r.pfeffer_penalty_factor} × the stake.{reward}{short}"
        )
    if r.auto_pfeffer:
        lines.append(
            "• Auto-Pfeffer: if the player before you scored nothing, a bust costs you "
            f"{r.auto_pfeffer_penalty}."
        )
    end = (
        f"• Reach {r.target} and the final round starts: everyone else gets one last turn; "
        "the highest total wins"
        if r.final_round
        else f"• The first to reach {r.target} wins"
    )
    tie = "; a tie is played off in extra rounds." if r.tie == "playoff" else "; ties share."
    lines.append(end + tie + " Totals may go below zero.")
    return "\n".join(lines)
