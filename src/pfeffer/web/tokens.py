"""Checking seat and host tokens in constant time (issue 9 §4).

A token is the only key to a seat or a table's host page, so comparing it must not tell an
attacker, through the time an answer takes, how many of its first characters were right:
``hmac.compare_digest`` takes the same time wherever two strings differ, and a seat is looked
up by comparing the token with every seat of the table, not stopping at the first match.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from typing import Protocol, TypeVar


class HasToken(Protocol):
    """A seat row: anything with a ``token``."""

    token: str


S = TypeVar("S", bound=HasToken)


def same_token(given: object, expected: str) -> bool:
    """Whether ``given`` (from a request: any type) is the token ``expected``."""
    if not isinstance(given, str) or not given or not expected:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())


def seat_with_token(seats: Iterable[S], token: object) -> S | None:
    """The seat whose token ``token`` is, or None; every seat is compared."""
    found: S | None = None
    for seat in seats:
        if same_token(token, seat.token):
            found = seat
    return found
