"""The compiled hand (pfeffer.pepper.fast.kernel) against PepperGame on many random hands."""

from __future__ import annotations

import numpy as np
import pytest

from pfeffer.pepper import PepperGame
from pfeffer.pepper.cards import mask_strs, parse_card
from pfeffer.pepper.fast import kernel
from pfeffer.pepper.fast.tables import EFF, SUIT_MASK
from pfeffer.rl.spaces import PepperActionSpace
from tests.pepper.pepper_helpers import ref_trick_winner


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_hands_match_the_engine(players: int) -> None:
    space = PepperActionSpace(players)
    kernel.seed(players)
    deck = np.arange(24, dtype=np.int64)
    hands = np.zeros(4, dtype=np.int64)
    acts = np.zeros(kernel.LOG_SIZE, dtype=np.int64)
    legal = np.zeros(kernel.LOG_SIZE, dtype=np.int64)
    out = np.zeros(kernel.OUT_SIZE, dtype=np.int64)
    sides = 2 if players == 4 else players
    for h in range(400):
        dealer = h % players
        kernel.shuffle(deck)
        steps = kernel.play_random_hand(players, dealer, deck, hands, acts, legal, True, out)
        g = PepperGame(players=players, seed=0, dealer=dealer)
        dealt = [mask_strs(int(m)) for m in hands[: 3 if players == 2 else players]]
        g.apply("deal " + " / ".join(" ".join(x) for x in dealt))
        for k in range(steps):
            ids = space.legal_ids(g.legal_actions())
            assert sum(1 << i for i in ids) == legal[k], (h, k)
            g.apply(space.action_of(int(acts[k])))
        res = g.last_hand
        assert res is not None
        assert (res.bidder, res.trump) == (out[0], ("C", "D", "H", "S", "NT")[out[2]])
        assert list(res.tricks) == out[4 : 4 + sides].tolist()
        assert list(res.points) == out[8 : 8 + sides].tolist()
        assert res.made == bool(out[3])
        assert len(g.tricks) == (6 if players == 4 else 8)
        for t in g.tricks:
            arr = np.array([parse_card(c) for c in t.cards], dtype=np.int64)
            assert t.seats[kernel.trick_winner(arr, players, int(out[2]))] == t.winner


@pytest.mark.parametrize("players", [2, 3, 4])
def test_trick_winner_and_legal_cards(players: int) -> None:
    g = PepperGame(players=players, seed=11)
    rng = np.random.default_rng(3)
    trump_of = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": 4}
    checked = 0
    while checked < 300:
        g.apply("deal")
        while g.phase in ("auction", "declare"):
            acts = g.legal_actions()
            g.apply(acts[rng.integers(len(acts))])
        trump = trump_of[g.trump or "NT"]
        while g.phase == "play":
            trick = [parse_card(c) for _, c in g.current_trick]
            hand = sum(1 << parse_card(c) for c in g.hand(g.current_player or 0))
            follow = int(SUIT_MASK[trump, int(EFF[trump, trick[0]])]) if trick else 0
            got = kernel.legal_cards(hand, len(trick), follow)
            assert mask_strs(got) == g.legal_cards()
            before = len(g.tricks)
            cards = g.legal_cards()
            g.apply(cards[rng.integers(len(cards))])
            if len(g.tricks) > before:
                t = g.tricks[-1]
                arr = np.array([parse_card(c) for c in t.cards], dtype=np.int64)
                w = kernel.trick_winner(arr, players, trump)
                assert w == ref_trick_winner(list(t.cards), g.trump) == t.seats.index(t.winner)
                checked += 1
        if g.is_over:
            g = PepperGame(players=players, seed=checked)
