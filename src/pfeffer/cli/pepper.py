"""``pfeffer pepper …``: terminal play, the rules, replays and the score pad for Karten-Pfeffer.

Every rule lives in :mod:`pfeffer.pepper`; this module only asks the engine (legal actions,
apply, view, records), the bots and :class:`~pfeffer.pepper.sheet.PepperSheet`, and draws the
answers. Seats are numbered from 1 on screen (seat 0 of the engine is player 1).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from pfeffer.cli import words
from pfeffer.cli.common import (
    HELP_WORDS,
    QUIT_WORDS,
    GameSaveOpt,
    QuitRequested,
    Seat,
    apply_bot_action,
    ask,
    check_save_path,
    clear_screen,
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
    thinking,
)
from pfeffer.cli.narration import LogReader
from pfeffer.cli.pepper_advice import hint_line, review_lines
from pfeffer.cli.pepper_draw import (
    RuleOpt,
    app,
    bid_text,
    card_markup,
    hand_table,
    rules_help,
    screen_param,
    seat_number,
    trump_markup,
    winners_text,
)
from pfeffer.cli.pepper_narration import tell
from pfeffer.cli.words import LangOpt, _, counted, ngettext, said, shown
from pfeffer.core.bots import Bot
from pfeffer.core.errors import ActionError, IllegalAction, RecordError
from pfeffer.core.extras import MissingExtra
from pfeffer.core.i18n import translate_error
from pfeffer.pepper import (
    CARD_PRETTY,
    PepperGame,
    PepperRules,
    PepperView,
)
from pfeffer.pepper.bots import PEPPER_BOTS
from pfeffer.pepper.cards import CARD_INDEX
from pfeffer.pepper.log import pepper_log
from pfeffer.pepper.rules import bid_terms, partner, side_names
from pfeffer.pepper.sheet import SHEET_GAME, PepperSheet

__all__ = [  # hand_table too: the score pad's table has long been imported from here
    "PlaySession",
    "hand_table",
    "play",
    "replay",
    "rules_command",
]

# ============================================================================ play

PLAY_KEYS = (
    "Keys: auction: a number, s = Small Pepper, b = Big Pepper, p = pass · trump: "
    "C D H S or NT · cards: the number shown or the card (JD, 10H, J♦) · t = score table · "
    "? = rules · q = save and quit"
)

KEYS_LINE = "Type ? at any prompt for the rules and keys, q to save and quit."
HINTS_ON = "Hints are on: type ! for what the expert would play, and why."
HINT_WORDS = frozenset({"!", "hint"})
HINT_KEYS = "! = a hint: what the expert would play, and why"


class PlaySession:
    """One terminal game: deals, prompts the humans, lets the bots choose, tells what happens."""

    def __init__(
        self,
        console: Console,
        game: PepperGame,
        seats: list[Seat],
        bots: dict[int, Bot[PepperView]],
        *,
        path: Path | None,
        bot_delay: float = 0.0,
        hints: bool = False,
        review: bool = False,
    ) -> None:
        self.console = console
        self.hints = hints
        self.review = review
        self.lang = words.lang()
        self.game = game
        self.seats = seats
        self.bots = bots
        self.path = path
        self.bot_delay = bot_delay
        self.humans = [i for i in range(len(game.players)) if i not in bots]
        self._at_screen: int | None = None  # the human whose cards may be on screen
        # The screen tells the log from here on (a resumed game: from where it stopped).
        self.log = LogReader(pepper_log(game.view(None), game.history))

    def say(self, text: str) -> None:
        """Print a line of markup."""
        self.console.print(text)

    def name(self, seat: int) -> str:
        """A player's name, escaped for markup."""
        return escape(shown(self.game.names[seat]))

    def deals(self, seat: int) -> str:
        """``Ann deals`` / ``You deal`` (markup)."""
        name = self.game.names[seat]
        return said(name, "%(name)s deals", "You deal", name=escape(shown(name)))

    def side(self, side: int) -> str:
        """A side's name ("Ann & Cy" with 4 players), escaped."""
        return escape(shown(side_names(self.game.names)[side]))

    def save(self) -> Path | None:
        """Write the record (if the session has a file)."""
        if self.path is None:
            return None
        return save_text(self.path, record_text(self.game.to_record(), self.seats))

    # ---------------------------------------------------------------- main loop

    def run(self) -> None:
        """Play until the game ends or a player quits; the record is saved either way."""
        g = self.game
        try:
            while not g.is_over:
                seat = g.current_player
                if g.phase == "deal":
                    self.act("deal")
                elif seat is None:  # pragma: no cover - only after the end
                    break
                elif seat in self.bots:
                    self.bot_step(seat)
                else:
                    self.human_step(seat)
        except (QuitRequested, KeyboardInterrupt):
            self.say(game_saved_text(self.save(), "pepper", finished=False))
            return
        self.say(game_saved_text(self.save(), "pepper", finished=True))

    # ---------------------------------------------------------------- acting and telling

    def act(self, action: str, *, show_deal: bool = False) -> bool:
        """Apply ``action`` for the player to act and tell what happened, from the log; False
        (after showing the engine's message) if it is illegal. ``show_deal``: every hand is shown
        at the deal (a replay)."""
        g = self.game
        try:
            g.apply(action)
        except ActionError as exc:
            print_error(self.console, exc, screen_param)
            return False
        view = g.view(None)
        news = self.log.read(pepper_log(view, g.history))
        for kind, line in tell(self.log.told, news.start, view):
            if kind == "deal":
                self.console.print()
                self.console.rule(line)
                scores = " · ".join(f"{self.side(i)} {s}" for i, s in enumerate(view.scores))
                self.say(f"[dim]{_('Scores:')}[/] {scores}")
                if show_deal:
                    self.show_hands()
            elif kind == "win":
                self.console.rule(f"[bold green]{line}[/]")
            else:
                self.say(line)
            if kind == "hand":
                self.hand_ended()
        return True

    def show_hands(self) -> None:
        """Every hand as dealt (a replay shows them), the face-down one too."""
        g = self.game
        for s in range(len(g.players)):
            self.say(f"  {self.name(s)}: {self.cards_line(g.hand(s))}")
        if len(g.players) == 2:
            self.say(f"  [dim]{_('face down:')}[/] {self.cards_line(g.dead_hand())}")

    def hand_ended(self) -> None:
        """After a hand's result was told: the score table, the reviews, the record saved."""
        g = self.game
        self.console.print(hand_table(g.names, g.results, g.scores, g.winners, max_rows=8))
        if self.review:
            self.show_reviews(len(g.results) - 1)
        self.save()

    def show_reviews(self, hand_index: int) -> None:
        """The double-dummy review of a finished hand for each human's side."""
        g = self.game
        reviewed: set[int] = set()
        for seat in self.humans:
            if g.side_of(seat) in reviewed:
                continue
            reviewed.add(g.side_of(seat))
            side = escape(side_names(g.names)[g.side_of(seat)])
            try:
                with thinking(self.console, _("reviewing the hand…")):
                    lines = review_lines(
                        g, hand_index, seat, side, lang=self.lang, card_text=card_markup
                    )
            except MissingExtra as exc:
                self.say(f"[yellow]{escape(translate_error(exc, self.lang))}[/]")
                return
            self.say(f"[bold]{lines[0]}[/]")
            for line in lines[1:]:
                self.say(f"  {line}")

    def cards_line(self, cards: Sequence[str], legal: Sequence[str] = ()) -> str:
        """Cards in a row; with ``legal``, the legal ones numbered and the others dimmed."""
        if not legal:
            return "  ".join(card_markup(c) for c in cards)
        out = []
        for c in cards:
            if c in legal:
                out.append(f"[cyan]{legal.index(c) + 1})[/] {card_markup(c)}")
            else:
                out.append(f"[dim]   {CARD_PRETTY[CARD_INDEX[c]]}[/]")
        return "  ".join(out)

    # ---------------------------------------------------------------- bots

    def bot_step(self, seat: int) -> None:
        """Let the bot in ``seat`` act once."""
        g = self.game
        action = self.bots[seat].choose(g.view(seat), g.legal_actions())
        apply_bot_action(action, self.act, g.legal_actions, self.bot_delay)

    # ---------------------------------------------------------------- humans

    def pass_device(self, seat: int) -> None:
        """Hot-seat: hide the last human's cards (the scrollback too) and wait for ``seat``'s
        player."""
        clear_screen(self.console)
        name = {"name": self.name(seat)}
        self.console.rule(f"[bold]{_('Pass the device to %(name)s') % name}[/]")
        ask(self.console, _("%(name)s, press Enter when only you can see the screen. ") % name)
        self._at_screen = seat

    def show_state(self, seat: int) -> None:
        """What the human at ``seat`` may know: auction, contract, tricks, their hand."""
        g = self.game
        v = g.view(seat)
        third, you = {
            "auction": ("%(name)s to bid", "Your turn: bid"),
            "declare": ("%(name)s to name trump", "Your turn: name trump"),
            "play": ("%(name)s to play", "Your turn: play a card"),
        }[v.phase]
        title = said(g.names[seat], third, you, name=f"[bold]{self.name(seat)}[/]")
        self.console.rule(title, style="cyan")
        scores = " · ".join(f"{self.side(i)} {s}" for i, s in enumerate(v.scores))
        head = _("Hand %(n)s · %(dealer)s · scores %(scores)s") % {
            "n": v.hand_number,
            "dealer": self.deals(v.dealer),
            "scores": scores,
        }
        self.say(f"[dim]{head}[/]")
        if v.auction:
            bids = " · ".join(f"{self.name(s)} {bid_text(b)}" for s, b in v.auction)
            self.say(_("Auction: %(bids)s") % {"bids": bids})
        if v.trump is not None and v.bidder is not None:
            tricks = " · ".join(f"{self.side(i)} {n}" for i, n in enumerate(v.tricks_won))
            self.say(
                _("Contract: %(bidder)s %(bid)s, trump %(trump)s · tricks %(tricks)s")
                % {
                    "bidder": f"[bold]{self.name(v.bidder)}[/]",
                    "bid": bid_text(v.high_bid),
                    "trump": trump_markup(v.trump),
                    "tricks": tricks,
                }
            )
        for i, t in enumerate(v.tricks, start=1):
            self.say(
                f"[dim]{_('Trick %(n)d:') % {'n': i}}[/] "
                f"{' '.join(card_markup(c) for c in t.cards)} [dim]→ {self.name(t.winner)}[/]"
            )
        if v.current_trick:
            played = " · ".join(f"{self.name(s)} {card_markup(c)}" for s, c in v.current_trick)
            self.say(_("On the table: %(cards)s") % {"cards": played})
        legal = g.legal_cards() if v.phase == "play" else []
        mate = partner(len(v.players), seat)
        with_mate = (
            ""
            if mate is None
            else f" [dim]({_('partner: %(name)s') % {'name': self.name(mate)}})[/]"
        )
        cards = self.cards_line(v.hand, legal)
        self.say(
            _("%(name)s, your cards%(partner)s: %(cards)s")
            % {"name": f"[bold]{self.name(seat)}[/]", "partner": with_mate, "cards": cards}
        )

    def prompt_for(self, seat: int) -> str:
        """The prompt for the phase."""
        g = self.game
        who = f"[bold]{self.name(seat)}[/]"
        legal = g.legal_actions()
        if g.phase == "auction":
            bids = [bid_text(b) for b in legal if b != "pass"]
            passing = _("p = pass, ") if "pass" in legal else f"[yellow]{_('you must bid')}[/]: "
            return _("%(who)s ▸ bid (%(passing)s%(low)s … %(high)s; s/b = Small/Big Pepper): ") % {
                "who": who,
                "passing": passing,
                "low": bids[0],
                "high": bids[-1],
            }
        if g.phase == "declare":
            return _("%(who)s ▸ trump (%(suits)s): ") % {"who": who, "suits": " ".join(legal)}
        n = len(g.legal_cards())
        if n == 1:
            return _("%(who)s ▸ the card: Enter, 1 or e.g. JD: ") % {"who": who}
        return _("%(who)s ▸ card 1-%(n)d or e.g. JD: ") % {"who": who, "n": n}

    def read_action(self, text: str) -> str:
        """Turn what the human typed into an action string (the engine judges it)."""
        g = self.game
        low = text.strip().lower()
        if g.phase == "auction":
            return {"p": "pass", "s": "small", "b": "big"}.get(low, low.removesuffix(" pepper"))
        if g.phase == "declare":
            return low.upper()
        legal = g.legal_cards()
        if not low and len(legal) == 1:
            return legal[0]
        if low.isdigit():
            if 1 <= int(low) <= len(legal):
                return legal[int(low) - 1]
            raise IllegalAction(
                counted(
                    len(legal),
                    "Choose the card with 1, or type it (e.g. JD).",
                    "Choose a card from 1 to %(n)d, or type it (e.g. JD).",
                )
            )
        if not low:
            raise IllegalAction(_("Type the number of a card, or the card (e.g. JD); ? for help."))
        return low.upper()

    def common_command(self, text: str) -> bool:
        """Handle ``?``, ``t`` and ``q``; True if ``text`` was one of them."""
        g = self.game
        low = text.lower()
        # "h" names hearts when trump is named
        if low in HELP_WORDS and not (low == "h" and g.phase == "declare"):
            self.say(rules_help(g.rules, len(g.players)))
            self.say(f"[dim]{_(PLAY_KEYS)}[/]")
            if self.hints:
                self.say(f"[dim]{_(HINT_KEYS)}[/]")
            return True
        if low in ("t", "table", "scores"):
            self.console.print(hand_table(g.names, g.results, g.scores, g.winners))
            return True
        if self.hints and low in HINT_WORDS:
            try:
                with thinking(self.console):
                    line = hint_line(g, self.lang, self.action_markup)
                self.say(line)
            except MissingExtra as exc:
                self.say(f"[yellow]{escape(translate_error(exc, self.lang))}[/]")
            return True
        if low in QUIT_WORDS:
            raise QuitRequested
        return False

    def action_markup(self, action: str) -> str:
        """An action as the screen shows it: a card, a trump or a bid."""
        if action in CARD_INDEX:
            return card_markup(action)
        if action in ("C", "D", "H", "S", "NT"):
            return trump_markup(action)
        return f"[bold]{bid_text(action)}[/]"

    def human_step(self, seat: int) -> None:
        """Prompt the human to act until one action has been applied."""
        if len(self.humans) > 1 and self._at_screen != seat:
            self.pass_device(seat)
        self._at_screen = seat
        self.show_state(seat)
        prompt_until_applied(
            self.console,
            self.prompt_for(seat),
            self.common_command,
            self.read_action,
            self.human_act,
            style=screen_param,
        )

    def human_act(self, action: str) -> bool:
        """:meth:`act` for a human; Small and Big Pepper, which stake the whole hand, are
        confirmed first (``b`` banks in the dice game: a slip must not bid Big Pepper)."""
        g = self.game
        seat = g.current_player
        if g.phase == "auction" and action in ("small", "big") and action in g.legal_actions():
            assert seat is not None  # the auction runs
            n = len(g.players)
            terms = bid_terms(g.rules, n, action)
            alone = partner(n, seat) is None
            question = _(
                "%(bid)s: you must win all %(tricks)d tricks (made %(made)s, set %(set)s). Bid it?"
                if alone
                else "%(bid)s: your side must win all %(tricks)d tricks (made %(made)s, set "
                "%(set)s). Bid it?"
            ) % {
                "bid": f"[bold]{bid_text(action)}[/]",
                "tricks": terms.tricks,
                "made": f"[green]{terms.made_max:+d}[/]",
                "set": f"[red]{terms.set_points:+d}[/]",
            }
            if not confirm(self.console, question):
                self.say(f"[dim]{_('Not bid; choose again.')}[/]")
                return False
        return self.act(action)


def _table(players: int | None, seats: list[str] | None) -> list[Seat]:
    """The seats: the given ones, filled up with heuristic bots to ``players``."""
    specs = list(seats or ["You"])
    n = players if players is not None else (len(specs) if len(specs) >= 2 else 4)
    if n not in (2, 3, 4):
        raise ValueError(_("Pepper is played by 2, 3 or 4 players"))
    if len(specs) > n:
        raise ValueError(
            ngettext(
                "%(seats)d seats given for a game of %(n)d players",
                "%(seats)d seats given for a game of %(n)d players",
                n,
            )
            % {"seats": len(specs), "n": n}
        )
    specs += ["bot"] * (n - len(specs))
    return parse_seats(specs, PEPPER_BOTS)


@app.command()
def play(
    seats: Annotated[
        list[str] | None,
        typer.Argument(
            help="Seats in order (players 1+3 are partners against 2+4): a human's name, or a "
            "computer player: "
            + seat_help(PEPPER_BOTS)
            + ". Missing seats are heuristic bots. Default: You and three bots.",
            show_default=False,
        ),
    ] = None,
    *,
    players: Annotated[
        int | None,
        typer.Option("--players", "-n", help="2, 3 or 4 (default: the number of seats, or 4)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the shuffles.")] = None,
    dealer: Annotated[
        str | None,
        typer.Option(help="Who deals first: a player's number (from 1) or name (default: random)."),
    ] = None,
    rule: RuleOpt = None,
    save: GameSaveOpt = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Continue a saved game (its players, rules and bots; saves back to it)."),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds to pause before each bot action.", min=0)
    ] = 0.6,
    hints: Annotated[
        bool, typer.Option(help="Allow hints: type ! for what the expert would play, and why.")
    ] = False,
    review: Annotated[
        bool,
        typer.Option(
            help="After each hand, its double-dummy review for your side: the tricks best play "
            "would have taken and the cards that cost one."
        ),
    ] = True,
    lang: LangOpt = None,
) -> None:
    """Play Pepper in the terminal: humans (hot-seat) and bots in any seats."""
    console = make_console()
    if resume is not None:
        if seats or players is not None or seed is not None or dealer is not None or rule:
            raise typer.BadParameter(
                _("a resumed game keeps its own seats, seed, dealer and rules"),
                param_hint="--resume",
            )
        text = read_or_exit(console, resume)
        game = load_or_exit(console, resume, lambda t: _load_game(t, resume))
        table = seats_of_record(json.loads(text))
        seed = game.seed
        path = check_save_path(save if save is not None else resume)
        console.print(
            _("%(game)s, resumed: %(seats)s.")
            % {"game": "[bold]Karten-Pfeffer[/]", "seats": seats_text(table)}
        )
    else:
        rules = rules_or_exit(PepperRules, rule)
        try:
            table = _table(players, seats)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="SEATS") from None
        names = [s.name for s in table]
        try:
            first = None if dealer is None else seat_number(dealer, names)
        except ActionError as exc:
            raise typer.BadParameter(str(exc), param_hint="--dealer") from None
        game = PepperGame(len(table), rules, seed=seed, dealer=first, names=names)
        path = check_save_path(save) if save is not None else new_record_path("pepper", "game")
        paired = partner(len(table), 0) is not None
        teams = ""
        if paired:
            teams = _(" · teams: %(teams)s") % {
                "teams": _(" against ").join(escape(shown(s)) for s in side_names(names))
            }
        console.print(
            _("%(game)s: %(seats)s%(teams)s. Target %(target)s.")
            % {
                "game": "[bold]Karten-Pfeffer[/]",
                "seats": seats_text(table),
                "teams": teams,
                "target": rules.target,
            }
        )
    bots: dict[int, Bot[PepperView]] = {
        i: make_bot(PEPPER_BOTS, s, i, seed) for i, s in enumerate(table) if s.is_bot
    }
    console.print(f"[dim]{_(KEYS_LINE)}[/]")
    if hints:
        console.print(f"[dim]{_(HINTS_ON)}[/]")
        warm_up_hints(console)
    PlaySession(
        console, game, table, bots, path=path, bot_delay=bot_delay, hints=hints, review=review
    ).run()


def warm_up_hints(console: Console) -> None:
    """Compile the expert's code before the game, with a line that says so: after an install the
    first hint took 8-15 s with no sign while keys typed meanwhile echoed (numba caches the
    code on disk afterwards, so later starts take a moment)."""
    with contextlib.suppress(MissingExtra), thinking(console, _("getting the hints ready…")):
        game = PepperGame(4, seed=0)
        game.apply(game.legal_actions()[0])  # the deal: the auction's first bid is a decision
        hint_line(game, "en", str, worlds=1)


def _load_game(text: str, path: Path) -> PepperGame:
    """A played game from a record's text; a score pad is refused with what to do instead."""
    if record_kind(text) == SHEET_GAME:
        raise RecordError(
            f"{path} is a score pad, not a played game: continue it with "
            f"'pfeffer pepper sheet --resume {path}'."
        )
    return PepperGame.from_record(text)


# ============================================================================ rules, replay


@app.command("rules")
def rules_command(
    rule: RuleOpt = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-n", min=2, max=4, help="Show the rules for 2, 3 or 4 players only."
        ),
    ] = None,
    lang: LangOpt = None,
) -> None:
    """Print a short summary of the rules and the house-rule values in force."""
    console = make_console()
    rules = rules_or_exit(PepperRules, rule)
    print_rules(console, rules_help(rules, players), rules, "--rule all_pass=redeal")


@app.command()
def replay(
    file: Annotated[
        Path, typer.Argument(help="A saved game record or score pad (JSON).", show_default=False)
    ],
    lang: LangOpt = None,
) -> None:
    """Print a saved game hand by hand (every deal, the auction, every trick), or a score pad."""
    console = make_console()
    text = read_or_exit(console, file)
    if record_kind(text) == SHEET_GAME:
        pad = load_or_exit(console, file, PepperSheet.from_json)
        names = ", ".join(shown(p) for p in pad.players)
        console.print(f"[bold]{_('Pepper score pad')}[/]: {escape(names)}")
        console.print(hand_table(pad.players, pad.rows(), pad.totals, pad.winners))
        if pad.is_over:
            console.print(f"[bold green]{winners_text(pad.players, pad.winners, pad.totals)}[/]")
        return
    game = load_or_exit(console, file, PepperGame.from_record)
    record = game.to_record()
    header = {k: v for k, v in record.items() if k not in ("scores", "winners")}
    fresh = PepperGame.from_record({**header, "actions": []})
    console.print(f"[bold]Karten-Pfeffer[/]: {escape(', '.join(shown(n) for n in game.names))}")
    session = PlaySession(console, fresh, [], {}, path=None)
    for action in record["actions"]:
        session.act(action, show_deal=True)
    if not fresh.is_over:
        console.rule(_("Unfinished"))
        console.print(hand_table(fresh.names, fresh.results, fresh.scores))
        if fresh.current_player is not None and fresh.phase != "deal":
            name = fresh.names[fresh.current_player]
            who = f"[bold]{escape(shown(name))}[/]"
            console.print(said(name, "%(name)s to act next.", "You to act next.", name=who))
