"""Fixed integer action spaces: one id per action string of the engines, per game and player count.

The engines speak action strings (``"keep 115"``, ``"small"``, ``"JD"``); learning code wants a
fixed range of integers and a boolean mask of the legal ones. An action space is a small immutable
object with ``action_id(str) -> int``, ``action_of(int) -> str``, ``legal_ids`` and ``legal_mask``.

**Dice** (:class:`DiceActionSpace`, the same for every player count, 927 ids)::

    0 pfeffer   1 roll   2 bank   3 void   4 + k: "keep <KEEP_MULTISETS[k]>"

:data:`KEEP_MULTISETS` lists every sorted multiset of 1–6 dice faces (923), by size, then
lexicographically: ``(1,) (2,) … (6,) (1, 1) (1, 2) … (6, 6, 6, 6, 6, 6)``. The same numbering
names the chance outcomes of a throw (sorted faces): :func:`throw_id` / :func:`throw_of`.

**Pepper** (:class:`PepperActionSpace`, per player count; 38 ids with 4 players, 40 with 2–3)::

    0 deal   1 pass   2 … 1+L: the bids of the ladder ("1" … "5"/"7", "small", "big")
    then C D H S NT (5 ids), then the 24 cards in deck order 9C TC JC QC KC AC 9D … AS

The chance outcomes of a deal are the card numbers 0–23 in the same deck order
(:data:`pfeffer.pepper.CARD_STR`).

>>> s = DiceActionSpace()
>>> s.action_id("bank"), s.action_id("keep 115"), s.action_of(4), s.action_of(926)
(2, 35, 'keep 1', 'keep 666666')
>>> p = PepperActionSpace(4)
>>> p.action_id("small"), p.action_id("NT"), p.action_of(14), p.size
(7, 13, '9C', 38)
>>> p.legal_mask(["pass", "1", "2"]).nonzero()[0].tolist()
[1, 2, 3]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from pfeffer.pepper import CARD_STR, bid_ladder

#: Every sorted multiset of 1–6 dice faces, by size then lexicographically (923 of them).
KEEP_MULTISETS: tuple[tuple[int, ...], ...] = tuple(
    ms for k in range(1, 7) for ms in itertools.combinations_with_replacement(range(1, 7), k)
)
_MULTISET_ID = {ms: i for i, ms in enumerate(KEEP_MULTISETS)}
#: Number of distinct throws of 1–6 dice (sorted faces): the dice game's chance outcomes.
NUM_THROWS = len(KEEP_MULTISETS)

DICE_SIMPLE = ("pfeffer", "roll", "bank", "void")
TRUMPS = ("C", "D", "H", "S", "NT")

BoolArray = npt.NDArray[np.bool_]


def throw_id(faces: Iterable[int]) -> int:
    """The id of a throw (any order of faces): its index in :data:`KEEP_MULTISETS`.

    >>> throw_id([5, 1, 1]), throw_of(throw_id([5, 1, 1]))
    (31, (1, 1, 5))
    """
    return _MULTISET_ID[tuple(sorted(faces))]


def throw_of(outcome: int) -> tuple[int, ...]:
    """The sorted faces of throw id ``outcome``."""
    return KEEP_MULTISETS[outcome]


class ActionSpace:
    """A fixed numbering of action strings (the base of the per-game spaces)."""

    __slots__ = ("_ids", "names")

    def __init__(self, names: Iterable[str]) -> None:
        self.names: tuple[str, ...] = tuple(names)
        self._ids = {a: i for i, a in enumerate(self.names)}

    @property
    def size(self) -> int:
        """Number of ids (the length of every legal mask)."""
        return len(self.names)

    def action_id(self, action: str) -> int:
        """The id of an action string; ``ValueError`` if the space has no such action."""
        i = self._ids.get(action)
        if i is None:
            i = self._ids.get(self._normalise(action))
        if i is None:
            raise ValueError(f"{action!r} is not an action of this space")
        return i

    def action_of(self, action_id: int) -> str:
        """The action string of an id; ``ValueError`` if it is out of range."""
        if not 0 <= action_id < len(self.names):
            raise ValueError(f"{action_id} is not an action id (0..{len(self.names) - 1})")
        return self.names[action_id]

    def legal_ids(self, legal: Iterable[str]) -> list[int]:
        """The sorted ids of action strings (e.g. a game's ``legal_actions()``)."""
        ids = self._ids
        return sorted(ids[a] if a in ids else self.action_id(a) for a in legal)

    def legal_mask(self, legal: Iterable[str]) -> BoolArray:
        """A boolean array of length :attr:`size`, True at the ids of ``legal``."""
        mask = np.zeros(len(self.names), dtype=np.bool_)
        mask[self.legal_ids(legal)] = True
        return mask

    def _normalise(self, action: str) -> str:
        return action.strip() if isinstance(action, str) else action

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.size} actions>"


class DiceActionSpace(ActionSpace):
    """The dice game's 927 actions (see the module docstring); ``players`` is accepted for a
    uniform signature and ignored: every player count uses the same space.

    >>> DiceActionSpace().action_id("keep 5 1 1")  # any order and spacing of the faces
    35
    """

    __slots__ = ()

    def __init__(self, players: int | None = None) -> None:
        del players
        keeps = ("keep " + "".join(map(str, ms)) for ms in KEEP_MULTISETS)
        super().__init__((*DICE_SIMPLE, *keeps))

    def _normalise(self, action: str) -> str:
        if not isinstance(action, str):
            return action
        words = action.strip().lower().replace(",", " ").split(None, 1)
        if len(words) == 2 and words[0] == "keep":
            digits = words[1].replace(" ", "")
            if digits.isdigit():
                return "keep " + "".join(sorted(digits))
        return " ".join(words)


class PepperActionSpace(ActionSpace):
    """Pepper's actions for ``players`` (2, 3 or 4): deal, pass, the bid ladder, trumps, cards.

    >>> PepperActionSpace(2).names[:12]
    ('deal', 'pass', '1', '2', '3', '4', '5', '6', '7', 'small', 'big', 'C')
    >>> PepperActionSpace(3).action_id("jd")  # case-insensitive
    24
    """

    __slots__ = ("card_offset", "players", "trump_offset")

    def __init__(self, players: int) -> None:
        if players not in (2, 3, 4):
            raise ValueError(f"Pepper is played by 2, 3 or 4 players, not {players!r}")
        ladder = bid_ladder(players)
        super().__init__(("deal", "pass", *ladder, *TRUMPS, *CARD_STR))
        self.players = players
        self.trump_offset = 2 + len(ladder)
        self.card_offset = self.trump_offset + len(TRUMPS)

    def _normalise(self, action: str) -> str:
        if not isinstance(action, str):
            return action
        t = action.strip()
        return t.upper() if t.upper() in self._ids else t.lower()


def action_space(game: str, players: int) -> ActionSpace:
    """The action space of ``game`` ("dice" or "pepper") for ``players``.

    >>> action_space("pepper", 4).size
    38
    """
    if game == "dice":
        return DiceActionSpace(players)
    if game == "pepper":
        return PepperActionSpace(players)
    raise ValueError(f"unknown game {game!r} (dice or pepper)")
