"""P1 (deck and notation) and P8 (ranking, the left bower), through parse_card and trick_winner."""

from __future__ import annotations

import itertools

import pytest

from pfeffer.pepper import ActionError, IllegalAction, InvalidAction, parse_card, trick_winner
from pfeffer.pepper.cards import CARD_PRETTY, CARD_STR, card_str

from .pepper_helpers import DECK, ref_trick_winner


class TestP1Deck:
    def test_24_distinct_cards_9_to_ace_in_four_suits(self) -> None:
        assert len(set(CARD_STR)) == 24
        assert sorted(CARD_STR) == sorted(DECK)
        assert {c[0] for c in CARD_STR} == set("9TJQKA")
        assert {c[1] for c in CARD_STR} == set("CDHS")

    @pytest.mark.parametrize(
        ("text", "canonical"),
        [
            ("JC", "JC"),
            ("jc", "JC"),
            ("10H", "TH"),
            ("TH", "TH"),
            ("th", "TH"),
            ("J♣", "JC"),
            ("10♥", "TH"),
            ("A♠", "AS"),
            ("9♦", "9D"),
            ("q♡", "QH"),
            (" KS ", "KS"),
        ],
    )
    def test_parsing_accepts_every_notation(self, text: str, canonical: str) -> None:
        assert card_str(parse_card(text)) == canonical

    @pytest.mark.parametrize("bad", ["", "8C", "2H", "JX", "J", "10", "1H", "JCC", "joker", "♣J"])
    def test_bad_notation_raises_invalid_action(self, bad: str) -> None:
        with pytest.raises(InvalidAction, match="not a Pepper card"):
            parse_card(bad)

    def test_illegal_action_is_a_value_error_from_core(self) -> None:
        from pfeffer.core.errors import IllegalAction as Core

        assert IllegalAction is Core
        assert issubclass(IllegalAction, ValueError)

    def test_pretty_names(self) -> None:
        assert CARD_PRETTY[CARD_STR.index("TH")] == "10♥"
        assert all(card_str(parse_card(p)) == c for p, c in zip(CARD_PRETTY, CARD_STR, strict=True))


class TestP8Ranking:
    def test_example_from_the_api_contract(self) -> None:
        assert trick_winner(["AS", "9S", "JD", "KS"], trump="H") == 2

    def test_right_bower_beats_left_bower_beats_ace(self) -> None:
        assert trick_winner(["AH", "JD", "JH"], trump="H") == 2
        assert trick_winner(["AH", "JD", "KH"], trump="H") == 1
        assert trick_winner(["AH", "KH", "QH", "TH", "9H"], trump="H") == 0

    def test_trump_order_all_pairs(self) -> None:
        order = ["9S", "TS", "QS", "KS", "AS", "JC", "JS"]  # spades trump, low to high
        for i, j in itertools.combinations(range(len(order)), 2):
            assert trick_winner([order[i], order[j]], trump="S") == 1
            assert trick_winner([order[j], order[i]], trump="S") == 0

    def test_plain_suit_order_and_no_trump(self) -> None:
        order = ["9D", "TD", "JD", "QD", "KD", "AD"]
        for t in ("C", "S", None, "NT"):
            for i, j in itertools.combinations(range(6), 2):
                assert trick_winner([order[i], order[j]], trump=t) == 1

    def test_left_bower_is_not_a_card_of_its_printed_suit(self) -> None:
        # Diamonds led, hearts trump: JD is a trump, so it beats the AD as a trump would.
        assert trick_winner(["AD", "JD"], trump="H") == 1
        # Under clubs trump JD is an ordinary diamond and loses to the AD.
        assert trick_winner(["AD", "JD"], trump="C") == 0
        # Led, the left bower leads trumps: a heart 9 does not beat it, a diamond ace cannot.
        assert trick_winner(["JD", "AD", "9H"], trump="H") == 0

    def test_off_suit_never_wins_without_trump(self) -> None:
        assert trick_winner(["9C", "AS", "AD", "AH"], trump=None) == 0
        assert trick_winner(["9C", "AS", "AD", "TC"], trump="H") == 3

    def test_no_trump_jacks_are_plain(self) -> None:
        assert trick_winner(["QH", "JH", "JD"], trump=None) == 0

    def test_matches_reference_on_all_two_and_three_card_tricks(self) -> None:
        for trump in ("C", "D", "H", "S", None):
            for pair in itertools.permutations(DECK, 2):
                assert trick_winner(list(pair), trump) == ref_trick_winner(list(pair), trump)
            for triple in itertools.islice(itertools.permutations(DECK, 3), 0, None, 7):
                assert trick_winner(list(triple), trump) == ref_trick_winner(list(triple), trump)

    def test_bad_input(self) -> None:
        with pytest.raises(InvalidAction):
            trick_winner([], trump="H")
        with pytest.raises(ActionError):
            trick_winner(["AS", "AS"], trump="H")
        with pytest.raises(InvalidAction):
            trick_winner(["AS", "KS"], trump="X")
