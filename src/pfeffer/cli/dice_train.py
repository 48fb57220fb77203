"""``pfeffer dice train``: the puzzle trainer in the terminal (issue 23).

The puzzles are the shipped ones (:mod:`pfeffer.dice.puzzle_set`) under the default rules; under
house rules they are made on the spot from the rules' solved table
(:func:`pfeffer.dice.solver.puzzles.generate`, the extra 'ai'). The feedback is the puzzle's own
(:meth:`pfeffer.dice.puzzles.DicePuzzle.feedback`) and the rating, streak, theme accuracy and
repetition :mod:`pfeffer.core.trainer`'s; this module draws them and keeps the progress in the
user data folder (:mod:`pfeffer.cli.trainer_store`), written after every answer.
"""

from __future__ import annotations

import random
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pfeffer.cli.common import (
    make_console,
    print_error,
    rules_or_exit,
    thinking,
)
from pfeffer.cli.dice_advice import get_strategy
from pfeffer.cli.dice_draw import RuleOpt, app, dice_text, faces_text, option_label, option_lines
from pfeffer.cli.train_session import (
    CountOpt,
    PlayerOpt,
    SeedOpt,
    TrainSession,
    check_theme,
    rating_line,
)
from pfeffer.cli.trainer_store import load_progress
from pfeffer.cli.words import PERCENTAGE_POINTS, LangOpt, _, amount, counted, lang, number, shown
from pfeffer.core.trainer import Outcome
from pfeffer.dice.game import DiceView, PfefferMode, Phase
from pfeffer.dice.puzzle_set import shipped
from pfeffer.dice.puzzles import THEMES, DicePuzzle, Feedback, Line
from pfeffer.dice.rules import DiceRules

GAME = "dice"

#: What each kind's prompt offers (msgids).
KEYS = {
    "keep": "an option's number or the faces (155)",
    "bank": "b bank · r roll",
    "pfeffer": "p Pfeffer · r roll without",
}


#: Under house rules: the games played to make puzzles (at most), and the puzzles of each kind.
HOUSE_GAMES = 60
HOUSE_PER_KIND = {"keep": 150, "bank": 150, "pfeffer": 30}


def line_text(line: Line) -> str:
    """A feedback sentence in the terminal's language, its options in words."""
    params = {k: option_label(v) if isinstance(v, str) and k in ("action", "best", "second")
              else number(v, 1) if isinstance(v, float) else v
              for k, v in line.params}  # fmt: skip
    text = _(line.template).format(**params)
    return text[:1].upper() + text[1:]


def house_puzzles(console: Console, rules: DiceRules) -> tuple[DicePuzzle, ...]:
    """Puzzles of ``rules`` made now from their solved table (solved first if the player
    agrees); exits with status 1 if there is no table."""
    strategy = get_strategy(console, rules)
    if strategy is None:
        raise typer.Exit(1)
    from pfeffer.dice.solver.puzzles import generate

    with thinking(console, _("making puzzles from games of the computer's levels…")):
        found, _stats = generate(strategy, games=HOUSE_GAMES, seed=0, per_kind=HOUSE_PER_KIND)
    n = len(found)
    console.print(
        "[dim]"
        + counted(n, "%(n)d puzzle of these house rules.", "%(n)d puzzles of these house rules.")
        + "[/]"
    )
    return tuple(found)


def position_lines(view: DiceView, puzzle: DicePuzzle) -> list[str]:
    """The position as the player sees it (rich markup): the scores, the opponent's last turn,
    the turn so far and the throw on the table."""
    me = view.current_player
    assert me is not None
    own, other = view.scores[me], view.scores[1 - me]
    scores = _("Scores: [bold]you %(own)s[/], opponent %(other)s; target %(target)s.") % {
        "own": own,
        "other": other,
        "target": view.rules.target,
    }
    if view.final_round:
        scores += " [bold yellow]" + _("Final round: your last turn.") + "[/]"
    out = [scores]
    if view.history:
        last = view.history[-1]
        if last.busted:
            out.append(_("Your opponent's last turn: [red]bust[/]."))
        else:
            out.append(_("Your opponent's last turn: banked %(points)s.") % {"points": last.points})
    if view.pfeffer is PfefferMode.AUTO:
        out.append(
            _("[yellow]Auto-Pfeffer[/]: a bust costs you %(penalty)s this turn.")
            % {"penalty": view.bust_penalty}
        )
    elif view.pfeffer is PfefferMode.CALLED:
        out.append(
            _("[yellow]You called Pfeffer[/]: bank at least %(min)s; a bust costs %(penalty)s.")
            % {"min": view.min_to_bank, "penalty": view.bust_penalty}
        )
    throws = [t for t in view.turn_throws if t.kept]
    if throws:
        kept = ", ".join(faces_text(t.kept) for t in throws)
        out.append(
            _("This turn you set aside %(kept)s: turn total [bold]%(total)s[/].")
            % {"kept": kept, "total": view.turn_total}
        )
    if view.phase is Phase.KEEP and view.roll is not None:
        out.append(_("You throw: %(dice)s") % {"dice": dice_text(view.roll)})
    elif view.phase is Phase.DECIDE:
        n = view.dice_to_roll
        out.append(counted(n, "%(n)d die left to throw.", "%(n)d dice left to throw."))
    elif view.phase is Phase.START:
        out.append(
            _(
                "Pfeffer on offer: stake %(stake)s; you must bank at least %(need)s, "
                "a bust costs %(penalty)s."
            )
            % {
                "stake": view.pfeffer_stake,
                "need": view.pfeffer_need,
                "penalty": view.pfeffer_bust_penalty,
            }
        )
    return out


def feedback_table(feedback: Feedback, kind: str) -> Table:
    """Every option with its chance to win, the best marked, the chosen one in bold (``kind``:
    the puzzle's; not calling Pfeffer is to roll)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column(_("option"))
    table.add_column(_("chance to win"), justify="right")
    table.add_column("")
    for o in feedback.options:
        mark = _("best") if o.action == feedback.best else ""
        if o.action == feedback.chosen and o.action != feedback.best:
            mark = _("yours")
        style = "bold" if o.action == feedback.chosen else ""
        name = option_label(o.action)
        if kind == "pfeffer" and o.action == "roll":
            name = _("roll (no call)")
        table.add_row(name, f"{number(100 * o.win, 1)}%", mark, style=style)
    return table


class DiceTrainSession(TrainSession[DicePuzzle]):
    """One run of the dice trainer (:class:`pfeffer.cli.train_session.TrainSession`)."""

    themes = THEMES

    def ask_puzzle(self, puzzle: DicePuzzle, number: int, count: int) -> None:
        """Show ``puzzle``, read an answer until it is one of the options, tell how good."""
        view = puzzle.view()
        c = self.console
        self.header(puzzle, number, count)
        for line in position_lines(view, puzzle):
            c.print(line)
        c.print(f"[bold cyan]{_(puzzle.question)}[/]")
        if puzzle.kind == "keep":
            for line in option_lines(view.keep_options):
                c.print(line)
        numbered = [o.action for o in view.keep_options] if puzzle.kind == "keep" else []
        feedback = self.answer(puzzle.feedback, _(KEYS[puzzle.kind]), numbered, lower=True)
        self.tell(feedback, self.recorded(puzzle, feedback.correct), puzzle.kind)

    def tell(self, feedback: Feedback, outcome: Outcome, kind: str) -> None:
        """The verdict, every option's chance, the sentences, the rating change."""
        c = self.console
        if feedback.correct:
            c.print(
                _("[bold green]✓ Right![/] %(best)s is the best.")
                % {"best": escape(option_label(feedback.best))}
            )
        else:
            c.print(
                _(
                    "[bold red]✗ Not the best:[/] %(best)s is; %(chosen)s gives away %(cost)s "
                    "of winning chance."
                )
                % {
                    "best": escape(option_label(feedback.best)),
                    "chosen": escape(option_label(feedback.chosen)),
                    "cost": amount(100 * feedback.cost, 1, *PERCENTAGE_POINTS),
                }
            )
        c.print(feedback_table(feedback, kind))
        for line in feedback.lines:
            c.print("  " + escape(line.text() if lang() == "en" else line_text(line)))
        c.print("[dim]" + rating_line(outcome) + "[/]")


@app.command("train")
def train(
    theme: Annotated[
        str | None,
        typer.Option(
            help="Only puzzles of this theme: " + ", ".join(THEMES) + ".", show_default=False
        ),
    ] = None,
    count: CountOpt = 10,
    player: PlayerOpt = "You",
    seed: SeedOpt = None,
    rule: RuleOpt = None,
    *,
    lang: LangOpt = None,
) -> None:
    """Train on puzzles from real games: which dice to set aside, bank or roll on, call
    Pfeffer. Every answer is valued by the solved table, with every option's winning chance."""
    console = make_console()
    theme = check_theme(theme, THEMES)
    rules = rules_or_exit(DiceRules, rule)
    puzzles = shipped() if rules == DiceRules() else house_puzzles(console, rules)
    try:
        progress = load_progress(player, GAME)
    except ValueError as exc:
        print_error(console, exc)
        raise typer.Exit(1) from None
    console.print(
        counted(
            progress.tries,
            "[bold]Würfel-Pfeffer trainer[/] for %(player)s: rating %(rating)s, "
            "%(n)d puzzle tried.",
            "[bold]Würfel-Pfeffer trainer[/] for %(player)s: rating %(rating)s, "
            "%(n)d puzzles tried.",
            player=escape(shown(player)),
            rating=f"{progress.rating.rating:.0f}",
        )
    )
    DiceTrainSession(
        console, progress, puzzles, player=player, theme=theme, rng=random.Random(seed)
    ).run(count)
