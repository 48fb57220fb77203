"""Pepper puzzles (issue 23): every shipped open puzzle re-solved by double dummy, a sample of
the view puzzles re-solved with another seed, answers checked, views that hide the other hands."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pfeffer.core.errors import IllegalAction, InvalidAction
from pfeffer.pepper.puzzle_gen import resolve
from pfeffer.pepper.puzzle_set import dumps, loads, shipped, with_theme
from pfeffer.pepper.puzzles import KINDS, MARGIN, THEMES, PepperPuzzle
from tests.core.feedback_templates import feedback_templates


def test_the_shipped_set() -> None:
    found = shipped()
    kinds = Counter(p.kind for p in found)
    assert set(kinds) == set(KINDS) and len(found) >= 2000, kinds
    assert len({p.id for p in found}) == len(found)
    assert {p.players for p in found} == {2, 3, 4}
    for p in found:
        assert set(p.themes) <= set(THEMES) and p.kind in p.themes
        assert p.margin >= MARGIN[p.kind] - 1e-9
        if p.kind in ("bid", "trump"):
            assert p.worlds >= 80 and p.answers == (p.answer,)
    for theme in ("left bower", "count the trumps", "endplay", "Small Pepper", "opening lead"):
        assert with_theme(found, theme), theme
    assert loads(dumps(found[:5])) == found[:5]


def test_every_open_puzzle_is_solved_again_by_double_dummy() -> None:
    for p in (p for p in shipped() if p.kind == "open"):
        best, lead = resolve(p)
        assert best in p.answers and lead == pytest.approx(p.margin), p.id


@pytest.mark.parametrize("kind", ["card", "bid", "trump"])
def test_view_puzzles_keep_their_answer_with_another_seed(kind: str) -> None:
    pool = [p for p in shipped() if p.kind == kind]
    for p in random.Random(23).sample(pool, 4):
        best, _ = resolve(p, seed=12345)
        assert best in p.answers, (p.id, p.options)


def test_the_views_never_show_hidden_cards() -> None:
    for p in random.Random(1).sample(shipped(), min(150, len(shipped()))):
        view = p.view()
        hands = p.hands()
        assert list(view.hand) == sorted(hands[p.seat], key=list(view.hand).index)
        assert sorted(view.hand) == sorted(hands[p.seat])
        hidden = {c for s, h in enumerate(hands) if s != p.seat for c in h}
        shown = repr(view)
        assert not any(f"'{c}'" in shown for c in hidden), p.id


def test_answers_right_and_wrong() -> None:
    for kind in KINDS:
        p = next(p for p in shipped() if p.kind == kind)
        right = p.feedback(p.answer)
        assert right.correct and right.cost == 0 and right.best == p.answer
        wrong = p.feedback(p.options[-1].action)
        assert not wrong.correct and wrong.cost >= MARGIN[kind] - 1e-9
        assert wrong.chosen == p.options[-1].action and len(wrong.lines) >= 2
        assert all(line.text() for line in wrong.lines)
        with pytest.raises(InvalidAction):
            p.feedback("jump")
    bid = next(p for p in shipped() if p.kind == "bid" and "pass" in {o.action for o in p.options})
    assert bid.option_of("p") == "pass" and bid.option_of("PASS") == "pass"
    card = next(p for p in shipped() if p.kind == "card")
    held = set(card.view().hand)
    other = next(c for h in card.hands() for c in h if c not in held)
    with pytest.raises(IllegalAction):
        card.feedback(other)


def test_equal_cards_are_both_right() -> None:
    p = PepperPuzzle.make(
        {"players": 4, "dealer": 0, "actions": [
            "deal 9D TD JD QD KD AD / AH QH 9C TC QC KC / KH 9H TH 9S TS QS / JH JC JS AC AS KS",
            "pass", "1", "pass", "pass", "S", "QS", "AS", "9D"]},
        "card", [("9C", 1.0), ("TC", 1.0), ("QC", 1.0), ("KC", 1.0), ("AH", 0.0), ("QH", 0.0)],
        worlds=80,
    )  # fmt: skip
    assert p.answers == ("9C", "KC", "QC", "TC") and p.margin == 1.0
    assert p.feedback("10♣").correct and not p.feedback("QH").correct
    assert PepperPuzzle.from_dict(p.to_dict()) == p
    assert p.question == "Which card do you play?" and p.view().players[1] == "You"


def _templates() -> set[str]:
    """Every English template of :mod:`pfeffer.pepper.puzzles`."""
    from pfeffer.pepper import puzzles

    return feedback_templates(puzzles, (puzzles.QUESTIONS, puzzles.THEMES), ("QUESTIONS[",))


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
    p = next(p for p in shipped() if p.kind == "card" and p.answers == (p.answer,))
    gettext = translations(lang).gettext
    english = {x.text() for x in p.feedback(p.options[-1].action).lines}
    lines = [line.text(gettext) for line in p.feedback(p.options[-1].action).lines]
    assert all(line not in english for line in lines)
    assert p.question_line.text(gettext) != p.question


#: Words that belong to one kind of puzzle only: the hidden cards and the sampled deals to the
#: view puzzles, the open hands to the open ones.
_HIDDEN_TALK = ("cannot see", "deals of the cards", "on average")
_OPEN_TALK = ("every hand open", "other hands", "You hold every trump")


def test_every_feedback_fits_its_kind() -> None:
    """Every sentence of every shipped puzzle's feedback (the best answer and the worst) fits
    the kind: no hidden cards when every hand is shown, no open hands when they are hidden."""
    seen: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for p in shipped():
        for chosen in {p.answer, p.options[-1].action}:
            for line in p.feedback(chosen).lines:
                seen[p.kind].add(line.template)
                text = line.text()
                wrong = _HIDDEN_TALK if p.kind == "open" else _OPEN_TALK
                assert not any(w in text for w in wrong), (p.id, text)
    # The trump sentences of both kinds were met.
    assert "Trumps in the other hands: {count} ({cards})." in seen["open"]
    assert "Trumps you cannot see: {count} ({cards})." in seen["card"]
