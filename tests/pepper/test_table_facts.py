"""What the card table tells a player, from the engine (issue 8 §2): the terms of each bid (P5,
P10), the order a hand is held in and the bowers (P8)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pfeffer.pepper.cards import (
    CARD_STR,
    EFFECTIVE_SUIT,
    NO_TRUMP,
    TRICK_VALUE,
    bower,
    display_order,
    parse_card,
    parse_trump,
)
from pfeffer.pepper.rules import (
    PepperRules,
    bid_ladder,
    bid_terms,
    cards_per_hand,
    score_hand,
    sides,
)


@pytest.mark.parametrize(
    ("players", "bid", "need", "made", "set_points"),
    [
        # The numbers of the rules P5 and P10 (docs/rules.md, default house rules).
        (4, "1", 1, (1, 6), -6),
        (4, "4", 4, (4, 6), -6),
        (4, "small", 6, (6, 6), -6),
        (4, "big", 6, (12, 12), -12),
        (3, "7", 7, (7, 8), -8),
        (3, "small", 8, (8, 8), -8),
        (3, "big", 8, (16, 16), -16),
        (2, "2", 2, (2, 8), -8),
        (2, "big", 8, (16, 16), -16),
    ],
)
def test_bid_terms_follow_the_rules(
    players: int, bid: str, need: int, made: tuple[int, int], set_points: int
) -> None:
    t = bid_terms(PepperRules(), players, bid)
    assert (t.need, t.tricks) == (need, cards_per_hand(players))
    assert (t.made_min, t.made_max, t.set_points) == (*made, set_points)
    assert t.all_tricks == (bid in ("small", "big"))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "rules",
    [PepperRules(), PepperRules(set_penalty=5), PepperRules(set_penalty=0, big_pepper_factor=3)],
)
def test_bid_terms_agree_with_every_scored_hand(players: int, rules: PepperRules) -> None:
    total = cards_per_hand(players)
    for bid in bid_ladder(players):
        t = bid_terms(rules, players, bid)
        for won in range(total + 1):
            tricks = [won, total - won] + [0] * (sides(players) - 2)
            points = score_hand(rules, players, 0, bid, tricks)[0]
            if won >= t.need:
                assert t.made_min <= points <= t.made_max, (bid, won)
            else:
                assert points == t.set_points, (bid, won)
        assert (
            score_hand(
                rules, players, 0, bid, [t.need, total - t.need] + [0] * (sides(players) - 2)
            )[0]
            == t.made_min
        )


def test_bid_terms_refuse_a_bid_that_is_not_on_the_ladder() -> None:
    with pytest.raises(ValueError, match="not a bid"):
        bid_terms(PepperRules(), 4, "6")


def test_the_bowers() -> None:
    assert [bower(c, "S") for c in ("JS", "JC", "JD", "JH", "AS")] == [
        "right",
        "left",
        None,
        None,
        None,
    ]
    for trump in "CDHS":
        assert sorted(r for c in CARD_STR if (r := bower(c, trump))) == ["left", "right"]
    assert not any(bower(c, t) for c in CARD_STR for t in ("NT", None))


@given(
    st.lists(st.sampled_from(CARD_STR), min_size=1, max_size=8, unique=True),
    st.sampled_from(["C", "D", "H", "S", "NT", None]),
)
def test_a_hand_is_held_by_suit_trumps_first_high_to_low(
    hand: list[str], trump: str | None
) -> None:
    shown = display_order(hand, trump)
    assert sorted(shown) == sorted(hand)
    t = parse_trump(trump)
    suits = [EFFECTIVE_SUIT[t][parse_card(c)] for c in shown]
    # Each suit (the left bower among the trumps) in one block, trumps first.
    blocks = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    assert len(blocks) == len(set(blocks))
    if t != NO_TRUMP and t in suits:
        assert blocks[0] == t

    # The colours alternate as far as the hand allows (red: D H = 1 2), trumps staying first.
    def clashes(order: list[int]) -> int:
        return sum((a in (1, 2)) == (b in (1, 2)) for a, b in itertools.pairwise(order))

    head = blocks[:1] if t != NO_TRUMP and t in suits else []
    fewest = min(clashes(head + list(p)) for p in itertools.permutations(blocks[len(head) :]))
    assert clashes(blocks) == fewest
    if len(blocks) == 4:
        assert clashes(blocks) == 0
    # Within a block, from the highest card down (as P8 ranks them).
    for s in set(suits):
        cards = [parse_card(c) for c, x in zip(shown, suits, strict=True) if x == s]
        value = TRICK_VALUE[t][s]
        assert [value[c] for c in cards] == sorted((value[c] for c in cards), reverse=True)
