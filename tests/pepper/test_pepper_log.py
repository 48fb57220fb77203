"""The Pepper lines of the table's log (pfeffer.pepper.log): built from what a seat may see, the
same for every seat, card by card for the hand on the table and by result for earlier hands."""

from __future__ import annotations

import random

import pytest

from pfeffer.pepper import PepperGame, PepperRules
from pfeffer.pepper.log import PepperEvent, pepper_log


def step(game: PepperGame, rng: random.Random) -> None:
    legal = game.legal_actions()
    # Bid sometimes, so that hands get played; pass otherwise.
    bids = [a for a in legal if a not in ("pass",)]
    game.apply(rng.choice(bids) if "pass" in legal and rng.random() < 0.3 else rng.choice(legal))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_reads_the_same_log_and_it_tells_the_hand(players: int) -> None:
    rng = random.Random(players)
    game = PepperGame(players, PepperRules(target=6), seed=players)
    played: list[tuple[int, str]] = []  # (seat, card) of the hand on the table, as played
    while not game.is_over and len(game.history) < 5:
        if game.phase == "deal":
            played = []
        seat, phase = game.current_player, game.phase
        step(game, rng)
        if phase == "play":
            assert seat is not None
            played.append((seat, game.actions[-1]))
        logs = [pepper_log(game.view(s), game.history) for s in range(players)]
        public = pepper_log(game.view(None), game.history)
        assert all(log == public for log in logs)  # nobody's hand is in it
        plays = [(e.seat, e.value) for e in public if e.kind == "play"]
        assert plays == played
        ends = [e for e in public if e.kind in ("hand", "redeal")]
        assert len(ends) == len(game.history)
        for e, r in zip(ends, game.history, strict=True):
            assert e.number == r.hand_number
            if e.kind == "hand":
                assert (e.seat, e.value, e.trump, e.made) == (r.bidder, r.bid, r.trump, r.made)
                assert e.points == r.points and e.tricks == r.tricks
            else:
                assert r.bidder is None
    while not game.is_over:  # to the end, with a fixed computer player
        game.apply(game.legal_actions()[0])
    final = pepper_log(game.view(None), game.history)
    wins = [e for e in final if e.kind == "win"]
    assert wins
    assert [e.side for e in wins] == game.winners
    assert [e.points for e in wins] == [(game.scores[w],) for w in game.winners]


def test_the_hand_just_played_stays_until_the_next_deal() -> None:
    rng = random.Random(9)
    game = PepperGame(["Ann", "Bob", "Cy", "Di"], seed=9, dealer=0)
    game.apply("deal")
    while game.phase == "auction":
        game.apply("2" if "2" in game.legal_actions() else "pass")
    game.apply("S")
    while game.phase == "play":
        game.apply(rng.choice(game.legal_actions()))
    assert game.phase == "deal"
    log = pepper_log(game.view(2), game.history)
    assert log[0] == PepperEvent("deal", 0, number=1)
    assert log[1] == PepperEvent("bid", 1, "2")
    assert [e.kind for e in log].count("play") == 24 and [e.kind for e in log].count("trick") == 6
    last = game.history[-1]
    assert log[-1] == PepperEvent("hand", 1, "2", 1, "S", last.made, last.points, last.tricks)
    game.apply("deal")  # the next deal: the first hand shrinks to its result
    log = pepper_log(game.view(None), game.history)
    assert log[0].kind == "hand" and log[1] == PepperEvent("deal", 1, number=2)
    assert PepperEvent("play", 1, "AH").to_dict() == {"kind": "play", "seat": 1, "value": "AH"}


def test_everyone_passing_is_a_redeal_line() -> None:
    game = PepperGame(3, PepperRules(all_pass="redeal"), seed=1, dealer=2)
    game.apply("deal")
    for _ in range(3):
        game.apply("pass")
    log = pepper_log(game.view(None), game.history)
    assert [e.to_dict() for e in log] == [{"kind": "redeal", "number": 1}]
