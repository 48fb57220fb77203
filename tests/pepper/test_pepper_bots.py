"""Computer players: only view + legal actions, never illegal; heuristic beats random."""

from __future__ import annotations

from collections.abc import Sequence

from pfeffer.core.bots import Bot
from pfeffer.pepper import PepperGame, PepperView
from pfeffer.pepper.bots import HeuristicBot, RandomBot, estimate_tricks


def play(n: int, seed: int, bots: Sequence[Bot[PepperView]]) -> PepperGame:
    g = PepperGame(players=n, seed=seed)
    while not g.is_over:
        seat = g.current_player
        assert seat is not None
        legal = g.legal_actions()
        action = bots[seat].choose(g.view(seat), legal)
        assert action in legal
        g.apply(action)
    return g


def test_bots_satisfy_the_protocol_and_only_play_legal_actions() -> None:
    for n in (2, 3, 4):
        for seed in range(4):
            bots: list[Bot[PepperView]] = [
                HeuristicBot() if s % 2 else RandomBot(seed * 10 + s) for s in range(n)
            ]
            play(n, seed, bots)


def test_random_bot_is_reproducible() -> None:
    g = PepperGame(players=4, seed=0)
    g.apply("deal")
    a = [RandomBot(5).choose(g.view(1), g.legal_actions()) for _ in range(3)]
    b = [RandomBot(5).choose(g.view(1), g.legal_actions()) for _ in range(3)]
    assert a == b


def test_heuristic_team_beats_random_team() -> None:
    wins = 0
    for seed in range(40):
        bots: list[Bot[PepperView]] = [
            HeuristicBot(),
            RandomBot(seed),
            HeuristicBot(),
            RandomBot(-seed),
        ]
        g = play(4, seed, bots)
        wins += 0 in g.winners
    assert wins > 32  # > 80 %


def test_heuristic_beats_random_with_two_and_three() -> None:
    for n in (2, 3):
        wins = 0
        for seed in range(20):
            bots: list[Bot[PepperView]] = [HeuristicBot()] + [
                RandomBot(seed + s) for s in range(1, n)
            ]
            wins += 0 in play(n, seed, bots).winners
        assert wins >= 16


def test_hand_strength_estimates() -> None:
    strong = ["JH", "JD", "AH", "KH", "QH", "AS"]
    assert estimate_tricks(strong, "H", 4) > estimate_tricks(strong, "S", 4)
    assert estimate_tricks(strong, "H", 4) > 5
    assert estimate_tricks(["9C", "TD", "9H", "TH", "9S", "TS"], "C", 4) < 2


def test_heuristic_picks_its_best_trump_and_does_not_take_partners_trick() -> None:
    g = PepperGame(players=4, seed=1, dealer=3)
    g.deal(
        [
            ["JH", "JD", "AH", "KH", "QH", "AS"],
            ["9C", "TC", "JC", "QC", "KC", "AC"],
            ["9D", "TD", "QD", "KD", "AD", "9S"],
            ["9H", "TH", "TS", "JS", "QS", "KS"],
        ]
    )
    bot = HeuristicBot()
    assert bot.choose(g.view(0), g.legal_actions()) != "pass"
    g.bid(3)
    for _ in range(3):
        g.pass_bid()
    assert bot.choose(g.view(0), g.legal_actions()) == "H"
    g.declare("H")
    lead = bot.choose(g.view(0), g.legal_actions())
    assert lead == "JH"  # strong in trumps: draws trumps with the top one
    g.play("AS")  # (override: lead the spade ace to test the partner rule)
    g.play("9C")
    # Seat 2 (partner) must follow spades with 9S: forced. Then seat 3 plays.
    assert bot.choose(g.view(2), g.legal_actions()) == "9S"
