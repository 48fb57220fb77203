"""``pfeffer serve``: the web front end (lobby, live tables, score sheets, history)."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from pfeffer.cli import words
from pfeffer.cli.words import LangOpt, _
from pfeffer.core.i18n import translate_error

WS_MAX_SIZE = 1 << 20  # bytes of one WebSocket message the server reads at all


def _require_extras(db: str, redis: str) -> None:
    """Stop with the install command if the server's optional parts are not installed."""
    from pfeffer.core.extras import MissingExtra, require

    try:
        require("web", "pfeffer serve")
        if db.startswith("postgresql"):
            require("postgres", "A PostgreSQL database (--db postgresql...)")
        if redis:
            require("cluster", "Several processes (--redis)")
    except MissingExtra as exc:
        typer.echo(translate_error(exc, words.lang()), err=True)
        raise typer.Exit(1) from None


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
    redis: str = typer.Option(
        "",
        help="Redis URL (redis://host:6379/0): several processes serve the same tables "
        "(with --db on PostgreSQL; see docs/web.md, 'Several processes').",
    ),
    workers: int = typer.Option(
        1, min=1, help="Server processes on this address (more than one needs --redis)."
    ),
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
            "join=120/60s, chat=5/10s, spectators=64, spectators_per_address=8, seat_windows=8 "
            "(repeatable; see docs/web.md).",
        ),
    ] = None,
    public_url: Annotated[
        str,
        typer.Option(
            envvar="PFEFFER_PUBLIC_URL",
            help="The address players open (https://pfeffer.example, behind a proxy): invite "
            "links and QR codes use it (default: the address this server listens on).",
        ),
    ] = "",
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="Another site whose pages may open this server's WebSockets, e.g. "
            "https://club.example (repeatable; this server's own pages always may).",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            envvar="FORWARDED_ALLOW_IPS",
            help="The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed "
            "(addresses or networks, comma-separated; * for any: only where nothing else "
            "can reach the server).",
        ),
    ] = "127.0.0.1",
    log_format: Annotated[
        str,
        typer.Option(
            help="text: warnings and errors only; json: one JSON line per request, move and "
            "error (for a log collector).",
        ),
    ] = "text",
    lang: LangOpt = None,
) -> None:
    """Start the web server: play both games in the browser, keep score sheets."""
    _require_extras(db, redis)
    import uvicorn

    from pfeffer.web.invite import lan_addresses, lan_url, machine_names
    from pfeffer.web.middleware.limits import Limits
    from pfeffer.web.observability import configure_logging
    from pfeffer.web.server import create_app
    from pfeffer.web.site import Site

    if (ssl_keyfile is None) != (ssl_certfile is None):
        raise typer.BadParameter(
            _("HTTPS needs both --ssl-keyfile and --ssl-certfile."),
            param_hint="--ssl-keyfile / --ssl-certfile",
        )
    if log_format not in ("text", "json"):
        raise typer.BadParameter(_("text or json"), param_hint="--log-format")
    try:
        limits = Limits().with_options(limit or [])
    except ValueError as exc:
        raise typer.BadParameter(translate_error(exc, words.lang()), param_hint="--limit") from None
    if workers > 1 and not redis:
        raise typer.BadParameter(
            _(
                "Several processes need Redis to reach each other's players: add --redis URL "
                "(and a PostgreSQL --db)."
            ),
            param_hint="--workers",
        )
    scheme = "https" if ssl_certfile is not None else "http"
    url = db or default_db_url()
    if redis and url.startswith("sqlite"):
        typer.echo(
            _(
                "Note: several processes on one SQLite file work, but PostgreSQL is the database "
                "made for them (--db postgresql+psycopg://...)."
            ),
            err=True,
        )
    addresses = lan_addresses() if host in ("0.0.0.0", "") else []
    lan = lan_url(host, port, addresses, scheme)
    try:
        site = Site.for_server(
            host,
            port,
            [*addresses, *machine_names()] if host in ("0.0.0.0", "") else [],
            lan_url=lan,
            public_url=public_url or None,
            origins=allowed_origin or [],
            # Bound to this machine only: where phones would open it with --host 0.0.0.0.
            network=lan_addresses() if host in ("127.0.0.1", "localhost", "::1") else [],
            scheme=scheme,
        )
    except ValueError as exc:
        raise typer.BadParameter(
            translate_error(exc, words.lang()), param_hint="--public-url / --allowed-origin"
        ) from None
    configure_logging(log_format)
    json_logs = log_format == "json"
    # Messages above the protocol's 2048 characters get a ``too_large`` reply up to this size;
    # only beyond it does the WebSocket layer close the connection (1009).
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "info" if json_logs else "warning",
        "log_config": None if json_logs else uvicorn.config.LOGGING_CONFIG,
        "access_log": not json_logs,  # JSON: the app logs each request with its route
        "ws_max_size": WS_MAX_SIZE,
        # X-Forwarded-For / -Proto only from these proxies: anyone else could pose as any
        # address and so get round the rate limits.
        "forwarded_allow_ips": forwarded_allow_ips,
        "ssl_keyfile": None if ssl_keyfile is None else str(ssl_keyfile),
        "ssl_certfile": None if ssl_certfile is None else str(ssl_certfile),
    }
    announce = functools.partial(
        _started,
        host,
        port,
        addresses,
        scheme=scheme,
        public_url=site.public_url,
        db=url,
        redis=redis,
        workers=workers,
    )
    if workers == 1:
        app = create_app(
            url,
            bot_delay=bot_delay,
            redis_url=redis or None,
            limits=limits,
            freeze_heap=True,
            site=site,
        )
        announce()
        uvicorn.run(app, **options)
        return
    # Several worker processes on one socket: each builds the app from the environment.
    from pfeffer.web.app import ENV_PREFIX
    from pfeffer.web.storage.repository import make_engine, migrate

    engine = make_engine(url)
    migrate(engine)  # once, before the workers start
    engine.dispose()
    os.environ.update(
        {
            ENV_PREFIX + "DB": url,
            ENV_PREFIX + "REDIS": redis,
            ENV_PREFIX + "BOT_DELAY": str(bot_delay),
            ENV_PREFIX + "LAN_URL": lan or "",
            ENV_PREFIX + "LIMITS": "\n".join(limit or []),
            ENV_PREFIX + "HOSTS": "\n".join(site.hosts or ()),
            ENV_PREFIX + "PUBLIC_URL": site.public_url or "",
            ENV_PREFIX + "ALLOWED_ORIGINS": "\n".join(sorted(site.origins)),
            ENV_PREFIX + "LOG_FORMAT": log_format,
            ENV_PREFIX + "LOCAL_ONLY": site.local_only.to_env() if site.local_only else "",
        }
    )
    announce()
    uvicorn.run("pfeffer.web.app:app_from_env", factory=True, workers=workers, **options)


def _started(
    host: str,
    port: int,
    addresses: list[str],
    *,
    scheme: str,
    public_url: str | None,
    db: str,
    redis: str,
    workers: int,
) -> None:
    """What ``pfeffer serve`` says once it is set up, in the terminal's language: where to open
    it, the address invitations use, the database (without a password) and how to stop it."""
    from pfeffer.web.invite import serve_text

    typer.echo(serve_text(host, port, addresses, scheme, lang=words.lang()), nl=False)
    if public_url:
        typer.echo(
            _("Invite links and QR codes use %(url)s (--public-url).") % {"url": f"{public_url}/"}
        )
    where = {"db": _safe(db), "redis": _safe(redis)}
    if redis:
        said = words.counted(
            workers,
            "Database: %(db)s, fan-out: %(redis)s, %(n)s process. Stop with Ctrl+C.",
            "Database: %(db)s, fan-out: %(redis)s, %(n)s processes. Stop with Ctrl+C.",
            **where,
        )
    else:
        said = _("Database: %(db)s. Stop with Ctrl+C.") % where
    typer.echo(said)


def _safe(url: str) -> str:
    """The URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        cred, hostpart = rest.rsplit("@", 1)
        return f"{scheme}://{cred.split(':', 1)[0]}@{hostpart}"
    return url
