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
import re
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
from pfeffer.cli.pepper_draw import (
    SUIT_NAME,
    WITH,
    RuleOpt,
    app,
    bid_text,
    card_markup,
    trump_markup,
)
from pfeffer.cli.train_session import (
    CountOpt,
    PlayerOpt,
    SeedOpt,
    TrainSession,
    check_theme,
    rating_line,
)
from pfeffer.cli.trainer_store import load_progress
from pfeffer.cli.words import (
    POINTS,
    TRICKS,
    LangOpt,
    _,
    amount,
    counted,
    is_you,
    number,
    pgettext,
    shown,
    signed,
)
from pfeffer.core.trainer import Outcome, Progress
from pfeffer.pepper.cards import CARD_INDEX, CARD_PRETTY
from pfeffer.pepper.game import PepperView
from pfeffer.pepper.puzzle_set import shipped
from pfeffer.pepper.puzzles import THEMES, Feedback, Line, PepperPuzzle
from pfeffer.pepper.rules import PepperRules

GAME = "pepper"

#: What each kind's prompt offers (msgids).
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
        print_error(
            console, _("Puzzles of house rules need the extra 'ai' (%(error)s).") % {"error": exc}
        )
        raise typer.Exit(1) from None
    with thinking(console, _("making puzzles from hands of the computer's levels…")):
        found, _stats = generate(
            hands=HOUSE_HANDS, seed=0, per_kind=HOUSE_PER_KIND, worlds=HOUSE_WORLDS, rules=rules
        )
    n = len(found)
    console.print(
        "[dim]"
        + counted(n, "%(n)d puzzle of these house rules.", "%(n)d puzzles of these house rules.")
        + "[/]"
    )
    return tuple(found)


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
        return _(SUIT_NAME[action])
    return bid_text(action)


#: The names of a puzzle's seats (msgids in the context "seat").
SEAT_NAMES = frozenset({"Opponent", "Left", "Right", "Partner"})


def seat_name(name: str) -> str:
    """A seat's or a side's name in the terminal's language ("You & Partner": "Du & Partner")."""
    if " & " in name:
        return " & ".join(seat_name(n) for n in name.split(" & "))
    if is_you(name):
        return shown(name)
    return pgettext("seat", name) if name in SEAT_NAMES else name


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
    for key, value in params.items():  # the values the feedback wrote as "+1.5", "0.5"
        if isinstance(value, str) and re.fullmatch(r"[+-]?\d+\.\d+", value):
            params[key] = signed(float(value)) if value[0] in "+-" else number(float(value), 1)
    text = Line(line.template, tuple(params.items())).text(_)
    return text[:1].upper() + text[1:]


def position_lines(view: PepperView, puzzle: PepperPuzzle) -> list[str]:
    """The position as the player sees it (rich markup): the table, the auction, the contract,
    the tricks so far and the current trick, and the hand (every hand for ``open``)."""
    names = [seat_name(p) for p in view.players]
    n = len(names)
    me = view.seat
    assert me is not None
    dealer = escape(names[view.dealer])
    if n == 4:
        first = _("4 players (you and your partner against the others); dealer %(dealer)s.")
        first %= {"dealer": dealer}
    else:
        first = counted(
            n,
            "%(n)d player (everyone alone); dealer %(dealer)s.",
            "%(n)d players (everyone alone); dealer %(dealer)s.",
            dealer=dealer,
        )
    out = [first]
    if view.auction:
        calls = ", ".join(f"{escape(names[s])} {bid_text(b)}" for s, b in view.auction)
        out.append(_("Auction: %(bids)s") % {"bids": calls} + ".")
    if view.phase == "auction":
        if view.bidder is not None and view.high_bid is not None:
            out.append(
                _("Highest bid so far: %(bid)s by %(name)s.")
                % {"bid": bid_text(view.high_bid), "name": escape(names[view.bidder])}
            )
    elif view.bidder is not None and view.high_bid is not None:
        bidder = escape(names[view.bidder])
        if view.trump is not None:
            out.append(
                _("Contract: %(bidder)s bid %(bid)s, trump %(trump)s.")
                % {"bidder": bidder, "bid": bid_text(view.high_bid, WITH),
                   "trump": trump_markup(view.trump)}
            )  # fmt: skip
        else:
            out.append(
                _("Contract: %(bidder)s bid %(bid)s.")
                % {"bidder": bidder, "bid": bid_text(view.high_bid, WITH)}
            )
    if view.phase == "play":
        won = ", ".join(f"{escape(seat_name(s))} {w}" for s, w in zip(view.side_names,
                        view.tricks_won, strict=True))  # fmt: skip
        out.append(_("Tricks so far: %(won)s (of %(n)s).") % {"won": won, "n": view.tricks_in_hand})
        if view.tricks:
            last = view.tricks[-1]
            seats = last.seats or tuple((last.leader + i) % n for i in range(len(last.cards)))
            played = ", ".join(
                f"{escape(names[s])} {card_markup(c)}"
                for s, c in zip(seats, last.cards, strict=True)
            )
            out.append(
                _("Last trick: %(cards)s; %(name)s won it.")
                % {"cards": played, "name": escape(names[last.winner])}
            )
        if view.current_trick:
            now = ", ".join(f"{escape(names[s])} {card_markup(c)}" for s, c in view.current_trick)
            out.append(_("This trick: %(cards)s.") % {"cards": now})
        else:
            out.append(_("You lead."))
    if puzzle.kind == "open":
        for s, hand in enumerate(puzzle.hands()):
            if s != me:
                out.append(f"  {escape(names[s]):>9}: {cards_text(hand)}")
    out.append(f"  {_('Your hand'):>9}: {cards_text(view.hand)}")
    return out


def feedback_table(feedback: Feedback, kind: str) -> Table:
    """Every option with its value (points on average, or tricks double dummy), the best
    marked, the chosen one in bold."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column(_("option"))
    table.add_column(
        pgettext("column", "tricks") if kind == "open" else _("points"), justify="right"
    )
    table.add_column("")
    top = feedback.options[0].value
    for o in feedback.options:
        mark = _("best") if o.value >= top - 1e-6 else ""
        if o.action == feedback.chosen and not feedback.correct:
            mark = _("yours")
        style = "bold" if o.action == feedback.chosen else ""
        value = number(o.value) if kind == "open" else signed(o.value)
        table.add_row(option_text(kind, o.action), value, mark, style=style)
    return table


class PepperTrainSession(TrainSession[PepperPuzzle]):
    """One run of the Pepper trainer (:class:`pfeffer.cli.train_session.TrainSession`)."""

    themes = THEMES

    def ask_puzzle(self, puzzle: PepperPuzzle, number: int, count: int) -> None:
        """Show ``puzzle``, read an answer until it is one of the options, tell how good."""
        view = puzzle.view()
        c = self.console
        self.header(puzzle, number, count)
        for line in position_lines(view, puzzle):
            c.print(line)
        c.print(f"[bold cyan]{escape(line_text(puzzle.question_line, puzzle.kind))}[/]")
        options = [o.action for o in puzzle.options]
        if puzzle.kind in ("card", "open"):
            options = [a for a in view.hand if a in options]
            c.print("  " + "  ".join(f"{i}. {card_markup(a)}" for i, a in enumerate(options, 1)))
        numbered = options if puzzle.kind in ("card", "open") else []
        feedback = self.answer(puzzle.feedback, _(KEYS[puzzle.kind]), numbered, lower=False)
        self.tell(feedback, puzzle, self.recorded(puzzle, feedback.correct))

    def tell(self, feedback: Feedback, puzzle: PepperPuzzle, o: Outcome) -> None:
        """The verdict, every option's value, the sentences, the hidden hands, the rating."""
        c = self.console
        kind = puzzle.kind
        best = option_text(kind, feedback.best)
        if feedback.correct:
            c.print(_("[bold green]✓ Right![/] %(best)s is the best.") % {"best": best})
        else:
            noun = TRICKS if kind == "open" else POINTS
            c.print(
                _("[bold red]✗ Not the best:[/] %(best)s is; %(chosen)s gives away %(cost)s.")
                % {
                    "best": best,
                    "chosen": option_text(kind, feedback.chosen),
                    "cost": amount(feedback.cost, 1, *noun),
                }
            )
        c.print(feedback_table(feedback, kind))
        for line in feedback.lines:
            c.print("  " + escape(line_text(line, kind)))
        if kind != "open":
            names = [seat_name(p) for p in puzzle.view().players]
            hands = puzzle.hands()
            held = ", ".join(
                f"{escape(names[s])} {cards_text(h)}"
                for s, h in enumerate(hands)
                if s != puzzle.seat
            )
            c.print(f"  [dim]{_('The others held:')}[/] {held}")
        c.print("[dim]" + rating_line(o) + "[/]")


@app.command("train")
def train(
    *,
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
    lang: LangOpt = None,
) -> None:
    """Train on puzzles from real hands: which card, what to bid, which trump (from your seat's
    view, valued by the expert over sampled deals), and open-card problems solved exactly.
    Every answer comes with every option's value. Under house rules (--rule) the puzzles are
    made on the spot."""
    console: Console = make_console()
    theme = check_theme(theme, THEMES)
    rules = rules_or_exit(PepperRules, rule)
    puzzles = shipped() if rules == PepperRules() else house_puzzles(console, rules)
    try:
        progress: Progress = load_progress(player, GAME)
    except ValueError as exc:
        print_error(console, exc)
        raise typer.Exit(1) from None
    console.print(
        counted(
            progress.tries,
            "[bold]Pepper trainer[/] for %(player)s: rating %(rating)s, %(n)d puzzle tried.",
            "[bold]Pepper trainer[/] for %(player)s: rating %(rating)s, %(n)d puzzles tried.",
            player=escape(shown(player)),
            rating=f"{progress.rating.rating:.0f}",
        )
    )
    PepperTrainSession(
        console, progress, puzzles, player=player, theme=theme, rng=random.Random(seed)
    ).run(count)
