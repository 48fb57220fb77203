"""The terminal tells what happened from the engines' log events and takes partners, stakes and
the rules text from the engines (issue 19). Each test feeds the terminal something the game's
state does not say (a made-up event, a patched engine function): a terminal that worked it out
again from the state would print the state's numbers instead, and the test fails."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from pfeffer.cli import dice as cli_dice
from pfeffer.cli import pepper as cli_pepper
from pfeffer.cli.dice import PlaySession as DiceSession
from pfeffer.cli.dice_draw import rules_help as dice_rules_help
from pfeffer.cli.dice_narration import tell as tell_dice
from pfeffer.cli.pepper import PlaySession as PepperSession
from pfeffer.cli.pepper_draw import rules_help as pepper_rules_help
from pfeffer.cli.pepper_narration import tell as tell_pepper
from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice import rules_text as dice_rules_text
from pfeffer.dice.log import DiceEvent, dice_log
from pfeffer.pepper import HandResult, PepperGame, PepperRules, PepperView
from pfeffer.pepper import rules_text as pepper_rules_text
from pfeffer.pepper.log import PepperEvent, pepper_log
from pfeffer.pepper.rules import BidTerms, bid_terms
from pfeffer.web import rules_text as web_rules_text

CLI = Path(cli_dice.__file__).parent


def plain(lines: Sequence[tuple[str, str]]) -> list[str]:
    return [Text.from_markup(line).plain for _, line in lines]


def said(console: Console) -> str:
    return " ".join(console.export_text().split())


# ---------------------------------------------------------------- dice


def test_dice_lines_are_the_events_numbers() -> None:
    # No game reaches these numbers from this view: they can only come from the events.
    view = DiceGame(["Ann", "Bob"], seed=1).view()
    log = [
        DiceEvent("round", number=7),
        DiceEvent("pfeffer", 1, points=1234),
        DiceEvent("throw", 1, dice=(6, 6, 6, 1, 2, 3)),
        DiceEvent("keep", 1, dice=(6, 6, 6), points=600, total=4321),
        DiceEvent("bank", 1, points=4321, total=9876),
        DiceEvent("bonus", 1, points=1234, total=9876),
        DiceEvent("throw", 0, dice=(2, 2, 3, 4, 6, 6)),
        DiceEvent("bust", 0, points=0, total=55),
        DiceEvent("auto_pfeffer", 1, points=777),
        DiceEvent("throw", 1, dice=(2, 3)),
        DiceEvent("bust", 1, points=777, total=9099),
    ]
    assert plain(list(tell_dice(log, 1, view))) == [
        "Bob called Pfeffer! Stake 1234: bank at least 350 this turn, or lose 0.",
        "Bob threw   ⚅ 6  ⚅ 6  ⚅ 6  ⚀ 1  ⚁ 2  ⚂ 3",
        "Bob set aside 6 6 6 (+600): turn total 4321",
        "Bob banked 4321. Pfeffer won: +1234 bonus. Total: 9876",
        "Ann threw   ⚁ 2  ⚁ 2  ⚂ 3  ⚃ 4  ⚅ 6  ⚅ 6",
        "BUST! Ann scores nothing this turn. Total: 55",
        "Auto-Pfeffer! Ann scored nothing, so a bust costs Bob 777.",
        "Bob threw   ⚁ 2  ⚂ 3",
        "BUST! Bob scores nothing this turn. Auto-Pfeffer: -777. Total: 9099",
    ]
    # The penalty's reason is the turn's own Pfeffer event.
    called = [DiceEvent("pfeffer", 0, points=400), DiceEvent("bust", 0, points=800, total=-800)]
    assert plain(list(tell_dice(called, 1, view)))[-1] == (
        "BUST! Ann scores nothing this turn. Pfeffer lost: -800. Total: -800"
    )


def dice_session(console: Console, tmp_path: Path) -> DiceSession:
    game = DiceGame(["Ann", "Bob"], DiceRules(), hand_dice=True)
    return DiceSession(console, game, [], {}, manual=True, path=tmp_path / "d.json", bot_delay=0)


def test_dice_play_prints_what_the_log_says(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def log_with_a_bigger_bank(view: object) -> list[DiceEvent]:
        events = dice_log(view)  # type: ignore[arg-type]
        return [dataclasses.replace(e, points=9999) if e.kind == "bank" else e for e in events]

    monkeypatch.setattr(cli_dice, "dice_log", log_with_a_bigger_bank)
    console = Console(record=True, width=200, highlight=False)
    s = dice_session(console, tmp_path)
    for action in ("roll 111235", "keep 111", "bank"):
        assert s.act(action)
    out = said(console)
    assert "Ann banked 9999. Total: 1000" in out  # the state says 1000 banked
    assert "Ann set aside 1 1 1 (+1000): turn total 1000" in out


def test_a_void_bust_is_taken_back_from_the_log(tmp_path: Path) -> None:
    console = Console(record=True, width=200, highlight=False)
    s = dice_session(console, tmp_path)
    for action in ("roll 111235", "keep 111", "bank", "roll 223466", "void"):
        assert s.act(action)
    out = said(console)
    assert "BUST! Bob scores nothing this turn. Total: 0" in out
    assert "Void throw (Brandenburg): it does not count. Throw again." in out
    assert out.endswith("The bust is taken back. Bob: throw again.")
    assert s.game.current_player == 1 and s.log.told == dice_log(s.game.view())


# ---------------------------------------------------------------- pepper


def test_pepper_lines_are_the_events() -> None:
    view = PepperGame(["Ann", "Bob", "Cy", "Di"], seed=1, dealer=0).view(None)
    log = [
        PepperEvent("deal", 3, number=9),
        PepperEvent("bid", 0, "2"),
        PepperEvent("pass", 1),
        PepperEvent("bid", 2, "small"),
        PepperEvent("pass", 3),
        PepperEvent("pass", 0),
        PepperEvent("trump", 2, "NT"),
        *[PepperEvent("play", s, c) for s, c in ((2, "AS"), (3, "9S"), (0, "TS"), (1, "KS"))],
        PepperEvent("trick", 2),
        *[PepperEvent("play", s, c) for s, c in ((2, "AH"), (3, "9H"), (0, "TH"), (1, "KH"))],
        PepperEvent("trick", 1),
        PepperEvent("hand", 2, "small", 9, "NT", False, (-6, 5), (1, 5)),
    ]
    assert plain(list(tell_pepper(log, 0, view))) == [
        "Hand 9 · Di deals",
        "Ann bid 2.",
        "Bob passed.",
        "Cy bid Small Pepper.",
        "Di passed.",
        "Ann passed.",
        "Cy won the auction with Small Pepper.",
        "Cy named no trump. Contract: Ann & Cy need 6 tricks (Small Pepper).",
        "Cy played A♠.",
        "Di played 9♠.",
        "Ann played 10♠.",
        "Bob played K♠.",
        "  → Cy won trick 1 (A♠ 9♠ 10♠ K♠). Tricks: Ann & Cy 1 · Bob & Di 0",
        "Cy played A♥.",
        "Di played 9♥.",
        "Ann played 10♥.",
        "Bob played K♥.",
        "  → Bob won trick 2 (A♥ 9♥ 10♥ K♥). Tricks: Ann & Cy 1 · Bob & Di 1",
        "Ann & Cy went set with 1 of 6 tricks (Small Pepper): Ann & Cy -6, Bob & Di +5.",
    ]


def test_pepper_play_prints_what_the_log_says(monkeypatch: pytest.MonkeyPatch) -> None:
    def log_with_another_card(view: PepperView, results: Sequence[HandResult]) -> list[PepperEvent]:
        events = pepper_log(view, results)
        return [dataclasses.replace(e, value="AC") if e.kind == "play" else e for e in events]

    monkeypatch.setattr(cli_pepper, "pepper_log", log_with_another_card)
    console = Console(record=True, width=200, highlight=False)
    s = PepperSession(console, PepperGame(["Ann", "Bob"], seed=1, dealer=1), [], {}, path=None)
    for action in ("deal", "1", "pass", "H"):
        assert s.act(action)
    card = next(c for c in s.game.legal_actions() if c != "AC")
    assert s.act(card)
    assert said(console).endswith("Ann played A♣.")


def test_a_hand_folded_into_its_result_is_not_told_again() -> None:
    console = Console(record=True, width=200, highlight=False)
    game = PepperGame(["Ann", "Bob", "Cy"], PepperRules(), seed=2, dealer=0)
    s = PepperSession(console, game, [], {}, path=None)
    while game.hand_number < 3 and not game.is_over:
        assert s.act(game.legal_actions()[0])
    out = said(console)
    assert out.count("Hand 1 · Ann deals") == 1 and out.count("won the auction") == 2
    assert len(re.findall(r"(made it|went set) with", out)) == 2


# ---------------------------------------------------------------- partner and stakes


def test_the_partner_shown_is_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_pepper, "partner", lambda players, seat: 1)
    console = Console(record=True, width=200, highlight=False)
    s = PepperSession(console, PepperGame(["Ann", "Bob", "Cy", "Di"], seed=1, dealer=3), [], {},
                      path=None)  # fmt: skip
    assert s.act("deal")
    s.show_state(0)
    assert "Ann, your cards (partner: Bob):" in said(console)  # (0 + 2) % 4 would be Cy


def test_no_partner_is_shown_when_the_engine_has_none() -> None:
    console = Console(record=True, width=200, highlight=False)
    s = PepperSession(console, PepperGame(["Ann", "Bob", "Cy"], seed=1, dealer=2), [], {},
                      path=None)  # fmt: skip
    assert s.act("deal")
    s.show_state(0)
    assert "Ann, your cards:" in said(console) and "partner" not in said(console)


def test_the_peppers_stakes_are_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    def odd_terms(rules: PepperRules, players: int, bid: str) -> BidTerms:
        return dataclasses.replace(bid_terms(rules, players, bid), made_max=77, set_points=-55)

    asked: list[str] = []

    def refuse(console: Console, question: str) -> bool:
        asked.append(Text.from_markup(question).plain)
        return False

    monkeypatch.setattr(cli_pepper, "bid_terms", odd_terms)
    monkeypatch.setattr(cli_pepper, "confirm", refuse)
    console = Console(record=True, width=200, highlight=False)
    s = PepperSession(console, PepperGame(["Ann", "Bob"], seed=1, dealer=1), [], {}, path=None)
    assert s.act("deal")
    assert not s.human_act("big")
    assert asked == ["Big Pepper: you must win all 8 tricks (made +77, set -55). Bid it?"]


# ---------------------------------------------------------------- the rules text, once


def test_the_web_shows_the_rules_text_the_terminal_prints() -> None:
    assert web_rules_text.RULES["dice"] is dice_rules_text.RULES
    assert web_rules_text.RULES["pepper"] is pepper_rules_text.RULES
    for rules_help, texts, intro in (
        (dice_rules_help(DiceRules()), dice_rules_text.RULES, dice_rules_text.INTRO),
        (pepper_rules_help(PepperRules()), pepper_rules_text.RULES, pepper_rules_text.INTRO),
    ):
        out = Text.from_markup(rules_help).plain
        assert intro in out
        for rule in texts:
            assert f"{rule.id} {rule.title}: {rule.text}" in out


def test_no_rule_sentence_is_written_again_in_the_terminal() -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in sorted(CLI.glob("*.py")))
    for rule in (*dice_rules_text.RULES, *pepper_rules_text.RULES):
        # The opening words of each sentence, as they would stand in a string literal.
        opening = " ".join(rule.text.split()[:5])
        assert opening not in sources, rule.id


def test_in_force_lines_only_where_a_house_rule_changes_a_rule() -> None:
    assert "In force" not in dice_rules_help(DiceRules())
    changed = dice_rules_help(DiceRules(min_bank=500))
    assert changed.count("In force") == 1 and "at least 500 points" in changed
    # Pepper's bids and points depend on the player count: always under P5 and P10.
    assert pepper_rules_help(PepperRules(), 3).count("In force") == 2
