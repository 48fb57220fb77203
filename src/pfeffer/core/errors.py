"""Exceptions that are part of the public API of both games."""

from __future__ import annotations

from typing import Any, Self


class TranslatableError(ValueError):
    """A ValueError whose English message a front end can translate.

    Besides the English message (``str(exc)``) it keeps the message's ``template`` and
    ``params``, so that a front end can translate the template and fill in the same values.
    :meth:`format` builds one from a template with named placeholders:

    >>> exc = IllegalAction.format("You need at least {need} points to bank.", need=350)
    >>> str(exc)
    'You need at least 350 points to bank.'
    >>> exc.template, exc.params
    ('You need at least {need} points to bank.', {'need': 350})
    >>> plain = IllegalAction("There is nothing to undo.")
    >>> plain.template, plain.params
    ('There is nothing to undo.', {})
    """

    template: str
    params: dict[str, Any]

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.template = str(args[0]) if args else ""
        self.params = {}

    @classmethod
    def format(cls, template: str, /, **params: Any) -> Self:
        """The exception whose message is ``template.format(**params)``, keeping both."""
        exc = cls(template.format(**params))
        exc.template = template
        exc.params = params
        return exc


class ActionError(TranslatableError):
    """The base of every refused action: front ends catch this one class.

    Raising it never changes the game: the state is exactly as it was before the call. The
    message is written for a player; its ``template`` and ``params`` come from
    :class:`TranslatableError`. The three kinds:

    - :class:`InvalidAction`: not an action at all (malformed text, ``None``, a list, …);
    - :class:`IllegalAction`: a well-formed action that the rules do not allow now;
    - :class:`NotYourTurn`: an action sent for a seat that is not the one to act.

    >>> issubclass(InvalidAction, ActionError), issubclass(NotYourTurn, ValueError)
    (True, True)
    """


class IllegalAction(ActionError):
    """A well-formed action that the rules do not allow now ("You need 350 points to bank").

    Score sheets raise it too, for entries that the rules do not allow.
    """


class InvalidAction(ActionError):
    """Input that is not an action of this game at all: malformed text, a wrong type, ``None``.

    >>> str(InvalidAction.format("{text} is not an action.", text=repr("jump")))
    "'jump' is not an action."
    """


class NotYourTurn(ActionError):
    """An action sent for a seat that is not the one to act (or for a seat that does not exist)."""


class SetupError(TranslatableError):
    """A game that cannot be set up as asked: wrong number of players, names, dealer or seat."""


class RulesError(TranslatableError):
    """A house-rules value that is not allowed (unknown option, wrong type, out of range).

    >>> RulesError.format("target must be above {low}", low=0).template
    'target must be above {low}'
    """


class RecordError(ValueError):
    """A game record that cannot be read: wrong format or version, or actions that do not replay."""
