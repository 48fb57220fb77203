"""``pfeffer serve``: the web front end (lobby, live tables, score sheets, history)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

WS_MAX_SIZE = 1 << 20  # bytes of one WebSocket message the server reads at all


def default_db_url() -> str:
    """SQLite in the user's data folder (created if missing)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("pfeffer"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'pfeffer.db'}"


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (0.0.0.0 for the whole LAN)."),
    port: int = typer.Option(8000, help="Port to listen on."),
    db: str = typer.Option(
        "", help="Database URL, e.g. postgresql+psycopg://user@host/db (default: SQLite file)."
    ),
    bot_delay: float = typer.Option(0.8, help="Seconds a computer player waits before it moves."),
    *,
    ssl_keyfile: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="Private key (PEM) to serve HTTPS, with --ssl-certfile (see docs/web.md).",
        ),
    ] = None,
    ssl_certfile: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="Certificate (PEM, e.g. made by mkcert) to serve HTTPS, with --ssl-keyfile.",
        ),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            help="Change a rate limit: off, ws=200/10s, http=1000/10s, create=60/60s, "
            "join=120/60s, table_connections=64 (repeatable; see docs/web.md).",
        ),
    ] = None,
    log_format: Annotated[
        str,
        typer.Option(
            help="text: warnings and errors only; json: one JSON line per request, move and "
            "error (for a log collector).",
        ),
    ] = "text",
) -> None:
    """Start the web server: play both games in the browser, keep score sheets."""
    import uvicorn

    from pfeffer.web.invite import lan_addresses, lan_url, serve_text
    from pfeffer.web.limits import Limits
    from pfeffer.web.observability import configure_logging
    from pfeffer.web.server import create_app

    if (ssl_keyfile is None) != (ssl_certfile is None):
        raise typer.BadParameter(
            "HTTPS needs both --ssl-keyfile and --ssl-certfile.",
            param_hint="--ssl-keyfile / --ssl-certfile",
        )
    if log_format not in ("text", "json"):
        raise typer.BadParameter("text or json", param_hint="--log-format")
    try:
        limits = Limits().with_options(limit or [])
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--limit") from None
    scheme = "https" if ssl_certfile is not None else "http"
    url = db or default_db_url()
    addresses = lan_addresses() if host in ("0.0.0.0", "") else []
    app = create_app(
        url,
        bot_delay=bot_delay,
        lan_url=lan_url(host, port, addresses, scheme),
        limits=limits,
    )
    typer.echo(serve_text(host, port, addresses, scheme), nl=False)
    typer.echo(f"Database: {_safe(url)}. Stop with Ctrl+C.")
    # Messages above the protocol's 2048 characters get a ``too_large`` reply up to this size;
    # only beyond it does the WebSocket layer close the connection (1009).
    configure_logging(log_format)
    json_logs = log_format == "json"
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="info" if json_logs else "warning",
        log_config=None if json_logs else uvicorn.config.LOGGING_CONFIG,
        access_log=not json_logs,  # JSON: the app logs each request with its route
        ws_max_size=WS_MAX_SIZE,
        ssl_keyfile=None if ssl_keyfile is None else str(ssl_keyfile),
        ssl_certfile=None if ssl_certfile is None else str(ssl_certfile),
    )


def _safe(url: str) -> str:
    """The URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        cred, hostpart = rest.rsplit("@", 1)
        return f"{scheme}://{cred.split(':', 1)[0]}@{hostpart}"
    return url
