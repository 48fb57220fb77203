"""Shared helpers for the Pepper tests: an independent reference of the rules and random play."""

from __future__ import annotations

import random
from typing import Any

from pfeffer.pepper import PepperGame

SUITS = "CDHS"
RANKS = "9TJQKA"
DECK = [r + s for s in SUITS for r in RANKS]
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def ref_suit(card: str, trump: str | None) -> str:
    """Suit a card belongs to, written independently of the engine's tables (P8)."""
    if trump and trump != "NT" and card[0] == "J" and card[1] == SAME_COLOUR[trump]:
        return trump
    return card[1]


def ref_rank(card: str, trump: str | None) -> int:
    """Higher is better within the card's suit."""
    if trump and trump != "NT" and ref_suit(card, trump) == trump:
        return ["9", "T", "Q", "K", "A", "left", "right"].index(
            "right" if card == "J" + trump else "left" if card[0] == "J" else card[0]
        )
    return "9TJQKA".index(card[0])


def ref_trick_winner(cards: list[str], trump: str | None) -> int:
    """A tiny independent reference implementation of P8/P9.

    The best card so far is always of the led suit or a trump, so a later card wins only by
    trumping a non-trump or by outranking it in the same suit.
    """
    trump = None if trump == "NT" else trump
    best = 0
    for i, c in enumerate(cards[1:], start=1):
        b = cards[best]
        cs, bs = ref_suit(c, trump), ref_suit(b, trump)
        ruffs = bool(trump) and cs == trump and bs != trump
        higher_same_suit = cs == bs and ref_rank(c, trump) > ref_rank(b, trump)
        if ruffs or higher_same_suit:
            best = i
    return best


def ref_points(
    players: int, rules: Any, bidder_side: int, bid: str, tricks: list[int]
) -> list[int]:
    """P10 written out by hand."""
    total = 6 if players == 4 else 8
    penalty = rules.set_penalty if rules.set_penalty is not None else (6 if players == 4 else 8)
    out = list(tricks)
    won = tricks[bidder_side]
    if bid == "big":
        out[bidder_side] = rules.big_pepper_factor * total * (1 if won == total else -1)
    elif bid == "small":
        out[bidder_side] = total if won == total else -penalty
    else:
        out[bidder_side] = won if won >= int(bid) else -penalty
    return out


def random_action(g: PepperGame, rng: random.Random) -> str:
    """A random legal action; in the auction it passes or bids the lowest bid, so that (unlike
    uniformly random bidding, which mostly bids and fails Pepper) games reach the target."""
    legal = g.legal_actions()
    if g.phase == "auction":
        bids = [a for a in legal if a != "pass"]
        if "pass" in legal and rng.random() < 0.6:
            return "pass"
        return bids[0] if rng.random() < 0.8 else rng.choice(bids)
    return rng.choice(legal)


def random_steps(g: PepperGame, rng: random.Random, steps: int) -> None:
    """Up to ``steps`` random legal actions (see :func:`random_action`), fewer if the game ends."""
    for _ in range(steps):
        if g.is_over:
            return
        g.apply(random_action(g, rng))


def play_random(g: PepperGame, rng: random.Random, max_actions: int = 20_000) -> None:
    """Random legal actions (see :func:`random_action`) until the game is over."""
    for _ in range(max_actions):
        if g.is_over:
            return
        g.apply(random_action(g, rng))
    raise AssertionError("game did not end")


def one_suit_deal() -> list[list[str]]:
    """4-player deal: seat 0 all clubs, 1 all diamonds, 2 all hearts, 3 all spades."""
    return [[r + s for r in RANKS] for s in SUITS]
