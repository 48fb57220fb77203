"""``pfeffer dice …``: terminal play, scoring help and the score sheet for Würfel-Pfeffer.

Every rule lives in :mod:`pfeffer.dice`; this module only asks the engine (legal actions, apply,
view, keep options, whole-turn entry, records) and the bots, and draws the answers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from pfeffer.cli.common import (
    HELP_WORDS,
    QUIT_WORDS,
    GameSaveOpt,
    QuitRequested,
    Seat,
    apply_bot_action,
    ask,
    check_save_path,
    confirm,
    game_saved_text,
    load_or_exit,
    make_bot,
    make_console,
    new_record_path,
    parse_seats,
    print_error,
    print_rules,
    prompt_until_applied,
    read_or_exit,
    record_kind,
    record_text,
    rules_or_exit,
    save_text,
    seat_help,
    seats_of_record,
    seats_text,
    winners_text,
)
from pfeffer.cli.dice_advice import Hints, cost_text, offer_review, refusal_text, stage_text
from pfeffer.cli.dice_draw import (
    RuleOpt,
    app,
    dice_text,
    faces_text,
    option_lines,
    rules_help,
    sheet_table,
)
from pfeffer.cli.dice_narration import TURN_ENDS, notices, tell, turn_part
from pfeffer.cli.narration import LogReader
from pfeffer.cli.words import LangOpt, _, counted, is_you, pgettext, said, shown
from pfeffer.cli.words import number as decimal
from pfeffer.core.bots import Bot
from pfeffer.core.errors import ActionError, IllegalAction, RecordError
from pfeffer.dice.bots import DICE_BOTS
from pfeffer.dice.game import DiceAction, DiceGame, DiceView, PfefferMode, Phase, Turn
from pfeffer.dice.log import dice_log, finished_turns_log
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import keep_options
from pfeffer.dice.sheet import round_number, sheet_rows, turn_rounds, turn_text

__all__ = [  # sheet_table too: the score sheet's table has long been imported from here
    "PlaySession",
    "app",
    "play",
    "replay",
    "rules_command",
    "score",
    "sheet_table",
    "solve",
]

TABLE_ROWS = 8  # rounds shown in the running table during play (the end shows all)

PLAY_KEYS = (
    "Keys: a number sets aside that option (or type the faces: 155) · Enter takes the "
    "suggestion · r roll · "
    "b bank · p Pfeffer · v void throw (--manual) · a hint · t score sheet · ? help · q save and "
    "quit. "
    "Notation works too: keep 155, roll, bank."
)


# ============================================================================ play


class PlaySession:
    """One terminal game: prompts the humans, lets the bots choose, tells what happens."""

    def __init__(
        self,
        console: Console,
        game: DiceGame,
        seats: list[Seat],
        bots: dict[int, Bot[DiceView]],
        *,
        manual: bool,
        path: Path,
        bot_delay: float,
        hints: bool = True,
    ) -> None:
        self.hints = Hints(console, enabled=hints)
        self.console = console
        self.game = game
        self.seats = seats
        self.bots = bots
        self.manual = manual
        self.path = path
        self.bot_delay = bot_delay
        self._announced: tuple[int, int] | None = None
        view = game.view()
        # The screen tells the log from here on; a resumed game's finished turns are on the sheet.
        done, _ = finished_turns_log(
            view.history, len(view.players), view.rules.auto_pfeffer_penalty
        )
        self.log = LogReader(done)
        self._untold = len(done)  # where the log's events not yet on screen begin
        # The table's notices already shown (a resumed game may be in its final round).
        self._told_final, self._told_playoff = view.final_round, view.playoff

    # ---------------------------------------------------------------- main loop

    def run(self) -> None:
        """Play until the game ends or a player quits; the record is saved either way."""
        g = self.game
        try:
            while (seat := g.current_player) is not None:
                key = (len(g.history), seat)
                if key != self._announced:
                    self._announced = key
                    self.announce_turn()
                if seat in self.bots:
                    self.bot_step(seat)
                else:
                    self.human_step(seat)
        except (QuitRequested, KeyboardInterrupt):
            path = self.save()
            self.console.print(game_saved_text(path, "dice", finished=False))
            return
        self.show_table(final=True)
        path = self.save()
        self.console.print(game_saved_text(path, "dice", finished=True))

    def save(self) -> Path:
        """Write the record (with who the computer plays, for ``--resume``)."""
        return save_text(self.path, record_text(self.game.to_record(), self.seats))

    def say(self, text: str) -> None:
        """Print a line of markup."""
        self.console.print(text)

    def name(self, seat: int) -> str:
        """A player's name, escaped for markup."""
        return escape(shown(self.game.players[seat]))

    def announce_turn(self) -> None:
        """The header of a turn (round, player, total, final round, playoff), then what the log
        says opened it (its Auto-Pfeffer)."""
        g = self.game
        v = g.view()
        seat = v.current_player
        assert seat is not None  # announced only while the game runs
        title = said(
            g.players[seat],
            "Round %(n)s · %(name)s to play · total %(total)s",
            "Round %(n)s · your turn · total %(total)s",
            n=round_number(g),
            name=self.name(seat),
            total=v.scores[seat],
        )
        if v.playoff:
            title += " · " + _("PLAYOFF")
        elif v.final_round:
            title += " · " + _("FINAL ROUND: last turn")
        self.console.print()
        self.console.rule(title)
        self.log.read(dice_log(v))
        self.tell_log(len(self.log.told), v)

    def tell_log(self, end: int, view: DiceView) -> None:
        """Print the lines of the log's untold events up to ``end``."""
        for kind, line in tell(self.log.told[:end], self._untold, view):
            if kind == "win":
                self.console.print()
                self.console.rule(f"[bold green]{line}[/]")
            else:
                self.say(line)
        self._untold = max(self._untold, end)

    def show_table(self, *, final: bool = False) -> None:
        """The running score sheet (the last rounds; all of them at the end)."""
        g = self.game
        rows = sheet_rows(g.history, len(g.players))
        self.console.print()
        self.console.print(
            sheet_table(
                g.players,
                rows,
                g.scores,
                max_rows=None if final else TABLE_ROWS,
                current=None if g.is_over else g.current_player,
                winners=g.winners,
            )
        )

    # ---------------------------------------------------------------- acting

    def act(self, action: str) -> bool:
        """Apply ``action`` for the player to act and tell what happened, from the log; False
        (after showing the engine's message) if it is illegal."""
        g = self.game
        seat = g.current_player
        assert seat is not None  # asked only while the game runs
        try:
            kind = DiceAction.parse(action).kind
            # A void throw is declared by the table (it may be the previous player's bust that is
            # taken back), so it is not tied to the seat to act.
            g.apply(action, seat=None if kind == "void" else seat)
        except ActionError as exc:
            print_error(self.console, exc)
            return False
        if kind == "void":
            self.say(_("Void throw (Brandenburg): it does not count. Throw again."))
        v = g.view()
        news = self.log.read(dice_log(v))
        self._untold = min(self._untold, news.start)
        if any(e.kind == "bust" for e in news.withdrawn):
            seat = v.current_player
            assert seat is not None  # a void bust reopens the turn
            self.say(
                _("The bust is taken back. %(name)s: throw again.") % {"name": self.name(seat)}
            )
            self._announced = (len(g.history), seat)
        # The events that open the next turn wait for its header.
        end = news.start + turn_part(news.fresh)
        ended = next((e.seat for e in news.fresh if e.kind in TURN_ENDS), None)
        self.tell_log(end, v)
        if ended is not None:
            self.turn_ended(ended)
        return True

    def turn_ended(self, seat: int) -> None:
        """After a turn's end was told (and the winners, if it ended the game): the final round
        or a playoff that begins, then the sheet."""
        v = self.game.view()
        for line in notices(v, seat, self._told_final, bool(self._told_playoff)):
            self.say(line)
        self._told_final, self._told_playoff = v.final_round, v.playoff
        if not v.is_over:  # the winners were told with the turn
            self.show_table()
            self.save()

    # ---------------------------------------------------------------- bots

    def bot_step(self, seat: int) -> None:
        """Let the bot in ``seat`` act once (in manual mode its throws are typed in)."""
        g = self.game
        action = self.bots[seat].choose(g.view(seat), g.legal_actions())
        if self.manual and action == "roll":
            self.enter_dice_for_bot(seat)
            return
        apply_bot_action(action, self.act, g.legal_actions, self.bot_delay)

    def enter_dice_for_bot(self, seat: int) -> None:
        """Manual mode: someone throws real dice for the bot and types them in."""
        g = self.game
        n = g.dice_to_roll
        extra = " · " + _("v = the last throw was void") if "void" in g.legal_actions() else ""
        while True:
            text = ask(
                self.console,
                counted(
                    n,
                    "Throw %(n)d die for %(name)s and type it%(extra)s: ",
                    "Throw %(n)d dice for %(name)s and type them%(extra)s: ",
                    name=f"[bold]{self.name(seat)}[/]",
                    extra=extra,
                ),
            ).lower()
            if self.common_command(text):
                continue
            if text in ("v", "void"):
                if self.act("void"):
                    return
                continue
            if _is_dice(text):
                if self.act("roll " + text):
                    return
                continue
            typed = counted(
                n,
                "Type the die as a digit, e.g. %(example)s.",
                "Type the %(n)d dice as digits, e.g. %(example)s.",
                example="415236"[:n],
            )
            self.say(f"[bold red]✗[/] {typed}")

    # ---------------------------------------------------------------- humans

    def common_command(self, text: str) -> bool:
        """Handle ``?``, ``t`` and ``q``; True if ``text`` was one of them."""
        if text in HELP_WORDS:
            self.say(rules_help(self.game.rules))
            self.say(f"[dim]{_(PLAY_KEYS)}[/]")
            return True
        if text in ("t", "table", "sheet"):
            self.show_table()
            return True
        if text in ("a", "hint", "advice"):
            self.hints.show(self.game)
            return True
        if text in QUIT_WORDS:
            raise QuitRequested
        return False

    def human_step(self, seat: int) -> None:
        """Prompt the human to act until one action has been applied."""
        g = self.game
        phase = g.phase
        if phase is Phase.KEEP:
            self.say(_("Set aside:"))
            for line in option_lines(g.keep_choices()):
                self.say(line)
        elif phase is Phase.START and g.can_call_pfeffer():
            self.pfeffer_offer()
        prompt, default = self.prompt_for(seat)
        prompt_until_applied(
            self.console,
            prompt,
            self.common_command,
            lambda text: self.read_action(text, default),
            self.act,
        )

    def pfeffer_offer(self) -> None:
        """Explain the Pfeffer bet on offer: the stake, what must be banked, what a bust costs."""
        g = self.game
        v = g.view(g.current_player)
        stake, need, cost = v.pfeffer_stake, v.pfeffer_need, v.pfeffer_bust_penalty
        bonus = ""
        if v.pfeffer_bonus:
            made = {"bonus": f"[green]+{v.pfeffer_bonus}[/]"}
            bonus = " " + _("Make it and you get %(bonus)s bonus.") % made
        prev = g.players[g.history[-1].seat]
        banked = said(
            prev,
            "%(name)s banked %(points)s.",
            "You banked %(points)s.",
            name=escape(shown(prev)),
            points=g.predecessor_result,
        )
        offer = _(
            "Pfeffer? Stake %(stake)s: you must bank at least %(need)s this turn; a bust costs "
            "you %(cost)s."
        ) % {"stake": stake, "need": need, "cost": f"[bold red]{cost}[/]"}
        self.say(f"{banked} {offer}{bonus}")

    def prompt_for(self, seat: int) -> tuple[str, str | None]:
        """The prompt for the phase, and the action that Enter takes (None: Enter does nothing)."""
        g = self.game
        who = f"[bold]{self.name(seat)}[/]"
        legal = g.legal_actions()
        n = g.dice_to_roll
        dice = counted(n, "%(n)d die", "%(n)d dice", "object")
        void = " · " + _("v void") if self.manual and "void" in legal else ""
        phase = g.phase
        throw = _("throw %(dice)s and type them") % {"dice": dice}
        helps = " · " + _("? help") + ": "
        if phase is Phase.KEEP:
            n_options = len(g.keep_choices())
            pick = "Enter = 1" if n_options == 1 else f"1-{n_options} (Enter = 1)"
            return f"{who} ▸ {pick}{void}{helps}", "1"
        if phase is Phase.START:
            pf = " · p Pfeffer" if "pfeffer" in legal else ""
            if self.manual:
                return f"{who} ▸ {throw}{pf}{void}{helps}", None
            return f"{who} ▸ " + _("Enter = roll") + f"{pf}{helps}", "roll"
        # DECIDE
        status = _("Turn total %(points)s") % {"points": f"[bold]{g.turn_total}[/]"}
        if g.pfeffer is not PfefferMode.NONE:
            status += f" ([yellow]{'Pfeffer' if g.pfeffer is PfefferMode.CALLED else 'Auto'}[/])"
        if g.can_bank():
            if self.manual:
                return f"{status}. {who} ▸ " + _("b bank · or %(throw)s") % {
                    "throw": throw
                } + ": ", None
            keys = _("b / Enter = bank %(points)s · r roll %(dice)s") % {
                "points": g.turn_total,
                "dice": dice,
            }
            return f"{status}. {who} ▸ {keys}: ", "bank"
        if g.turn_total < g.min_to_bank():
            why = _("you need %(points)s to bank") % {"points": g.min_to_bank()}
        else:
            why = _("all six scored: throw them all again")
        if self.manual:
            return f"{status}, {why}. {who} ▸ {throw}: ", None
        return f"{status}, {why}. {who} ▸ " + _("Enter = roll %(dice)s") % {
            "dice": dice
        } + ": ", "roll"

    def keys_hint(self) -> str:
        """What can be typed at this prompt, for a refused answer."""
        g = self.game
        keys = ["Enter for the suggestion"]
        if g.phase is Phase.KEEP:
            keys.append("an option's number or the faces to set aside (e.g. 1 5)")
        elif self.manual:
            keys.append("the dice thrown (e.g. 415236)")
        else:
            keys.append("r to roll")
        if g.phase is Phase.DECIDE:
            keys.append("b to bank")
        if g.phase is Phase.START and g.can_call_pfeffer():
            keys.append("p for Pfeffer")
        if self.manual:
            keys.append("v for a void throw")
        return ", ".join(_(k) for k in keys) + "; " + _("? for help.")

    def read_action(self, text: str, default: str | None) -> str:
        """Turn what the human typed into an action string (the engine judges it)."""
        g = self.game
        if not text:
            if default is None:
                raise IllegalAction(_("Type something: ? shows the keys."))
            text = default
        if g.phase is Phase.KEEP and text.isdigit():
            # A number picks an option; several digits that are no option's number are faces.
            choices = g.keep_choices()
            if 1 <= int(text) <= len(choices):
                return choices[int(text) - 1].action
            if len(text) == 1 or text.startswith("0"):
                raise IllegalAction(
                    counted(
                        len(choices),
                        "Choose the option with 1.",
                        "Choose an option from 1 to %(n)d.",
                    )
                )
            return "keep " + text
        if g.phase is Phase.KEEP and _is_dice(text):
            return "keep " + text  # faces with spaces or commas: "1 5"
        words = {"r": "roll", "b": "bank", "p": "pfeffer", "v": "void"}
        action = words.get(text, text)
        short_keep = re.fullmatch(r"k\s*([\d ,]+)", action)
        if short_keep:
            action = "keep " + short_keep.group(1)
        first = action.split()[0]
        if first in ("turn", "bust"):
            raise IllegalAction(
                _(
                    "%(text)s is for the score sheet ('pfeffer dice sheet'); here the dice are "
                    "played: "
                )
                % {"text": repr(text)}
                + self.keys_hint()
            )
        if first not in ("roll", "keep", "bank", "pfeffer", "void") and not (
            self.manual and _is_dice(action)
        ):
            raise IllegalAction(
                _("%(text)s is not an action: ") % {"text": repr(text)} + self.keys_hint()
            )
        if self.manual:
            if g.phase in (Phase.START, Phase.DECIDE) and _is_dice(action):
                return "roll " + action
            if action == "roll":
                raise IllegalAction(
                    counted(
                        g.dice_to_roll,
                        "Throw your die and type what it shows, e.g. 4.",
                        "Throw your %(n)d dice and type what they show, e.g. 415236.",
                    )
                )
        elif first == "roll" and action != "roll":
            raise IllegalAction(_("The computer throws the dice here: type r to roll."))
        elif first == "void":
            raise IllegalAction(
                _("Computer dice never land crooked: void throws are for real dice (--manual).")
            )
        return action


def _is_dice(text: str) -> bool:
    digits = text.replace(" ", "").replace(",", "")
    return bool(digits) and digits.isdigit()


@app.command()
def play(
    seats: Annotated[
        list[str] | None,
        typer.Argument(
            help="2-8 seats: a human's name, or a computer player: "
            + seat_help(DICE_BOTS)
            + ". Default: You against one heuristic bot.",
            show_default=False,
        ),
    ] = None,
    *,
    manual: Annotated[
        bool,
        typer.Option(
            "--manual", help="Dice are thrown by hand at the table and typed in (also bots')."
        ),
    ] = False,
    seed: Annotated[int | None, typer.Option(help="Seed for the computer dice.")] = None,
    rule: RuleOpt = None,
    save: GameSaveOpt = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Continue a saved game (its players, rules and bots; saves back to it)."),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds to pause before each bot action.", min=0)
    ] = 0.4,
    hints: Annotated[
        bool, typer.Option(help="Allow the hint key (a): the solver's advice for a decision.")
    ] = True,
    lang: LangOpt = None,
) -> None:
    """Play Würfel-Pfeffer in the terminal: humans (hot-seat) and bots in any mix."""
    console = make_console()
    if resume is not None:
        if seats or manual or seed is not None or rule:
            raise typer.BadParameter(
                _("a resumed game keeps its own seats, dice and rules"), param_hint="--resume"
            )
        text = read_or_exit(console, resume)
        game = load_or_exit(console, resume, lambda t: _load_game(t, resume))
        table = seats_of_record(json.loads(text))
        seed, manual = game.seed, game.hand_dice
        path = check_save_path(save if save is not None else resume)
        resumed = {"game": "[bold]Würfel-Pfeffer[/]", "seats": seats_text(table)}
        console.print(_("%(game)s, resumed: %(seats)s.") % resumed)
    else:
        rules = rules_or_exit(DiceRules, rule)
        try:
            table = parse_seats(seats or ["You", "bot:heuristic"], DICE_BOTS)
            game = DiceGame([s.name for s in table], rules, seed=seed, hand_dice=manual)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="SEATS") from None
        path = check_save_path(save) if save is not None else new_record_path("dice", "game")
        start = {"game": "[bold]Würfel-Pfeffer[/]", "seats": seats_text(table), "teams": ""}
        console.print(
            _("%(game)s: %(seats)s%(teams)s. Target %(target)s.")
            % {**start, "target": rules.target}
        )
    bots: dict[int, Bot[DiceView]] = {
        i: make_bot(DICE_BOTS, s, i, seed) for i, s in enumerate(table) if s.is_bot
    }
    console.print(
        f"[dim]{_('Type ? at any prompt for the rules and keys, q to save and quit.')}[/]"
    )
    if manual:
        manual_line = _("Manual dice: throw real dice and type what they show, e.g. 415236.")
        console.print(f"[dim]{manual_line}[/]")
    PlaySession(
        console, game, table, bots, manual=manual, path=path, bot_delay=bot_delay, hints=hints
    ).run()
    if game.is_over:
        offer_review(console, game, {i for i, s in enumerate(table) if not s.is_bot})


def _load_game(text: str, path: Path) -> DiceGame:
    """A played game from a record's text; a score sheet is refused with what to do instead."""
    if record_kind(text) == "dice-sheet":
        raise RecordError(
            _(
                "%(path)s is a score sheet, not a played game: continue it with "
                "'pfeffer dice sheet --resume %(path)s'."
            )
            % {"path": path}
        )
    return DiceGame.from_record(text)


# ============================================================================ rules, score


@app.command("rules")
def rules_command(rule: RuleOpt = None, lang: LangOpt = None) -> None:
    """Print a short summary of the rules and the house-rule values in force."""
    console = make_console()
    rules = rules_or_exit(DiceRules, rule)
    print_rules(console, rules_help(rules), rules, "--rule min_bank=500")


def _read_faces(words: list[str]) -> list[int]:
    text = "".join(words).replace(",", "").replace(" ", "")
    if not text.isdigit():
        typed = {"text": repr(" ".join(words))}
        raise IllegalAction(_("%(text)s: type the dice as digits, e.g. 1 1 1 5 2 3.") % typed)
    return [int(ch) for ch in text]


@app.command()
def score(
    dice: Annotated[
        list[str], typer.Argument(help="The throw: '1 1 1 5 2 3' or '111523'.", show_default=False)
    ],
    rule: RuleOpt = None,
    lang: LangOpt = None,
) -> None:
    """Show every way to set aside dice from a throw, best first (or that it busts)."""
    console = make_console()
    rules = rules_or_exit(DiceRules, rule)
    try:
        faces = _read_faces(dice)
        options = keep_options(faces, rules)
    except ActionError as exc:
        print_error(console, exc)
        raise typer.Exit(1) from None
    console.print(_("Throw: %(dice)s") % {"dice": dice_text(faces)})
    if not options:
        console.print(
            f"[bold red]{_('Bust!')}[/] " + _("No die scores: the turn would score nothing.")
        )
        return
    console.print(counted(len(options), "%(n)d way to set aside:", "%(n)d ways to set aside:"))
    for line in option_lines(options):
        console.print(line)


# ============================================================================ replay


def _describe_throws(console: Console, turn: Turn) -> None:
    for throw in turn.throws:
        shown = dice_text(throw.faces)
        if throw.kept:
            kept = {"dice": faces_text(throw.kept), "points": throw.points}
            console.print(f"   {shown}  → " + _("sets aside %(dice)s (+%(points)s)") % kept)
        else:
            console.print(f"   {shown}  → " + _("nothing scores"))
    if not turn.throws:
        console.print("   " + _("(whole turn entered on the score sheet)"))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A saved game record (JSON).", show_default=False)],
    lang: LangOpt = None,
) -> None:
    """Print a saved game, finished or not, turn by turn."""
    console = make_console()
    game = load_or_exit(console, file, DiceGame.from_record)
    names = ", ".join(shown(p) for p in game.players)
    console.print(f"[bold]Würfel-Pfeffer[/]: {escape(names)}")
    rows = sheet_rows(game.history, len(game.players))
    shown_round = 0
    for number, turn in zip(
        turn_rounds(game.history, len(game.players)), game.history, strict=True
    ):
        if number != shown_round:
            shown_round = number
            console.rule(_("Round %(n)s") % {"n": number})
        pf = {PfefferMode.NONE: "", PfefferMode.CALLED: " [yellow](Pfeffer!)[/]"}.get(
            turn.pfeffer, " [yellow](Auto-Pfeffer)[/]"
        )
        console.print(f"[bold]{escape(shown(game.players[turn.seat]))}[/]{pf}")
        _describe_throws(console, turn)
        cell = turn_text(turn).replace("bust", pgettext("sheet", "bust"), 1)
        console.print(
            "   = " + _("%(turn)s, total %(total)s") % {"turn": cell, "total": turn.total_after}
        )
    seat = game.current_player
    if seat is not None:
        console.rule(_("Unfinished"))
        who = {"name": f"[bold]{escape(shown(game.players[seat]))}[/]"}
        you = is_you(game.players[seat])
        state = _("Your turn") if you else pgettext("dice", "%(name)s to play") % who
        if game.turn_throws or game.last_throw:
            state += _(", turn total %(total)s so far") % {"total": game.turn_total}
        console.print(state)
        for throw in game.turn_throws:
            kept = _("sets aside %(dice)s") % {"dice": faces_text(throw.kept)}
            console.print(f"   {dice_text(throw.faces)}  → {kept}")
        if game.last_throw:
            console.print(f"   {dice_text(game.last_throw)}  " + _("(on the table)"))
    console.print(sheet_table(game.players, rows, game.scores, winners=game.winners))
    if game.is_over:
        console.print(f"[bold green]{winners_text(game.players, game.winners, game.scores)}[/]")


@app.command()
def solve(
    rule: RuleOpt = None,
    threads: Annotated[
        int | None,
        typer.Option(
            help="Threads for a solve (the same table; 1 keeps to one core). Default: the cores "
            "this process may use.",
            min=1,
        ),
    ] = None,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Solve without asking, however long it takes.")
    ] = False,
    lang: LangOpt = None,
) -> None:
    """Solve the rules for two optimal players (or load the solved table) and print the first
    player's winning chance and the fair head start for the second player. Rules whose solve
    would not fit this machine's memory or an hour are refused with the estimate; a solve of
    more than a few minutes asks first."""
    import time

    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    from pfeffer.dice.solver import cache as solver_cache
    from pfeffer.dice.solver import solve as solve_rules
    from pfeffer.dice.solver.estimate import ASK_SECONDS, estimate

    console = make_console()
    rules = rules_or_exit(DiceRules, rule)
    if solver_cache.load(rules) is None:
        cost = estimate(rules, threads=threads)
        why = refusal_text(cost)
        if why is not None:
            print_error(console, _("Not solved: %(why)s.") % {"why": why})
            raise typer.Exit(1)
        if cost.seconds > ASK_SECONDS and not yes:
            console.print(
                _("Solving these rules takes %(time)s here (once; then kept).")
                % {"time": cost_text(cost)}
            )
            try:
                go = confirm(console, _("Solve now?"))
            except QuitRequested:
                go = False
            if not go:
                console.print(f"[dim]{_('Not solved (--yes solves without asking).')}[/]")
                raise typer.Exit(1)
    start = time.perf_counter()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
    )
    try:
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task(_("solving"), total=1.0)

            def report(stage: str, fraction: float) -> None:
                bar.update(task, completed=fraction, description=stage_text(stage))

            strategy = solve_rules(rules, progress=report, threads=threads)
    except NotImplementedError as exc:
        print_error(console, exc)
        raise typer.Exit(1) from None
    took = time.perf_counter() - start
    first = strategy.win_probability(0, 0)
    console.print(
        _("%(game)s, target %(target)s, two optimal players:")
        % {"game": "[bold]Würfel-Pfeffer[/]", "target": rules.target}
    )
    console.print(
        "  "
        + _("the first player wins with %(chance)s") % {"chance": f"{decimal(100 * first, 4)}%"}
    )
    console.print(
        "  "
        + _("fair head start for the second player: %(points)s points")
        % {"points": f"{strategy.fair_compensation():.0f}"}
    )
    how = (
        _("loaded in %(took)s s (the solve took %(seconds)s s, %(sweeps)s optimising sweeps, "
          "last change %(change)s)")
        if took < strategy.seconds
        else _("solved in %(took)s s (the solve took %(seconds)s s, %(sweeps)s optimising sweeps, "
               "last change %(change)s)")
    )  # fmt: skip
    console.print(
        "  "
        + how
        % {
            "took": decimal(took, 1),
            "seconds": f"{strategy.seconds:.0f}",
            "sweeps": len(strategy.residuals),
            "change": f"{strategy.residuals[-1]:.1e}",
        }
    )
