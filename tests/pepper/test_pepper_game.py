"""The game engine rule by rule: P2-P7, P9-P11, the named house rules, illegal actions."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from pfeffer.core.rng import ChanceStream
from pfeffer.pepper import (
    ActionError,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    PepperGame,
    PepperRules,
    RulesError,
    SetupError,
    score_hand,
)

from .pepper_helpers import DECK, one_suit_deal, play_random, random_action


def game4(**kw: object) -> PepperGame:
    g = PepperGame(players=4, seed=1, dealer=0, **kw)  # type: ignore[arg-type]
    g.deal(one_suit_deal())
    return g


class TestP2Players:
    @pytest.mark.parametrize(("n", "sides"), [(2, 2), (3, 3), (4, 2)])
    def test_sides(self, n: int, sides: int) -> None:
        g = PepperGame(players=n, seed=0)
        assert g.scores == [0] * sides

    @pytest.mark.parametrize("n", [0, 1, 5, 6])
    def test_other_counts_rejected(self, n: int) -> None:
        with pytest.raises(ValueError, match="2, 3 or 4"):
            PepperGame(players=n)

    def test_partners_sit_opposite_and_share_tricks(self) -> None:
        g = PepperGame(players=4, seed=0)
        assert [g.side_of(s) for s in range(4)] == [0, 1, 0, 1]
        g3 = PepperGame(players=3, seed=0)
        assert [g3.side_of(s) for s in range(3)] == [0, 1, 2]


class TestP3Dealer:
    def test_random_first_dealer_from_seed(self) -> None:
        dealers = {PepperGame(players=4, seed=s).dealer for s in range(40)}
        assert dealers == {0, 1, 2, 3}
        assert PepperGame(players=3, seed=9).dealer == PepperGame(players=3, seed=9).dealer

    def test_dealer_passes_clockwise_every_hand(self) -> None:
        g = PepperGame(players=3, seed=4, dealer=2)
        rng = random.Random(1)
        seen = [g.dealer]
        while not g.is_over:
            before = len(g.results)
            while len(g.results) == before:
                g.apply(random_action(g, rng))
            if not g.is_over:
                seen.append(g.dealer)
        assert seen == [(2 + i) % 3 for i in range(len(seen))]
        assert [r.dealer for r in g.results] == seen[: len(g.results)]


class TestP4Deal:
    @pytest.mark.parametrize(("n", "size", "dead"), [(4, 6, 0), (3, 8, 0), (2, 8, 8)])
    def test_hand_sizes(self, n: int, size: int, dead: int) -> None:
        g = PepperGame(players=n, seed=3)
        g.deal()
        assert [len(g.hand(s)) for s in range(n)] == [size] * n
        assert len(g.dead_hand()) == dead
        everything = [c for s in range(n) for c in g.hand(s)] + g.dead_hand()
        assert sorted(everything) == sorted(DECK)

    @pytest.mark.parametrize("n", [2, 3, 4])
    def test_one_card_at_a_time_from_left_of_dealer(self, n: int) -> None:
        seed, dealer = 11, n - 1
        g = PepperGame(players=n, seed=seed, dealer=dealer)
        g.apply("deal")
        deck = ChanceStream(seed).shuffle(0, list(range(24)))
        order = [(dealer + 1 + j) % n for j in range(n)] + ([2] if n == 2 else [])
        expect: list[list[str]] = [[] for _ in order]
        for i, c in enumerate(deck):
            expect[order[i % len(order)]].append(DECK[c])
        for s in range(n):
            assert g.hand(s) == sorted(expect[s], key=DECK.index)
        if n == 2:
            assert g.dead_hand() == sorted(expect[2], key=DECK.index)

    def test_deal_k_uses_shuffle_block_k(self) -> None:
        g = PepperGame(players=4, seed=5, dealer=0)
        rng = random.Random(0)
        g.apply("deal")
        while g.phase != "deal":
            g.apply(rng.choice(g.legal_actions()))
        g.apply("deal")
        deck = ChanceStream(5).shuffle(1, list(range(24)))
        # Dealer is now seat 1, so seat 2 gets the first card.
        assert DECK[deck[0]] in g.hand(2)

    def test_explicit_deal(self) -> None:
        g = game4()
        assert g.hand(1) == ["9D", "TD", "JD", "QD", "KD", "AD"]
        assert g.actions[0] == (
            "deal 9C TC JC QC KC AC / 9D TD JD QD KD AD / 9H TH JH QH KH AH / 9S TS JS QS KS AS"
        )

    def test_two_player_deal_has_dead_hand(self) -> None:
        g = PepperGame(players=2, seed=0, dealer=0)
        hands = [DECK[0:8], DECK[8:16], DECK[16:24]]
        g.deal(hands)
        assert g.dead_hand() == DECK[16:24]
        assert g.view(0).hand_sizes == (8, 8)
        with pytest.raises(IllegalAction):
            PepperGame(players=2, seed=0).deal(hands[:2])

    @pytest.mark.parametrize(
        ("hands", "msg"),
        [
            ([DECK[0:6], DECK[6:12], DECK[12:18]], "needs 4 hands"),
            ([DECK[0:5], DECK[5:12], DECK[12:18], DECK[18:24]], "must get 6 cards"),
            ([DECK[0:6], DECK[0:6], DECK[12:18], DECK[18:24]], "dealt twice"),
            ([[*DECK[0:5], "8C"], DECK[6:12], DECK[12:18], DECK[18:24]], "not a Pepper card"),
        ],
    )
    def test_bad_deals_rejected_unchanged(self, hands: list[list[str]], msg: str) -> None:
        g = PepperGame(players=4, seed=0, dealer=0)
        before = g.state_key()
        with pytest.raises(ActionError, match=msg):
            g.deal(hands)
        assert g.state_key() == before


class TestP5Bids:
    def test_ladders(self) -> None:
        g = game4()
        assert g.legal_actions() == ["pass", "1", "2", "3", "4", "5", "small", "big"]
        for n in (2, 3):
            g2 = PepperGame(players=n, seed=0)
            g2.deal()
            assert g2.legal_actions() == ["pass", *"1234567", "small", "big"]

    def test_six_is_not_a_bid_with_four(self) -> None:
        g = game4()
        with pytest.raises(IllegalAction, match="not a bid"):
            g.bid(6)
        with pytest.raises(InvalidAction, match="not a bid"):
            g.apply("8")

    def test_bid_forms(self) -> None:
        g = game4()
        g.bid(2)
        g.bid("3")
        g.bid("Small")
        assert g.contract == "small"


class TestP6Auction:
    def test_starts_left_of_dealer_and_must_go_higher(self) -> None:
        g = game4()
        assert g.current_player == 1
        g.bid(3)
        assert g.current_player == 2
        with pytest.raises(IllegalAction, match="higher"):
            g.bid(3)
        with pytest.raises(IllegalAction, match="higher"):
            g.bid(2)
        assert g.legal_actions() == ["pass", "4", "5", "small", "big"]

    def test_pass_is_final(self) -> None:
        g = game4()
        g.pass_bid()  # seat 1
        g.bid(1)  # seat 2
        g.bid(2)  # seat 3
        g.bid(3)  # seat 0
        assert g.current_player == 2  # seat 1 passed and is skipped

    def test_may_outbid_partner(self) -> None:
        g = game4()
        g.bid(2)  # seat 1
        g.pass_bid()
        g.bid(3)  # seat 3, partner of 1
        g.pass_bid()  # seat 0
        g.bid(4)  # seat 1 outbids partner
        g.pass_bid()  # seat 3
        assert (g.phase, g.bidder, g.contract) == ("declare", 1, "4")

    def test_ends_when_all_but_one_passed(self) -> None:
        g = game4()
        g.bid(1)
        g.pass_bid()
        g.pass_bid()
        assert g.phase == "auction"
        g.pass_bid()
        assert (g.phase, g.current_player, g.bidder) == ("declare", 1, 1)

    def test_big_pepper_ends_at_once(self) -> None:
        g = game4()
        g.pass_bid()
        g.bid("big")
        assert (g.phase, g.current_player, g.contract) == ("declare", 2, "big")

    def test_last_player_must_bid(self) -> None:
        g = game4()
        for _ in range(3):
            g.pass_bid()
        assert g.current_player == 0  # the dealer
        assert g.legal_actions() == ["1", "2", "3", "4", "5", "small", "big"]
        before = g.state_key()
        with pytest.raises(IllegalAction, match="must bid"):
            g.pass_bid()
        assert g.state_key() == before
        g.bid(1)
        assert (g.phase, g.bidder) == ("declare", 0)


class TestP7Declare:
    def test_winner_names_trump_or_no_trump_and_leads(self) -> None:
        for t, shown in (("H", "H"), (None, "NT"), ("nt", "NT"), ("♠", "S")):
            g = game4()
            g.bid(1)
            for _ in range(3):
                g.pass_bid()
            assert g.legal_actions() == ["C", "D", "H", "S", "NT"]
            g.declare(t)
            assert (g.trump, g.phase, g.current_player) == (shown, "play", 1)

    def test_bad_trump(self) -> None:
        g = game4()
        g.bid(1)
        for _ in range(3):
            g.pass_bid()
        with pytest.raises(InvalidAction, match="name trump"):
            g.apply("X")


class TestP8LeftBowerInPlay:
    def _hearts_trump(self, hands: list[list[str]]) -> PepperGame:
        g = PepperGame(players=4, seed=0, dealer=3)
        g.deal(hands)
        g.bid(1)
        for _ in range(3):
            g.pass_bid()
        g.declare("H")
        return g

    def test_left_bower_must_follow_trump_lead_and_not_diamonds(self) -> None:
        hands = [
            ["AH", "9C", "TC", "QC", "KC", "AC"],  # seat 0 leads
            ["JD", "AD", "9S", "TS", "QS", "KS"],  # only heart: JD
            ["9H", "TH", "QH", "KH", "JH", "9D"],
            ["TD", "QD", "KD", "JC", "JS", "AS"],
        ]
        g = self._hearts_trump(hands)
        g.play("AH")
        assert g.legal_cards() == ["JD"]  # JD is a heart now and must follow
        g.play("JD")
        g.play("JH")
        g.play("TD")  # void in hearts: anything
        assert g.current_player == 2  # right bower won
        g.play("9D")  # seat 2 leads a diamond
        assert g.legal_cards() == ["QD", "KD"]  # seat 3 must follow diamonds

    def test_left_bower_is_not_a_diamond_when_diamonds_are_led(self) -> None:
        hands = [
            ["9D", "9C", "TC", "QC", "KC", "AC"],
            ["JD", "AH", "9S", "TS", "QS", "KS"],  # JD is his only "diamond" by print
            ["9H", "TH", "QH", "KH", "JH", "TD"],
            ["AD", "QD", "KD", "JC", "JS", "AS"],
        ]
        g = self._hearts_trump(hands)
        g.play("9D")
        # Seat 1 holds no diamond (JD is a heart): any card may be played, not just JD.
        assert g.legal_cards() == ["JD", "AH", "9S", "TS", "QS", "KS"]
        g.play("9S")
        assert g.legal_cards() == ["TD"]


class TestP9Play:
    def _start(self) -> PepperGame:
        g = game4()
        g.bid("small")
        for _ in range(3):
            g.pass_bid()
        g.declare("D")
        return g

    def test_must_follow_and_void_may_play_anything(self) -> None:
        g = self._start()
        assert g.current_player == 1
        g.play("AD")
        # Seat 2 holds hearts; JH is the left bower, a diamond under diamond trumps: must play it.
        assert g.legal_cards() == ["JH"]
        g.play("JH")
        # Seat 3 holds only spades: void, so any card.
        assert g.legal_cards() == g.hand(3) == ["9S", "TS", "JS", "QS", "KS", "AS"]

    def test_winner_leads_next(self) -> None:
        g = self._start()
        g.play("JD")
        assert g.legal_cards() == ["JH"]
        with pytest.raises(IllegalAction, match="must follow suit"):
            g.play("AH")
        g.play("JH")
        g.play("AS")
        g.play("AC")
        assert g.current_player == 1
        assert g.tricks[0].winner == 1
        assert g.tricks_won == [0, 1]

    def test_not_in_hand(self) -> None:
        g = self._start()
        with pytest.raises(IllegalAction, match="do not hold"):
            g.play("AS")


class TestP10Scoring:
    def _small(self, trump: str, bid: str = "small") -> PepperGame:
        """Seat 1 (all diamonds) bids; seat 1 leads JD first, then everybody plays low."""
        g = game4()
        g.bid(bid)
        if bid != "big":
            for _ in range(3):
                g.pass_bid()
        g.declare(trump)
        if trump == "D":
            g.play("JD")
        while g.phase == "play":
            g.play(g.legal_cards()[0])
        return g

    def test_small_pepper_made(self) -> None:
        g = self._small("D")
        assert g.last_hand is not None
        assert g.last_hand.made and g.last_hand.tricks == (0, 6)
        assert g.scores == [0, 6]

    def test_big_pepper_made_doubles(self) -> None:
        g = self._small("D", "big")
        assert g.scores == [0, 12]

    def test_small_pepper_set(self) -> None:
        g = self._small("C")  # seat 0 holds every club: team 1 cannot take every trick
        assert g.last_hand is not None
        assert not g.last_hand.made
        t0 = g.last_hand.tricks[0]
        assert t0 > 0
        assert g.scores == [t0, -6]

    def test_big_pepper_set(self) -> None:
        g = self._small("C", "big")
        assert g.scores[1] == -12

    def test_score_hand_cases(self) -> None:
        r = PepperRules()
        assert score_hand(r, 4, 0, "2", [4, 2]) == [4, 2]  # made: tricks won, not the bid
        assert score_hand(r, 4, 0, "5", [4, 2]) == [-6, 2]
        assert score_hand(r, 4, 0, "small", [6, 0]) == [6, 0]
        assert score_hand(r, 4, 0, "big", [6, 0]) == [12, 0]
        assert score_hand(r, 4, 0, "big", [5, 1]) == [-12, 1]
        assert score_hand(r, 3, 2, "7", [0, 1, 7]) == [0, 1, 7]
        assert score_hand(r, 3, 2, "7", [1, 1, 6]) == [1, 1, -8]
        assert score_hand(r, 2, 1, "small", [0, 8]) == [0, 8]
        assert score_hand(r, 2, 1, "big", [1, 7]) == [1, -16]


class TestP11End:
    def test_ends_at_target_and_highest_wins(self) -> None:
        for seed in range(30):
            g = PepperGame(players=3, seed=seed)
            play_random(g, random.Random(seed))
            best = max(g.scores)
            assert best >= 30
            assert g.winners == [i for i, s in enumerate(g.scores) if s == best]
            # No side had reached the target before the last hand.
            assert all(max(r.scores) < 30 for r in g.results[:-1])

    def test_ties_are_shared(self) -> None:
        found = None
        for seed in range(3000):
            g = PepperGame(players=2, seed=seed, rules=PepperRules(target=2))
            play_random(g, random.Random(seed))
            if len(g.winners) > 1:
                found = g
                break
        assert found is not None
        assert found.winners == [0, 1]
        assert found.scores[0] == found.scores[1] >= 2

    def test_after_the_end_everything_is_illegal(self) -> None:
        g = PepperGame(players=4, seed=2)
        play_random(g, random.Random(2))
        assert g.is_over and g.legal_actions() == [] and g.current_player is None
        before = g.state_key()
        actions: list[Callable[[], None]] = [
            lambda: g.apply("deal"),
            g.deal,
            lambda: g.bid(1),
            g.pass_bid,
            lambda: g.declare("H"),
            lambda: g.play("AS"),
        ]
        for act in actions:
            with pytest.raises(IllegalAction, match="over"):
                act()
        assert g.state_key() == before


class TestHouseRules:
    def test_target(self) -> None:
        g = PepperGame(players=4, seed=1, rules=PepperRules(target=5))
        play_random(g, random.Random(1))
        assert max(g.scores) >= 5
        assert all(max(r.scores) < 5 for r in g.results[:-1])

    def test_all_pass_redeal(self) -> None:
        g = PepperGame(players=4, seed=1, dealer=0, rules=PepperRules(all_pass="redeal"))
        g.deal(one_suit_deal())
        for _ in range(3):
            g.pass_bid()
        assert g.legal_actions() == ["pass", "1", "2", "3", "4", "5", "small", "big"]
        g.pass_bid()
        assert (g.phase, g.dealer, g.current_player, g.scores) == ("deal", 1, 1, [0, 0])
        assert g.last_hand is not None and g.last_hand.bidder is None
        g.apply("deal")
        assert g.current_player == 2 and g.hand_number == 2

    def test_set_penalty(self) -> None:
        r = PepperRules(set_penalty=3)
        assert score_hand(r, 4, 0, "4", [3, 3]) == [-3, 3]
        assert score_hand(r, 2, 0, "4", [3, 5]) == [-3, 5]
        assert PepperRules().penalty(4) == 6 and PepperRules().penalty(2) == 8

    def test_set_penalty_in_engine(self) -> None:
        g = game4(rules=PepperRules(set_penalty=2))
        g.bid("small")
        for _ in range(3):
            g.pass_bid()
        g.declare("C")
        while g.phase == "play":
            g.play(g.legal_cards()[0])
        assert g.scores[1] == -2

    def test_big_pepper_factor(self) -> None:
        assert score_hand(PepperRules(big_pepper_factor=3), 4, 1, "big", [0, 6]) == [0, 18]
        assert score_hand(PepperRules(big_pepper_factor=3), 3, 1, "big", [1, 7, 0]) == [1, -24, 0]

    def test_no_trump_option(self) -> None:
        g = game4(rules=PepperRules(no_trump=False))
        g.bid(1)
        for _ in range(3):
            g.pass_bid()
        assert g.legal_actions() == ["C", "D", "H", "S"]
        with pytest.raises(IllegalAction, match="no trump is not allowed"):
            g.declare(None)
        with pytest.raises(IllegalAction):
            g.apply("NT")

    def test_rules_validation_and_dict(self) -> None:
        with pytest.raises(ValueError):
            PepperRules(all_pass="sometimes")
        with pytest.raises(ValueError):
            PepperRules(target=0)
        with pytest.raises(ValueError):
            PepperRules.from_dict({"colour": "red"})
        r = PepperRules(target=50, all_pass="redeal", set_penalty=4, big_pepper_factor=3)
        assert PepperRules.from_dict(r.to_dict()) == r


class TestIllegalActions:
    def test_wrong_phase_messages(self) -> None:
        g = PepperGame(players=4, seed=1, dealer=0, names=["Ann", "Bob", "Cy", "Di"])
        with pytest.raises(IllegalAction, match="Ann's turn to deal"):
            g.bid(1)
        with pytest.raises(IllegalAction, match="must deal"):
            g.apply("JC")
        g.deal(one_suit_deal())
        with pytest.raises(IllegalAction, match="Bob's turn to bid"):
            g.play("9D")
        with pytest.raises(IllegalAction, match="not a bid"):
            g.apply("JC")
        with pytest.raises(IllegalAction):
            g.deal()
        with pytest.raises(IllegalAction):
            g.declare("H")
        g.bid(1)
        for _ in range(3):
            g.pass_bid()
        with pytest.raises(IllegalAction, match="name trump"):
            g.apply("pass")
        g.declare("H")
        with pytest.raises(IllegalAction, match="not a card"):
            g.apply("pass")
        with pytest.raises(InvalidAction, match="not a Pepper card"):
            g.play("1H")

    def test_random_illegal_actions_change_nothing(self) -> None:
        junk = ["deal", "pass", "1", "5", "7", "small", "big", "C", "NT", "X", "", "8C", *DECK]
        for seed in range(20):
            rng = random.Random(seed)
            g = PepperGame(players=rng.choice([2, 3, 4]), seed=seed)
            while not g.is_over and g.hand_number < 4:
                legal = set(g.legal_actions())
                for a in junk:
                    if a not in legal:
                        before = g.state_key()
                        with pytest.raises(
                            IllegalAction if a not in ("X", "", "8C") else InvalidAction
                        ):
                            g.apply(a)
                        assert g.state_key() == before
                g.apply(random_action(g, rng))


class TestProtocol:
    """The shared game protocol: names, seats, error kinds, portable deals."""

    def test_players_are_names_and_a_count_still_works(self) -> None:
        assert PepperGame(players=4).players == ("Seat 0", "Seat 1", "Seat 2", "Seat 3")
        g = PepperGame(["Ann", "Bob", "Cy"], seed=1)
        assert g.players == ("Ann", "Bob", "Cy") and g.view(0).players == g.players
        assert g.phase == "deal" and g.view(None).phase == "deal"

    def test_none_while_naming_trump_is_not_no_trump(self) -> None:
        g = game4()
        g.bid(1)
        for _ in range(3):
            g.pass_bid()
        before = g.state_key()
        with pytest.raises(InvalidAction):
            g.apply(None)  # type: ignore[arg-type]
        assert g.state_key() == before and g.trump is None

    @pytest.mark.parametrize("bad", [["JD"], None, 5, ("JD",), b"JD"])
    def test_non_strings_are_invalid_not_type_errors(self, bad: object) -> None:
        g = game4()
        g.bid(1)
        for _ in range(3):
            g.pass_bid()
        g.declare("D")
        before = g.state_key()
        with pytest.raises(InvalidAction):
            g.apply(bad)  # type: ignore[arg-type]
        assert g.state_key() == before

    def test_seat_must_be_the_one_to_act(self) -> None:
        g = game4()  # seat 1 bids first
        before = g.state_key()
        with pytest.raises(NotYourTurn, match="Seat 1's turn"):
            g.apply("pass", seat=2)
        with pytest.raises(NotYourTurn):
            g.apply("pass", seat=7)
        assert g.state_key() == before
        g.apply("pass", seat=1)
        assert g.current_player == 2

    def test_constructor_errors_are_value_errors(self) -> None:
        for kwargs in ({"players": 5}, {"players": "ABCD"}, {"dealer": 9}, {"seed": "x"}):
            with pytest.raises(SetupError):
                PepperGame(**kwargs)
        with pytest.raises(RulesError):
            PepperGame(rules={"target": 30})  # type: ignore[arg-type]

    def test_a_word_of_another_phase_is_illegal_not_invalid(self) -> None:
        g = game4()
        with pytest.raises(IllegalAction):
            g.apply("JD")  # a card, but the auction runs
        with pytest.raises(InvalidAction):
            g.apply("bank")  # no Pepper action at all

    def test_the_deal_is_the_portable_shuffle(self) -> None:
        """Deal k of a seed is ChanceStream(seed).shuffle(k, deck): plain 64-bit arithmetic, the
        same in a compiled kernel. The first deal of seed 42 (4 players, dealer 0), written out."""
        g = PepperGame(players=4, seed=42, dealer=0)
        g.apply("deal")
        deck = ChanceStream(42).shuffle(0, list(range(24)))
        for s in range(4):
            assert g.hand(s) == sorted((DECK[c] for c in deck[(s + 3) % 4 :: 4]), key=DECK.index)
