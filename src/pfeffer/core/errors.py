"""Exceptions that are part of the public API of both games."""


class IllegalAction(ValueError):
    """An action that the rules do not allow now, or input that is not an action at all.

    The message is written for a player ("You must set aside at least one scoring die").
    Raising it never changes the game: the state is exactly as it was before the call.
    """


class RecordError(ValueError):
    """A game record that cannot be read: wrong format or version, or actions that do not replay."""
