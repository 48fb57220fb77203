"""PepperAction: Pepper notation as a value that parses and prints exactly (issue 19)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import pfeffer
from pfeffer.core.errors import IllegalAction, InvalidAction
from pfeffer.pepper import PepperGame, PepperRules
from pfeffer.pepper.action import BID_WORDS, PepperAction
from pfeffer.pepper.cards import CARD_STR
from pfeffer.web.i18n import LOCALE_DIR


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("JD", "card", "JD"),
        ("jd", "card", "JD"),
        (" 10♥ ", "card", "TH"),
        ("Q♠\ufe0f", "card", "QS"),
        ("pass", "pass", ""),
        ("PASS ", "pass", ""),
        ("3", "bid", "3"),
        ("7", "bid", "7"),
        ("Small", "bid", "small"),
        ("big pepper", "bid", "big"),
        ("h", "trump", "H"),
        ("♣", "trump", "C"),
        ("NT", "trump", "NT"),
        ("no trump", "trump", "NT"),
        ("Deal", "deal", ""),
    ],
)
def test_parse_reads_every_spelling(text: str, kind: str, value: str) -> None:
    action = PepperAction.parse(text)
    assert (action.kind, action.value, action.hands) == (kind, value, ())
    assert PepperAction.parse(str(action)) == action  # prints what it parses


def test_a_deal_written_out_parses_to_its_hands_and_prints_back() -> None:
    text = "deal 9C TC JC QC KC AC 9D TD / JD QD KD AD 9H TH JH QH / KH AH 9S TS JS QS KS AS"
    action = PepperAction.parse(text.lower().replace("th", "10♥"))
    assert action.kind == "deal" and len(action.hands) == 3 and action.hands[1][5] == "TH"
    assert str(action) == text


@pytest.mark.parametrize(
    "text", ["", "jump", "8", "0", "9", "T", "8C", "1H", "keep 15", "deal 9C 8C", "small fry"]
)
def test_what_is_no_pepper_action_is_invalid(text: str) -> None:
    with pytest.raises(InvalidAction) as info:
        PepperAction.parse(text)
    assert str(info.value).endswith(".")


@pytest.mark.parametrize("bad", [None, 5, ["JD"], b"JD"])
def test_what_is_no_string_is_invalid(bad: object) -> None:
    with pytest.raises(InvalidAction, match="An action is a string"):
        PepperAction.parse(bad)  # type: ignore[arg-type]


def test_every_bid_word_and_card_is_an_action() -> None:
    assert [str(PepperAction.parse(w)) for w in BID_WORDS] == list(BID_WORDS)
    assert [str(PepperAction.parse(c.lower())) for c in CARD_STR] == list(CARD_STR)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_action_of_whole_games_round_trips_and_applies_as_a_value(
    players: int,
) -> None:
    """Over whole games: each legal action parses to a value that prints as listed; applying
    the value or its string does the same."""
    rng = random.Random(players)
    rules = PepperRules(target=10)
    game, twin = (PepperGame(players, rules, seed=players) for _ in range(2))
    for _ in range(2000):
        if game.is_over:
            break
        legal = game.legal_actions()
        for text in legal:
            assert str(PepperAction.parse(text)) == text
        # Passing where one may keeps the contracts small, so that the game ends.
        text = "pass" if "pass" in legal and rng.random() < 0.7 else rng.choice(legal)
        game.apply(text, seat=game.current_player)
        twin.apply(PepperAction.parse(text), seat=twin.current_player)
    assert game.is_over and twin.state_key() == game.state_key()
    for text in game.actions:  # the record's actions, deals written out
        assert str(PepperAction.parse(text)) == text


def test_the_engine_tells_invalid_from_illegal_by_the_parse() -> None:
    game = PepperGame(4, seed=1, dealer=0)
    game.apply("deal")
    for text in ("JD", "H", "deal"):  # actions, but not now
        with pytest.raises(IllegalAction, match="is not a bid"):
            game.apply(text)
    for text in ("8", "jump"):  # no actions at all
        with pytest.raises(InvalidAction, match="is not a bid"):
            game.apply(text)
    with pytest.raises(IllegalAction, match="is not a bid"):
        game.apply("6")  # a bid of 2 or 3 players, not of 4


def test_the_parsers_messages_are_in_the_catalogues() -> None:
    """The web front end translates a message by its template: every template of the action
    module is in the German and Czech catalogues, with the same placeholders."""
    source = Path(pfeffer.__file__).parent / "pepper" / "action.py"
    found = [
        part.value
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith(".format")
        for part in ast.walk(node)
        if isinstance(part, ast.Constant) and isinstance(part.value, str) and "{" in part.value
    ]
    assert all(isinstance(t, str) for t in found)
    assert len(set(found)) >= 2
    for lang in ("de", "cs"):
        with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
            catalogue = read_po(f, locale=lang)
        for template in set(found):
            message = catalogue.get(template)
            assert message is not None and message.string, (lang, template)
