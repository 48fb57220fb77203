"""The puzzle trainer as the routes call it (issue 23): the requests of ``/api/train/*`` off the
event loop, with the puzzles' ratings pooled over every player's results and Pepper's house
rules made in the background.

- **Pooled ratings**: every answer is stored as an attempt and moves the puzzle's Glicko-2
  rating in the database (``storage/puzzle_ratings.py``: a row per puzzle, locked in the
  transaction that stores the attempt), the puzzle playing the player; the player's own
  update plays the puzzle's pooled rating, and the pick and the page go by the pooled ratings
  (a puzzle nobody tried is at its difficulty estimate). The player's progress stays in the
  browser (``services/trainer.py``).
- **House rules being made**: ``next`` answers ``{"preparing": true, "puzzles": []}`` while a
  Pepper house rule's puzzles are made (the page says so and asks again); an answer to one of
  them waits for them (a process that has not made them yet, of several).
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from pfeffer.core.glicko2 import Rating
from pfeffer.core.trainer import puzzle_update
from pfeffer.web.adapters import puzzles as adapter
from pfeffer.web.services import trainer
from pfeffer.web.storage.aio import AsyncStore
from pfeffer.web.storage.puzzle_ratings import PuzzleRatings

Moved = tuple[Rating, Rating]
#: How long an answer waits for its rules' puzzles to be made (seconds).
WAIT = 300.0


class Trainer:
    """The trainer's service over the app's store."""

    def __init__(self, db: AsyncStore, ratings: PuzzleRatings) -> None:
        self.db = db
        self.ratings = ratings

    def close(self) -> None:
        """Stop the background work (the app is shutting down)."""
        adapter.stop()

    async def pooled(self, game: str, rules: str) -> dict[str, Rating]:
        """The pooled ratings of the puzzles of ``game`` under ``rules`` that somebody tried."""
        return await self.db.run(self.ratings.ratings, game, rules)

    async def next(
        self,
        game: str,
        progress: Mapping[str, Any] | None,
        *,
        lang: str,
        theme: str | None,
        count: int,
        exclude: Sequence[str],
        rules: str,
    ) -> dict[str, Any]:
        """The next puzzles (:func:`trainer.next_puzzles`), or ``preparing`` while the rules'
        puzzles are being made. BadProgress; KeyError for an unknown theme or rules."""
        out: dict[str, Any] = {"game": game, "rules": rules}
        if not await asyncio.to_thread(adapter.prepare, game, rules):
            return {**out, "preparing": True, "puzzles": []}
        pooled = await self.pooled(game, rules)
        found = await asyncio.to_thread(
            trainer.next_puzzles, game, progress, lang=lang, theme=theme, count=count,
            exclude=exclude, rules=rules, pooled=pooled,
        )  # fmt: skip
        return {**out, "puzzles": found}

    async def answer(
        self,
        game: str,
        puzzle_id: str,
        given: str,
        progress: Mapping[str, Any] | None,
        *,
        lang: str,
        rules: str,
    ) -> dict[str, Any]:
        """An answer checked (:func:`trainer.answer`), the attempt stored and the puzzle's
        pooled rating moved. NoSuchPuzzle, BadProgress, the engine's action errors."""
        try:
            if not await asyncio.to_thread(adapter.prepare, game, rules):
                await asyncio.to_thread(adapter.wait, game, rules, WAIT)
            # a dice preset's puzzles, made when first asked: in a thread of their own, not
            # in the store's (one thread on SQLite)
            await asyncio.to_thread(adapter.puzzles, game, rules)
        except (KeyError, TimeoutError):
            raise trainer.NoSuchPuzzle(puzzle_id) from None

        def pool(puzzle: str, start: Rating, correct: bool, player: Rating) -> Moved:
            def move(r: Rating) -> Rating:
                return puzzle_update(r, player, correct)

            return self.ratings.record((game, rules, puzzle), start, correct, player, move)

        return await self.db.run(
            trainer.answer, game, puzzle_id, given, progress, lang=lang, rules=rules, pool=pool
        )

    async def daily(self, game: str, day: datetime.date, *, lang: str) -> dict[str, Any]:
        """The day's puzzle (:func:`trainer.daily`), at its pooled rating."""
        pooled = await self.pooled(game, "")
        return await asyncio.to_thread(trainer.daily, game, day, lang=lang, pooled=pooled)
