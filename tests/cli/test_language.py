"""The terminal in German and Czech (issue 22 §3): ``--lang`` and LANG/LC_ALL choose the language
of every screen, numbers meet nouns in the catalogue's plural forms, and no English is left on a
walk through the screens."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from pfeffer.cli import app, words
from pfeffer.cli.common import DATA_DIR_ENV
from tests.cli.helpers import lines

#: English words of the screens (whole words, case-sensitive) that must not remain in de or cs.
ENGLISH = [
    "trick", "tricks", "Trick", "Hand", "deals", "deal", "passed", "named", "played", "won",
    "Contract", "Scores", "scores", "your", "cards", "Auction", "table", "Winner", "Shared",
    "Game", "record", "saved", "clubs", "hearts", "spades", "diamonds", "trump", "Review",
    "press", "Enter when", "Type", "save", "quit", "You", "you", "with", "players", "the",
    "Keys", "rules", "In force", "House", "Change", "default", "Bids", "Set", "side", "wins",
]  # fmt: skip


def english(text: str) -> list[str]:
    """The English words of :data:`ENGLISH` in ``text`` (paths and commands left out)."""
    text = re.sub(r"(/\S+|pfeffer \w+ \w+ --\S+ \S+|--rule \S+|e\.g\. )", " ", text)
    return [w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


def invoke(tmp_path: Path, args: list[str], input: str = "", **env: str) -> Result:
    base = {DATA_DIR_ENV: str(tmp_path / "data"), "COLUMNS": "120", "LC_ALL": "", "LANG": ""}
    result = CliRunner().invoke(app, args, input=input, env={**base, "LC_MESSAGES": "", **env})
    assert result.exit_code == 0, result.output
    return result


PEPPER = ["pepper", "play", "You", "Bot:random", "--players", "2", "--dealer", "2", "--seed",
          "3", "--bot-delay", "0", "--no-review"]  # fmt: skip


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_pepper_play_walk(tmp_path: Path, lang: str) -> None:
    save = str(tmp_path / "p.json")
    keys = lines("?", "t", "p", *["1"] * 8, "q")
    result = invoke(tmp_path, ["--lang", lang, *PEPPER, "--save", save], keys)
    assert not english(result.output), result.output


@pytest.mark.parametrize(("env", "lang"), [("LANG", "de_DE.UTF-8"), ("LC_ALL", "cs_CZ.UTF-8")])
def test_the_locale_chooses_the_language(tmp_path: Path, env: str, lang: str) -> None:
    result = invoke(tmp_path, ["pepper", "rules"], **{env: lang})
    assert ("Karten-Pfeffer in Kürze" if lang.startswith("de") else "Karetní Pfeffer") in (
        result.output
    )
    assert not english(result.output), result.output


def test_a_command_s_lang_wins_over_the_locale(tmp_path: Path) -> None:
    result = invoke(tmp_path, ["pepper", "rules", "--lang", "cs"], LANG="de_DE.UTF-8")
    assert "Platná domácí pravidla" in result.output
    result = invoke(tmp_path, ["pepper", "rules", "--lang", "en"], LANG="de_DE.UTF-8")
    assert "House rules in force" in result.output


def test_an_unknown_language_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["--lang", "fr", "pepper", "rules"])
    assert result.exit_code != 0 and "one of en, de, cs" in result.output


def test_czech_plurals_1_2_5() -> None:
    words.use("cs")
    tricks = [words.counted(n, "%(n)d trick", "%(n)d tricks") for n in (1, 2, 5)]
    assert tricks == ["1 štych", "2 štychy", "5 štychů"]
    choose = [
        words.counted(n, "Choose the card with 1, or type it (e.g. JD).",
                      "Choose a card from 1 to %(n)d, or type it (e.g. JD).")
        for n in (1, 2)
    ]  # fmt: skip
    assert choose[0].startswith("Vyber kartu číslem 1") and "od 1 do 2" in choose[1]


def test_english_stays_as_it_was(tmp_path: Path) -> None:
    result = invoke(tmp_path, ["--lang", "en", *PEPPER, "--save", str(tmp_path / "e.json")],
                    lines("p", *["1"] * 8, "q"))  # fmt: skip
    assert "You passed." in result.output and "Hand 1 · Random deals" in result.output


DICE = ["dice", "play", "Eva", "bot:heuristic", "--seed", "2", "--bot-delay", "0"]


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_dice_play_walk(tmp_path: Path, lang: str) -> None:
    keys = lines("", "1", "b", "?", "t", *[""] * 12, "q")
    result = invoke(tmp_path, [*DICE, "--lang", lang, "--save", str(tmp_path / "d.json")], keys)
    out = re.sub(r"keep [\d ]+|Notation.*|roll, bank", "", result.output)
    assert not english(out), result.output
    assert ("Zum Aufschreiben brauchst du" if lang == "de" else "K zapsání potřebuješ") in out


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_dice_rules_with_house_rules(tmp_path: Path, lang: str) -> None:
    args = ["dice", "rules", "--lang", lang, "--rule", "min_bank=500", "--rule", "tie=playoff"]
    result = invoke(tmp_path, args)
    assert not english(result.output), result.output


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_score_sheets_walk(tmp_path: Path, lang: str) -> None:
    pad = invoke(tmp_path, ["pepper", "sheet", "Ann", "Bob", "--dealer", "1", "--lang", lang],
                 lines("Ann 3 H 4", "Bob", "2", "C", "3", "t", "q"))  # fmt: skip
    assert not english(re.sub(r"'Ann 3 H 4 2'|all_pass=redeal", "", pad.output)), pad.output
    sheet = invoke(tmp_path, ["dice", "sheet", "Ann", "Bob", "--lang", lang],
                   lines("450", "b", "t", "q"))  # fmt: skip
    assert not english(re.sub(r"p bust", "", sheet.output)), sheet.output
    assert ("Niete" if lang == "de" else "nic") in sheet.output


def test_dice_hint_in_czech(tmp_path: Path) -> None:
    keys = lines("", "a", "1", "a", "q")
    result = invoke(tmp_path, [*DICE, "--lang", "cs", "--save", str(tmp_path / "h.json")], keys)
    out = re.sub(r"keep [\d ]+|\broll\b", "", result.output)
    assert "házet dál 5 kostkami" in out and "Možnost" in out
    assert not english(out), result.output


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_replays(tmp_path: Path, lang: str) -> None:
    dice, pepper = str(tmp_path / "d.json"), str(tmp_path / "p.json")
    invoke(tmp_path, [*DICE, "--save", dice], lines("", "1", "q"))
    invoke(tmp_path, [*PEPPER, "--save", pepper], lines("p", "1", "q"))
    for game, path in (("dice", dice), ("pepper", pepper)):
        result = invoke(tmp_path, [game, "replay", path, "--lang", lang])
        assert not english(result.output), result.output


def test_confirmations_in_the_language(tmp_path: Path) -> None:
    args = ["pepper", "sheet", "Ann", "Bob", "--rule", "target=10", "--dealer", "1"]
    result = invoke(tmp_path, [*args, "--lang", "de"], lines("Ann big H 8 0", "j", ""))
    out = " ".join(result.output.split())
    assert "Dieser Eintrag beendet das Spiel: Ann gewinnt mit 16. Eintragen? (j/n)" in out
    assert "Gewinner: Ann mit 16!" in out
    result = invoke(tmp_path, [*args, "--lang", "cs"], lines("Ann big H 8 0", "n", "q"))
    assert "(a/n)" in result.output and "Kolo zrušeno." in result.output


def run(tmp_path: Path, args: list[str], input: str = "", **env: str) -> Result:
    """Like :func:`invoke`, for commands that refuse (any exit status)."""
    base = {DATA_DIR_ENV: str(tmp_path / "data"), "COLUMNS": "200", "LC_ALL": "", "LANG": ""}
    return CliRunner().invoke(app, args, input=input, env={**base, "LC_MESSAGES": "", **env})


#: English words of the refusals, the strategy card, manual dice and the solver's lines.
MORE_ENGLISH = [
    "No such file", "folder", "Cannot", "cannot", "permission", "Saved", "Players", "separated",
    "is a score sheet", "played game", "resumed", "keeps", "played by", "seat", "Throw", "throw",
    "digits", "dice", "crooked", "void", "Bank", "bank", "turn", "never", "opponent",
    "Call", "Choosing", "Solve", "solved", "Say", "starts", "Bust", "scores", "left", "choose",
]  # fmt: skip


def more_english(text: str) -> list[str]:
    """The words of :data:`ENGLISH` and :data:`MORE_ENGLISH` in ``text`` (paths, commands and
    the options' names left out)."""
    text = re.sub(r"(/\S+|'pfeffer [^']*'|pfeffer \w+ \w+|--\w[\w-]*|\bbot\b|\bbust\b)", " ", text)
    found = english(text)
    return found + [w for w in MORE_ENGLISH if re.search(rf"(?<![\w-]){w}(?![\w-])", text)]


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_strategy_card(tmp_path: Path, lang: str) -> None:
    for rule in ("auto_pfeffer=true", "pfeffer_reward=stake"):
        result = invoke(tmp_path, ["dice", "card", "--lang", lang, "--rule", rule])
        assert not more_english(result.output), result.output
    assert ("Strategiekarte" if lang == "de" else "Strategická karta") in result.output


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_file_and_record_refusals(tmp_path: Path, lang: str) -> None:
    sheet = tmp_path / "s.json"
    invoke(tmp_path, ["dice", "sheet", "Ann", "Bob", "--save", str(sheet)], lines("450", "q"))
    outputs = [
        run(tmp_path, ["--lang", lang, "dice", "play", "--resume", str(tmp_path / "no.json")]),
        run(tmp_path, ["--lang", lang, "pepper", "play", "--resume", str(tmp_path)]),
        run(tmp_path, ["--lang", lang, "dice", "play", "--resume", str(sheet)]),
        run(tmp_path, ["--lang", lang, "dice", "play", "--save", str(tmp_path)]),
        run(tmp_path, ["--lang", lang, "dice", "play", "--save", str(tmp_path / "x" / "g.json")]),
        run(tmp_path, ["--lang", lang, "pepper", "play", "--players", "5"]),
        run(tmp_path, ["--lang", lang, "pepper", "play", "A", "B", "C", "--players", "2"]),
        run(tmp_path, ["--lang", lang, "dice", "play", "Ann", "ann"]),
        run(tmp_path, ["--lang", lang, "dice", "play", "bot:clever"]),
        run(tmp_path, ["--lang", lang, "dice", "play", "--resume", str(sheet), "--seed", "1"]),
    ]
    for result in outputs:
        assert result.exit_code != 0, result.output
        # Click's own frame ("Usage:", "Invalid value for") is left to the --help work
        text = re.sub(r"Usage:.*|Try '.*|Invalid value for|Error|╭.*|╰.*|│", " ", result.output)
        assert not more_english(text), result.output
    said = " ".join(" ".join(r.output.split()) for r in outputs)
    if lang == "de":
        assert "Datei nicht gefunden" in said and "ist ein Ordner" in said
        assert "Pepper spielen 2, 3 oder 4 Spieler" in said and "Zwei Spieler heißen" in said
    else:
        assert "Soubor neexistuje" in said and "je složka" in said
        assert "Pepper hrají 2, 3 nebo 4 hráči" in said and "Dva hráči se jmenují" in said


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_manual_dice_and_saving(tmp_path: Path, lang: str) -> None:
    args = ["dice", "play", "--manual", "--bot-delay", "0", "--lang", lang]
    keys = lines("roll", "12", "turn 300", "155226", "1", "b", "zz", "q")
    result = invoke(tmp_path, [*args, "--save", str(tmp_path / "m.json")], keys)
    out = re.sub(r"'[^']*'|\b(roll|keep|bank|void|turn)\b|Notation.*", " ", result.output)
    assert not more_english(out), result.output
    assert ("Wirf deine 6 Würfel" if lang == "de" else "Hoď svými 6 kostkami") in result.output
    sheet = invoke(tmp_path, ["dice", "sheet", "A", "B", "--lang", lang], lines("450", "s", "q"))
    assert ("Gespeichert in" if lang == "de" else "Uloženo do") in sheet.output
    computer = invoke(tmp_path, [*DICE, "--lang", lang], lines("v", "q"))
    assert ("Computerwürfel" if lang == "de" else "Počítačové kostky") in computer.output


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_advice_refusals(tmp_path: Path, lang: str) -> None:
    outputs = [
        run(tmp_path, ["dice", "advise", "--lang", lang, "--total", "300"]),
        run(tmp_path, ["dice", "advise", "--lang", lang, "--dice", "3"]),
        run(tmp_path, ["dice", "advise", "--lang", lang, "--other", "10000"]),
        run(tmp_path, ["dice", "advise", "--lang", lang, "--total", "50", "--dice", "6"]),
        run(tmp_path, ["dice", "advise", "--lang", lang, "--score", "333"]),
        run(tmp_path, ["dice", "advise", "--lang", lang, "234662"]),
    ]
    for result in outputs:
        assert not more_english(result.output), result.output
    said = " ".join(" ".join(r.output.split()) for r in outputs)
    assert ("Kein Würfel zählt" if lang == "de" else "Žádná kostka neboduje") in said
    assert ("Ein Zug beginnt mit sechs Würfeln" if lang == "de" else "Tah začíná") in said


def test_help_in_german_and_czech(tmp_path: Path) -> None:
    de = invoke(tmp_path, ["--lang", "de", "dice", "play", "--help"]).output
    assert "Aufruf:" in de and "Optionen" in de and "Argumente" in de
    assert "Würfel-Pfeffer im Terminal spielen" in de and "Diese Hilfe zeigen" in de
    assert "Usage" not in de and "Show this message" not in de
    cs = invoke(tmp_path, ["pepper", "play", "--help"], LANG="cs_CZ.UTF-8").output
    assert "Použití:" in cs and "Volby" in cs and "Hrát Pepper v terminálu" in cs
    assert "Usage" not in cs
    groups = invoke(tmp_path, ["--help"], LANG="cs_CZ.UTF-8").output
    assert "Příkazy" in groups and "zapisovat skóre" in groups
    commands = invoke(tmp_path, ["--lang", "de", "pepper", "--help"]).output
    assert "Pepper im Terminal spielen" in commands and "Befehle" in commands


def test_click_errors_in_the_language(tmp_path: Path) -> None:
    result = run(tmp_path, ["--lang", "de", "pepper", "play", "--players", "9"])
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    assert "Aufruf:" in out and "Fehler" in out
    assert "Ungültiger Wert für SEATS: Pepper spielen 2, 3 oder 4 Spieler" in out
    result = run(tmp_path, ["--lang", "cs", "dice", "rules", "--nope"])
    assert "Neznámá volba: --nope" in result.output and "Chyba" in result.output


HELP_COMMANDS = [["dice", c] for c in ("advise", "review", "play", "rules", "score", "replay",
                                        "solve", "sheet", "card", "plot")]  # fmt: skip
HELP_COMMANDS += [["pepper", c] for c in ("play", "rules", "replay", "sheet")] + [[]]


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_every_help_page_in_the_language(tmp_path: Path, lang: str) -> None:
    """The commands' summaries and options' help (the trainers aside: their own work)."""
    for command in HELP_COMMANDS:
        out = invoke(tmp_path, ["--lang", lang, *command, "--help"]).output
        out = re.sub(r"'[^']*'|--\S+|bot:\S+|\[\w+\]", " ", out)
        words_found = re.findall(r"\b(the|and|of|with|Usage|Options|Show|Play|Print|Keep)\b", out)
        assert not words_found, (command, out)
    plays = invoke(tmp_path, ["--lang", lang, "dice", "play", "--help"]).output
    assert ("Startwert (Seed)" if lang == "de" else "Seed pro počítačové kostky") in plays


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_dice_trainer_walk(tmp_path: Path, lang: str) -> None:
    from tests.cli.test_dice_train import _expected, _wrong

    first, second = _expected(3, [True, False])
    args = ["dice", "train", "--count", "3", "--seed", "3", "--lang", lang]
    result = invoke(tmp_path, args, lines(first.answer, _wrong(second), "q"))
    out = re.sub(r"keep|bank|pfeffer|hot dice|final round|auto pfeffer|few dice|endgame|behind|"
                 r"ahead|\b[bkprq] ", " ", result.output)  # fmt: skip
    assert not more_english(out), result.output
    if lang == "de":
        assert "Aufgabe 1 von 3" in out and "✓ Richtig!" in out and "✗ Nicht am besten:" in out
        assert "1 von 2 richtig" in out and "verfehlte Aufgabe kommt noch einmal dran" in out
    else:
        assert "Úloha 1 z 3" in out and "✓ Správně!" in out and "✗ Není nejlepší:" in out
        assert "1 z 2 správně" in out and "chybná úloha přijde znovu na řadu" in out
    help_out = invoke(tmp_path, ["--lang", lang, "dice", "train", "--help"]).output
    assert ("Trainiere an Aufgaben" if lang == "de" else "Trénuj na úlohách") in help_out
    assert ("Wie viele Aufgaben" if lang == "de" else "Kolik úloh") in help_out


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_pepper_trainer_walk(tmp_path: Path, lang: str) -> None:
    from tests.cli.test_pepper_train import _expected, _wrong

    first, second = _expected(3, [True, False])
    args = ["pepper", "train", "--count", "3", "--seed", "3", "--lang", lang]
    result = invoke(tmp_path, args, lines(first.answer, _wrong(second), "q"))
    themes = r"card|bid|trump|open|opening lead|left bower|count the trumps|endplay|defence"
    out = re.sub(rf"{themes}|Small Pepper|Big Pepper|no trump|forced bid|\(QH.*\)", " ",
                 result.output)  # fmt: skip
    assert not more_english(out), result.output
    if lang == "de":
        assert "Aufgabe 1 von 3" in out and "✓ Richtig!" in out and "✗ Nicht am besten:" in out
        assert "Die anderen hatten:" in out and "1 von 2 richtig" in out
    else:
        assert "Úloha 1 z 3" in out and "✓ Správně!" in out and "✗ Není nejlepší:" in out
        assert "Karty ostatních:" in out and "1 z 2 správně" in out
    help_out = invoke(tmp_path, ["--lang", lang, "pepper", "train", "--help"]).output
    assert ("Trainiere an Aufgaben aus echten Runden" if lang == "de" else "Trénuj") in help_out
