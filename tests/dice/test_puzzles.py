"""The dice puzzles (issue 23): every shipped puzzle checked against the solved table, the
generator on a tiny run, the puzzle value, its answers and its feedback."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest

from pfeffer.core.errors import IllegalAction, InvalidAction
from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.puzzle_set import dumps, loads, shipped, with_theme
from pfeffer.dice.puzzles import (
    KINDS,
    MARGIN,
    THEMES,
    DicePuzzle,
    PuzzleOption,
    bust_chance,
    estimate_rating,
    kind_of,
    themes_of,
)
from pfeffer.dice.solver import DiceStrategy, solve
from pfeffer.dice.solver.puzzles import generate, verify
from tests.core.feedback_templates import feedback_templates


@pytest.fixture(scope="module")
def strategy() -> DiceStrategy:
    return solve()  # the shipped table of the default rules


def test_every_shipped_puzzle_is_the_solvers(strategy: DiceStrategy) -> None:
    """Each shipped puzzle replays, asks the question of its position, lists exactly the legal
    decisions with exactly the solver's chances, and its answer is the best by the margin."""
    problems = {p.id: verify(strategy, p) for p in shipped()}
    assert {k: v for k, v in problems.items() if v} == {}


def test_shipped_set_is_a_few_thousand_of_every_kind() -> None:
    found = shipped()
    assert 3000 <= len(found) <= 5000
    assert len({p.id for p in found}) == len(found)
    kinds = Counter(p.kind for p in found)
    assert set(kinds) == set(KINDS) and kinds["keep"] >= 1000 and kinds["bank"] >= 1000
    themes = Counter(t for p in found for t in p.themes)
    assert set(themes) == set(THEMES)  # every theme can be drilled
    assert all(themes[t] >= 50 for t in THEMES)
    assert all(p.rules == DiceRules() for p in found)
    assert all(p.margin >= MARGIN for p in found)


def test_shipped_themes_are_the_positions() -> None:
    for p in shipped()[::7]:
        assert themes_of(p.view(), p.kind) == p.themes
        assert kind_of(p.view()) == p.kind


def test_verify_finds_a_wrong_puzzle(strategy: DiceStrategy) -> None:
    p = shipped()[0]
    swapped = (PuzzleOption(p.options[0].action, p.options[0].win + 0.01), *p.options[1:])
    assert verify(strategy, dataclasses.replace(p, options=swapped))
    other = DicePuzzle.make(json.loads(p.record), p.kind, [(p.options[1].action, 0.9),
                            (p.options[0].action, 0.1)])  # fmt: skip
    assert any("best" in x for x in verify(strategy, other))


def test_generator_keeps_what_matters(strategy: DiceStrategy) -> None:
    found, counts = generate(strategy, games=3, seed=5, per_kind={"keep": 20, "bank": 20})
    assert counts.games <= 3  # stops once every kind asked for is full
    assert counts.decisions >= counts.mattered >= counts.standalone >= counts.new >= counts.kept
    assert counts.kept == len(found) > 0
    assert sum(counts.by_kind.values()) == len(found)
    assert counts.by_kind == {"keep": 20, "bank": 20}  # no Pfeffer puzzles asked for
    assert all(verify(strategy, p) == [] for p in found)
    # The same seed, the same puzzles; a larger margin keeps fewer.
    again, _ = generate(strategy, games=3, seed=5, per_kind={"keep": 20, "bank": 20})
    assert again == found
    strict, counts2 = generate(strategy, games=3, seed=5, margin=0.05)
    assert counts2.mattered < counts.decisions and all(p.margin >= 0.05 for p in strict)


def test_set_round_trips_and_refuses_garbage() -> None:
    some = shipped()[:5]
    blob = dumps(some, note="x")
    assert loads(blob) == some and dumps(some, note="x") == blob  # no time stamp
    with pytest.raises(ValueError, match="not a puzzle set"):
        loads(b"plain")
    with pytest.raises(ValueError, match="not a dice puzzle"):
        DicePuzzle.from_dict({"id": "x"})


def test_themes_filter() -> None:
    final = with_theme(shipped(), "final round")
    assert final and all(p.view().final_round for p in final)
    with pytest.raises(ValueError, match="no theme"):
        with_theme(shipped(), "luck")


def _position(*actions: str, scores: tuple[int, int] = (0, 0)) -> DiceGame:
    g = DiceGame(["You", "Opponent"], seed=0, scores=list(scores))
    for a in actions:
        g.apply(a)
    return g


def test_answers_in_many_spellings() -> None:
    g = _position("roll 115236")
    p = DicePuzzle.make(g.to_record(), "keep", [("keep 115", 0.4), ("keep 1", 0.6),
                        ("keep 11", 0.3), ("keep 15", 0.2), ("keep 5", 0.1)])  # fmt: skip
    for text in ("keep 1", "1", " K1 ", "keep1"):
        assert p.option_of(text) == "keep 1"
    assert p.option_of("1 1 5") == p.option_of("511") == "keep 115"
    with pytest.raises(IllegalAction, match="not one of the options"):
        p.option_of("bank")
    with pytest.raises(InvalidAction):
        p.option_of("jump")
    f = p.feedback("15")
    assert not f.correct and f.best == "keep 1" and f.cost == pytest.approx(0.4)
    assert p.feedback("1").correct and p.feedback("1").cost == 0


def test_bank_feedback_tells_the_risk_and_the_scores() -> None:
    g = _position("roll 115236", "keep 1", scores=(3000, 8800))
    g.apply("roll 11523")
    g.apply("keep 115")
    assert kind_of(g.view(0)) == "bank"
    p = DicePuzzle.make(g.to_record(), "bank", [("bank", 0.3), ("roll", 0.35)])
    text = [line.text() for line in p.feedback("b").lines]
    assert text[0] == (
        "Rolling 2 dice scores nothing 44.4% of the time; a bust loses the 350 of this turn."
    )
    assert "Banking puts you at 3350 against 8800" in text[1]
    assert any("needs only 1200 more to reach 10000" in t for t in text)
    assert text[-1] == "roll wins 35.0%, bank 30.0%: 5.0 percentage points more."
    assert themes_of(g.view(0), "bank") == ("bank", "few dice", "endgame", "behind")


def test_pfeffer_puzzle_feedback() -> None:
    g = _position("roll 115236", "keep 1", "roll 11523", "keep 115", "bank")
    assert kind_of(g.view(1)) == "pfeffer"
    p = DicePuzzle.make(g.to_record(), "pfeffer", [("pfeffer", 0.4), ("roll", 0.45)])
    assert p.option_of("n") == p.option_of("r") == "roll" and p.option_of("yes") == "pfeffer"
    text = [line.text() for line in p.feedback("p").lines]
    assert text[0].startswith("Pfeffer on the 350 your opponent banked: you must bank at least")


def test_puzzle_value_is_checked() -> None:
    p = shipped()[0]
    with pytest.raises(ValueError, match="best first"):
        dataclasses.replace(p, options=tuple(reversed(p.options)))
    with pytest.raises(ValueError, match="two options"):
        dataclasses.replace(p, options=p.options[:1])
    with pytest.raises(ValueError, match="no theme"):
        dataclasses.replace(p, themes=("luck",))
    with pytest.raises(ValueError, match="no puzzle kind"):
        dataclasses.replace(p, kind="auction")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.kind = "bank"  # type: ignore[misc]


def test_bust_chances_are_exact() -> None:
    rules = DiceRules()
    assert bust_chance(rules, 1) == pytest.approx(4 / 6)
    assert bust_chance(rules, 2) == pytest.approx(16 / 36)
    assert bust_chance(rules, 6) == pytest.approx(0.0231, abs=1e-4)


def test_difficulty_grows_with_closeness_and_misses() -> None:
    assert estimate_rating(0.01, 0, 2) > estimate_rating(0.1, 0, 2)
    assert estimate_rating(0.05, 2, 2) > estimate_rating(0.05, 1, 2) > estimate_rating(0.05, 0, 2)
    hard = [p for p in shipped() if len(p.missed_by) == 3]
    easy = [p for p in shipped() if not p.missed_by]
    assert min(p.difficulty for p in hard) > min(p.difficulty for p in easy)


def _templates() -> set[str]:
    """Every English template of :mod:`pfeffer.dice.puzzles`."""
    from pfeffer.dice import puzzles

    tables = (puzzles.QUESTIONS, puzzles.THEMES, puzzles._ROLL_RISK)
    return feedback_templates(puzzles, tables, ("_ROLL_RISK[",))


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_every_feedback_template_is_translated(lang: str) -> None:
    import string

    from babel.messages.pofile import read_po

    from pfeffer.web.i18n import LOCALE_DIR, translations

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}

    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        cat = read_po(f, locale=lang)
    with (LOCALE_DIR.parent / "messages.pot").open("rb") as f:
        pot = read_po(f)
    templates = _templates()
    assert len(templates) > 25
    for text in templates:
        assert pot.get(text) is not None, text
        msg = cat.get(text)
        assert msg is not None and msg.string, f"{lang}: {text}"
        assert fields(str(msg.string)) == fields(text), f"{lang}: {text}"
    # A whole feedback in the language.
    p = next(p for p in shipped() if p.kind == "bank" and "auto pfeffer" in p.themes)
    gettext = translations(lang).gettext
    lines = [line.text(gettext) for line in p.feedback(p.answer).lines]
    assert all(line not in {x.text() for x in p.feedback(p.answer).lines} for line in lines)
