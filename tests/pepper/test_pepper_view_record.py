"""view(seat), the JSON game record (round trip, replay, errors) and clone()."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from pfeffer.core.errors import RecordError
from pfeffer.pepper import PepperGame, PepperRules, SetupError

from .pepper_helpers import one_suit_deal, play_random, random_action

CARD_RE = re.compile(r"\b[9TJQKA][CDHS]\b")


def started() -> PepperGame:
    g = PepperGame(players=4, seed=1, dealer=0, names=["Ann", "Bob", "Cy", "Di"])
    g.deal(one_suit_deal())
    g.bid(2)
    for _ in range(3):
        g.pass_bid()
    g.declare("D")
    g.play("JD")
    return g


class TestView:
    def test_contents(self) -> None:
        g = started()
        v = g.view(2)
        assert v.seat == 2 and v.phase == "play" and v.current_player == 2 and v.dealer == 0
        assert v.hand == ("9H", "TH", "JH", "QH", "KH", "AH")
        assert v.hand_sizes == (6, 5, 6, 6)
        assert v.auction == ((1, "2"), (2, "pass"), (3, "pass"), (0, "pass"))
        assert (v.high_bid, v.bidder, v.trump) == ("2", 1, "D")
        assert v.current_trick == ((1, "JD"),)
        assert v.led_suit == "D"
        assert v.tricks == () and v.tricks_won == (0, 0) and v.scores == (0, 0)
        assert v.rules == PepperRules() and v.names == ("Ann", "Bob", "Cy", "Di")

    def test_no_other_hand_no_dead_hand_no_seed(self) -> None:
        for n in (2, 3, 4):
            g = PepperGame(players=n, seed=987_654_321)
            g.apply("deal")
            for seat in [None, *range(n)]:
                text = repr(g.view(seat)) + repr(dataclasses.asdict(g.view(seat)))
                own = set(g.hand(seat)) if seat is not None else set()
                assert set(CARD_RE.findall(text)) == own
                assert "987654321" not in text

    def test_spectator_sees_no_hand(self) -> None:
        v = started().view(None)
        assert v.seat is None and v.hand == ()
        assert v.current_trick == ((1, "JD"),)

    def test_view_is_immutable(self) -> None:
        v = started().view(0)
        with pytest.raises(dataclasses.FrozenInstanceError):
            v.hand = ()  # type: ignore[misc]

    def test_bad_seat(self) -> None:
        with pytest.raises(SetupError):
            started().view(4)


class TestRecord:
    def test_envelope_and_deal_notation(self) -> None:
        g = started()
        rec = g.to_record()
        assert rec["format"] == "pfeffer-record" and rec["version"] == 1 and rec["game"] == "pepper"
        assert rec["players"] == ["Ann", "Bob", "Cy", "Di"]
        assert rec["rules"] == PepperRules().to_dict() and rec["dealer"] == 0 and rec["seed"] == 1
        assert rec["actions"] == [
            "deal 9C TC JC QC KC AC / 9D TD JD QD KD AD / 9H TH JH QH KH AH / 9S TS JS QS KS AS",
            "2",
            "pass",
            "pass",
            "pass",
            "D",
            "JD",
        ]
        assert json.loads(g.to_json()) == rec

    def test_full_game_round_trip(self) -> None:
        for n in (2, 3, 4):
            g = PepperGame(players=n, seed=n, rules=PepperRules(all_pass="redeal", target=20))
            play_random(g, random.Random(n))
            h = PepperGame.from_record(g.to_json())
            assert h.state_key() == g.state_key()
            assert h.winners == g.winners and h.results == g.results

    def test_replay_needs_no_rng_and_continues_with_the_same_deals(self) -> None:
        g = PepperGame(players=4, seed=42)
        rng = random.Random(0)
        while g.hand_number < 2:
            g.apply(random_action(g, rng))
        rec = g.to_record()
        rec_other_seed = dict(rec, seed=43)
        assert PepperGame.from_record(rec_other_seed).hand(0) == g.hand(0)  # deals written out
        h = PepperGame.from_record(rec)
        while g.phase != "deal":
            a = random_action(g, rng)
            g.apply(a)
            h.apply(a)
        g.apply("deal")
        h.apply("deal")
        assert [h.hand(s) for s in range(4)] == [g.hand(s) for s in range(4)]

    @pytest.mark.parametrize(
        "mutate",
        [
            lambda r: r.update(game="dice"),
            lambda r: r.update(version=99),
            lambda r: r.update(rules={"nonsense": 1}),
            lambda r: r["actions"].append("AS"),
            lambda r: r.update(scores=[99, 0]),
            lambda r: r.update(players=["solo"]),
        ],
    )
    def test_bad_records(self, mutate: object) -> None:
        rec = started().to_record()
        mutate(rec)  # type: ignore[operator]
        with pytest.raises(RecordError):
            PepperGame.from_record(rec)

    def test_not_json(self) -> None:
        with pytest.raises(RecordError):
            PepperGame.from_record("{nope")


class TestClone:
    def test_clone_is_independent(self) -> None:
        g = started()
        c = g.clone()
        assert c.state_key() == g.state_key()
        c.play("JH")
        assert g.hand(2) == ["9H", "TH", "JH", "QH", "KH", "AH"]
        assert g.current_player == 2 and c.current_player == 3
        assert g.legal_actions() == ["JH"]

    def test_clone_plays_on_identically(self) -> None:
        g = PepperGame(players=3, seed=7)
        rng = random.Random(7)
        for _ in range(40):
            g.apply(random_action(g, rng))
        c = g.clone()
        r1, r2 = random.Random(1), random.Random(1)
        play_random(g, r1)
        play_random(c, r2)
        assert c.state_key() == g.state_key()
