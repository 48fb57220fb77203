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

from pfeffer.cli.common import changed_rules, rule_option, rules_summary, total_cells
from pfeffer.cli.words import _, lang, pgettext
from pfeffer.cli.words import shown as shown_name
from pfeffer.dice import rules_text
from pfeffer.dice.game import PfefferMode, Turn
from pfeffer.dice.puzzles import OPTION_LABELS
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import KeepOption
from pfeffer.dice.sheet import SheetRow, turn_text

app = typer.Typer(help="Würfel-Pfeffer, the dice game.", no_args_is_help=True)

GLYPHS = "⚀⚁⚂⚃⚄⚅"

RuleOpt = Annotated[list[str] | None, rule_option("--rule min_bank=500 --rule tie=playoff", "dice")]


def dice_text(faces: tuple[int, ...] | list[int]) -> str:
    """Dice as faces with their digits, e.g. ``⚀ 1  ⚄ 5`` (rich markup).

    >>> dice_text([1, 5])
    '[bold]⚀ 1[/]  [bold]⚄ 5[/]'
    """
    return "  ".join(f"[bold]{GLYPHS[d - 1]} {d}[/]" for d in faces)


def option_label(action: str) -> str:
    """An option in the terminal's language: the action as typed in English, in words
    (:data:`pfeffer.dice.puzzles.OPTION_LABELS`) in German and Czech (``keep 155`` →
    "1-5-5 beiseitelegen")."""
    word, _sep, rest = action.partition(" ")
    template = OPTION_LABELS.get(word)
    if lang() == "en" or template is None:
        return action
    return _(template).format(dice="-".join(rest))


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
    text = turn_text(turn)
    if turn.busted:  # the engine's cell says "bust"
        text = text.replace("bust", pgettext("sheet", "bust"), 1)
    return Text(text, style=style)


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
            Text(shown_name(name), style=style, justify="right"),
            justify="right",
            min_width=6,
            overflow="fold",
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
    """The rules in short (:mod:`pfeffer.dice.rules_text`, as on the web's rules page) and
    what the changed house rules make of them (rich markup).

    >>> "at least 500 points" in rules_help(DiceRules(min_bank=500))
    True
    """
    changed = changed_rules(rules)
    lines = {rule: line for rule, line in in_force(rules).items() if rule in changed}
    return rules_summary(
        f"[bold]{_('Würfel-Pfeffer in short')}[/]", rules_text.INTRO, rules_text.RULES, lines
    )


def in_force(rules: DiceRules) -> dict[str, str]:
    """What the house rules in force make of the rules, by rule id: the values that the rules'
    sentences give for the standard game.

    >>> in_force(DiceRules(tie="playoff"))["D14"]
    'target 10000, then the final round; a tie is played off in extra rounds.'
    """
    r = rules
    triples = ", ".join(
        _("%(face)ss %(points)s") % {"face": f, "points": r.triples[f]} for f in range(1, 7)
    )
    extra = {
        "double": _("each further die doubles the triple"),
        "add": _("each further die adds the triple again"),
        "fixed": _("four / five / six of a kind %(four)s / %(five)s / %(six)s")
        % {"four": r.fixed_four, "five": r.fixed_five, "six": r.fixed_six},
    }[r.extra_dice]
    pfeffer = _("no Pfeffer.")
    if r.pfeffer:
        pfeffer = (
            _("the stake is R + %(margin)s; a bust costs %(factor)s × the stake")
            % {"margin": r.pfeffer_margin, "factor": r.pfeffer_penalty_factor}
            + (_("; made, the stake is added as a bonus") if r.pfeffer_reward == "stake" else "")
            + (
                _("; banking below the stake is allowed and costs nothing")
                if r.pfeffer_short_bank == "allowed"
                else ""
            )
            + "."
        )
    scoring = _(
        "single 1 = %(one)s, single 5 = %(five)s; three of a kind: %(triples)s; %(extra)s; "
        "1-2-3-4-5-6 = %(straight)s; three pairs = %(pairs)s."
    ) % {
        "one": r.single_one,
        "five": r.single_five,
        "triples": triples,
        "extra": extra,
        "straight": r.straight,
        "pairs": r.three_pairs,
    }
    minimum = (
        _("bank only with at least %(points)s points until you have banked once.")
        if r.min_bank_opening_only
        else _("bank only with at least %(points)s points.")
    ) % {"points": r.min_bank}
    end = (
        _("target %(target)s, then the final round")
        if r.final_round
        else _("target %(target)s, the first to reach it wins at once")
    ) % {"target": r.target}
    end += _("; a tie is played off in extra rounds.") if r.tie == "playoff" else _("; ties share.")
    return {
        "D4": scoring,
        "D7": _("all six must be thrown again.")
        if r.hot_dice_must_roll
        else _("you may throw all six again, or bank."),
        "D8": minimum,
        "D10": pfeffer,
        "D11": _("a bust costs %(points)s.") % {"points": r.auto_pfeffer_penalty}
        if r.auto_pfeffer
        else _("no Auto-Pfeffer."),
        "D14": end,
    }
