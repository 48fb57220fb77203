"""Pepper options (house rules in docs/rules.md), the bid ladder (P5) and scoring (P10).

>>> r = PepperRules()
>>> r.penalty(4), r.penalty(3), r.target
(6, 8, 30)
>>> bid_ladder(4)
('1', '2', '3', '4', '5', 'small', 'big')
>>> score_hand(r, 4, bidder_side=0, bid="3", tricks=[4, 2])
[4, 2]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from pfeffer.core.errors import RulesError

ALL_PASS_OPTIONS = ("last_must_bid", "redeal")


def cards_per_hand(players: int) -> int:
    """Cards dealt to each seat, which is also the tricks in a hand (P4): 6 with 4, else 8.

    >>> cards_per_hand(4), cards_per_hand(3), cards_per_hand(2)
    (6, 8, 8)
    """
    _check_players(players)
    return 6 if players == 4 else 8


def bid_ladder(players: int) -> tuple[str, ...]:
    """Every bid for a player count in increasing order (P5).

    >>> bid_ladder(2)
    ('1', '2', '3', '4', '5', '6', '7', 'small', 'big')
    """
    top = cards_per_hand(players) - 1
    return (*(str(i) for i in range(1, top + 1)), "small", "big")


def sides(players: int) -> int:
    """Number of scoring sides: 2 teams with 4 players (seats 0+2 and 1+3), else one per player.

    >>> sides(4), sides(3)
    (2, 3)
    """
    _check_players(players)
    return 2 if players == 4 else players


def side_of(players: int, seat: int) -> int:
    """The side a seat scores for (P2).

    >>> [side_of(4, s) for s in range(4)], side_of(3, 2)
    ([0, 1, 0, 1], 2)
    """
    return seat % 2 if players == 4 else seat


def _check_players(players: int) -> None:
    if players not in (2, 3, 4):
        raise RulesError.format(
            "Pepper is played by 2, 3 or 4 players, not {players}", players=repr(players)
        )


@dataclass(frozen=True, slots=True)
class PepperRules:
    """The named house rules of Pepper in docs/rules.md; the defaults are the rules as written.

    - ``target`` (30): a hand that leaves some side at or above it ends the game (P11).
    - ``all_pass`` ("last_must_bid"): if everybody before them passed, the last player must bid
      (P6). "redeal": the last player may pass too; then nobody plays the hand and the next
      dealer deals a new one.
    - ``set_penalty`` (None): points lost by a bidding side that fails its bid (not Big Pepper);
      None means the rule-sheet value, 6 with 4 players and 8 with 2 or 3 (see :meth:`penalty`).
    - ``big_pepper_factor`` (2): Big Pepper wins or loses this many times the tricks in a hand.
    - ``no_trump`` (True): whether the auction winner may name no trump (P7).

    >>> PepperRules(all_pass="redeal").to_dict()["all_pass"]
    'redeal'
    >>> PepperRules.from_dict({"target": 50}) == PepperRules(target=50)
    True
    """

    target: int = 30
    all_pass: str = "last_must_bid"
    set_penalty: int | None = None
    big_pepper_factor: int = 2
    no_trump: bool = True

    def __post_init__(self) -> None:
        if not _is_int(self.target) or self.target < 1:
            raise RulesError.format(
                "target must be a positive whole number, not {value}", value=repr(self.target)
            )
        if self.all_pass not in ALL_PASS_OPTIONS:
            raise RulesError.format(
                "all_pass must be one of {allowed}, not {value}",
                allowed=str(ALL_PASS_OPTIONS),
                value=repr(self.all_pass),
            )
        if self.set_penalty is not None and (not _is_int(self.set_penalty) or self.set_penalty < 0):
            raise RulesError.format(
                "set_penalty must be None or a whole number >= 0, not {value}",
                value=repr(self.set_penalty),
            )
        if not _is_int(self.big_pepper_factor) or self.big_pepper_factor < 1:
            raise RulesError.format(
                "big_pepper_factor must be a whole number >= 1, not {value}",
                value=repr(self.big_pepper_factor),
            )
        if not isinstance(self.no_trump, bool):
            raise RulesError.format(
                "no_trump must be true or false, not {value}", value=repr(self.no_trump)
            )

    def penalty(self, players: int) -> int:
        """Points a set (failed) bidding side loses with ``players`` players.

        >>> PepperRules().penalty(2), PepperRules(set_penalty=5).penalty(4)
        (8, 5)
        """
        if self.set_penalty is not None:
            return self.set_penalty
        return cards_per_hand(players)

    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready dict (stored in game records)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PepperRules:
        """Rules from a dict such as :meth:`to_dict` returns; unknown keys raise RulesError."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RulesError.format(
                "unknown Pepper rule option(s): {names}", names=", ".join(sorted(unknown))
            )
        return cls(**dict(data))


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def score_hand(
    rules: PepperRules, players: int, bidder_side: int, bid: str, tricks: Sequence[int]
) -> list[int]:
    """Points each side gets for one hand (P10); ``tricks`` are the tricks won per side.

    The bidding side makes its contract with at least ``bid`` tricks (every trick for "small" and
    "big"); made, it scores one point per trick (Big Pepper: ``big_pepper_factor`` times the tricks
    in a hand), set, it loses :meth:`PepperRules.penalty` (Big Pepper: the same amount it would have
    won). Every other side scores one point per trick it won.

    >>> r = PepperRules()
    >>> score_hand(r, 4, 1, "5", [2, 4]), score_hand(r, 4, 1, "small", [0, 6])
    ([2, -6], [0, 6])
    >>> score_hand(r, 3, 0, "big", [8, 0, 0]), score_hand(r, 2, 0, "big", [7, 1])
    ([16, 0, 0], [-16, 1])
    """
    total = cards_per_hand(players)
    if len(tricks) != sides(players):
        raise ValueError(f"need tricks for {sides(players)} sides, got {len(tricks)}")
    if sum(tricks) != total:
        raise ValueError(f"tricks must add up to {total}, not {sum(tricks)}")
    if bid not in bid_ladder(players):
        raise ValueError(f"{bid!r} is not a bid with {players} players")
    return hand_points(rules, players, bidder_side, bid, tricks)[0]


def hand_points(
    rules: PepperRules, players: int, bidder_side: int, bid: str, tricks: Sequence[int]
) -> tuple[list[int], bool]:
    """P10 without input checks, for callers that already know the hand is valid (the engine):
    the points per side and whether the bidding side made its contract.

    >>> hand_points(PepperRules(), 4, 0, "3", [2, 4])
    ([-6, 4], False)
    """
    total = 6 if players == 4 else 8
    need = total if bid in ("small", "big") else int(bid)
    made = tricks[bidder_side] >= need
    out = list(tricks)
    if bid == "big":
        out[bidder_side] = (1 if made else -1) * rules.big_pepper_factor * total
    elif not made:
        out[bidder_side] = -rules.penalty(players)
    return out, made


def winners_of(scores: Sequence[int], target: int) -> list[int]:
    """The winning sides after a hand (P11): empty while no side has reached ``target``; else
    every side tied for the highest score (which is then at or above the target).

    >>> winners_of([29, -6], 30), winners_of([31, 34, 12], 30), winners_of([32, 32], 30)
    ([], [1], [0, 1])
    """
    best = max(scores)
    if best < target:
        return []
    return [i for i, s in enumerate(scores) if s == best]


def side_names(players: Sequence[str]) -> list[str]:
    """Display names of the scoring sides: partners joined by "&" with 4 players (P2).

    >>> side_names(["Ann", "Bob", "Cy", "Di"]), side_names(["Ann", "Bob", "Cy"])
    (['Ann & Cy', 'Bob & Di'], ['Ann', 'Bob', 'Cy'])
    """
    if len(players) == 4:
        return [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]
    return list(players)
