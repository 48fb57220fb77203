"""The storage layer: the repository of tables, seats, actions and score sheets
(``repository.py``: ``Store``, SQLAlchemy Core on SQLite or PostgreSQL, Alembic migrations),
its async face for the event loop (``aio.py``) and the schema (``models.py``). Only the services
and the app call it; a route never does."""
