"""What is new in a game's log since the screen last looked: the terminal tells what happened
from the engines' log events (:mod:`pfeffer.dice.log`, :mod:`pfeffer.pepper.log`), never by
comparing the game's state before and after an action.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Generic, TypeVar

E = TypeVar("E")


@dataclasses.dataclass(frozen=True, slots=True)
class News(Generic[E]):
    """What :meth:`LogReader.read` found: the ``fresh`` events, the log's tail from ``start``,
    and the events told before that the log no longer holds (``withdrawn``)."""

    start: int
    fresh: list[E]
    withdrawn: list[E]


class LogReader(Generic[E]):
    """Remembers the log as it was last read (``told``).

    A log usually grows at its end. It can also lose its tail (a void throw takes a bust back)
    or fold a finished part into a summary (Pepper's hand on the table becomes one ``hand``
    line at the next deal): the summary was told already, so it is not fresh again.

    >>> r = LogReader(["a"])
    >>> r.read(["a", "b", "c"])
    News(start=1, fresh=['b', 'c'], withdrawn=[])
    >>> r.read(["a", "c", "d"])  # "b" and "c" folded into "c", which was told before
    News(start=2, fresh=['d'], withdrawn=['b'])
    >>> r.read(["a", "c"])
    News(start=2, fresh=[], withdrawn=['d'])
    """

    def __init__(self, told: Sequence[E] = ()) -> None:
        self.told: list[E] = list(told)

    def read(self, log: Sequence[E]) -> News[E]:
        """The news in ``log`` since the last read; ``log`` is then what has been told."""
        start = 0
        for old, new in zip(self.told, log, strict=False):
            if old != new:
                break
            start += 1
        withdrawn = self.told[start:]
        while start < len(log) and log[start] in withdrawn:  # a summary told before
            withdrawn.remove(log[start])
            start += 1
        self.told = list(log)
        return News(start, list(log[start:]), withdrawn)
