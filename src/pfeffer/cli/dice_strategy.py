"""``pfeffer dice card`` and ``pfeffer dice plot``: the strategy cards and the solved table's
strategy plots in the terminal (the numbers from :mod:`pfeffer.dice.strategy_data`, drawn by
:mod:`pfeffer.dice.plot`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pfeffer.cli.common import make_console, print_error, rules_or_exit
from pfeffer.cli.dice_advice import get_strategy
from pfeffer.cli.dice_draw import RuleOpt, app
from pfeffer.cli.words import LangOpt, _
from pfeffer.dice.card import CARDS
from pfeffer.dice.rules import DiceRules

#: The plots ``pfeffer dice plot`` draws, by name.
PLOTS = ("bank", "bank-auto", "win", "pfeffer", "first")
#: Targets of the first-player plot by default (each is solved once and cached; 10000 ships).
DEFAULT_TARGETS = "500,1000,1500,2000,10000"


@app.command("card")
def card_command(
    level: Annotated[
        str, typer.Option("--level", "-l", help=f"The card: {', '.join(CARDS)}.")
    ] = "hard",
    rule: RuleOpt = None,
    lang: LangOpt = None,
) -> None:
    """Print a strategy card: a rule of thumb to play by (the computer's levels play these)."""
    console = make_console()
    if level not in CARDS:
        raise typer.BadParameter(
            _("choose from %(choices)s") % {"choices": ", ".join(CARDS)}, param_hint="--level"
        )
    rules = rules_or_exit(DiceRules, rule)
    console.print(CARDS[level].text(rules, _), markup=False, highlight=False)


@app.command("plot")
def plot_command(  # noqa: PLR0917 (typer: one parameter per option)
    out: Annotated[
        Path, typer.Option("--out", "-o", help="The folder for the plots.", file_okay=False)
    ] = Path("dice-plots"),
    fmt: Annotated[str, typer.Option("--format", "-f", help="png or svg.")] = "png",
    what: Annotated[
        list[str] | None,
        typer.Option("--what", "-w", help=f"Which plots (repeatable): {', '.join(PLOTS)}."),
    ] = None,
    step: Annotated[
        int, typer.Option(help="Grid of the bank maps in points (a finer grid takes longer).")
    ] = 500,
    targets: Annotated[
        str,
        typer.Option(
            help="Targets of the first-player plot, comma-separated (each new one is solved "
            "once and cached: seconds for small targets, minutes for large ones)."
        ),
    ] = DEFAULT_TARGETS,
    rule: RuleOpt = None,
    solve_now: Annotated[
        bool, typer.Option("--solve", help="Solve unsolved rules without asking.")
    ] = False,
    lang: LangOpt = None,
) -> None:
    """Draw the solved strategy: when to bank, the chance to win, the value of calling Pfeffer
    and the first player's advantage by target (matplotlib: pip install 'pfeffer\\[plots]')."""
    from pfeffer.dice import plot, strategy_data

    console = make_console()
    rules = rules_or_exit(DiceRules, rule)
    chosen = list(dict.fromkeys(what or PLOTS))
    bad = [w for w in chosen if w not in PLOTS]
    if bad:
        raise typer.BadParameter(
            _("choose from %(choices)s") % {"choices": ", ".join(PLOTS)}, param_hint="--what"
        )
    if fmt not in plot.FORMATS:
        raise typer.BadParameter(_("png or svg"), param_hint="--format")
    try:
        wanted = [int(t) for t in targets.split(",") if t.strip()]
    except ValueError:
        raise typer.BadParameter(
            _("whole numbers, e.g. 1000,2000"), param_hint="--targets"
        ) from None
    strategy = get_strategy(console, rules, ask_first=not solve_now)
    if strategy is None:
        raise typer.Exit(1)
    if step % strategy.step:
        raise typer.BadParameter(
            _("a multiple of %(step)s") % {"step": strategy.step}, param_hint="--step"
        )
    written: list[Path] = []
    try:
        for name in chosen:
            path = out / f"{name}.{fmt}"
            if name in ("bank", "bank-auto"):
                if name == "bank-auto" and not rules.auto_pfeffer:
                    continue
                data = strategy_data.bank_map(strategy, step=step, auto=name == "bank-auto")
                written.append(plot.plot_bank_thresholds(data, path))
            elif name == "win":
                scores, w = strategy_data.win_map(strategy, step=min(step, 200))
                written.append(plot.plot_win_map(scores, w, path))
            elif name == "pfeffer":
                if not rules.pfeffer:
                    continue
                half = rules.target // 2 // strategy.step * strategy.step
                late = rules.target * 4 // 5 // strategy.step * strategy.step
                situations = [(0, 0), (half, half), (half, 0), (0, half), (late, late)]
                first = max(rules.min_bank, strategy.step)
                results = list(range(first, min(3000, rules.target) + 1, strategy.step))
                values = strategy_data.pfeffer_values(strategy, situations, results)
                written.append(plot.plot_pfeffer_value(situations, results, values, path))
            elif name == "first":
                rows = strategy_data.first_player_by_target(wanted, rules)
                written.append(plot.plot_first_player(rows, path))
    except ValueError as exc:
        print_error(console, exc)
        raise typer.Exit(1) from None
    for path in written:
        console.print(_("wrote %(path)s") % {"path": path})
