"""The trainer's puzzles rated by everyone's results (issue 23): each answer stored as an attempt
and the puzzle's pooled Glicko-2 rating moved in the same transaction.

The rating is kept in a row per puzzle (``puzzle_ratings``), not worked out from the attempts
at each read: reading a puzzle's rating is one primary-key lookup, and an answer is one short
transaction however many attempts there are. Race-safe across server processes: the row is
made if it is missing (``INSERT … ON CONFLICT DO NOTHING``, from the puzzle's difficulty
estimate) and then read locked (``SELECT … FOR UPDATE`` on PostgreSQL; on SQLite the insert
has already taken the database's one write lock), so two answers to the same puzzle at the
same moment move it one after the other, each from the other's result. The attempts
(``puzzle_attempts``) are the record behind it: the ratings can be worked out again from
them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Engine, case, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import sessionmaker

from pfeffer.core.glicko2 import Rating
from pfeffer.web.storage.models import PuzzleAttemptRow, PuzzleRatingRow, utcnow

#: At most this many ids are read in one query (an ``IN`` list).
CHUNK = 500


class PuzzleRatings:
    """The pooled ratings of the trainer's puzzles over one engine (each method one committed
    transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._session = sessionmaker(engine, expire_on_commit=False)

    def _insert(self) -> Any:
        if self.engine.dialect.name == "postgresql":
            return postgresql.insert(PuzzleRatingRow)
        return sqlite.insert(PuzzleRatingRow)

    def record(
        self,
        key: tuple[str, str, str],
        start: Rating,
        correct: bool,
        player: Rating,
        move: Callable[[Rating], Rating],
    ) -> tuple[Rating, Rating]:
        """Store an attempt at the puzzle ``key`` (game, rules key, id) by a player rated
        ``player``, and move the puzzle's pooled rating (``start`` if nobody tried it yet) by
        ``move``; the puzzle's rating before and after. One transaction, the row locked."""
        game, rules, puzzle = key
        now = utcnow()
        where = (
            (PuzzleRatingRow.game == game)
            & (PuzzleRatingRow.rules == rules)
            & (PuzzleRatingRow.puzzle == puzzle)
        )
        with self._session() as db, db.begin():
            db.execute(
                self._insert()
                .values(
                    game=game,
                    rules=rules,
                    puzzle=puzzle,
                    rating=start.rating,
                    rd=start.rd,
                    vol=start.vol,
                    tries=0,
                    solved=0,
                    updated_at=now,
                )
                .on_conflict_do_nothing()
            )
            row = db.execute(
                select(PuzzleRatingRow.rating, PuzzleRatingRow.rd, PuzzleRatingRow.vol)
                .where(where)
                .with_for_update()
            ).one()
            before = Rating(row.rating, row.rd, row.vol)
            after = move(before)
            db.execute(
                update(PuzzleRatingRow)
                .where(where)
                .values(
                    rating=after.rating,
                    rd=after.rd,
                    vol=after.vol,
                    tries=PuzzleRatingRow.tries + 1,
                    solved=PuzzleRatingRow.solved + int(correct),
                    updated_at=now,
                )
            )
            db.add(
                PuzzleAttemptRow(
                    game=game,
                    rules=rules,
                    puzzle=puzzle,
                    correct=correct,
                    player_rating=player.rating,
                    player_rd=player.rd,
                    created_at=now,
                )
            )
        return before, after

    def ratings(self, game: str, rules: str, ids: Iterable[str] | None = None) -> dict[str, Rating]:
        """The pooled ratings of ``game``'s puzzles under ``rules`` that somebody tried (of
        ``ids`` only, if given)."""
        cols = (PuzzleRatingRow.puzzle, PuzzleRatingRow.rating, PuzzleRatingRow.rd,
                PuzzleRatingRow.vol)  # fmt: skip
        base = select(*cols).where(PuzzleRatingRow.game == game, PuzzleRatingRow.rules == rules)
        wanted = None if ids is None else sorted(set(ids))
        queries = (
            [base]
            if wanted is None
            else [
                base.where(PuzzleRatingRow.puzzle.in_(wanted[i : i + CHUNK]))
                for i in range(0, len(wanted), CHUNK)
            ]
        )
        out: dict[str, Rating] = {}
        with self._session() as db:
            for q in queries:
                for r in db.execute(q):
                    out[r.puzzle] = Rating(r.rating, r.rd, r.vol)
        return out

    def attempts(self, game: str, rules: str, puzzle: str) -> tuple[int, int]:
        """How many attempts at the puzzle are stored, and how many of them right."""
        query = select(
            func.count(), func.coalesce(func.sum(case((PuzzleAttemptRow.correct, 1), else_=0)), 0)
        ).where(
            PuzzleAttemptRow.game == game,
            PuzzleAttemptRow.rules == rules,
            PuzzleAttemptRow.puzzle == puzzle,
        )
        with self._session() as db:
            row = db.execute(query).one()
        return int(row[0]), int(row[1])
