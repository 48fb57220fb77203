"""Score sheets remember the client ids of the entries they took, so that an entry sent again
(a phone that was offline, a lost answer) is acknowledged and not applied twice.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``sheets.entry_ids`` (a JSON list of ids, NULL for a sheet that has none yet)."""
    with op.batch_alter_table("sheets") as batch:
        batch.add_column(sa.Column("entry_ids", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("sheets") as batch:
        batch.drop_column("entry_ids")
