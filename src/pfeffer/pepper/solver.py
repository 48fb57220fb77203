"""Double dummy for Pepper: the tricks a side takes with every hand open and best play by all.

With 4 players a side is a partnership; with 2 and 3 players the counted seat plays alone
against the others together (the usual double-dummy convention: everybody else minimises its
tricks). The 2-player dead hand takes no part and is not passed. The search itself is compiled
(:mod:`pfeffer.pepper.fast.dd`, numba); it is loaded on the first call.

>>> double_dummy([["JH", "AD", "KS"], ["JD", "AS", "9C"], ["AH", "QS", "TC"],
...               ["KH", "QD", "9S"]], trump="H", leader=0)   # JH draws JD, AD, then AS wins
2
>>> double_dummy([["JH", "AD", "KS"], ["JD", "AS", "9C"], ["AH", "QS", "TC"],
...               ["KH", "QD", "9S"]], trump=None, leader=0)
3

From inside a hand, with the current trick: the seat to count defaults to the leader's side.

>>> double_dummy([["AD", "KS"], ["JD", "AS", "9C"], ["AH", "QS", "TC"], ["KH", "QD", "9S"]],
...              trump="H", leader=0, trick=["JH"], seat=1)
1
"""

from __future__ import annotations

from collections.abc import Sequence

from pfeffer.core.errors import InvalidAction
from pfeffer.pepper.cards import parse_card, parse_mask, parse_trump
from pfeffer.pepper.game import PepperGame


def double_dummy(
    hands: Sequence[Sequence[str]],
    trump: str | None,
    leader: int,
    trick: Sequence[str] = (),
    seat: int | None = None,
) -> int:
    """The tricks ``seat``'s side (default: ``leader``'s) takes of the tricks still to play, with
    every hand open and best play by all (4 players: the seat and its partner; 2 and 3: the
    seat alone against the others).

    ``hands``: the unplayed cards of each seat in seat order (2, 3 or 4 hands; never the dead
    hand); ``trump``: "C", "D", "H", "S", or None / "NT"; ``leader``: the seat that leads the
    current trick; ``trick``: the cards already played to it, in order from the leader (empty at
    the start of a trick). At the start of a hand this is the result of the whole deal. The
    card counts must fit: seats that have played to ``trick`` hold one card fewer than the others.
    Raises :class:`InvalidAction` for bad cards or counts.
    """
    from pfeffer.pepper.fast.dd import solve_masks

    n = len(hands)
    if n not in (2, 3, 4):
        raise InvalidAction("double dummy needs 2, 3 or 4 hands")
    if not isinstance(leader, int) or not 0 <= leader < n:
        raise InvalidAction(f"the leader must be a seat 0..{n - 1}")
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < n):
        raise InvalidAction(f"the seat must be 0..{n - 1}")
    t = parse_trump(trump)
    masks = [parse_mask(h) for h in hands]
    played = [parse_card(c) for c in trick]
    if len(played) >= n:
        raise InvalidAction("a current trick holds fewer cards than there are players")
    seen = 0
    for m in (*masks, *(1 << c for c in played)):
        if seen & m:
            raise InvalidAction("a card is listed twice")
        seen |= m
    size = masks[leader].bit_count() + (1 if played else 0)
    for i in range(n):
        want = size - 1 if (i - leader) % n < len(played) else size
        if masks[i].bit_count() != want:
            raise InvalidAction(
                f"seat {i} holds {masks[i].bit_count()} cards; {want} fit the others and the trick"
            )
    return solve_masks(masks, t, leader, played, seat)


def double_dummy_from(game: PepperGame, seat: int | None = None) -> int:
    """:func:`double_dummy` at the current position of ``game`` (play phase): the tricks
    ``seat``'s side (default: the side of the player to move) takes of the tricks still to play,
    the current one included. Add ``game.tricks_won[side]`` for the hand's total.

    >>> g = PepperGame(players=3, seed=4, dealer=0)
    >>> g.apply("deal")
    >>> while g.phase != "play":
    ...     g.apply(g.legal_actions()[-1])    # Big Pepper, then no trump
    >>> double_dummy_from(g) == double_dummy([g.hand(s) for s in range(3)], None, g.bidder)
    True
    """
    if game.phase != "play":
        raise InvalidAction("double dummy needs a hand in its play phase")
    n = len(game.players)
    trick = game.current_trick
    leader = trick[0][0] if trick else game.current_player
    assert leader is not None
    who = game.current_player if seat is None else seat
    return double_dummy(
        [game.hand(s) for s in range(n)], game.trump, leader, [c for _, c in trick], who
    )


__all__ = ["double_dummy", "double_dummy_from"]
