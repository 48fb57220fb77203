"""``pfeffer dice sheet``: the score sheet for Würfel-Pfeffer played with real dice.

Every rule lives in :class:`~pfeffer.dice.sheet.DiceSheet`; this module prompts for each turn's
result and draws the sheet with the drawing helpers of :mod:`pfeffer.cli.dice`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from pfeffer.cli.common import (
    SheetSaveOpt,
    SheetSession,
    ask,
    ask_player_names,
    check_names,
    check_save_path,
    confirm,
    entry_question,
    load_or_exit,
    make_console,
    new_record_path,
    print_error,
    rules_or_exit,
    winners_text,
)
from pfeffer.cli.dice_advice import Hints, sheet_advice
from pfeffer.cli.dice_draw import RuleOpt, app, rules_help, sheet_table
from pfeffer.cli.dice_narration import notices
from pfeffer.cli.words import LangOpt, _, shown
from pfeffer.core.errors import ActionError, IllegalAction
from pfeffer.dice.game import PfefferMode
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.sheet import DiceSheet

SHEET_KEYS = (
    "Enter the turn's result: points banked (e.g. 450) · b = bust · p 450 / p bust = with "
    "Pfeffer called · u = undo · s = save · t = show the sheet · ? = rules · q = save and quit\n"
    "Advice for dice on the table: a 115234 (the throw) · a 300/3 (turn total, dice left: bank "
    "or roll on) · a 300 615 (turn total and throw) · a p … (Pfeffer called) · a (roll or "
    "Pfeffer?)"
)


class DiceSheetSession(SheetSession[DiceSheet]):
    """The interactive score sheet: one prompt per turn result."""

    GAME = "dice"
    NOUN = "Sheet"
    KEYS = SHEET_KEYS
    TABLE_WORDS = ("t", "table", "sheet")

    def __init__(self, console: Console, sheet: DiceSheet, path: Path) -> None:
        super().__init__(console, sheet, path)
        self.hints = Hints(console, enabled=True)

    def show(self) -> None:
        """Print the sheet."""
        s = self.sheet
        self.console.print(
            sheet_table(
                s.players,
                s.rows(),
                s.totals,
                current=None if s.is_over else s.current_player,
                winners=s.winners,
            )
        )

    def help_text(self) -> str:
        """The rules in force."""
        return rules_help(self.sheet.rules)

    def announce_end(self) -> None:
        """Name the winners."""
        s = self.sheet
        self.console.rule(f"[bold green]{winners_text(s.players, s.winners, s.totals)}[/]")

    def prompt(self) -> str:
        """The prompt for the next entry, with what is at stake for this turn."""
        s = self.sheet
        v = s.view()
        seat = v.current_player
        assert seat is not None  # asked only while the game runs
        notes = []
        if v.playoff:
            notes.append(_("playoff"))
        elif v.final_round:
            notes.append(_("final round: last turn"))
        if v.pfeffer is PfefferMode.AUTO:
            costs = _("a bust costs %(points)s.") % {"points": v.bust_penalty}
            notes.append(f"[yellow]Auto-Pfeffer[/]: {costs.rstrip('.')}")
        elif v.can_call_pfeffer:
            notes.append(
                _("Pfeffer possible: stake %(stake)s, a bust would cost %(cost)s")
                % {"stake": v.pfeffer_stake, "cost": v.pfeffer_bust_penalty}
            )
        extra = f" [dim]({'; '.join(notes)})[/]" if notes else ""
        head = _("Round %(n)s · %(name)s (%(total)s)") % {
            "n": s.round,
            "name": f"[bold]{escape(shown(s.players[seat]))}[/]",
            "total": s.totals[seat],
        }
        return f"{head}{extra} ▸ "

    def confirm_zero(self, pfeffer: bool) -> bool:
        """Make sure ``0`` means a bust (it also starts an Auto-Pfeffer); False: not entered."""
        if confirm(self.console, _confirm_text(self.sheet, pfeffer)):
            return True
        self.console.print(f"[dim]{_('Nothing entered.')}[/]")
        return False

    def step(self) -> None:
        """Read and apply one entry or command."""
        s = self.sheet
        text = ask(self.console, self.prompt()).lower()
        if self.command(text):
            return
        if text == "a" or text.startswith(("a ", "advice")):
            sheet_advice(self.console, s.game, text, self.hints)
            return
        if text in ("u", "undo"):
            try:
                s.undo()
            except ActionError as exc:
                print_error(self.console, exc)
                return
            self.console.print(_("Last entry taken back."))
            self.show()
            self.save()
            return
        try:
            points, pfeffer = _read_entry(text)
            if text.replace("p", "").strip() == "0" and not self.confirm_zero(pfeffer):
                return
            check = s.check(points, pfeffer=pfeffer)
            seat = s.current_player
            assert seat is not None  # asked only while the game runs
            if check.needs_confirmation and not confirm(
                self.console, entry_question(check, s.players[seat])
            ):
                self.console.print(f"[dim]{_('Nothing entered.')}[/]")
                return
            before = (s.final_round, s.view().playoff)
            s.enter(points, pfeffer=pfeffer)
        except ActionError as exc:
            print_error(self.console, exc)
            return
        turn = s.history[-1]
        who = escape(s.players[turn.seat])
        if turn.penalty:
            why = _("Pfeffer lost") if turn.pfeffer is PfefferMode.CALLED else "Auto-Pfeffer"
            self.console.print(f"[bold red]{who}: {why}, -{turn.penalty}[/]")
        if turn.bonus:
            won = _("Pfeffer won: %(bonus)s bonus.") % {"bonus": f"+{turn.bonus}"}
            self.console.print(f"[bold green]{who}: {won.rstrip('.')}[/]")
        for line in notices(s.view(), turn.seat, before[0], bool(before[1])):
            self.console.print(line)
        self.show()
        self.save()


def _confirm_text(sheet: DiceSheet, pfeffer: bool) -> str:
    """The question that makes sure a typed ``0`` means a bust: what it costs and that the
    next player then plays under Auto-Pfeffer (markup)."""
    v = sheet.view()
    seat = v.current_player
    assert seat is not None  # asked only while the game runs
    cost = v.pfeffer_bust_penalty if pfeffer else v.bust_penalty
    penalty = f", [red]-{cost}[/]" if cost else ""
    nxt = sheet.players[(seat + 1) % len(sheet.players)]
    auto = (
        _("; %(name)s then plays under Auto-Pfeffer (a bust costs %(points)s)")
        % {"name": escape(shown(nxt)), "points": sheet.rules.auto_pfeffer_penalty}
        if sheet.rules.auto_pfeffer
        else ""
    )
    records = _("0 records a bust for %(name)s") % {"name": escape(shown(sheet.players[seat]))}
    return f"{records}{penalty}{auto}. " + _("Record a bust?")


def _read_entry(text: str) -> tuple[int | None, bool]:
    """Read a sheet entry: ``450``, ``b``/``bust``, ``p 450``, ``p bust`` (Pfeffer called).

    >>> _read_entry("p 1,250"), _read_entry("b"), _read_entry("400")
    ((1250, True), (None, False), (400, False))
    """
    words = text.replace(",", "").replace("_", "").split()
    pfeffer = False
    if words and words[0] in ("p", "pfeffer", "p!"):
        pfeffer, words = True, words[1:]
    elif words and words[0].startswith("p") and words[0][1:].isdigit():
        pfeffer, words = True, [words[0][1:]]
    rest = "".join(words)
    if rest in ("b", "bust", "0"):
        return None, pfeffer
    if rest.isdigit():
        return int(rest), pfeffer
    raise IllegalAction(
        _(
            "%(text)s: type the points banked (e.g. 450), b for a bust, or p 450 / p bust when "
            "Pfeffer was called (? for help)."
        )
        % {"text": repr(text)}
    )


@app.command()
def sheet(
    players: Annotated[
        list[str] | None,
        typer.Argument(help="2-8 player names in seat order.", show_default=False),
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Continue a saved sheet (or any dice game record).")
    ] = None,
    rule: RuleOpt = None,
    save: SheetSaveOpt = None,
    lang: LangOpt = None,
) -> None:
    """Keep score for a game played with real dice: enter each turn's result."""
    console = make_console()
    if resume is not None:
        if players or rule:
            raise typer.BadParameter(
                _("a resumed sheet keeps its own players and rules"), param_hint="--resume"
            )
        dice_sheet = load_or_exit(console, resume, DiceSheet.from_json)
        path = check_save_path(save if save is not None else resume)
    else:
        rules = rules_or_exit(DiceRules, rule)
        if save is not None:
            check_save_path(save)
        names = list(players or []) or ask_player_names(console)
        try:
            check_names(names)
            dice_sheet = DiceSheet(names, rules)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="PLAYERS") from None
        path = check_save_path(save) if save is not None else new_record_path("dice", "sheet")
    DiceSheetSession(console, dice_sheet, path).start()
