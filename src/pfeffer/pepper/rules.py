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
from dataclasses import asdict, dataclass
from typing import Any

from pfeffer.core.errors import RulesError
from pfeffer.core.rulespec import RuleSpec, check_all, check_names

ALL_PASS_OPTIONS = ("last_must_bid", "redeal")

PEPPER_RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("target", "int", 30, "Target",
             "A hand that leaves some side at or above this score ends the game.", "P11", 1, 1000),
    RuleSpec("all_pass", "choice", "last_must_bid", "When everybody passes",
             "last_must_bid: if all the others passed, the last player must bid; redeal: they "
             "may pass too, and the next dealer deals a new hand.", "P6",
             choices=ALL_PASS_OPTIONS),
    RuleSpec("set_penalty", "int", None, "Penalty for a failed bid",
             "Points a side loses when it misses a number bid or Small Pepper; if not set, by "
             "player count.", "P10", 0, 100, optional=True,
             none_text="by player count: 6 with 4 players, 8 with 2–3"),
    RuleSpec("big_pepper_factor", "int", 2, "Big Pepper factor",
             "Big Pepper wins or loses this many times the tricks in a hand.", "P10", 1, 10),
    RuleSpec("no_trump", "bool", True, "No trump allowed",
             "Whether the winner of the auction may choose no trump.", "P7"),
)  # fmt: skip
"""One :class:`~pfeffer.core.rulespec.RuleSpec` per option of :class:`PepperRules`, in field
order: names, defaults, bounds, choices, labels and help texts of the Pepper house rules."""

_DEFAULT: dict[str, Any] = {s.name: s.default for s in PEPPER_RULE_SPECS}


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


def partner(players: int, seat: int) -> int | None:
    """The seat playing for the same side as ``seat``, or None where everyone plays alone (P2).

    >>> [partner(4, s) for s in range(4)], partner(3, 1)
    ([2, 3, 0, 1], None)
    """
    mates = [
        s for s in range(players) if s != seat and side_of(players, s) == side_of(players, seat)
    ]
    return mates[0] if mates else None


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

    Names, defaults, bounds and choices come from :data:`PEPPER_RULE_SPECS`:

    >>> PepperRules(target=10**26)
    Traceback (most recent call last):
    ...
    pfeffer.core.errors.RulesError: target must be between 1 and 1000 (got ≈10^26)
    """

    target: int = _DEFAULT["target"]
    all_pass: str = _DEFAULT["all_pass"]
    set_penalty: int | None = _DEFAULT["set_penalty"]
    big_pepper_factor: int = _DEFAULT["big_pepper_factor"]
    no_trump: bool = _DEFAULT["no_trump"]

    def __post_init__(self) -> None:
        check_all(PEPPER_RULE_SPECS, self)

    @classmethod
    def specs(cls) -> tuple[RuleSpec, ...]:
        """The schema of these rules: :data:`PEPPER_RULE_SPECS`."""
        return PEPPER_RULE_SPECS

    def penalty(self, players: int) -> int:
        """Points a set (failed) bidding side loses with ``players`` players.

        >>> PepperRules().penalty(2), PepperRules(set_penalty=5).penalty(4)
        (8, 5)
        """
        if self.set_penalty is not None:
            return self.set_penalty
        return cards_per_hand(players)

    @property
    def trumps(self) -> tuple[str, ...]:
        """What the auction winner may name (P7): the four suits, and no trump where allowed.

        >>> PepperRules().trumps, PepperRules(no_trump=False).trumps
        (('C', 'D', 'H', 'S', 'NT'), ('C', 'D', 'H', 'S'))
        """
        return ("C", "D", "H", "S", "NT") if self.no_trump else ("C", "D", "H", "S")

    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready dict (stored in game records)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PepperRules:
        """Rules from a dict such as :meth:`to_dict` returns; unknown keys raise RulesError."""
        check_names(PEPPER_RULE_SPECS, data)
        return cls(**dict(data))


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


@dataclass(frozen=True, slots=True)
class BidTerms:
    """What a bid promises and what it scores (P5, P10), for telling a player at the auction.

    ``need`` of ``tricks`` tricks for the bidding side; made, it scores ``made_min`` (with just
    ``need`` tricks) up to ``made_max`` (every trick); set, it scores ``set_points`` (negative).
    ``all_tricks`` for either Pepper.
    """

    bid: str
    need: int
    tricks: int
    made_min: int
    made_max: int
    set_points: int
    all_tricks: bool


def bid_terms(rules: PepperRules, players: int, bid: str) -> BidTerms:
    """The terms of ``bid`` with ``players`` players under ``rules``, from the scoring of P10.

    >>> bid_terms(PepperRules(), 4, "4")
    BidTerms(bid='4', need=4, tricks=6, made_min=4, made_max=6, set_points=-6, all_tricks=False)
    >>> t = bid_terms(PepperRules(), 3, "big")
    >>> t.need, t.made_min, t.made_max, t.set_points
    (8, 16, 16, -16)
    >>> bid_terms(PepperRules(set_penalty=5), 2, "small").set_points
    -5
    """
    if bid not in bid_ladder(players):
        raise ValueError(f"{bid!r} is not a bid with {players} players")
    total = cards_per_hand(players)
    need = total if bid in ("small", "big") else int(bid)

    def points(won: int) -> int:
        tricks = [won, total - won] + [0] * (sides(players) - 2)
        return hand_points(rules, players, 0, bid, tricks)[0][0]

    return BidTerms(bid, need, total, points(need), points(total), points(need - 1), need == total)
