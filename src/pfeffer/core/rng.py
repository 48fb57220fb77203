"""A counter-based chance stream: outcome number ``k`` of a game depends only on ``(seed, k)``.

Because no generator state is carried along, a game replayed from its record (where every chance
outcome is written out) ends in exactly the same state as the original, including what the next
random throw or deal will be. The mixer is SplitMix64 (Steele, Lea, Flood 2014), a bijective 64-bit
hash with good avalanche; it is small and fast enough to call once per throw of the dice.

>>> s = ChanceStream(7)
>>> s.below(0, 6) == ChanceStream(7).below(0, 6)
True
>>> a, b = ChanceStream(7), ChanceStream(8)
>>> [a.below(k, 6) for k in range(8)] != [b.below(k, 6) for k in range(8)]
True
"""

from __future__ import annotations

import random
import secrets
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix64(x: int) -> int:
    x = (x + _GOLDEN) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def new_seed() -> int:
    """A fresh non-negative seed for a game that was not given one (it is stored in the record)."""
    return secrets.randbits(63)


class ChanceStream:
    """Independent 64-bit draws numbered 0, 1, 2, … derived from one integer seed."""

    __slots__ = ("_key", "seed")

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError("seed must be an int")
        self.seed = seed
        self._key = _mix64(_mix64(seed & _MASK) ^ (seed >> 64 & _MASK))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChanceStream) and other.seed == self.seed

    def __hash__(self) -> int:
        return hash(("ChanceStream", self.seed))

    def __repr__(self) -> str:
        return "ChanceStream(<seed hidden>)"

    def bits(self, k: int) -> int:
        """The 64-bit draw number ``k``."""
        return _mix64(self._key ^ ((k * _GOLDEN) & _MASK))

    def below(self, k: int, n: int) -> int:
        """Draw ``k`` reduced to ``range(n)``; the modulo bias is below n / 2**64."""
        return self.bits(k) % n

    def shuffle(self, block: int, items: list[T]) -> list[T]:
        """Shuffle ``items`` in place with draws of ``block`` (a portable Fisher-Yates); return it.

        Swap ``i`` (from the last position down to 1) uses draw ``block * 2**16 + i`` reduced to
        ``range(i + 1)``: plain 64-bit integer arithmetic, so a compiled kernel or another language
        reproduces shuffle ``block`` of a seed exactly (unlike :func:`random.shuffle`). Shuffles of
        fewer than 65,536 items in different blocks never share a draw.

        >>> s = ChanceStream(7)
        >>> s.shuffle(0, list(range(6))) == s.shuffle(0, list(range(6)))
        True
        >>> sorted(s.shuffle(3, list("abcdef")))
        ['a', 'b', 'c', 'd', 'e', 'f']
        """
        base = block << 16
        for i in range(len(items) - 1, 0, -1):
            j = self.bits(base + i) % (i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def random(self, k: int) -> random.Random:
        """A :class:`random.Random` seeded from draw ``k``, for shuffles and other longer draws."""
        return random.Random(self.bits(k))
