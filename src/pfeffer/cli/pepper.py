"""``pfeffer pepper …``: terminal play and the score pad for Karten-Pfeffer (Pepper)."""

from __future__ import annotations

import typer

app = typer.Typer(help="Karten-Pfeffer / Pepper, the trick-taking card game.", no_args_is_help=True)
