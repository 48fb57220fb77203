"""``pfeffer dice advise`` and ``pfeffer dice review``, the hint key of ``dice play`` and the
advice on the score sheet: the solver's answer (:func:`pfeffer.dice.solver.advise`) at the table.

Every state is built by the engine: a :class:`~pfeffer.dice.game.DiceGame` with the scores, the
opponent's last turn entered as on a score sheet, then the turn's throws and set-asides applied as
actions. Nothing here knows a rule; the solver values what the game lists.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from pfeffer.cli import words
from pfeffer.cli.common import (
    QuitRequested,
    confirm,
    load_or_exit,
    make_console,
    print_error,
    read_or_exit,
    rules_or_exit,
    seats_of_record,
)
from pfeffer.cli.dice_draw import RuleOpt, app, dice_text, faces_text, option_label
from pfeffer.cli.words import (
    PERCENTAGE_POINTS,
    LangOpt,
    _,
    amount,
    counted,
    number,
    pgettext,
    shown,
)
from pfeffer.core.errors import ActionError, IllegalAction
from pfeffer.core.extras import MissingExtra, require
from pfeffer.core.i18n import translate_error
from pfeffer.dice.game import DiceGame, Phase
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import keep_options

if TYPE_CHECKING:  # the solver needs the extra 'ai' (numpy, numba): imported where it is used
    from pfeffer.dice.solver import Advice, ApproxStrategy, DiceStrategy
    from pfeffer.dice.solver.estimate import SolveEstimate
    from pfeffer.dice.solver.review import Decision

HINT_WORDS = frozenset({"a", "hint", "advice"})
"""What asks for a hint in ``dice play`` (``h`` is help there)."""

#: A player's line of the game review (msgids; the count is the decisions).
REVIEW_LINE = (
    "%(name)s: %(n)s decision, the best chosen: %(best)s; chance to win given away: %(lost)s",
    "%(name)s: %(n)s decisions, the best chosen: %(best)s; chance to win given away in all: "
    "%(lost)s",
)

# ============================================================================ the solved table


def refused(console: Console, rules: DiceRules) -> SolveEstimate | None:
    """The estimate of solving ``rules`` here; None (and said why, with the estimate) if the
    solve would not fit this machine's memory or an hour."""
    from pfeffer.dice.solver.estimate import estimate

    found = estimate(rules)
    why = refusal_text(found)
    if why is None:
        return found
    print_error(console, _("These rules are too large to solve here: %(why)s.") % {"why": why})
    smaller = _(
        "A smaller target (--rule target=...) solves faster: the work grows about with the "
        "fourth power of the target."
    )
    console.print(f"[dim]{smaller}[/]")
    return None


def cost_text(cost: SolveEstimate) -> str:
    """A solve's estimated time and memory in the terminal's language ("about 4 minutes, 0.7 GB
    of memory")."""
    return _("about %(time)s, %(memory)s of memory") % {
        "time": duration_text(cost.seconds),
        "memory": gigabytes_text(cost.memory),
    }


def duration_text(seconds: float) -> str:
    """``40 seconds``, ``4 minutes``, ``3 hours`` in the terminal's language."""
    if seconds < 90:
        return counted(max(1, round(seconds)), "%(n)s second", "%(n)s seconds")
    if seconds < 90 * 60:
        return counted(round(seconds / 60), "%(n)s minute", "%(n)s minutes")
    return counted(round(seconds / 3600), "%(n)s hour", "%(n)s hours")


def gigabytes_text(size: int) -> str:
    """``0.7 GB`` (``0,7 GB`` in German and Czech)."""
    return f"{number(size / 2**30, 1)} GB"


def refusal_text(cost: SolveEstimate) -> str | None:
    """Why the solve of ``cost`` should not start here (:meth:`SolveEstimate.refused`) in the
    terminal's language; None: it fits."""
    why = cost.refused()
    if why is None:
        return None
    size = amount(cost.steps, 0, "%(n)s total a side", "%(n)s totals a side")
    if why.kind == "memory":
        return _(
            "it would need about %(memory)s of memory, and this machine has %(free)s free "
            "(%(size)s; about %(time)s)"
        ) % {"memory": gigabytes_text(cost.memory), "free": gigabytes_text(why.free or 0),
             "size": size, "time": duration_text(cost.seconds)}  # fmt: skip
    return _(
        "it would take about %(time)s here, and the limit is one hour (%(size)s; %(memory)s of "
        "memory)"
    ) % {"time": duration_text(cost.seconds), "size": size,
         "memory": gigabytes_text(cost.memory)}  # fmt: skip


def stage_text(stage: str) -> str:
    """A solve's stage (:mod:`pfeffer.dice.solver.stages`) in the terminal's language."""
    from pfeffer.dice.solver.stages import Stage

    if not isinstance(stage, Stage):
        return stage
    return pgettext("stage", stage.template).format(**stage.params)


def off_step(rules: DiceRules, totals: dict[str, int]) -> str | None:
    """Why a total given to the advice cannot occur under ``rules`` (every total is a multiple
    of the solver's step), in one line; None if all can. Needs the extra 'ai' (else None: the
    table's loading says that)."""
    try:
        require("ai", "The dice advice")
    except MissingExtra:
        return None
    from pfeffer.dice.solver.tables import build_tables

    step = build_tables(rules).step
    for option, value in totals.items():
        if value % step:
            return _(
                "%(option)s %(value)s is no total of this game: totals are multiples of %(step)s."
            ) % {"option": option, "value": value, "step": step}
    return None


def get_strategy(
    console: Console, rules: DiceRules, *, ask_first: bool = True
) -> DiceStrategy | None:
    """The solved table of ``rules``: from the cache (or the package) at once; else solved now
    with a progress bar, after a yes to ``ask_first``'s question. None: not solved (said why,
    also when the extra 'ai' that the solver needs is not installed)."""
    try:
        require("ai", "The dice advice")
    except MissingExtra as exc:
        console.print(f"[yellow]{escape(translate_error(exc, words.lang()))}[/]")
        return None
    from pfeffer.dice.solver import cache as solver_cache
    from pfeffer.dice.solver import solve

    found = solver_cache.load(rules)
    if found is not None:
        return found
    cost = refused(console, rules)
    if cost is None:
        return None
    not_yet = _("These rules are not solved on this computer yet.")
    takes = _("Solving them takes %(time)s once; the table is then kept for every later hint.") % {
        "time": cost_text(cost)
    }
    console.print(f"[yellow]{not_yet}[/] {takes}")
    if ask_first:
        try:
            yes = confirm(console, _("Solve now?"))
        except QuitRequested:
            yes = False
        if not yes:
            without = _(
                "No advice without the solved table. Rules already solved answer at once "
                "(a small target such as --rule target=1000 solves in under a minute)."
            )
            console.print(f"[dim]{without}[/]")
            return None
    try:
        with Progress(
            TextColumn(_("Solving %(what)s") % {"what": "{task.description}"}),
            BarColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as bar:
            task = bar.add_task(_("the rules"), total=1.0)
            strategy = solve(
                rules,
                progress=lambda stage, f: bar.update(
                    task, completed=f, description=stage_text(stage)
                ),
            )
    except NotImplementedError as exc:
        print_error(console, _("No advice for these rules: %(error)s.") % {"error": exc})
        return None
    solved = _("Solved in %(seconds)s s and kept for next time.") % {
        "seconds": f"{strategy.seconds:.0f}"
    }
    console.print(f"[dim]{solved}[/]")
    return strategy


# ============================================================================ building a state


def _moves(rules: DiceRules) -> dict[int, dict[tuple[int, int], tuple[str, str]]]:
    """For each number of dice thrown: every (points, dice set aside) a throw can give, with one
    throw (faces) and the set-aside (action) that give it, as the engine scores them."""
    out: dict[int, dict[tuple[int, int], tuple[str, str]]] = {}
    for n in range(1, 7):
        found: dict[tuple[int, int], tuple[str, str]] = {}
        for faces in itertools.combinations_with_replacement(range(1, 7), n):
            for option in keep_options(list(faces), rules):
                key = (option.points, len(option.dice))
                found.setdefault(key, ("".join(map(str, faces)), option.action))
        out[n] = found
    return out


def turn_path(rules: DiceRules, total: int, dice: int) -> list[tuple[str, str]]:
    """Throws and set-asides that reach turn total ``total`` with ``dice`` dice to throw next
    (fewest throws); IllegalAction if no turn gets there.

    >>> turn_path(DiceRules(), 350, 2)
    [('113335', 'keep 3335')]
    """
    moves = _moves(rules)
    start = (0, 6)
    came: dict[tuple[int, int], tuple[tuple[int, int], tuple[str, str]] | None] = {start: None}
    todo = deque([start])
    while todo:
        state = todo.popleft()
        if state == (total, dice) and state != start:
            break
        t, n = state
        for (points, used), move in moves[n].items():
            left = n - used or 6
            nxt = (t + points, left)
            if nxt[0] <= total and nxt not in came:
                came[nxt] = (state, move)
                todo.append(nxt)
    if (total, dice) not in came or total <= 0:
        raise IllegalAction.format(
            "No turn reaches a turn total of {total} with {dice} left to throw.",
            total=total,
            dice=counted(dice, "%(n)d die", "%(n)d dice", "object"),
        )
    path: list[tuple[str, str]] = []
    here = (total, dice)
    while (step := came[here]) is not None:
        here, move = step
        path.append(move)
    return path[::-1]


def table_state(
    rules: DiceRules, own: int, other: int, last: int | None, *, last_bust: bool = False
) -> DiceGame:
    """A two-player game with "You" (``own``) to start a turn against "Opponent" (``other``).

    ``last``: the opponent's last turn banked that much (it counts into ``other``; Pfeffer may
    be called against it); ``last_bust``: it scored nothing (Auto-Pfeffer). Neither: the first
    turn of the game. The opponent's turn is entered as on a score sheet, so the engine sets the
    final round, Auto-Pfeffer and the Pfeffer offer.
    """
    entered = last is not None or last_bust
    game = DiceGame(["You", "Opponent"], rules, seed=0, first_player=1 if entered else 0,
                    sheet=True, scores=[own, other - (last or 0)])  # fmt: skip
    if entered:
        game.apply("bust" if last_bust else f"turn {last}")
    elif other >= rules.target:
        raise IllegalAction(
            "The opponent reached the target in the last turn: say how much with --last."
        )
    if own >= rules.target and not game.final_round:
        raise IllegalAction.format("{own} has reached the target {target}: the game is over.",
                                   own=own, target=rules.target)  # fmt: skip
    if game.is_over:
        raise IllegalAction("The game is over: there is nothing to advise.")
    return game


def play_turn(
    game: DiceGame,
    *,
    pfeffer: bool = False,
    total: int = 0,
    dice: int | None = None,
    throw: str | None = None,
) -> DiceGame:
    """Apply the turn so far to ``game`` (at the start of a turn): a Pfeffer call, throws and
    set-asides that reach ``total`` with ``dice`` left, then ``throw`` (faces) on the table."""
    if pfeffer:
        game.apply("pfeffer")
    if dice is None and throw:
        dice = len(throw)
    if total:
        if dice is None:
            raise IllegalAction("Say how many dice are left to throw (--dice) or give the throw.")
        for faces, action in turn_path(game.rules, total, dice):
            game.apply("roll " + faces)
            game.apply(action)
    elif dice not in (None, 6):
        raise IllegalAction("A turn starts with six dice: give the turn total too (--total).")
    if throw:
        game.apply("roll " + throw)
    return game


# ============================================================================ drawing advice


def describe(game: DiceGame, action: str) -> str:
    """An option in words, in the state of ``game`` before it is taken (markup)."""
    n = game.dice_to_roll
    if action == "pfeffer":
        v = game.view()
        return _("call %(pfeffer)s (bank at least %(need)s; a bust costs %(cost)s)") % {
            "pfeffer": "[yellow]Pfeffer[/]",
            "need": v.pfeffer_need,
            "cost": v.pfeffer_bust_penalty,
        }
    if game.phase is Phase.KEEP:
        for option in game.keep_choices():
            if option.action == action:
                left = n - len(option.dice)
                after = (
                    _("hot dice: all six again")
                    if not left
                    else counted(left, "%(n)d die left", "%(n)d dice left")
                )
                return _("set aside %(dice)s (+%(points)s → %(total)s, %(after)s)") % {
                    "dice": faces_text(option.dice),
                    "points": option.points,
                    "total": game.turn_total + option.points,
                    "after": after,
                }
    if action == "bank":
        return _("bank %(points)s") % {"points": game.turn_total}
    if game.phase is Phase.DECIDE:
        return counted(n, "roll on with %(n)d die", "roll on with %(n)d dice")
    return _("throw %(dice)s") % {"dice": counted(n, "%(n)d die", "%(n)d dice", "object")}


def advice_table(game: DiceGame, tips: list[Advice]) -> Table:
    """Every option with its chance to win and what it costs against the best, best first."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column(_("Option"))
    table.add_column(_("Notation"), style="dim")
    table.add_column(_("Win %"), justify="right")
    table.add_column(_("vs best"), justify="right")
    best = tips[0].win_probability
    for i, tip in enumerate(tips, start=1):
        cost = max(100 * (best - tip.win_probability), 0.0)  # a tie may list a hair better
        style = "bold green" if i == 1 else ""
        table.add_row(
            str(i),
            describe(game, tip.action),
            tip.action,
            f"[{style or 'default'}]{number(100 * tip.win_probability, 2)}[/]",
            _("best") if i == 1 else f"−{number(cost, 2)}",
        )
    return table


def state_text(game: DiceGame) -> str:
    """The situation of the player to act, in one line (markup)."""
    v = game.view()
    seat = v.current_player
    assert seat is not None  # only asked while the game runs
    own = v.scores[seat]
    other = max(x for i, x in enumerate(v.scores) if i != seat)  # more players: the leader
    parts = [
        _("%(name)s %(own)s against %(other)s")
        % {"name": escape(shown(game.players[seat])), "own": own, "other": other}
    ]
    if v.final_round:
        parts.append(_("last turn"))
    if v.pfeffer.name == "AUTO":
        costs = _("a bust costs %(points)s.") % {"points": v.bust_penalty}
        parts.append(f"[yellow]Auto-Pfeffer[/] ({costs.rstrip('.')})")
    elif v.pfeffer.name == "CALLED":
        parts.append(
            _("%(pfeffer)s called, stake %(stake)s")
            % {"pfeffer": "[yellow]Pfeffer[/]", "stake": v.stake}
        )
    if game.phase is Phase.KEEP:
        parts.append(
            _("turn total %(total)s, thrown %(dice)s")
            % {"total": v.turn_total, "dice": dice_text(v.roll or ())}
        )
    elif game.phase is Phase.DECIDE:
        n = v.dice_to_roll
        parts.append(
            counted(n, "turn total %(total)s, %(n)d die to throw",
                    "turn total %(total)s, %(n)d dice to throw", total=v.turn_total)
        )  # fmt: skip
    else:
        parts.append(_("before the first throw"))
    return " · ".join(parts)


def show_advice(console: Console, strategy: DiceStrategy | ApproxStrategy, game: DiceGame) -> None:
    """Print the situation and every option with its chance to win (or why there is none)."""
    if game.is_over:
        console.print(_("The game is over: there is nothing to advise."))
        return
    console.print(state_text(game))
    from pfeffer.dice.solver import advise

    tips = advise(strategy, game)
    if not tips:
        console.print(_("Nothing to decide here."))
        return
    console.print(advice_table(game, tips))


class Hints:
    """The hint key of ``dice play``: the table's rules solved once (on a yes), then advice."""

    def __init__(self, console: Console, *, enabled: bool) -> None:
        self.console = console
        self.enabled = enabled
        self.strategy: DiceStrategy | None = None
        self.declined = False

    def show(self, game: DiceGame) -> None:
        """Advice for the decision at hand, or why there is none."""
        if not self.enabled:
            self.console.print(_("Hints are off at this table (--no-hints)."))
            return
        if self.strategy is None and not self.declined:
            self.strategy = get_strategy(self.console, game.rules)
            self.declined = self.strategy is None
        if self.strategy is None:
            self.console.print(f"[dim]{_('No hints without the solved table of these rules.')}[/]")
            return
        n = len(game.players)
        if n == 2:
            show_advice(self.console, self.strategy, game)
            return
        # More players: the documented approximation (method="approx"), as the web's hints.
        from pfeffer.dice.solver import ApproxStrategy

        show_advice(self.console, ApproxStrategy(self.strategy), game)
        self.console.print(f"[dim]{_(APPROX_HINT) % {'n': n}}[/]")


# ============================================================================ the command


@app.command("advise")
def advise_command(
    throw: Annotated[
        str | None,
        typer.Argument(
            help="The dice on the table, e.g. 115234 (none: before throwing).", show_default=False
        ),
    ] = None,
    *,
    score: Annotated[int, typer.Option("--score", "-s", help="Your total.")] = 0,
    other: Annotated[int, typer.Option("--other", "-o", help="The opponent's total.")] = 0,
    total: Annotated[int, typer.Option("--total", "-t", help="Your turn total so far.", min=0)] = 0,
    dice: Annotated[
        int | None,
        typer.Option(
            "--dice", "-d", help="Dice left to throw (with --total, no throw given).", min=1, max=6
        ),
    ] = None,
    last: Annotated[
        str | None,
        typer.Option(
            help="The opponent's last turn: the points banked (Pfeffer may be called "
            "against them), or 'bust' (Auto-Pfeffer). Counted into --other."
        ),
    ] = None,
    pfeffer: Annotated[
        bool, typer.Option("--pfeffer", help="You called Pfeffer this turn.")
    ] = False,
    rule: RuleOpt = None,
    solve_now: Annotated[
        bool, typer.Option("--solve", help="Solve unsolved rules without asking.")
    ] = False,
    lang: LangOpt = None,
) -> None:
    """Every option of your decision with its chance to win under optimal play, best first."""
    console = make_console()
    rules = rules_or_exit(DiceRules, rule)
    bust = last is not None and last.lower() in ("b", "bust", "0")
    if last is not None and not bust and not last.isdigit():
        raise typer.BadParameter(_("the points banked, or 'bust'"), param_hint="--last")
    try:
        game = table_state(rules, score, other, None if bust or last is None else int(last),
                           last_bust=bust)  # fmt: skip
        play_turn(game, pfeffer=pfeffer, total=total, dice=dice, throw=throw)
    except ActionError as exc:
        print_error(console, exc)
        raise typer.Exit(1) from None
    if game.current_player != 0:
        console.print(_("Throw: %(dice)s") % {"dice": dice_text([int(c) for c in throw or ""])})
        console.print(f"[bold red]{_('Bust!')}[/] {_('No die scores: the turn is over.')}")
        return
    off = off_step(rules, {"--score": score, "--other": other})
    if off:
        print_error(console, off)
        raise typer.Exit(1)
    strategy = get_strategy(console, rules, ask_first=not solve_now)
    if strategy is None:
        raise typer.Exit(1)
    show_advice(console, strategy, game)
    bound = -strategy.lower * strategy.step
    if min(score, other) < bound:
        below = _(
            "Totals below %(bound)s (the solved table's bound) are valued as %(bound)s: "
            "the advice there is that of a total at the bound."
        ) % {"bound": bound}
        console.print(f"[dim]{below}[/]")


# ============================================================================ the review


def decisions(
    strategy: DiceStrategy | ApproxStrategy, record: DiceGame, seats: set[int]
) -> list[Decision]:
    """Every decision with a choice that a player in ``seats`` made in ``record`` (replayed
    action by action), valued by the solver; in the order played (:mod:`pfeffer.dice.solver.review`
    with the terminal's line for each situation)."""
    from pfeffer.dice.solver import review as solver_review

    return solver_review.decisions(strategy, record, seats, situation=state_text)


def review_table(game: DiceGame, found: list[Decision], top: int) -> Table:
    """The costliest decisions first."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for name, justify in (("#", "right"), (_("Round"), "right"), (_("Situation"), "left"),
                          (_("Played"), "left"), (_("Best"), "left"),
                          (_("Cost"), "right")):  # fmt: skip
        table.add_column(_(name), justify=justify)  # type: ignore[arg-type]
    from pfeffer.dice.solver import review as solver_review

    ranked = solver_review.ranked(found)[:top]
    for i, d in enumerate(ranked, start=1):
        table.add_row(str(i), str(d.round), d.situation, escape(option_label(d.played)),
                      f"[green]{escape(option_label(d.best))}[/]",
                      f"[red]−{number(100 * d.cost, 2)}[/]")  # fmt: skip
    return table


#: What a hint for more than two players says of itself (as the web's hints).
APPROX_HINT = (
    "An approximation for %(n)s players: the two-player strategy, read with your own total "
    "against the highest total of the others."
)

#: What the review of more than two players says of itself (as the web's review).
APPROX_REVIEW = (
    "This review is an approximation for %(n)s players: each decision is valued by the "
    "two-player strategy, with the player's own total against the highest total of the others."
)


def show_review(
    console: Console, strategy: DiceStrategy, game: DiceGame, seats: set[int], top: int = 10
) -> None:
    """Every decision of ``seats`` with the win % it cost, the biggest mistakes first; with more
    than two players valued by the documented approximation (``method="approx"``: the two-player
    ``strategy`` against the highest total of the others), and said so."""
    from pfeffer.dice.solver import ApproxStrategy
    from pfeffer.dice.solver import review as solver_review

    n = len(game.players)
    found = decisions(strategy if n == 2 else ApproxStrategy(strategy), game, seats)
    console.rule(_("Game review"))
    if n > 2:
        console.print(f"[dim]{_(APPROX_REVIEW) % {'n': n}}[/]")
    for seat in sorted(seats):
        totals = solver_review.summary(found, seat)
        console.print(
            counted(
                totals.decisions,
                *REVIEW_LINE,
                name=f"[bold]{escape(shown(game.players[seat]))}[/]",
                best=totals.best,
                lost=f"[red]{amount(100 * totals.lost, 2, *PERCENTAGE_POINTS)}[/]",
            )
        )
    mistakes = [d for d in found if not d.is_best]
    if not mistakes:
        console.print(f"[green]{_('Every decision was the best one.')}[/]")
        return
    console.print(
        counted(
            min(top, len(mistakes)),
            "The costliest decision (cost in percentage points):",
            "The %(n)d costliest decisions (cost in percentage points):",
        )
    )
    console.print(review_table(game, mistakes, top))


def offer_review(console: Console, game: DiceGame, humans: set[int]) -> None:
    """At the end of ``dice play``: offer the review of the humans' decisions."""
    if not humans:
        return
    try:
        if not confirm(console, _("Review your decisions against optimal play?")):
            return
    except QuitRequested:
        return
    strategy = get_strategy(console, game.rules)
    if strategy is not None:
        show_review(console, strategy, game, humans)


@app.command()
def review(
    file: Annotated[Path, typer.Argument(help="A saved game record (JSON).", show_default=False)],
    top: Annotated[int, typer.Option(help="How many mistakes to list.", min=1)] = 10,
    everyone: Annotated[
        bool, typer.Option("--all", help="Review the computer players' decisions too.")
    ] = False,
    solve_now: Annotated[
        bool, typer.Option("--solve", help="Solve unsolved rules without asking.")
    ] = False,
    lang: LangOpt = None,
) -> None:
    """Every decision of the human players with the win % it cost, the biggest mistakes first."""
    console = make_console()
    text = read_or_exit(console, file)
    game = load_or_exit(console, file, DiceGame.from_record)
    seats = seats_of_record(json.loads(text))
    chosen = {i for i, s in enumerate(seats) if everyone or not s.is_bot}
    strategy = get_strategy(console, game.rules, ask_first=not solve_now)
    if strategy is None:
        raise typer.Exit(1)
    show_review(console, strategy, game, chosen, top)


# ============================================================================ the score sheet


def read_sheet_advice(text: str) -> dict[str, object]:
    """The state typed after ``a`` on the score sheet: ``[p] [TOTAL/DICE | TOTAL THROW | THROW]``.

    >>> read_sheet_advice("a p 350/3")
    {'pfeffer': True, 'total': 350, 'dice': 3, 'throw': None}
    >>> read_sheet_advice("a 350 623"), read_sheet_advice("a 115234")["throw"]
    ({'pfeffer': False, 'total': 350, 'dice': None, 'throw': '623'}, '115234')
    """
    words = text.split()[1:]
    out: dict[str, object] = {"pfeffer": False, "total": 0, "dice": None, "throw": None}
    if words and words[0] in ("p", "pfeffer"):
        out["pfeffer"], words = True, words[1:]
    if words and "/" in words[0]:
        total, _, dice = words.pop(0).partition("/")
        if not (total.isdigit() and dice.isdigit()):
            raise IllegalAction("Type the turn total and the dice left as 300/3.")
        out["total"], out["dice"] = int(total), int(dice)
    elif len(words) == 2 and words[0].isdigit():
        out["total"] = int(words.pop(0))
    if len(words) > 1 or (words and not words[0].isdigit()):
        raise IllegalAction(
            "Type a (advice), then p if Pfeffer was called, the turn total and dice left "
            "(300/3) or the turn total and the throw (300 615), or just the throw (115234)."
        )
    out["throw"] = words[0] if words else None
    return out


def sheet_advice(console: Console, game: DiceGame, text: str, hints: Hints) -> None:
    """``a …`` on the score sheet: advice for the current player's turn so far."""
    turns = len(game.history)
    try:
        state = read_sheet_advice(text)
        play_turn(game, pfeffer=bool(state["pfeffer"]), total=int(str(state["total"])),
                  dice=None if state["dice"] is None else int(str(state["dice"])),
                  throw=None if state["throw"] is None else str(state["throw"]))  # fmt: skip
    except ActionError as exc:
        print_error(console, exc)
        return
    if len(game.history) > turns:
        console.print(f"[bold red]{_('Bust!')}[/] {_('No die scores: enter b for this turn.')}")
        return
    hints.show(game)
