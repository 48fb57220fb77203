"""``pfeffer dice …``: terminal play, scoring help and the score sheet for Würfel-Pfeffer."""

from __future__ import annotations

import typer

app = typer.Typer(help="Würfel-Pfeffer, the dice game.", no_args_is_help=True)
