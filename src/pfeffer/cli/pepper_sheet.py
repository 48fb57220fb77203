"""``pfeffer pepper sheet``: the score pad for Pepper played with real cards.

Every rule lives in :class:`~pfeffer.pepper.sheet.PepperSheet`; this module prompts for the
hands and draws the pad with the drawing helpers of :mod:`pfeffer.cli.pepper`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from pfeffer.cli.common import (
    QUIT_WORDS,
    QuitRequested,
    SheetSaveOpt,
    SheetSession,
    ask,
    ask_player_names,
    check_names,
    check_save_path,
    confirm,
    entry_question,
    error_text,
    load_or_exit,
    make_console,
    new_record_path,
    print_error,
    record_kind,
    rules_or_exit,
)
from pfeffer.cli.pepper_draw import (
    RuleOpt,
    app,
    bid_text,
    hand_table,
    rules_help,
    seat_number,
    winners_text,
)
from pfeffer.cli.pepper_narration import REDEAL, points_text, verdict
from pfeffer.cli.words import LangOpt, _, counted, said, shown
from pfeffer.core.errors import ActionError, IllegalAction, RecordError
from pfeffer.pepper import HandResult, PepperRules, bid_ladder, cards_per_hand, side_of
from pfeffer.pepper.cards import parse_trump
from pfeffer.pepper.rules import side_names
from pfeffer.pepper.sheet import PepperSheet, parse_bid

T = TypeVar("T")


SHEET_KEYS = (
    "Each hand: the bidder (number or name), the bid (1…, s = Small, b = Big Pepper), trump "
    "(C D H S NT) and the tricks per side; or all in one line, e.g. 'Ann 3 H 4 2'. "
    "p = everybody passed (all_pass=redeal) · u = undo · t = table · s = save · ? = rules · "
    "q = save and quit · an empty answer cancels the hand"
)


class _Cancel(Exception):
    """An empty answer in the middle of an entry: start the hand over."""


class PepperSheetSession(SheetSession[PepperSheet]):
    """The interactive score pad: prompts for one hand at a time."""

    GAME = "pepper"
    NOUN = "Pad"
    KEYS = SHEET_KEYS

    def show(self) -> None:
        """Print the pad."""
        s = self.sheet
        self.console.print(hand_table(s.players, s.rows(), s.totals, s.winners))

    def help_text(self) -> str:
        """The rules in force, for the number of players at the table."""
        return rules_help(self.sheet.rules, len(self.sheet.players))

    def announce_end(self) -> None:
        """Name the winners."""
        s = self.sheet
        self.console.rule(f"[bold green]{winners_text(s.players, s.winners, s.totals)}[/]")

    def ask(self, prompt: str) -> str:
        """One answer inside an entry; empty cancels the entry, q quits."""
        text = ask(self.console, prompt)
        if not text:
            raise _Cancel
        if text.lower() in QUIT_WORDS:
            raise QuitRequested
        return text

    def step(self) -> None:
        """Read and apply one hand or command."""
        s = self.sheet
        dealer = s.players[s.dealer]
        players = " · ".join(f"{i + 1} {escape(shown(p))}" for i, p in enumerate(s.players))
        deals = said(dealer, "%(name)s deals", "You deal", name=escape(shown(dealer)))
        hand = _("Hand %(n)s · %(dealer)s") % {"n": len(s.rows()) + 1, "dealer": deals}
        prompt = f"{hand} ▸ {_('bidder')} [dim]({players}; {_('? help')})[/]: "
        text = ask(self.console, prompt)
        low = text.lower()
        if not low or self.command(low):
            return
        try:
            if low in ("u", "undo"):
                s.undo()
                self.console.print(_("Last hand taken back."))
            elif low in ("p", "pass", "passed"):
                s.enter_passed()
                self.console.print(_(REDEAL))
            else:
                self.enter(text)
        except _Cancel:
            self.console.print(f"[dim]{_('Hand cancelled.')}[/]")
            return
        except ActionError as exc:
            print_error(self.console, exc)
            return
        self.show()
        self.save()

    def enter(self, text: str) -> None:
        """An entry: the whole hand on one line, or the bidder followed by prompts."""
        s = self.sheet
        n = len(s.players)
        sides = side_names(s.players)
        try:
            bidder = seat_number(text, s.players)
        except IllegalAction:
            if len(text.split()) < 2:
                raise
            bidder, row = self.enter_line(text)
        else:
            bid = self.ask_until(
                _("Bid (%(bids)s): ") % {"bids": ", ".join(bid_text(b) for b in bid_ladder(n))},
                lambda t: parse_bid(t, n),
            )
            trump = self.ask_until(
                _("Trump (%(suits)s): ")
                % {"suits": "C D H S" + (" NT" if s.rules.no_trump else "")},
                _trump,
            )
            tricks: list[int] = []
            for name in sides[:-1]:
                won_by = _("Tricks won by %(name)s: ") % {"name": escape(shown(name))}
                got = self.ask_until(won_by, _whole)
                tricks.append(got)
            row = self.enter_checked(bidder, bid, trump, self.complete(tricks))
        names = [escape(shown(name)) for name in sides]
        made = verdict(sides[side_of(n, bidder)], bool(row.made))
        self.console.print(f"{made}: {points_text(names, row.points)}.")

    def enter_checked(
        self, bidder: int, bid: int | str, trump: str | None, tricks: list[int]
    ) -> HandResult:
        """Enter a hand, after the players confirm it if it ends the game (a slip of the finger
        must not declare a winner); :class:`_Cancel` if they do not."""
        s = self.sheet
        check = s.check(bidder, bid, trump, tricks)
        who = side_names(s.players)[side_of(len(s.players), bidder)]
        if check.needs_confirmation and not confirm(self.console, entry_question(check, who)):
            raise _Cancel
        return s.enter(bidder, bid, trump, tricks)

    def complete(self, tricks: list[int]) -> list[int]:
        """The tricks of every side but the last, completed: the last side took the rest of
        the hand (shown), so they add up to the cards of a hand."""
        s = self.sheet
        total = cards_per_hand(len(s.players))
        rest = total - sum(tricks)
        if rest < 0:
            raise IllegalAction(
                counted(
                    sum(tricks),
                    "That is %(n)d trick; a hand has only %(total)s.",
                    "That is %(n)d tricks; a hand has only %(total)s.",
                    total=total,
                )
            )
        last = side_names(s.players)[-1]
        told = counted(rest, "%(n)d trick", "%(n)d tricks")
        self.console.print(f"[dim]→ {escape(shown(last))}: {told}[/]")
        return [*tricks, rest]

    def enter_line(self, text: str) -> tuple[int, HandResult]:
        """A whole hand on one line, ``BIDDER BID TRUMP TRICKS…``: the tricks of every side,
        or of every side but the last (which then took the rest). Returns the bidder and row."""
        s = self.sheet
        sides = side_names(s.players)
        words = text.split()
        k = len(words)
        while k > 0 and words[k - 1].isdigit():
            k -= 1
        tricks = [int(w) for w in words[k:]]
        example = f"e.g. '{s.players[0]} 3 H " + " ".join(["2"] * (len(sides) - 1)) + "'"
        form = (
            f"{text!r}: a whole hand on one line is: bidder, bid, trump and the "
            f"tricks of each side ({', '.join(sides)}; the last may be left out), {example}; "
            "or type just the bidder to be asked step by step."
        )
        if k < 3 or len(tricks) not in (len(sides) - 1, len(sides)):
            raise IllegalAction(form)
        try:
            bidder = seat_number(" ".join(words[: k - 2]), s.players)
            _trump(words[k - 1])
        except ActionError as exc:
            raise IllegalAction(f"{error_text(exc)} {form}") from None
        if len(tricks) < len(sides):
            tricks = self.complete(tricks)
        return bidder, self.enter_checked(bidder, words[k - 2], words[k - 1], tricks)

    def ask_until(self, prompt: str, read: Callable[[str], T]) -> T:
        """Ask until ``read`` accepts the answer (it raises IllegalAction otherwise)."""
        while True:
            text = self.ask(prompt)
            try:
                return read(text)
            except ActionError as exc:
                print_error(self.console, exc)


def _trump(text: str) -> str:
    parse_trump(text)  # the engine's notation check (IllegalAction if no trump name)
    return text


def _whole(text: str) -> int:
    if not text.strip().isdigit():
        raise IllegalAction(
            _("%(text)s: type the number of tricks, e.g. 3.") % {"text": repr(text)}
        )
    return int(text)


@app.command()
def sheet(
    players: Annotated[
        list[str] | None,
        typer.Argument(
            help="2-4 player names in seat order (1+3 against 2+4 with four).", show_default=False
        ),
    ] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue a saved score pad.")] = None,
    rule: RuleOpt = None,
    dealer: Annotated[
        str | None, typer.Option(help="Who deals first: a number (from 1) or a name.")
    ] = None,
    save: SheetSaveOpt = None,
    *,
    lang: LangOpt = None,
) -> None:
    """Keep score for a game played with real cards: enter each hand's bid and tricks."""
    console = make_console()
    if resume is not None:
        if players or rule or dealer:
            raise typer.BadParameter(
                _("a resumed pad keeps its own players, rules and dealer"), param_hint="--resume"
            )
        pad = load_or_exit(console, resume, lambda text: _load_pad(text, resume))
        path = check_save_path(save if save is not None else resume)
    else:
        rules = rules_or_exit(PepperRules, rule)
        if save is not None:
            check_save_path(save)
        names = [n.strip() for n in players or []] or ask_player_names(console)
        try:
            check_names(names)
            PepperSheet(names, rules)  # the players are checked before the dealer is asked
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="PLAYERS") from None
        if dealer is None:
            first = _ask_dealer(console, names)
        else:
            try:
                first = seat_number(dealer, names)
            except ActionError as exc:
                raise typer.BadParameter(str(exc), param_hint="--dealer") from None
        pad = PepperSheet(names, rules, dealer=first)
        path = check_save_path(save) if save is not None else new_record_path("pepper", "sheet")
    PepperSheetSession(console, pad, path).start()


def _ask_dealer(console: Console, names: list[str]) -> int:
    """Ask who deals the first hand (P3); Enter: player 1. End of input exits (status 1)."""
    listed = " · ".join(f"{i + 1} {escape(n)}" for i, n in enumerate(names))
    while True:
        try:
            text = ask(console, _("Who deals first?") + f" [dim]({listed}; Enter = 1)[/]: ")
        except QuitRequested:
            raise typer.Exit(1) from None
        if not text:
            return 0
        if text.lower() in QUIT_WORDS:
            raise typer.Exit(0)
        try:
            return seat_number(text, names)
        except ActionError as exc:
            print_error(console, exc)


def _load_pad(text: str, path: Path) -> PepperSheet:
    """A score pad from a record's text; a played game is refused with what to do instead."""
    if record_kind(text) == "pepper":
        raise RecordError(
            _(
                "%(path)s is the record of a played game, not a score pad: continue it with "
                "'pfeffer pepper play --resume %(path)s' or show it with "
                "'pfeffer pepper replay %(path)s'."
            )
            % {"path": path}
        )
    return PepperSheet.from_json(text)
