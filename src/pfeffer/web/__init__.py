"""The browser front end: ``pfeffer serve`` (FastAPI, WebSockets, SQLAlchemy, Alembic, Babel).

Layers: :mod:`.games` adapts each engine, :mod:`.storage` persists tables and actions,
:mod:`.server` routes HTTP and WebSocket traffic, :mod:`.sheets` keeps score sheets,
:mod:`.i18n` holds the German, Czech and English catalogues.
"""
