"""A walk through every terminal command in German and Czech (issue 22, "Done when"): the
commands the other language tests do not reach to their end (a Pepper game played out with its
hand reviews, the dice advice, scoring, the solver's answer, a game review, the rules with house
rules, the server's start) show no English word and no number with the wrong form of its noun
("1 Stiche", "2 štychů")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cli.helpers import lines
from tests.cli.test_language import invoke, more_english
from tests.plurals import broken_plurals


def check(text: str, lang: str) -> None:
    """No English word of the screens (notation and paths left out) and no broken plural."""
    clean = re.sub(r"keep [\d ]+|\b(?:roll|bank|pfeffer)\b|Notation.*", " ", text)
    assert not more_english(clean), (more_english(clean), text)
    assert not broken_plurals(text, lang), (broken_plurals(text, lang), text)


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_a_pepper_game_played_out(tmp_path: Path, lang: str) -> None:
    """Two players against the expert to the end: every auction, trick, hand review and the
    winner's line (passing every auction, the first card each trick)."""
    args = ["--lang", lang, "pepper", "play", "You", "bot:expert", "--players", "2",
            "--dealer", "2", "--seed", "3", "--bot-delay", "0",
            "--save", str(tmp_path / "p.json")]  # fmt: skip
    result = invoke(tmp_path, args, lines(*["p", "1"] * 300))
    out = result.output
    assert ("Gewinner:" if lang == "de" else "Vítěz") in out, out
    assert ("Du bist dran: eine Karte spielen" if lang == "de" else "Jsi na tahu") in out
    check(out, lang)


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_dice_advice_scoring_and_the_solver(tmp_path: Path, lang: str) -> None:
    outputs = [
        invoke(tmp_path, ["--lang", lang, "dice", "advise", "115234", "--total", "300"]),
        invoke(tmp_path, ["--lang", lang, "dice", "advise", "--dice", "1", "--total", "400"]),
        invoke(tmp_path, ["--lang", lang, "dice", "score", "1", "1", "1", "5", "2", "3"]),
        invoke(tmp_path, ["--lang", lang, "dice", "score", "5", "2", "3", "4", "6", "6"]),
        invoke(tmp_path, ["--lang", lang, "dice", "score", "2", "2", "3", "4", "6", "6"]),
        invoke(tmp_path, ["--lang", lang, "dice", "solve"]),
    ]
    out = "\n".join(r.output for r in outputs)
    assert ("1 Möglichkeit zum" if lang == "de" else "1 možnost") in out, out
    check(out, lang)


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_a_dice_game_and_its_review(tmp_path: Path, lang: str) -> None:
    """Two computer players to the end, then the review of both (options in words)."""
    path = str(tmp_path / "d.json")
    game = invoke(tmp_path, ["--lang", lang, "dice", "play", "bot:heuristic", "bot:random",
                             "--seed", "4", "--bot-delay", "0", "--save", path])  # fmt: skip
    review = invoke(tmp_path, ["--lang", lang, "dice", "review", path, "--all"])
    out = game.output + review.output
    assert ("beiseitelegen" if lang == "de" else "odložit") in review.output, review.output
    check(out, lang)


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_pepper_rules_with_house_rules(tmp_path: Path, lang: str) -> None:
    args = ["--lang", lang, "pepper", "rules", "--rule", "target=42", "--rule", "no_trump=false"]
    check(invoke(tmp_path, args).output, lang)


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_four_players_teams_and_levels_by_name(tmp_path: Path, lang: str) -> None:
    """Teams and the levels' computer players are named in the language ("Du & Mittel", "Ty &
    Střední"), in the header, the scores, the reviews, the pad and the winner's line; the pad's
    word for a set contract wraps below the bid uncut."""
    args = ["--lang", lang, "pepper", "play", "You", "bot:hard", "bot:medium", "bot:easy",
            "--dealer", "2", "--seed", "5", "--bot-delay", "0",
            "--save", str(tmp_path / "p4.json")]  # fmt: skip
    out = invoke(tmp_path, args, lines(*["p", "1"] * 300)).output
    check(out, lang)
    assert not re.search(r"\b(?:You|Hard|Medium|Easy)\b", out), out
    team = "Du & Mittel" if lang == "de" else "Ty & Střední"
    assert out.count(team) > 10, out
    word = "verloren" if lang == "de" else "nesplněno"
    assert re.search(rf"^ +{word} +$", out, re.M), out
