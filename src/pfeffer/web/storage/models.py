"""SQLAlchemy 2 models. The schema itself is created and upgraded by the Alembic migrations in
``pfeffer/web/migrations``; these classes must match the latest migration."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> dt.datetime:
    """Now, in UTC (stored without a zone: every time in the database is UTC)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    """Declarative base of every table."""


class TableRow(Base):
    """A game table: which game, its house rules, the seed of its chance and its state."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="running", index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    admin_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    winners: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    scores: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The last action or opened seat link; a running table unused for long expires.
    last_active: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    # The host lets the players ask the advisor (a hint button at the table). Not a house rule:
    # the game is the same either way.
    hints: Mapped[bool] = mapped_column(default=False)


class SeatRow(Base):
    """One seat at a table: a human (reached through an unguessable token) or a computer player."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(16))  # "human" or "bot"
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    claimed: Mapped[bool] = mapped_column(default=False)
    # Opened to the public by the host: the lobby offers it until somebody takes it. A seat
    # that is not public is reached only through the link the host sends.
    public: Mapped[bool] = mapped_column(default=False)


class ActionRow(Base):
    """One accepted action, as the engine writes it in its record (chance written out)."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class SheetRow(Base):
    """A score sheet for real dice or real cards: the engine record of the entered results."""

    __tablename__ = "sheets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    title: Mapped[str] = mapped_column(String(80), default="")
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    # The client ids of every entry the sheet took, in the order it took them (an undo keeps
    # them): an entry sent again with one of these ids is acknowledged, not applied twice.
    entry_ids: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)


class PuzzleRatingRow(Base):
    """A trainer puzzle's rating pooled over every player's results (issue 23): Glicko-2, the
    puzzle as the opponent of each player who tried it. One row per puzzle of a game's rules
    (``rules``: "" for the shipped puzzles of the default rules, else the page's rules key),
    made at the first try from the puzzle's difficulty estimate and moved, row locked, in the
    transaction that stores the try."""

    __tablename__ = "puzzle_ratings"

    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    rules: Mapped[str] = mapped_column(String(40), primary_key=True)
    puzzle: Mapped[str] = mapped_column(String(40), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class PuzzleAttemptRow(Base):
    """One answer to a trainer puzzle: which puzzle (game, rules key, id), right or not, the
    player's rating and deviation at the time, when. Nothing of the player beyond that (no
    name, address or id): the attempts are the record behind the pooled ratings."""

    __tablename__ = "puzzle_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(String(40))
    puzzle: Mapped[str] = mapped_column(String(40))
    correct: Mapped[bool] = mapped_column(Boolean)
    player_rating: Mapped[float] = mapped_column(Float)
    player_rd: Mapped[float] = mapped_column(Float)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)
