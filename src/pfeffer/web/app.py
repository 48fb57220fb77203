"""The web app: ``create_app`` puts the layers together (docs/web.md, "Server layers").

- ``routes/``: one FastAPI router per area (``tables``: the JSON API, ``sheets``, ``pages``,
  ``ws``: live play, ``device``, ``strategy``, ``pwa``, ``ops``) and ``deps`` (what they share);
- ``middleware/``: ``limits`` (rate limits), ``csrf`` (form tokens), ``body`` (the API's bodies:
  JSON, of a small size), ``security`` (the headers, CSP, of every response); ``render``:
  pages and errors; ``observability``: metrics, logs, readiness; ``schemas/``: the shapes of
  the REST bodies and answers and of the WebSocket messages;
- ``services/``: the live tables (``tables.Hub``: create, claim, links, rematch, act under a
  lock, commit, broadcast, expire), the ``Lobby``, the ``Sheets``, the computer players
  (``bots``: off the event loop), the sync between processes, free of requests;
- ``adapters/``: the only place that touches a rules engine; ``storage/``: the database.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import os
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from pfeffer.web.middleware.body import JsonBodies
from pfeffer.web.middleware.csrf import CsrfProtect
from pfeffer.web.middleware.limits import Limits, RateLimits
from pfeffer.web.middleware.origin import OriginCheck
from pfeffer.web.middleware.security import SecurityHeaders
from pfeffer.web.observability import (
    LoopWatch,
    Metrics,
    Observe,
    configure_logging,
    database_check,
    instrument_store,
    redact_tokens,
    redis_check,
)
from pfeffer.web.render import http_error, lang_of
from pfeffer.web.routes import device, ops, pages, pwa, sheets, strategy, tables, train, ws
from pfeffer.web.routes.deps import TABLE_TTL, Settings, invalid_request
from pfeffer.web.services.bus import Bus, LocalBus
from pfeffer.web.services.chat import Chat
from pfeffer.web.services.lobby import Lobby
from pfeffer.web.services.ratelimit import Limiter
from pfeffer.web.services.sheets import Sheets
from pfeffer.web.services.tables import Hub
from pfeffer.web.services.training import Trainer
from pfeffer.web.site import LocalOnly, Site
from pfeffer.web.storage.aio import AsyncStore
from pfeffer.web.storage.puzzle_ratings import PuzzleRatings
from pfeffer.web.storage.repository import Store, make_engine, migrate

HERE = Path(__file__).resolve().parent


def create_app(
    db_url: str,
    bot_delay: float = 0.8,
    *,
    table_ttl: dt.timedelta = TABLE_TTL,
    lan_url: str | None = None,
    limits: Limits | None = None,
    redis_url: str | None = None,
    bus: Bus | None = None,
    freeze_heap: bool = False,
    allow_seed: bool | None = None,
    site: Site | None = None,
    computer_tables: bool | None = None,
) -> FastAPI:
    """The web app on the database at ``db_url`` (migrated on start); running tables unused
    for ``table_ttl`` expire. ``lan_url`` (``http://192.168.1.5:8000``) is the address phones
    on the network use: the host page's links and QR codes use it when the host opened the
    page as localhost. ``limits``: the rate limits (``web/middleware/limits.py``; default
    ``Limits()``). ``redis_url``: this process is one of several serving the same tables (on
    PostgreSQL), joined through Redis (docs/web.md, "Several processes"); ``bus`` instead gives the
    fan-out itself (tests). ``freeze_heap``: once started, the process's objects so far (modules,
    the engines' tables) are left out of the garbage collector's rounds (:func:`settle_heap`;
    ``pfeffer serve`` does so, tests that start many apps in one process do not).
    ``allow_seed``: ``POST /api/tables`` takes a ``"seed"`` for the game (tests only, so that a
    browser test knows its first throw; refused with 400 otherwise: a player who chose the seed
    would know every throw); None: only where the environment has ``PFEFFER_TEST_ALLOW_SEED=1``
    (the test suite's server processes), never in production. ``site``: where the server is
    served (``web/site.py``: its addresses, public URL, other sites allowed to open its
    WebSockets; ``pfeffer serve`` says); None: not known, the request's ``Host`` is believed
    and ``lan_url`` replaces localhost in links. ``computer_tables``: tables
    whose seats are all computer players are taken (tests that watch whole games; refused
    otherwise: each plays to nobody at full speed, issue 20 §1.7); None: only where the
    environment has ``PFEFFER_TEST_COMPUTER_TABLES=1``."""
    if allow_seed is None:
        allow_seed = os.environ.get(ALLOW_SEED_ENV) == "1"
    if computer_tables is None:
        computer_tables = os.environ.get(COMPUTER_TABLES_ENV) == "1"
    redact_tokens()  # no log line of this process holds a seat or host token
    engine = make_engine(db_url)
    migrate(engine)
    store = Store(engine)
    metrics = Metrics()  # /metrics (web/observability.py)
    instrument_store(store, metrics)
    db = AsyncStore(store)
    limits = limits or Limits()
    # One counter of every rate limit (web/services/ratelimit.py): the HTTP requests and
    # joins of the middleware and the chat; on Redis when the processes share one.
    limiter = Limiter(redis_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        chat = Chat(limiter, limits.chat if limits.enabled else None)
        hub = Hub(db, bot_delay, bus if bus is not None else make_bus(redis_url), chat=chat)
        hub.computer_tables = computer_tables
        app.state.hub = hub
        await db.expire_tables(table_ttl)
        await hub.start()
        if freeze_heap:
            settle_heap()
        watch = LoopWatch(metrics)
        watch.start()
        yield
        await watch.stop()
        await hub.stop()
        await limiter.aclose()
        app.state.trainer.close()
        db.close()
        engine.dispose()

    app = FastAPI(title="Pfeffer", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.store = store  # the store as such (tests, scripts)
    app.state.db = db  # the same, off the event loop (the services)
    app.state.metrics = metrics
    app.state.limiter = limiter
    # /readyz: (name, async check) pairs: the database, and Redis when processes share it.
    app.state.readiness = [("database", database_check(engine))]
    if redis_url:
        app.state.readiness.append(("redis", redis_check(redis_url)))
    app.state.lobby = Lobby(db)  # what the pages and the API read about tables
    app.state.sheets = Sheets(db)
    app.state.trainer = Trainer(db, PuzzleRatings(engine))  # the puzzle trainer (issue 23)
    site = site if site is not None else Site(lan_url=lan_url)
    app.state.settings = Settings(table_ttl=table_ttl, site=site, allow_seed=allow_seed)
    app.add_middleware(JsonBodies)  # /api/ bodies: JSON, 64 KiB at most (middleware/body.py)
    app.add_middleware(CsrfProtect)  # form posts carry the page's token (web/middleware/csrf.py)
    app.add_middleware(RateLimits, limits=limits, limiter=limiter)
    app.add_middleware(OriginCheck, site=site)  # before any count: other sites' WebSockets
    app.add_middleware(Observe, metrics=metrics)  # metrics and logs, refusals included
    app.add_middleware(SecurityHeaders)  # the outermost: refusals get the headers too
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid_request)  # 400 naming the field
    for router in (
        tables.router,
        sheets.router,
        ws.router,
        pages.router,
        device.router,
        ops.router,
    ):
        app.include_router(router)
    app.include_router(strategy.router)  # tablehints: the dice strategy page
    app.include_router(train.router)  # the puzzle trainer (issue 23)
    app.include_router(pwa.router(lang_of))  # the sheets as an app: /sw.js, /sheets.webmanifest
    return app


def make_bus(redis_url: str | None) -> Bus:
    """The fan-out for ``pfeffer serve``: Redis when a URL is given, else inside this process."""
    if not redis_url:
        return LocalBus()
    from pfeffer.web.services.redisbus import RedisBus  # redis is imported only when used

    return RedisBus(redis_url)


GC_YOUNG = 20_000
"""New container objects between two collections of the youngest generation (Python's default
is 700). A move makes thousands (a frame's view, the tasks and messages around it), nearly all
freed by their count at once; collecting every 700 walked the few alive then again and again
and moved them on to the older generations, whose rounds walk every table's game."""


def settle_heap() -> None:
    """Collect once, then freeze what is left (``gc.freeze``): the objects of a started server
    (its modules, the engines' lookup tables, about 150,000) stay for the life of the process,
    and without this every full collection walks them again, standing the event loop still
    for tens of milliseconds each time (a p99 of the moves). Frozen objects are still freed
    when nothing refers to them; only a cycle among them would stay. Then the youngest
    generation is collected less often (:data:`GC_YOUNG`)."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, older, oldest)


ENV_PREFIX = "PFEFFER_SERVE_"
ALLOW_SEED_ENV = "PFEFFER_TEST_ALLOW_SEED"  # tests only: POST /api/tables takes a seed
COMPUTER_TABLES_ENV = "PFEFFER_TEST_COMPUTER_TABLES"  # tests only: computer players alone


def app_from_env() -> FastAPI:
    """The app as ``pfeffer serve --workers N`` starts it in each worker process (uvicorn's
    factory): the options travel in ``PFEFFER_SERVE_*`` environment variables."""
    env = os.environ
    configure_logging(env.get(ENV_PREFIX + "LOG_FORMAT", "text"))  # a fresh process each
    options = [o for o in env.get(ENV_PREFIX + "LIMITS", "").split("\n") if o]
    hosts = tuple(h for h in env.get(ENV_PREFIX + "HOSTS", "").split("\n") if h)
    origins = frozenset(o for o in env.get(ENV_PREFIX + "ALLOWED_ORIGINS", "").split("\n") if o)
    site = Site(
        hosts=hosts or None,
        lan_url=env.get(ENV_PREFIX + "LAN_URL") or None,
        public_url=env.get(ENV_PREFIX + "PUBLIC_URL") or None,
        origins=origins,
        local_only=LocalOnly.from_env(env.get(ENV_PREFIX + "LOCAL_ONLY", "")),
    )
    return create_app(
        env[ENV_PREFIX + "DB"],
        bot_delay=float(env.get(ENV_PREFIX + "BOT_DELAY", "0.8")),
        redis_url=env.get(ENV_PREFIX + "REDIS") or None,
        limits=Limits().with_options(options),
        freeze_heap=True,
        site=site,
    )
