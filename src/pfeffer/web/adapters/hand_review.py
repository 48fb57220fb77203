"""The engine's side of a finished Pepper hand's review at the live table
(``services/hand_reviews.py`` words it and keeps it): which hands are over and were played, the
sides, and :func:`pfeffer.pepper.analysis.review_hand` (seconds of work: call it in a worker
thread)."""

from __future__ import annotations

import dataclasses

from pfeffer.pepper import PepperGame
from pfeffer.pepper.analysis import HandReview, review_hand
from pfeffer.web.adapters.games import Table

# review_hand(game, hand index, seat) as the engine has it: the service calls it in a worker
# thread with PepperHands.game (tests count its calls there).
__all__ = ["HandReview", "PepperHands", "pepper_hands", "review_hand"]


@dataclasses.dataclass(frozen=True)
class PepperHands:
    """The finished hands of one state of a Pepper game (a snapshot: a live table's game is
    replaced, never changed, when it moves on)."""

    game: PepperGame

    @property
    def players(self) -> int:
        return len(self.game.players)

    @property
    def finished(self) -> int:
        """How many hands are over."""
        return len(self.game.results)

    def played(self, hand: int) -> bool:
        """Whether finished hand ``hand`` (from 1) was bid on (else everybody passed)."""
        return self.game.results[hand - 1].bidder is not None

    def side_of(self, seat: int) -> int:
        return self.game.side_of(seat)


def pepper_hands(table: Table) -> PepperHands | None:
    """The table's Pepper hands; None if it is no Pepper table."""
    game = table.game
    return PepperHands(game) if isinstance(game, PepperGame) else None
