"""Hints at a table: the host decides whether its players may ask the advisor (a table setting,
not a house rule: it changes nothing in the game).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-14
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``game_tables.hints`` (false for the tables there are: they were made without)."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(
            sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("hints")
