"""Worlds for one seat (pfeffer.rl.sampling.sample_deal): never inconsistent, exactly uniform."""

from __future__ import annotations

import collections
import math
import random

import pytest

from pfeffer.pepper import PepperGame, PepperView
from pfeffer.pepper.cards import CARD_STR
from pfeffer.rl.sampling import sample_deal
from tests.pepper.pepper_helpers import ref_suit


def _position(players: int, seed: int, plays: int) -> PepperGame:
    rng = random.Random(seed)
    g = PepperGame(players=players, seed=seed)
    g.apply("deal")
    while g.phase != "play":
        acts = g.legal_actions()
        g.apply(rng.choice(acts))
    for _ in range(plays):
        if g.phase != "play":
            break
        g.apply(rng.choice(g.legal_cards()))
    return g


def _seen(view: PepperView, players: int) -> tuple[list[list[str]], list[set[str]]]:
    """Cards each seat played and the suits it showed out of, worked out from the view."""
    played: list[list[str]] = [[] for _ in range(players)]
    voids: list[set[str]] = [set() for _ in range(players)]
    rows = [(t.leader, t.cards) for t in view.tricks]
    if view.current_trick:
        rows.append((view.current_trick[0][0], tuple(c for _, c in view.current_trick)))
    for leader, cards in rows:
        led = ref_suit(cards[0], view.trump)
        for i, c in enumerate(cards):
            seat = (leader + i) % players
            played[seat].append(c)
            if ref_suit(c, view.trump) != led:
                voids[seat].add(led)
    return played, voids


def _consistent(deal: list[list[str]], view: PepperView, players: int, me: int) -> None:
    played, voids = _seen(view, players)
    size = 6 if players == 4 else 8
    assert len(deal) == (3 if players == 2 else players)
    assert sorted(c for h in deal for c in h) == sorted(CARD_STR)
    assert all(len(h) == size for h in deal)
    assert set(deal[me]) == set(view.hand) | set(played[me])
    for s in range(players):
        unplayed = set(deal[s]) - set(played[s])
        assert set(played[s]) <= set(deal[s])
        assert len(unplayed) == view.hand_sizes[s]
        assert not {ref_suit(c, view.trump) for c in unplayed} & voids[s], (s, voids[s])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_inconsistent_world(players: int) -> None:
    rng = random.Random(players)
    for seed in range(60):
        g = _position(players, seed, rng.randrange(3 * players * 2))
        if g.phase != "play":
            continue
        me = rng.randrange(players)
        view = g.view(me)
        for _ in range(10):
            _consistent(sample_deal(view, players, rng), view, players, me)


def _all_worlds(view: PepperView, players: int, me: int) -> list[tuple[frozenset[str], ...]]:
    """Every consistent assignment of the unseen cards, by brute force."""
    played, voids = _seen(view, players)
    known = set(view.hand).union(*map(set, played))
    unknown = [c for c in CARD_STR if c not in known]
    holders = [s for s in range(players) if s != me]
    caps = [view.hand_sizes[s] for s in holders]
    bans = [voids[s] for s in holders]
    if players == 2:
        holders.append(-1)
        caps.append(8)
        bans.append(set())
    out = []

    def rec(i: int, got: list[list[str]]) -> None:
        if i == len(unknown):
            out.append(tuple(frozenset(h) for h in got))
            return
        for h in range(len(holders)):
            if len(got[h]) < caps[h] and ref_suit(unknown[i], view.trump) not in bans[h]:
                got[h].append(unknown[i])
                rec(i + 1, got)
                got[h].pop()

    rec(0, [[] for _ in holders])
    return out


def _critical(df: int) -> float:
    """Chi-square value exceeded with probability 0.001 (Wilson–Hilferty)."""
    z = 3.09
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize(("players", "plays"), [(4, 17), (3, 17), (2, 13)])
def test_uniform_over_small_cases(players: int, plays: int) -> None:
    for seed in range(40):  # a late position with several worlds and a revealed void
        g = _position(players, seed, plays)
        if g.phase != "play":
            continue
        me = g.current_player
        assert me is not None
        view = g.view(me)
        if not any(_seen(view, players)[1]):
            continue
        worlds = _all_worlds(view, players, me)
        if 4 <= len(worlds) <= 200:
            break
    else:
        pytest.fail("no small position found")
    holders = [s for s in range(players) if s != me]
    played, _ = _seen(view, players)
    rng = random.Random(1)
    per = 150
    counts: collections.Counter[tuple[frozenset[str], ...]] = collections.Counter()
    for _ in range(per * len(worlds)):
        deal = sample_deal(view, players, rng)
        key = [frozenset(set(deal[s]) - set(played[s])) for s in holders]
        if players == 2:
            key.append(frozenset(deal[2]))
        counts[tuple(key)] += 1
    assert set(counts) <= set(worlds)
    chi2 = sum((counts[w] - per) ** 2 / per for w in worlds)
    assert chi2 < _critical(len(worlds) - 1), (chi2, len(worlds))


def test_a_sampler_dies_with_its_decision() -> None:
    """Its memoised counts live in the sampler: nothing outside keeps it (a ``functools.cache`` on
    the method did, every sampler of every decision, which slowed each garbage collection)."""
    import gc
    import weakref

    from pfeffer.pepper.worlds import WorldSampler

    g = _position(4, 3, 5)
    seat = g.current_player
    assert seat is not None
    sampler = WorldSampler(g.view(seat), 4)
    sampler.draw(random.Random(1))
    ref = weakref.ref(sampler)
    del sampler
    gc.collect()
    assert ref() is None
