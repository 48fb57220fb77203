"""Private tables: seats opened to the public by the host, the last activity of a table (unused
tables expire).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seats.public`` (false: the lobby never shows the seat) and
    ``game_tables.last_active`` (from ``created_at`` for the tables there are)."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("last_active", sa.DateTime(), nullable=True))
    op.execute("UPDATE game_tables SET last_active = created_at")


def downgrade() -> None:
    """Drop the two columns."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("last_active")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("public")
