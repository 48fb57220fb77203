"""The one interface every computer player implements, for both games and every front end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

ViewT_contra = TypeVar("ViewT_contra", contravariant=True)


class Bot(Protocol[ViewT_contra]):
    """A computer player.

    It sees only what its seat may see (``view``) and the actions it may take now, and answers with
    one of those action strings. Front ends, benchmarks and the web server call nothing else.
    """

    name: str

    def choose(self, view: ViewT_contra, legal_actions: Sequence[str]) -> str:
        """Pick one action from ``legal_actions`` (never anything else)."""
        ...
