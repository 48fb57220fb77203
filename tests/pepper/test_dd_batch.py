"""The batch solves of the expert player (one shared transposition table across cards, worlds
and trumps) against the brute-force minimax of test_double_dummy."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from pfeffer.pepper.cards import CARD_INDEX, CARD_STR, parse_trump
from pfeffer.pepper.fast.batch import solve_cards, solve_trumps
from tests.pepper.pepper_helpers import ref_suit, ref_trick_winner
from tests.pepper.test_double_dummy import TRUMPS, brute


def memo_brute(
    hands: list[list[str]], trump: str | None, leader: int, trick: list[str], side: int
) -> int:
    """The brute force of test_double_dummy with its trick-boundary positions remembered, so that
    5- and 6-card endings stay quick."""
    n = len(hands)

    @functools.cache
    def boundary(held: tuple[frozenset[str], ...], lead: int) -> int:
        return in_trick([set(h) for h in held], [], lead)

    def in_trick(held: list[set[str]], cards: list[str], lead: int) -> int:
        if len(cards) == n:
            win = (lead + ref_trick_winner(cards, trump)) % n
            got = 1 if side >> win & 1 else 0
            return got + (boundary(tuple(map(frozenset, held)), win) if held[win] else 0)
        seat = (lead + len(cards)) % n
        legal = sorted(held[seat])
        if cards:
            led = ref_suit(cards[0], trump)
            legal = [c for c in legal if ref_suit(c, trump) == led] or legal
        values = []
        for c in legal:
            held[seat].discard(c)
            values.append(in_trick(held, [*cards, c], lead))
            held[seat].add(c)
        return max(values) if side >> seat & 1 else min(values)

    return in_trick([set(h) for h in hands], list(trick), leader)


def _masks(hands: list[list[str]]) -> list[int]:
    out = [sum(1 << CARD_INDEX[c] for c in h) for h in hands]
    return out + [0] * (4 - len(out))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_solve_cards_in_many_worlds_equals_brute_force(players: int) -> None:
    rng = random.Random(10 + players)
    for case in range(25):
        k = rng.choice((2, 3, 4)) if case % 5 or players == 4 else 5
        trump = rng.choice(TRUMPS)
        leader = rng.randrange(players)
        tlen = rng.randrange(players)
        mover = (leader + tlen) % players
        deck = list(CARD_STR)
        rng.shuffle(deck)
        mine, trick, rest = deck[:k], deck[k : k + tlen], deck[k + tlen :]
        maxs = rng.randrange(1, (1 << players) - 1)  # any set of seats but none or all
        worlds = []
        for _ in range(8 if k < 5 else 4):  # the other hands differ from world to world
            rng.shuffle(rest)
            hands, at = [], 0
            for s in range(players):
                size = k if s == mover or (s - leader) % players >= tlen else k - 1
                hands.append(mine[:] if s == mover else rest[at : at + size])
                at += 0 if s == mover else size
            worlds.append(hands)
        legal = mine
        if trick:
            legal = [c for c in mine if ref_suit(c, trump) == ref_suit(trick[0], trump)] or mine
        got = solve_cards(
            np.array([_masks(h) for h in worlds], dtype=np.int64),
            players,
            parse_trump(trump),
            maxs,
            np.array([CARD_INDEX[c] for c in trick] + [0] * (4 - tlen), dtype=np.int64),
            tlen,
            leader,
            np.array([CARD_INDEX[c] for c in legal], dtype=np.int64),
        )
        for w, hands in enumerate(worlds):
            for i, c in enumerate(legal):
                after = [h[:] for h in hands]
                after[mover].remove(c)
                want = memo_brute(after, trump, leader, [*trick, c], maxs)
                assert got[w, i] == want, (hands, trump, leader, trick, c, maxs)


def test_memo_brute_equals_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(40):
        deck = list(CARD_STR)
        rng.shuffle(deck)
        hands = [deck[i * 3 : i * 3 + 3] for i in range(4)]
        trump, side = rng.choice(TRUMPS), rng.randrange(1, 15)
        assert memo_brute(hands, trump, 1, [], side) == brute(hands, trump, 1, [], side)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_solve_trumps_equals_brute_force(players: int) -> None:
    rng = random.Random(20 + players)
    worlds = []
    for _ in range(12):
        deck = list(CARD_STR)
        rng.shuffle(deck)
        k = rng.choice((3, 5 if players < 4 else 4))
        worlds.append([deck[i * k : (i + 1) * k] for i in range(players)])
    for k in (3, 4, 5):
        group = [w for w in worlds if len(w[0]) == k]
        if not group:
            continue
        leader = rng.randrange(players)
        maxs = rng.randrange(1, (1 << players) - 1)
        got = solve_trumps(
            np.array([_masks(h) for h in group], dtype=np.int64),
            players,
            maxs,
            leader,
            np.array([parse_trump(t) for t in TRUMPS], dtype=np.int64),
        )
        for w, hands in enumerate(group):
            want = [memo_brute([h[:] for h in hands], t, leader, [], maxs) for t in TRUMPS]
            assert got[w].tolist() == want, (hands, leader, maxs)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_known_bound_changes_no_card_value(players: int) -> None:
    # The opening lead in 20 worlds that share seat 0's hand, with and without each world's
    # double-dummy value (seat 0 leading) as the bound: the same value for every card.
    rng = random.Random(30 + players)
    size = 6 if players == 4 else 8
    deck = list(CARD_STR)
    rng.shuffle(deck)
    mine, rest = deck[:size], deck[size:]
    worlds = []
    for _ in range(20):
        rng.shuffle(rest)
        worlds.append(
            _masks([mine] + [rest[i * size : (i + 1) * size] for i in range(players - 1)])
        )
    hands = np.array(worlds, dtype=np.int64)
    cards = np.array(sorted(CARD_INDEX[c] for c in mine), dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    maxs = 5 if players == 4 else 1
    for trump in range(5):
        ub = solve_trumps(hands, players, maxs, 0, np.array([trump], dtype=np.int64))[:, 0]
        plain = solve_cards(hands, players, trump, maxs, trick, 0, 0, cards)
        bounded = solve_cards(hands, players, trump, maxs, trick, 0, 0, cards, upper=ub)
        assert (plain == bounded).all() and (plain.max(axis=1) == ub).all()
