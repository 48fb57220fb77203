"""What both terminal trainers share (issue 23): a run of puzzles picked by
:func:`pfeffer.core.trainer.pick`, each puzzle's header, the answer read until it names an
option, the attempt recorded and saved after every answer, the rating line and the run's
summary. :mod:`pfeffer.cli.dice_train` and :mod:`pfeffer.cli.pepper_train` draw their game's
position and feedback on top of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Annotated, ClassVar, Generic, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from pfeffer.cli.common import QUIT_WORDS, QuitRequested, ask, print_error
from pfeffer.cli.trainer_store import save_progress
from pfeffer.cli.words import _, counted
from pfeffer.core.errors import ActionError
from pfeffer.core.trainer import Attempt, Outcome, P, Progress, pick, record

F = TypeVar("F")

#: The options both ``train`` commands take besides ``--theme`` and ``--rule``.
CountOpt = Annotated[int, typer.Option(help="How many puzzles.", min=1)]
PlayerOpt = Annotated[
    str, typer.Option(help="Whose progress (each player has a rating of their own).")
]
SeedOpt = Annotated[
    int | None, typer.Option(help="Seed for the choice of puzzles.", show_default=False)
]


def check_theme(theme: str | None, themes: Collection[str]) -> str | None:
    """``theme`` if it is one of ``themes`` (or None), else the option's error."""
    if theme is not None and theme not in themes:
        raise typer.BadParameter(
            _("choose from %(themes)s") % {"themes": ", ".join(themes)}, param_hint="--theme"
        )
    return theme


class TrainSession(Generic[P]):
    """One run of a trainer: picks puzzles, asks (:meth:`ask_puzzle`, the game's), tells,
    saves after every answer."""

    #: The game's themes, in the order the summary lists them.
    themes: ClassVar[Collection[str]] = ()

    def __init__(
        self,
        console: Console,
        progress: Progress,
        puzzles: tuple[P, ...],
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
                    self.console.print(_("No puzzles of that theme."))
                    break
                self.ask_puzzle(puzzle, number, count)
        except QuitRequested:
            pass
        summary(self.console, self.progress, self.right, self.done, self.themes)

    def ask_puzzle(self, puzzle: P, number: int, count: int) -> None:
        """Show ``puzzle``, read an answer, tell how good (the game's)."""
        raise NotImplementedError

    def header(self, puzzle: P, number: int, count: int) -> None:
        """The puzzle's number, themes and rating, and whether it is a missed one again."""
        rated = self.progress.puzzle_rating(puzzle.id, puzzle.difficulty).rating
        themes = ", ".join(puzzle.themes)
        self.console.print()
        again = ""
        if puzzle.id in self.progress.reviews:
            again = " [yellow]· " + _("again: missed before") + "[/]"
        head = _("Puzzle %(number)s of %(count)s") % {"number": number, "count": count}
        rating = _("rated %(r)s") % {"r": f"{rated:.0f}"}
        self.console.print(f"[bold]{head}[/] [dim]· {themes} · {rating}[/]{again}")

    def answer(
        self, judge: Callable[[str], F], keys: str, numbered: Sequence[str], *, lower: bool
    ) -> F:
        """``judge``'s verdict on the first answer it takes: asked with the kind's ``keys``;
        a number picks from ``numbered``; the judge's refusals are shown and asked again;
        q quits. ``lower``: the answer is judged in lower case."""
        while True:
            typed = ask(
                self.console, _("Your answer [dim](%(keys)s · q quit)[/]: ") % {"keys": keys}
            )
            if typed.lower() in QUIT_WORDS:
                raise QuitRequested
            text = typed.lower() if lower else typed
            if text.isdigit() and 1 <= int(text) <= len(numbered):
                text = numbered[int(text) - 1]
            try:
                return judge(text)
            except ActionError as exc:
                print_error(self.console, exc)

    def recorded(self, puzzle: P, correct: bool) -> Outcome:
        """The answer counted in the progress, saved at once, and its outcome."""
        attempt = Attempt(puzzle.id, puzzle.difficulty, puzzle.themes, correct)
        self.progress, outcome = record(self.progress, attempt)
        save_progress(self.player, self.progress)
        self.done += 1
        self.right += correct
        return outcome


def rating_line(outcome: Outcome) -> str:
    """The rating's change after an answer and the streak."""
    change = outcome.after.rating - outcome.before.rating
    return _("Rating %(before)s → %(after)s (%(change)s, ±%(rd)s) · streak %(streak)s") % {
        "before": f"{outcome.before.rating:.0f}",
        "after": f"{outcome.after.rating:.0f}",
        "change": f"{change:+.0f}",
        "rd": f"{2 * outcome.after.rd:.0f}",
        "streak": outcome.streak,
    }


def summary(c: Console, p: Progress, right: int, done: int, themes: Iterable[str]) -> None:
    """A run's score, the rating, the accuracy by theme (in the order of ``themes``) and the
    puzzles due again."""
    c.print()
    score = counted(done, "%(right)d of %(n)d right", "%(right)d of %(n)d right", right=right)
    tried = counted(p.tries, "%(n)d puzzle tried in all.", "%(n)d puzzles tried in all.")
    c.print(
        f"[bold]{score}[/] "
        + _("this time. Rating %(rating)s (±%(rd)s), best streak %(best)s;")
        % {
            "rating": f"{p.rating.rating:.0f}",
            "rd": f"{2 * p.rating.rd:.0f}",
            "best": p.best_streak,
        }
        + " "
        + tried
    )
    if p.themes:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column(_("theme"))
        table.add_column(_("tried"), justify="right")
        table.add_column(_("right"), justify="right")
        for theme in themes:
            if theme in p.themes:
                tries, hits = p.themes[theme]
                table.add_row(theme, str(tries), f"{100 * hits / tries:.0f}%")
        c.print(table)
    if p.reviews:
        c.print(
            "[dim]"
            + counted(
                len(p.reviews),
                "%(n)d missed puzzle will come back for another try.",
                "%(n)d missed puzzles will come back for another try.",
            )
            + "[/]"
        )
