"""The one interface every computer player implements, for both games and every front end, and
the registry of each game's computer players (kinds, levels, factories)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import Generic, Protocol, TypeVar

ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
ViewT = TypeVar("ViewT")


class Bot(Protocol[ViewT_contra]):
    """A computer player.

    It sees only what its seat may see (``view``) and the actions it may take now, and answers with
    one of those action strings. Front ends, benchmarks and the web server call nothing else.
    """

    name: str

    def choose(self, view: ViewT_contra, legal_actions: Sequence[str]) -> str:
        """Pick one action from ``legal_actions`` (never anything else)."""
        ...


@dataclasses.dataclass(frozen=True, slots=True)
class BotKind(Generic[ViewT]):
    """One kind of computer player of a game: its key (``"heuristic"``), display name
    (``"Heuristic"``, also the default seat name), a one-line description, the strength
    levels it offers (the first is the default) and the factory that makes one."""

    key: str
    label: str
    description: str
    levels: tuple[str, ...]
    #: ``factory(name=..., seed=..., level=...)`` makes one bot.
    factory: Callable[..., Bot[ViewT]]


class UnknownBot(ValueError):
    """A bot kind or level that the game's registry does not have."""


class BotRegistry(Generic[ViewT]):
    """The computer players of one game, by key; the terminal, the web server and the
    benchmarks all make their bots here.

    >>> from pfeffer.dice.bots import DICE_BOTS
    >>> DICE_BOTS.keys(), DICE_BOTS.default
    (('heuristic', 'random', 'optimal'), 'heuristic')
    >>> bot = DICE_BOTS.create("random", name="Rudi", seed=3)
    >>> bot.name
    'Rudi'
    >>> DICE_BOTS.create("genius")
    Traceback (most recent call last):
    ...
    pfeffer.core.bots.UnknownBot: no computer player 'genius' (choose from heuristic, ...)
    """

    def __init__(self, game: str, kinds: Sequence[BotKind[ViewT]]) -> None:
        self.game = game
        self._kinds = {k.key: k for k in kinds}
        self.default = kinds[0].key

    def keys(self) -> tuple[str, ...]:
        """The bot kinds' keys, the default first."""
        return tuple(self._kinds)

    def __iter__(self) -> Iterator[BotKind[ViewT]]:
        return iter(self._kinds.values())

    def __contains__(self, key: object) -> bool:
        return key in self._kinds

    def kind(self, key: str) -> BotKind[ViewT]:
        """The kind ``key``; :class:`UnknownBot` if there is none."""
        try:
            return self._kinds[key]
        except KeyError:
            raise UnknownBot(
                f"no computer player {key!r} (choose from {', '.join(self._kinds)})"
            ) from None

    def create(
        self,
        key: str | None = None,
        *,
        name: str | None = None,
        seed: int | None = None,
        level: str | None = None,
    ) -> Bot[ViewT]:
        """A new bot of kind ``key`` (the default kind if None), named ``name`` (the kind's
        label if None), seeded with ``seed`` where it draws at random, at ``level``."""
        kind = self.kind(self.default if key is None else key)
        if level is None:
            level = kind.levels[0]
        elif level not in kind.levels:
            raise UnknownBot(
                f"{kind.key} has no level {level!r} (choose from {', '.join(kind.levels)})"
            )
        return kind.factory(name=kind.label if name is None else name, seed=seed, level=level)
