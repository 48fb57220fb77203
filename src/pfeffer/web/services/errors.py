"""What the table service refuses besides the engine's own errors (both are ``ActionError``s or
translatable errors, so the routes answer them in the page's language)."""

from __future__ import annotations

from pfeffer.core.errors import IllegalAction, TranslatableError


class TableMoved(IllegalAction):
    """Another process took the table's next version first; this action was not applied (the
    table is read again, and the client gets the current state: WebSocket code ``stale``)."""


class StorageUnavailable(TranslatableError):
    """The database did not answer: nothing was applied (WebSocket code ``unavailable``)."""


class SeatRevoked(TranslatableError):
    """The link a connection was opened with is no longer its seat's (the host revoked it,
    maybe on another process): nothing was applied, and the connection is closed (WebSocket
    code ``bad_token``)."""


def revoked() -> SeatRevoked:
    """The refusal of anything sent with a seat link the host has revoked, and what a window
    opened with it is told when it closes (issue 22 §2): why its buttons are gone and what to
    do, not "your turn" with buttons that do nothing."""
    return SeatRevoked.format(
        "The host replaced the link to this seat: this page no longer plays it. "
        "Ask the host for the new link."
    )


def moved() -> TableMoved:
    """The refusal of an action that lost the race for the table's next version."""
    return TableMoved.format("The table changed meanwhile; please try again.")


def unavailable() -> StorageUnavailable:
    """The refusal of anything that needs the database while it is away."""
    return StorageUnavailable.format(
        "The server cannot reach its database just now; nothing was changed. "
        "Please try again in a moment."
    )


# What the services refuse to a request; the routes choose the answer (status and text).


class NoSuchTable(LookupError):
    """There is no such table (or it is not one the asker may see)."""


class NoSuchSeat(LookupError):
    """There is no such human seat at the table."""


class NotAllowed(PermissionError):
    """The asker may not do this (a seat that is not public, someone who is not a player)."""


class SeatTaken(Exception):
    """The public seat was claimed by someone else first."""


class NotFinished(Exception):
    """The game is still running (a rematch, a record, a replay or a review needs it over)."""
