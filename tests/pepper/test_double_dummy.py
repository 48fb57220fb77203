"""The double-dummy solver against a brute-force minimax on small endings (2, 3, 4 players)."""

from __future__ import annotations

import random

import pytest

from pfeffer.core.errors import InvalidAction
from pfeffer.pepper import PepperGame, double_dummy, double_dummy_from
from pfeffer.pepper.cards import CARD_STR, mask_strs
from pfeffer.pepper.fast.dd import side_seats, solve_masks
from tests.pepper.pepper_helpers import ref_suit, ref_trick_winner

TRUMPS = ("C", "D", "H", "S", None)


def brute(
    hands: list[list[str]], trump: str | None, leader: int, trick: list[str], side: int
) -> int:
    """Plain minimax over every legal card, written on strings with the reference rules."""
    n = len(hands)

    def rec(cards: list[str], lead: int) -> int:
        if len(cards) == n:
            win = (lead + ref_trick_winner(cards, trump)) % n
            got = 1 if side >> win & 1 else 0
            return got + (rec([], win) if hands[win] else 0)
        seat = (lead + len(cards)) % n
        hand = hands[seat]
        legal = list(hand)
        if cards:
            led = ref_suit(cards[0], trump)
            legal = [c for c in hand if ref_suit(c, trump) == led] or legal
        values = []
        for c in legal:
            hand.remove(c)
            values.append(rec([*cards, c], lead))
            hand.append(c)
        return max(values) if side >> seat & 1 else min(values)

    return rec(list(trick), leader)


def _ending(
    rng: random.Random, n: int, k: int
) -> tuple[list[list[str]], str | None, int, list[str]]:
    deck = list(CARD_STR)
    rng.shuffle(deck)
    hands = [deck[i * k : (i + 1) * k] for i in range(n)]
    trump = rng.choice(TRUMPS)
    leader = rng.randrange(n)
    trick: list[str] = []
    for i in range(rng.randrange(n) if rng.random() < 0.4 else 0):  # a trick under way
        hand = hands[(leader + i) % n]
        legal = hand
        if trick:
            legal = [c for c in hand if ref_suit(c, trump) == ref_suit(trick[0], trump)] or hand
        card = rng.choice(legal)
        hand.remove(card)
        trick.append(card)
    return hands, trump, leader, trick


@pytest.mark.parametrize("players", [2, 3, 4])
def test_matches_brute_force_on_small_endings(players: int) -> None:
    rng = random.Random(players)
    for i in range(250):
        k = 4 if i % 10 == 0 or (players < 4 and i % 2) else rng.choice((2, 3))
        hands, trump, leader, trick = _ending(rng, players, k)
        seat = rng.randrange(players)
        want = brute([h[:] for h in hands], trump, leader, trick, side_seats(players, seat))
        assert double_dummy(hands, trump, leader, trick, seat) == want, (hands, trump, trick)


def test_solve_masks_agrees_with_the_string_api() -> None:
    rng = random.Random(7)
    for _ in range(50):
        hands, trump, leader, trick = _ending(rng, 4, 6)
        masks = [sum(1 << CARD_STR.index(c) for c in h) for h in hands]
        t = 4 if trump is None else "CDHS".index(trump)
        got = solve_masks(masks, t, leader, [CARD_STR.index(c) for c in trick])
        assert got == double_dummy(hands, trump, leader, trick)


def test_from_a_game_in_play() -> None:
    for players in (2, 3, 4):
        g = PepperGame(players=players, seed=players, dealer=0)
        g.apply("deal")
        while g.phase != "play":
            g.apply(g.legal_actions()[-1])
        rng = random.Random(players)
        first = double_dummy_from(g)
        assert first == double_dummy([g.hand(s) for s in range(players)], g.trump, g.bidder or 0)
        while g.phase == "play":
            me = g.current_player
            assert me is not None
            side = g.side_of(me)
            before = g.tricks_won[side] + double_dummy_from(g)
            # the best card keeps the value; no card improves it
            values = []
            for card in g.legal_cards():
                h = g.clone()
                h.apply(card)
                if h.phase == "play":
                    values.append(h.tricks_won[side] + double_dummy_from(h, seat=me))
                else:
                    values.append(h.last_hand.tricks[side] if h.last_hand else 0)
            assert max(values) == before
            g.apply(rng.choice(g.legal_cards()))


def test_bad_input_is_refused() -> None:
    with pytest.raises(InvalidAction):
        double_dummy([["AS"], ["AS"]], None, 0)
    with pytest.raises(InvalidAction):
        double_dummy([["AS", "KS"], ["QS"]], None, 0)
    with pytest.raises(InvalidAction):
        double_dummy([["AS"]], None, 0)
    with pytest.raises(InvalidAction):
        double_dummy([["AS"], ["KS"]], None, 2)
    with pytest.raises(InvalidAction):
        double_dummy([["AS"], ["KS"]], "X", 0)
    with pytest.raises(InvalidAction):
        double_dummy_from(PepperGame(players=4, seed=1))
    assert mask_strs(0) == []
