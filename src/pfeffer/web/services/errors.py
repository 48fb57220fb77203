"""What the table service refuses besides the engine's own errors (both are ``ActionError``s or
translatable errors, so the routes answer them in the page's language)."""

from __future__ import annotations

from pfeffer.core.errors import IllegalAction, TranslatableError


class TableMoved(IllegalAction):
    """Another process took the table's next version first; this action was not applied (the
    table is read again, and the client gets the current state: WebSocket code ``stale``)."""


class StorageUnavailable(TranslatableError):
    """The database did not answer: nothing was applied (WebSocket code ``unavailable``)."""


def moved() -> TableMoved:
    """The refusal of an action that lost the race for the table's next version."""
    return TableMoved.format("The table changed meanwhile; please try again.")


def unavailable() -> StorageUnavailable:
    """The refusal of anything that needs the database while it is away."""
    return StorageUnavailable.format(
        "The server cannot reach its database just now; nothing was changed. "
        "Please try again in a moment."
    )
