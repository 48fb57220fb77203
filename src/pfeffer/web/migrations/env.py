"""Alembic environment: migrations run programmatically on server start (see storage.migrate).

The caller passes an open connection in ``config.attributes["connection"]``; with the plain
``alembic`` command line, ``sqlalchemy.url`` from the config is used instead.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from pfeffer.web.storage.models import Base

target_metadata = Base.metadata


def run() -> None:
    """Run the migrations online, on the given connection (or a new one)."""
    config = context.config
    connection = config.attributes.get("connection")
    if connection is None:
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
        with engine.begin() as conn:
            context.configure(connection=conn, target_metadata=target_metadata)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # only when Alembic runs this file (not when a tool imports it)
    run()
