"""The compiled hand estimate equals HeuristicBot's estimate_tricks on many hands."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pfeffer.pepper.bots import estimate_tricks
from pfeffer.pepper.cards import CARD_STR, parse_mask
from pfeffer.pepper.fast.estimate import estimate, estimates


@pytest.mark.parametrize("players", [2, 3, 4])
def test_estimate_equals_estimate_tricks(players: int) -> None:
    rng = random.Random(players)
    size = 6 if players == 4 else 8
    for _ in range(400):
        hand = rng.sample(CARD_STR, rng.randint(1, size))
        for t, name in enumerate(("C", "D", "H", "S", None)):
            want = estimate_tricks(hand, name, players)
            assert estimate(parse_mask(hand), t, players) == pytest.approx(want), (hand, name)


def test_estimates_fills_every_seat_and_trump() -> None:
    hands = np.array([[parse_mask(["JH", "JD", "AH"]), parse_mask(["9C"]), 0, 0]], dtype=np.int64)
    out = np.zeros((1, 4, 5))
    estimates(hands, 2, out)
    assert out[0, 0, 2] == pytest.approx(estimate_tricks(["JH", "JD", "AH"], "H", 2))
    assert out[0, 1, 4] == pytest.approx(estimate_tricks(["9C"], None, 2))
    assert out[0, 2].tolist() == [0.0] * 5
