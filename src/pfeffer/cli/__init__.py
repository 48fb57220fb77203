"""The ``pfeffer`` command: one Typer app with a sub-command group per game."""

from __future__ import annotations

import typer

from pfeffer.cli import (
    dice,
    dice_advice,
    dice_sheet,
    dice_strategy,
    dice_train,
    pepper,
    pepper_sheet,
    pepper_train,
    words,
)
from pfeffer.cli.dice_draw import app as dice_app
from pfeffer.cli.frame import Root, install
from pfeffer.cli.pepper_draw import app as pepper_app
from pfeffer.cli.serve import serve
from pfeffer.cli.words import RootLangOpt
from pfeffer.core.extras import MissingExtra
from pfeffer.core.i18n import translate_error

app = typer.Typer(
    name="pfeffer",
    help="Würfel-Pfeffer (dice) and Karten-Pfeffer / Pepper (cards): play, score, check rules.",
    no_args_is_help=True,
    add_completion=False,
    cls=Root,  # speaks the language asked on the command line from the start
)
install()  # --help and Click's errors in the terminal's language (pfeffer.cli.frame)


@app.callback()
def root(lang: RootLangOpt = None) -> None:
    """Würfel-Pfeffer (dice) and Karten-Pfeffer / Pepper (cards): play, score, check rules."""


app.add_typer(dice_app, name="dice")
app.add_typer(pepper_app, name="pepper")
app.command("serve")(serve)

__all__ = [
    "app",
    "dice",
    "dice_advice",
    "dice_sheet",
    "dice_strategy",
    "dice_train",
    "main",
    "pepper",
    "pepper_sheet",
    "pepper_train",
]  # the game, sheet, advice, strategy and trainer modules add their commands


def main() -> None:
    """Console-script entry point. A command that needs an optional part of the package that
    is not installed ends with one line naming the install command, not a traceback."""
    try:
        app()
    except MissingExtra as exc:
        typer.echo(translate_error(exc, words.lang()), err=True)
        raise SystemExit(1) from None
