"""Numbers in German and Czech (issue 22 §3): the dice solver's stages and refusals, a decimal
comma in running text and tables, and a decimal's noun (Czech: the genitive singular, "0,5
bodu")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pfeffer.cli import words
from pfeffer.cli.dice_advice import stage_text
from pfeffer.dice.solver import estimate as est
from pfeffer.dice.solver.stages import DONE, FINAL_ROUND, sweep
from tests.cli.helpers import lines
from tests.cli.test_language import more_english, run

GB = 2**30


def test_a_decimal_takes_its_own_form_in_czech() -> None:
    words.use("cs")
    points = [words.amount(x, 1, *words.POINTS) for x in (1, 2, 5, 0.5, 2.25, 3.0)]
    assert points == ["1 bod", "2 body", "5 bodů", "0,5 bodu", "2,2 bodu", "3 body"]
    pp = [words.amount(x, 2, *words.PERCENTAGE_POINTS) for x in (0.25, 4, 12)]
    assert pp == ["0,25 procentního bodu", "4 procentní body", "12 procentních bodů"]
    assert words.amount(1.5, 1, *words.TRICKS) == "1,5 štychu"
    words.use("de")
    assert words.amount(0.5, 1, *words.POINTS) == "0,5 Punkte"
    assert words.amount(1, 1, *words.TRICKS) == "1 Stich"
    assert words.number(12345.678, 2) == "12.345,68" and words.signed(-0.5) == "-0,5"
    words.use("en")
    assert words.amount(0.5, 1, *words.POINTS) == "0.5 points" and words.number(1234.5, 1) == (
        "1,234.5"
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [("de", ["Schlussrunde", "Durchlauf 3", "fertig"]), ("cs", ["poslední kolo", "průchod 3",
                                                                 "hotovo"])],
)  # fmt: skip
def test_solver_stages(lang: str, said: list[str]) -> None:
    words.use(lang)
    assert [stage_text(s) for s in (FINAL_ROUND, sweep(3), DONE)] == said
    words.use("en")
    assert [stage_text(s) for s in (FINAL_ROUND, sweep(3), DONE)] == ["final round", "sweep 3",
                                                                     "done"]  # fmt: skip


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_solve_refusals(tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(est, "available_memory", lambda: 16 * GB)
    outputs = [
        run(tmp_path, ["dice", "solve", "--lang", lang, "--rule", "target=100000"]),
        run(tmp_path, ["dice", "solve", "--lang", lang, "--rule", "target=30000"]),
        run(tmp_path, ["dice", "advise", "--lang", lang, "--rule", "target=100000"]),
    ]
    for result in outputs:
        assert result.exit_code != 0
        out = re.sub(r"--rule \S+|target=\S+", " ", result.output)
        assert not more_english(out) and not re.search(r"\d\.\d{1,2}\b|minutes|memory", out), out
    said = " ".join(" ".join(r.output.split()) for r in outputs)
    if lang == "de":
        assert "16,0 GB frei" in said and "2.200 Punktestände je Seite" in said
        assert "etwa 68 Minuten" in said
    else:
        assert "volných 16,0 GB" in said and "2 200 součtů na stranu" in said
        assert "asi 68 minut" in said


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_trainers_write_decimal_commas(tmp_path: Path, lang: str) -> None:
    from tests.cli.test_dice_train import _expected, _wrong

    first, second = _expected(3, [False, False])
    args = ["dice", "train", "--count", "2", "--seed", "3", "--lang", lang]
    result = run(tmp_path, args, lines(_wrong(first), _wrong(second), "q"))
    out = result.output
    assert not re.search(r"\d\.\d", out), out
    assert re.search(r"\d,\d", out), out
    noun = "Prozentpunkt" if lang == "de" else "procentní"
    assert noun in out and "percentage" not in out


@pytest.mark.parametrize(
    ("bid", "lang", "said"),
    [("small", "de", ["Bob bietet Kleinen Pfeffer.",
                      "Bob gewinnt das Bieten mit Kleinem Pfeffer."]),
     ("big", "de", ["Bob bietet Großen Pfeffer.", "Bob gewinnt das Bieten mit Großem Pfeffer."]),
     ("big", "cs", ["Bob draží Velký pepř.", "Bob vyhrává dražbu s nabídkou Velký pepř."])],
)  # fmt: skip
def test_a_bid_s_name_takes_the_sentence_s_case(bid: str, lang: str, said: list[str]) -> None:
    """German: "mit Kleinem Pfeffer" (dative), "bietet Kleinen Pfeffer" (accusative)."""
    from rich.text import Text

    from pfeffer.cli.pepper_narration import tell
    from pfeffer.pepper import PepperGame
    from pfeffer.pepper.log import pepper_log

    g = PepperGame(["Ann", "Bob", "Cy"], seed=3, dealer=0)
    for a in ("deal", bid, "pass", "pass") if bid == "small" else ("deal", bid):
        g.apply(a)
    words.use(lang)
    told = dict(tell(pepper_log(g.view(None), g.history), 0, g.view(None)))
    assert [Text.from_markup(told[k]).plain for k in ("bid", "auction")] == said
    words.use("en")


@pytest.mark.parametrize(
    ("lang", "said"),
    [("de", ["1 Entscheidung,", "2 Entscheidungen,"]), ("cs", ["1 rozhodnutí,", "5 rozhodnutí,"]),
     ("en", ["1 decision,", "2 decisions,"])],
)  # fmt: skip
def test_the_review_counts_decisions_in_the_right_form(lang: str, said: list[str]) -> None:
    """The game review's line of a player ("1 Entscheidungen" was German for one decision)."""
    from pfeffer.cli.dice_advice import REVIEW_LINE

    words.use(lang)
    try:
        texts = [words.counted(n, *REVIEW_LINE, name="A", best=1, lost="0")
                 for n in (1, 2 if lang != "cs" else 5)]  # fmt: skip
    finally:
        words.use("en")
    assert [s in text for s, text in zip(said, texts, strict=True)] == [True, True], texts
