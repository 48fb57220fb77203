"""The browser front end: ``pfeffer serve`` (FastAPI, WebSockets, SQLAlchemy, Alembic, Babel).

In layers, each importing only those below it (``pyproject.toml`` ``[tool.importlinter]``,
checked by ``lint-imports``; docs/web.md, "Server layers"): :mod:`.app` puts them together,
:mod:`.routes` speak HTTP and WebSocket, :mod:`.middleware` limits, checks and heads every
request, :mod:`.services` hold the tables, seats, sheets, hints, reviews, bots and the sync
between processes, :mod:`.adapters` are the only place that touches an engine, :mod:`.storage`
persists tables, actions and sheets; :mod:`.i18n` holds the German, Czech and English
catalogues.
"""
