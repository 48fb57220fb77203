"""The game's state near the target (pfeffer.pepper.outlook) and the last bidder's obligation in
the expert's bidding (pfeffer.pepper.auction)."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from pfeffer.pepper import PepperGame
from pfeffer.pepper.auction import model_call, simulate_rest
from pfeffer.pepper.expert import ExpertBot
from pfeffer.pepper.outlook import Outlook, hand_changes
from pfeffer.pepper.rules import PepperRules, sides


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_chances_are_a_sensible_table(players: int) -> None:
    o = Outlook(players, PepperRules())
    k = sides(players)
    assert o.ready
    for scores in itertools.product((-10, 0, 12, 25, 29), repeat=k):
        chances = [o.win_chance(scores, s) for s in range(k)]
        assert sum(chances) == pytest.approx(1.0, abs=1e-4)
        rotated = scores[1:] + scores[:1]
        assert o.win_chance(rotated, k - 1) == pytest.approx(chances[0], abs=1e-9)
        if len(set(scores)) == 1:
            assert chances[0] == pytest.approx(1 / k, abs=1e-4)
        for up in (1, 5):  # more for oneself is better, more for another worse
            mine = (scores[0] + up, *scores[1:])
            theirs = (scores[0], scores[1] + up, *scores[2:])
            if max(mine) < 30:
                assert o.win_chance(mine, 0) > chances[0]
            if max(theirs) < 30:
                assert o.win_chance(theirs, 0) < chances[0]
    assert o.win_chance([31] + [30] * (k - 1), 0) == 1.0  # a game over is decided


def test_hand_changes_follow_the_house_rules() -> None:
    pts, _ = hand_changes(4, PepperRules(set_penalty=10))
    assert min(int(p) for row in pts for p in row) == -10
    assert not Outlook(3, PepperRules(target=200)).ready  # too far for the 3-side table


# Seat 1 (side 1) bids first: JC QC JD 9H JH KH, a good hand with some holes.
SEED = 2


def _choice(scores: tuple[int, int]) -> str:
    g = PepperGame(players=4, seed=SEED, dealer=0)
    g.apply("deal")
    view = dataclasses.replace(g.view(1), scores=scores)
    return ExpertBot(worlds=40, seed=1).choose(view, g.legal_actions())


def test_near_the_target_the_expert_gambles_or_plays_safe() -> None:
    level = _choice((0, 0))
    assert level not in ("small", "big")  # at 0 : 0 a number
    assert _choice((29, 20)) == "big"  # the others win with any trick: only Big Pepper can win now
    assert _choice((20, 29)) not in ("small", "big")  # one trick wins the game: no gamble


def test_points_alone_ignore_the_score() -> None:
    g = PepperGame(players=4, seed=SEED, dealer=0)
    g.apply("deal")
    plain = [
        ExpertBot(worlds=40, seed=1, outlook=False).choose(
            dataclasses.replace(g.view(1), scores=s), g.legal_actions()
        )
        for s in ((0, 0), (29, 20))
    ]
    assert plain[0] == plain[1] != "big"


def test_the_last_bidder_must_bid_and_redeal_lets_it_pass() -> None:
    g = PepperGame(players=3, seed=1, dealer=0)
    g.apply("deal")
    weak = [0.0, 0.0, 0.0]
    assert simulate_rest(g.view(1), "pass", weak) == (0, 1)  # seat 2 passes, dealer 0 must bid
    redeal = dataclasses.replace(g.view(1), rules=PepperRules(all_pass="redeal"))
    assert simulate_rest(redeal, "pass", weak) is None  # everybody passes: the deal passes on
    assert model_call(3, 0.0, 0, False, True) == 1 and model_call(3, 0.0, 0, False, False) == 0
    # the expert as the last bidder after three passes bids, the cheapest of equal bids
    g4 = PepperGame(players=4, seed=1, dealer=0)
    rags = ["9C", "QC", "9S", "TS", "9D", "TD"]
    g4.deal([rags, ["AS", "JH", "JD", "AH", "KH", "QH"], ["JC", "TH", "9H", "AC", "AD", "JS"],
             ["KC", "TC", "QS", "KS", "QD", "KD"]])  # fmt: skip
    for _ in range(3):
        g4.apply("pass")
    values = ExpertBot(worlds=30, seed=2).call_values(g4.view(0), g4.legal_actions())
    assert "pass" not in values and ExpertBot(worlds=30, seed=2).choose(
        g4.view(0), g4.legal_actions()
    ) == min(values, key=lambda b: (-round(values[b], 9), g4.legal_actions().index(b)))
