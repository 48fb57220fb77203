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
    QUIT_WORDS,
    QuitRequested,
    ask,
    make_console,
    print_error,
    rules_or_exit,
    thinking,
)
from pfeffer.cli.common import count as counted
from pfeffer.cli.dice_advice import get_strategy
from pfeffer.cli.dice_draw import RuleOpt, app, dice_text, faces_text, option_lines
from pfeffer.cli.trainer_store import load_progress, save_progress
from pfeffer.cli.words import LangOpt
from pfeffer.core.errors import ActionError
from pfeffer.core.trainer import Attempt, Outcome, Progress, pick, record
from pfeffer.dice.game import DiceView, PfefferMode, Phase
from pfeffer.dice.puzzle_set import shipped
from pfeffer.dice.puzzles import THEMES, DicePuzzle, Feedback
from pfeffer.dice.rules import DiceRules

GAME = "dice"

#: What each kind's prompt offers.
KEYS = {
    "keep": "an option's number or the faces (155)",
    "bank": "b bank · r roll",
    "pfeffer": "p Pfeffer · r roll without",
}


#: Under house rules: the games played to make puzzles (at most), and the puzzles of each kind.
HOUSE_GAMES = 60
HOUSE_PER_KIND = {"keep": 150, "bank": 150, "pfeffer": 30}


def house_puzzles(console: Console, rules: DiceRules) -> tuple[DicePuzzle, ...]:
    """Puzzles of ``rules`` made now from their solved table (solved first if the player
    agrees); exits with status 1 if there is no table."""
    strategy = get_strategy(console, rules)
    if strategy is None:
        raise typer.Exit(1)
    from pfeffer.dice.solver.puzzles import generate

    with thinking(console, "making puzzles from games of the computer's levels…"):
        found, _ = generate(strategy, games=HOUSE_GAMES, seed=0, per_kind=HOUSE_PER_KIND)
    console.print(f"[dim]{counted(len(found), 'puzzle')} of these house rules.[/]")
    return tuple(found)


def _check_theme(theme: str | None) -> str | None:
    if theme is not None and theme not in THEMES:
        raise typer.BadParameter(f"choose from {', '.join(THEMES)}", param_hint="--theme")
    return theme


def position_lines(view: DiceView, puzzle: DicePuzzle) -> list[str]:
    """The position as the player sees it (rich markup): the scores, the opponent's last turn,
    the turn so far and the throw on the table."""
    me = view.current_player
    assert me is not None
    own, other = view.scores[me], view.scores[1 - me]
    out = [
        f"Scores: [bold]you {own}[/], opponent {other}; target {view.rules.target}."
        + (" [bold yellow]Final round: your last turn.[/]" if view.final_round else "")
    ]
    if view.history:
        last = view.history[-1]
        if last.busted:
            out.append("Your opponent's last turn: [red]bust[/].")
        else:
            out.append(f"Your opponent's last turn: banked {last.points}.")
    if view.pfeffer is PfefferMode.AUTO:
        out.append(f"[yellow]Auto-Pfeffer[/]: a bust costs you {view.bust_penalty} this turn.")
    elif view.pfeffer is PfefferMode.CALLED:
        out.append(
            f"[yellow]You called Pfeffer[/]: bank at least {view.min_to_bank}; "
            f"a bust costs {view.bust_penalty}."
        )
    throws = [t for t in view.turn_throws if t.kept]
    if throws:
        kept = ", ".join(faces_text(t.kept) for t in throws)
        out.append(f"This turn you set aside {kept}: turn total [bold]{view.turn_total}[/].")
    if view.phase is Phase.KEEP and view.roll is not None:
        out.append(f"You throw: {dice_text(view.roll)}")
    elif view.phase is Phase.DECIDE:
        n = view.dice_to_roll
        out.append(f"{n} {'die' if n == 1 else 'dice'} left to throw.")
    elif view.phase is Phase.START:
        out.append(
            f"Pfeffer on offer: stake {view.pfeffer_stake}; you must bank at least "
            f"{view.pfeffer_need}, a bust costs {view.pfeffer_bust_penalty}."
        )
    return out


def feedback_table(feedback: Feedback, kind: str) -> Table:
    """Every option with its chance to win, the best marked, the chosen one in bold (``kind``:
    the puzzle's; not calling Pfeffer is to roll)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("option")
    table.add_column("chance to win", justify="right")
    table.add_column("")
    for o in feedback.options:
        mark = "best" if o.action == feedback.best else ""
        if o.action == feedback.chosen and o.action != feedback.best:
            mark = "yours"
        style = "bold" if o.action == feedback.chosen else ""
        name = "roll (no call)" if kind == "pfeffer" and o.action == "roll" else o.action
        table.add_row(name, f"{100 * o.win:.1f}%", mark, style=style)
    return table


class TrainSession:
    """One run of the trainer: picks puzzles, asks, tells, saves after every answer."""

    def __init__(
        self,
        console: Console,
        progress: Progress,
        puzzles: tuple[DicePuzzle, ...],
        *,
        player: str,
        theme: str | None,
        rng: random.Random,
    ) -> None:
        self.console = console
        self.progress = progress
        self.puzzles = puzzles
        self.player = player
        self.theme = theme
        self.rng = rng
        self.done = 0
        self.right = 0

    def run(self, count: int) -> None:
        """Ask up to ``count`` puzzles (q or end of input stops early)."""
        try:
            for number in range(1, count + 1):
                puzzle = pick(self.progress, self.puzzles, self.rng, theme=self.theme)
                if puzzle is None:
                    self.console.print("No puzzles of that theme.")
                    break
                self.ask_puzzle(puzzle, number, count)
        except QuitRequested:
            pass
        self.summary()

    def ask_puzzle(self, puzzle: DicePuzzle, number: int, count: int) -> None:
        """Show ``puzzle``, read an answer until it is one of the options, tell how good."""
        view = puzzle.view()
        c = self.console
        rated = self.progress.puzzle_rating(puzzle.id, puzzle.difficulty).rating
        themes = ", ".join(puzzle.themes)
        c.print()
        again = " [yellow]· again: missed before[/]" if puzzle.id in self.progress.reviews else ""
        c.print(
            f"[bold]Puzzle {number} of {count}[/] [dim]· {themes} · rated {rated:.0f}[/]{again}"
        )
        for line in position_lines(view, puzzle):
            c.print(line)
        c.print(f"[bold cyan]{puzzle.question}[/]")
        if puzzle.kind == "keep":
            for line in option_lines(view.keep_options):
                c.print(line)
        while True:
            text = ask(c, f"Your answer [dim]({KEYS[puzzle.kind]} · q quit)[/]: ").lower()
            if text in QUIT_WORDS:
                raise QuitRequested
            if (
                puzzle.kind == "keep"
                and text.isdigit()
                and 1 <= int(text) <= len(view.keep_options)
            ):
                text = view.keep_options[int(text) - 1].action
            try:
                feedback = puzzle.feedback(text)
            except ActionError as exc:
                print_error(c, exc)
                continue
            break
        attempt = Attempt(puzzle.id, puzzle.difficulty, puzzle.themes, feedback.correct)
        self.progress, outcome = record(self.progress, attempt)
        save_progress(self.player, self.progress)
        self.done += 1
        self.right += feedback.correct
        self.tell(feedback, outcome, puzzle.kind)

    def tell(self, feedback: Feedback, outcome: Outcome, kind: str) -> None:
        """The verdict, every option's chance, the sentences, the rating change."""
        c = self.console
        if feedback.correct:
            c.print("[bold green]✓ Right![/] " + escape(feedback.best) + " is the best.")
        else:
            c.print(
                f"[bold red]✗ Not the best:[/] {escape(feedback.best)} is; "
                f"{escape(feedback.chosen)} gives away {100 * feedback.cost:.1f} percentage "
                "points of winning chance."
            )
        c.print(feedback_table(feedback, kind))
        for line in feedback.lines:
            c.print("  " + escape(line.text()))
        change = outcome.after.rating - outcome.before.rating
        c.print(
            f"[dim]Rating {outcome.before.rating:.0f} → {outcome.after.rating:.0f} "
            f"({change:+.0f}, ±{2 * outcome.after.rd:.0f}) · streak {outcome.streak}[/]"
        )

    def summary(self) -> None:
        """This run's score, the rating, the accuracy by theme and the puzzles due again."""
        c = self.console
        p = self.progress
        c.print()
        c.print(
            f"[bold]{self.right} of {self.done} right[/] this time. Rating "
            f"{p.rating.rating:.0f} (±{2 * p.rating.rd:.0f}), best streak {p.best_streak}; "
            f"{counted(p.tries, 'puzzle')} tried in all."
        )
        if p.themes:
            table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
            table.add_column("theme")
            table.add_column("tried", justify="right")
            table.add_column("right", justify="right")
            for theme in THEMES:
                if theme in p.themes:
                    tries, right = p.themes[theme]
                    table.add_row(theme, str(tries), f"{100 * right / tries:.0f}%")
            c.print(table)
        if p.reviews:
            missed = counted(len(p.reviews), "missed puzzle")
            c.print(f"[dim]{missed} will come back for another try.[/]")


@app.command("train")
def train(
    theme: Annotated[
        str | None,
        typer.Option(
            help="Only puzzles of this theme: " + ", ".join(THEMES) + ".", show_default=False
        ),
    ] = None,
    count: Annotated[int, typer.Option(help="How many puzzles.", min=1)] = 10,
    player: Annotated[
        str, typer.Option(help="Whose progress (each player has a rating of their own).")
    ] = "You",
    seed: Annotated[
        int | None, typer.Option(help="Seed for the choice of puzzles.", show_default=False)
    ] = None,
    rule: RuleOpt = None,
    *,
    lang: LangOpt = None,
) -> None:
    """Train on puzzles from real games: which dice to set aside, bank or roll on, call
    Pfeffer. Every answer is valued by the solved table, with every option's winning chance."""
    console = make_console()
    theme = _check_theme(theme)
    rules = rules_or_exit(DiceRules, rule)
    puzzles = shipped() if rules == DiceRules() else house_puzzles(console, rules)
    try:
        progress = load_progress(player, GAME)
    except ValueError as exc:
        print_error(console, exc)
        raise typer.Exit(1) from None
    console.print(
        f"[bold]Würfel-Pfeffer trainer[/] for {escape(player)}: rating "
        f"{progress.rating.rating:.0f}, {counted(progress.tries, 'puzzle')} tried."
    )
    TrainSession(
        console, progress, puzzles, player=player, theme=theme, rng=random.Random(seed)
    ).run(count)
