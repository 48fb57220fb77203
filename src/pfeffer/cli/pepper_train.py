"""``pfeffer pepper train``: the Pepper puzzle trainer in the terminal (issue 23).

The puzzles are the shipped ones (:mod:`pfeffer.pepper.puzzle_set`, the default rules). The
feedback is the puzzle's own (:meth:`pfeffer.pepper.puzzles.PepperPuzzle.feedback`) and the
rating, streak, theme accuracy and repetition :mod:`pfeffer.core.trainer`'s, as for the dice
(:mod:`pfeffer.cli.dice_train`, whose steps this session follows); this module draws a Pepper
position with the game's helpers (:mod:`pfeffer.cli.pepper_draw`) and keeps the progress in the
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
from pfeffer.cli.pepper_draw import (
    SUIT_NAME,
    RuleOpt,
    app,
    bid_text,
    card_markup,
    trump_markup,
)
from pfeffer.cli.trainer_store import load_progress, save_progress
from pfeffer.cli.words import LangOpt
from pfeffer.core.errors import ActionError
from pfeffer.core.trainer import Attempt, Outcome, Progress, pick, record
from pfeffer.pepper.cards import CARD_INDEX, CARD_PRETTY
from pfeffer.pepper.game import PepperView
from pfeffer.pepper.puzzle_set import shipped
from pfeffer.pepper.puzzles import THEMES, Feedback, Line, PepperPuzzle
from pfeffer.pepper.rules import PepperRules

GAME = "pepper"

#: What each kind's prompt offers.
KEYS = {
    "card": "a card (QH, 10♥) or its number",
    "bid": "a bid (1-7, small, big) or pass",
    "trump": "C, D, H, S or NT",
    "open": "a card (QH, 10♥) or its number",
}


#: Under house rules: the hands played to make puzzles (at most), the puzzles of each kind and
#: the sampled deals per value (two samples each; the shipped set has 80).
HOUSE_HANDS = 60
HOUSE_PER_KIND = {"card": 30, "bid": 15, "trump": 10, "open": 30}
HOUSE_WORLDS = 40


def house_puzzles(console: Console, rules: PepperRules) -> tuple[PepperPuzzle, ...]:
    """Puzzles of house ``rules`` made now by the generator (hands of the computer's levels
    played by those rules, valued by the expert and double dummy); exits with status 1 if the
    generator's kernels are not installed."""
    try:
        from pfeffer.pepper.puzzle_gen import generate
    except ImportError as exc:
        print_error(console, f"Puzzles of house rules need the extra 'ai' ({exc}).")
        raise typer.Exit(1) from None
    with thinking(console, "making puzzles from hands of the computer's levels…"):
        found, _ = generate(
            hands=HOUSE_HANDS, seed=0, per_kind=HOUSE_PER_KIND, worlds=HOUSE_WORLDS, rules=rules
        )
    console.print(f"[dim]{counted(len(found), 'puzzle')} of these house rules.[/]")
    return tuple(found)


def _check_theme(theme: str | None) -> str | None:
    if theme is not None and theme not in THEMES:
        raise typer.BadParameter(f"choose from {', '.join(THEMES)}", param_hint="--theme")
    return theme


def cards_text(cards: list[str] | tuple[str, ...]) -> str:
    """Cards with their suit symbols (markup)."""
    return " ".join(card_markup(c) for c in cards) or "[dim]–[/]"


def option_text(kind: str, action: str) -> str:
    """An option as the table shows it (markup)."""
    if kind in ("card", "open"):
        return card_markup(action)
    if kind == "trump":
        return trump_markup(action)
    return bid_text(action)


def plain_option(kind: str, action: str) -> str:
    """An option as a sentence says it, without markup (``10♥``, ``clubs``, ``Small Pepper``).

    >>> plain_option("card", "TH"), plain_option("trump", "C"), plain_option("bid", "small")
    ('10♥', 'clubs', 'Small Pepper')
    """
    if kind in ("card", "open"):
        return CARD_PRETTY[CARD_INDEX[action]]
    if kind == "trump":
        return SUIT_NAME[action]
    return bid_text(action)


def line_text(line: Line, kind: str) -> str:
    """A feedback sentence with its cards, trumps and bids as players write them."""
    params = dict(line.params)
    for key in ("best", "chosen", "second", "card"):
        if isinstance(params.get(key), str):
            params[key] = plain_option("card" if key == "card" else kind, params[key])
    if isinstance(params.get("cards"), str):
        params["cards"] = ", ".join(
            plain_option("card", c.strip()) for c in params["cards"].split(",")
        )
    return Line(line.template, tuple(params.items())).text()


def position_lines(view: PepperView, puzzle: PepperPuzzle) -> list[str]:
    """The position as the player sees it (rich markup): the table, the auction, the contract,
    the tricks so far and the current trick, and the hand (every hand for ``open``)."""
    names = view.players
    n = len(names)
    me = view.seat
    assert me is not None
    out = [
        f"{n} players"
        + (" (you and your partner against the others)" if n == 4 else " (everyone alone)")
        + f"; {escape(names[view.dealer])} dealt."
    ]
    if view.auction:
        calls = ", ".join(f"{escape(names[s])} {bid_text(b)}" for s, b in view.auction)
        out.append(f"Auction: {calls}.")
    if view.phase == "auction":
        if view.bidder is not None and view.high_bid is not None:
            out.append(
                f"Highest bid so far: {bid_text(view.high_bid)} by {escape(names[view.bidder])}."
            )
    elif view.bidder is not None and view.high_bid is not None:
        contract = f"Contract: {escape(names[view.bidder])} bid {bid_text(view.high_bid)}"
        if view.trump is not None:
            contract += f", trump {trump_markup(view.trump)}"
        out.append(contract + ".")
    if view.phase == "play":
        won = ", ".join(f"{escape(s)} {w}" for s, w in zip(view.side_names, view.tricks_won,
                                                           strict=True))  # fmt: skip
        out.append(f"Tricks so far: {won} (of {view.tricks_in_hand}).")
        if view.tricks:
            last = view.tricks[-1]
            seats = last.seats or tuple((last.leader + i) % n for i in range(len(last.cards)))
            played = ", ".join(
                f"{escape(names[s])} {card_markup(c)}"
                for s, c in zip(seats, last.cards, strict=True)
            )
            out.append(f"Last trick: {played}; {escape(names[last.winner])} won it.")
        if view.current_trick:
            now = ", ".join(f"{escape(names[s])} {card_markup(c)}" for s, c in view.current_trick)
            out.append(f"This trick: {now}.")
        else:
            out.append("You lead.")
    if puzzle.kind == "open":
        for s, hand in enumerate(puzzle.hands()):
            if s != me:
                out.append(f"  {escape(names[s]):>9}: {cards_text(hand)}")
    out.append(f"  {'Your hand':>9}: {cards_text(view.hand)}")
    return out


def feedback_table(feedback: Feedback, kind: str) -> Table:
    """Every option with its value (points on average, or tricks double dummy), the best
    marked, the chosen one in bold."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("option")
    table.add_column("tricks" if kind == "open" else "points", justify="right")
    table.add_column("")
    top = feedback.options[0].value
    for o in feedback.options:
        mark = "best" if o.value >= top - 1e-6 else ""
        if o.action == feedback.chosen and not feedback.correct:
            mark = "yours"
        style = "bold" if o.action == feedback.chosen else ""
        value = f"{o.value:.0f}" if kind == "open" else f"{o.value:+.1f}"
        table.add_row(option_text(kind, o.action), value, mark, style=style)
    return table


class PepperTrainSession:
    """One run of the trainer: picks puzzles (:func:`pfeffer.core.trainer.pick`), asks, tells,
    saves after every answer; the same steps as the dice trainer's session."""

    def __init__(
        self,
        console: Console,
        progress: Progress,
        puzzles: tuple[PepperPuzzle, ...],
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
        summary_of(self.console, self)

    def ask_puzzle(self, puzzle: PepperPuzzle, number: int, count: int) -> None:
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
        c.print(f"[bold cyan]{escape(puzzle.question)}[/]")
        options = [o.action for o in puzzle.options]
        if puzzle.kind in ("card", "open"):
            options = [a for a in view.hand if a in options]
            c.print("  " + "  ".join(f"{i}. {card_markup(a)}" for i, a in enumerate(options, 1)))
        while True:
            text = ask(c, f"Your answer [dim]({KEYS[puzzle.kind]} · q quit)[/]: ")
            if text.lower() in QUIT_WORDS:
                raise QuitRequested
            if text.isdigit() and puzzle.kind in ("card", "open") and 0 < int(text) <= len(options):
                text = options[int(text) - 1]
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
        self.tell(feedback, puzzle, outcome)

    def tell(self, feedback: Feedback, puzzle: PepperPuzzle, o: Outcome) -> None:
        """The verdict, every option's value, the sentences, the hidden hands, the rating."""
        c = self.console
        kind = puzzle.kind
        unit = "tricks" if kind == "open" else "points"
        best = option_text(kind, feedback.best)
        if feedback.correct:
            c.print(f"[bold green]✓ Right![/] {best} is the best.")
        else:
            c.print(
                f"[bold red]✗ Not the best:[/] {best} is; {option_text(kind, feedback.chosen)} "
                f"gives away {feedback.cost:.1f} {unit}."
            )
        c.print(feedback_table(feedback, kind))
        for line in feedback.lines:
            c.print("  " + escape(line_text(line, kind)))
        if kind != "open":
            names = puzzle.view().players
            hands = puzzle.hands()
            shown = ", ".join(
                f"{escape(names[s])} {cards_text(h)}"
                for s, h in enumerate(hands)
                if s != puzzle.seat
            )
            c.print(f"  [dim]The others held:[/] {shown}")
        change = o.after.rating - o.before.rating
        c.print(
            f"[dim]Rating {o.before.rating:.0f} → {o.after.rating:.0f} "
            f"({change:+.0f}, ±{2 * o.after.rd:.0f}) · streak {o.streak}[/]"
        )


@app.command("train")
def train(
    *,
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
    lang: LangOpt = None,
) -> None:
    """Train on puzzles from real hands: which card, what to bid, which trump (from your seat's
    view, valued by the expert over sampled deals), and open-card problems solved exactly.
    Every answer comes with every option's value. Under house rules (--rule) the puzzles are
    made on the spot."""
    console: Console = make_console()
    theme = _check_theme(theme)
    rules = rules_or_exit(PepperRules, rule)
    puzzles = shipped() if rules == PepperRules() else house_puzzles(console, rules)
    try:
        progress: Progress = load_progress(player, GAME)
    except ValueError as exc:
        print_error(console, exc)
        raise typer.Exit(1) from None
    console.print(
        f"[bold]Pepper trainer[/] for {escape(player)}: rating "
        f"{progress.rating.rating:.0f}, {counted(progress.tries, 'puzzle')} tried."
    )
    PepperTrainSession(
        console, progress, puzzles, player=player, theme=theme, rng=random.Random(seed)
    ).run(count)


def summary_of(console: Console, session: PepperTrainSession) -> None:
    """This run's score, the rating, the accuracy by theme and the puzzles due again."""
    c = console
    p = session.progress
    c.print()
    c.print(
        f"[bold]{session.right} of {session.done} right[/] this time. Rating "
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
