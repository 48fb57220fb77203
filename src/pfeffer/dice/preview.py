"""What each way of setting dice aside leads to, so a front end can offer "Roll 3 dice" or
"Bank 700" while the player is still choosing dice, without knowing a rule.

The engine answers: for each keep the engine lists, :meth:`DiceGame.keep_outcome` says what
applying it would leave (the turn total, how many dice are thrown next, whether all six scored,
whether the turn may be banked then), the same as a copy of the game applying it says
(``tests/dice/test_log_stats.py`` checks that on random positions), without copying the game.

>>> from pfeffer.dice import DiceGame
>>> g = DiceGame(["Anna", "Ben"], seed=1)
>>> g.roll([1, 5, 5, 5, 3, 3])
(1, 5, 5, 5, 3, 3)
>>> for p in keep_previews(g)[:3]:
...     print(p)
KeepPreview(action='keep 1555', turn_total=600, dice_to_roll=2, hot_dice=False, can_bank=True)
KeepPreview(action='keep 555', turn_total=500, dice_to_roll=3, hot_dice=False, can_bank=True)
KeepPreview(action='keep 155', turn_total=200, dice_to_roll=3, hot_dice=False, can_bank=False)
>>> g.actions  # the game itself has not moved
['roll 155533']
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pfeffer.dice.game import DiceGame


@dataclasses.dataclass(frozen=True, slots=True)
class KeepPreview:
    """The turn right after ``action`` (a ``keep …`` the engine offers now)."""

    action: str
    turn_total: int
    dice_to_roll: int
    hot_dice: bool
    can_bank: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON data (the fields)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


def keep_previews(game: DiceGame) -> tuple[KeepPreview, ...]:
    """One preview per keep option of the throw on the table (none outside that phase), in the
    order of :meth:`~pfeffer.dice.game.DiceGame.keep_choices`."""
    return tuple(
        KeepPreview(option.action, *game.keep_outcome(option)) for option in game.keep_choices()
    )
