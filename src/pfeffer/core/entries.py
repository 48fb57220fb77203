"""What a score sheet's entry would do, asked before it is entered: the front ends ask the
players to confirm an entry that ends the game or looks like a typo, so that a slip of the
finger never declares a winner (an ended sheet can still be undone)."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class EntryCheck:
    """The consequences of one sheet entry that the players should confirm.

    >>> EntryCheck().needs_confirmation, EntryCheck(ends_game=True).needs_confirmation
    (False, True)
    """

    #: The entry ends the game: the sheet declares its winners.
    ends_game: bool = False
    #: The entry's player reaches the target with it (in the dice game: the final round starts).
    reaches_target: bool = False
    #: More points than one turn makes once in 100,000 turns (``unusual_turn``): likely a typo.
    unusual: bool = False
    #: The points of the entry (dice: the turn's points; 0 for a bust or a Pepper hand).
    points: int = 0
    #: The player's (or side's) total after the entry.
    total: int = 0
    #: The winners' names if the entry ends the game, and their total.
    winners: tuple[str, ...] = ()
    winners_total: int = 0

    @property
    def needs_confirmation(self) -> bool:
        """True if a front end should ask before entering it."""
        return self.ends_game or self.reaches_target or self.unusual

    def to_dict(self) -> dict[str, object]:
        """The check as JSON data (the web's answer)."""
        return {**dataclasses.asdict(self), "winners": list(self.winners),
                "needs_confirmation": self.needs_confirmation}  # fmt: skip
