"""The trainer's puzzles rated by everyone's results (issue 23): every answer as an attempt and
each puzzle's pooled Glicko-2 rating.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``puzzle_ratings`` (one row per puzzle tried) and ``puzzle_attempts``."""
    op.create_table(
        "puzzle_ratings",
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("rules", sa.String(40), primary_key=True),
        sa.Column("puzzle", sa.String(40), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("vol", sa.Float(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(40), nullable=False),
        sa.Column("puzzle", sa.String(40), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("player_rating", sa.Float(), nullable=False),
        sa.Column("player_rd", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_puzzle_attempts_created_at", "puzzle_attempts", ["created_at"])


def downgrade() -> None:
    """Drop both tables."""
    op.drop_index("ix_puzzle_attempts_created_at", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
