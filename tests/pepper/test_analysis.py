"""Hints and hand reviews (pfeffer.pepper.analysis): the expert's choice with a reason that fits
the position, and double-dummy reviews that add up."""

from __future__ import annotations

import json
import random

import pytest

from pfeffer.pepper import PepperGame, double_dummy_from
from pfeffer.pepper.analysis import (
    REASONS,
    REVIEW_TEXTS,
    hint,
    legal_from_view,
    review_hand,
)
from pfeffer.pepper.bots import HeuristicBot, RandomBot
from pfeffer.pepper.expert import ExpertBot
from pfeffer.web.i18n import translations

DEAL = [
    ["JC", "TH", "9H", "AS", "AD", "JS"],
    ["9C", "JH", "JD", "AH", "KH", "QH"],
    ["AC", "QC", "9S", "TS", "9D", "TD"],
    ["KC", "TC", "QS", "KS", "QD", "KD"],
]


STRONG = [
    ["JC", "TH", "9H", "AC", "AD", "JS"],
    ["AS", "JH", "JD", "AH", "KH", "QH"],
    ["9C", "QC", "9S", "TS", "9D", "TD"],
    ["KC", "TC", "QS", "KS", "QD", "KD"],
]

RAGS = [STRONG[2], STRONG[1], STRONG[0], STRONG[3]]  # seat 0: nines and tens


def _game(deal: list[list[str]], actions: list[str]) -> PepperGame:
    g = PepperGame(players=4, seed=1, dealer=0)
    g.deal(deal)
    for a in actions:
        g.apply(a)
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_from_view_equals_the_engine(players: int) -> None:
    rng = random.Random(players)
    for seed in range(6):
        g = PepperGame(players=players, seed=seed, dealer=seed % players)
        while not g.is_over and len(g.results) < 2:
            if g.phase == "deal":
                g.apply("deal")
                continue
            seat = g.current_player
            assert seat is not None
            assert legal_from_view(g.view(seat)) == g.legal_actions()
            g.apply(rng.choice(g.legal_actions()))


def test_hint_is_the_experts_choice() -> None:
    g = PepperGame(players=4, seed=11, dealer=0)
    g.apply("deal")
    bot = HeuristicBot()
    checked = 0
    while g.phase != "deal" and checked < 8:
        seat = g.current_player
        assert seat is not None
        view, legal = g.view(seat), g.legal_actions()
        if len(legal) > 1:
            expert = ExpertBot(worlds=12, seed=0, race=False).choose(view, legal)
            h = hint(view, worlds=12, seed=0)
            assert h.action == expert and h.reason in REASONS
            checked += 1
        g.apply(bot.choose(view, legal))
    assert checked == 8


def test_reasons_fit_the_position() -> None:
    g = _game(STRONG, ["small", "pass", "pass", "pass", "H"])  # TH and 9H are still out
    h = hint(g.view(1), worlds=20)
    assert h.action in ("JH", "JD", "AH", "KH", "QH")
    assert h.reason in ("draws the last trumps", "saves the contract")
    g = _game(DEAL, ["small", "pass", "pass", "pass", "H", "9C"])
    assert hint(g.view(2), worlds=20).action == "AC"  # the top club takes the trick
    forced = _game(RAGS, ["pass", "pass", "pass"])
    h = hint(forced.view(0), worlds=10)
    assert h.reason == "everybody else passed: a bid is a must" and h.action != "pass"
    strong = _game(STRONG, [])
    assert hint(strong.view(1), worlds=20).reason == "the hand should take every trick"


def test_hint_only_for_the_seat_to_act() -> None:
    g = _game(DEAL, ["pass"])
    with pytest.raises(ValueError, match="whose turn"):
        hint(g.view(0), worlds=4)
    with pytest.raises(ValueError, match="whose turn"):
        hint(g.view(None), worlds=4)


def test_only_card_reason() -> None:
    # Seat 0 must bid, names spades and leads AD: seat 1's only diamond is JD.
    g = _game(DEAL, ["pass", "pass", "pass", "1", "S", "AD"])
    h = hint(g.view(1), worlds=10)
    assert (h.action, h.reason) == ("JD", "the only legal card")


def test_every_reason_and_review_text_is_translated() -> None:
    for lang in ("de", "cs"):
        t = translations(lang)
        for text in (*REASONS, REVIEW_TEXTS[-1]):
            assert t.gettext(text) != text, (lang, text)
        for one, many in zip(REVIEW_TEXTS[:-1:2], REVIEW_TEXTS[1:-1:2], strict=True):
            assert t.ngettext(one, many, 2) not in (one, many), (lang, one)
    assert (
        hint(_game(RAGS, ["pass", "pass", "pass"]).view(0), worlds=8).text(
            translations("de").gettext
        )
        == "alle anderen haben gepasst: ein Gebot ist Pflicht"
    )


def _perfect_move(g: PepperGame) -> str:
    """The card that keeps the mover's side's double-dummy total (every hand open)."""
    seat = g.current_player
    assert seat is not None
    side = g.side_of(seat)
    best, value = "", -1
    for card in g.legal_actions():
        c = g.clone()
        c.apply(card)
        if c.phase == "play" and c.hand_number == g.hand_number:
            v = c.tricks_won[side] + double_dummy_from(c, seat)
        else:
            v = c.results[-1].tricks[side]
        if v > value:
            best, value = card, v
    return best


@pytest.mark.parametrize("players", [2, 3, 4])
def test_review_of_perfect_play_finds_no_costly_card(players: int) -> None:
    g = PepperGame(players=players, seed=20 + players, dealer=0)
    bot = HeuristicBot()
    g.apply("deal")
    while not g.results:
        seat = g.current_player
        assert seat is not None
        g.apply(
            _perfect_move(g) if g.phase == "play" else bot.choose(g.view(seat), g.legal_actions())
        )
    if g.results[-1].bidder is None:
        pytest.skip("everybody passed")
    for seat in range(players):
        r = review_hand(g, 0, seat)
        assert r.costly == () and r.best == r.taken == g.results[0].tricks[g.side_of(seat)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_review_adds_up_for_random_play(players: int) -> None:
    bots = [RandomBot(s) for s in range(players)]
    found = 0
    for seed in range(6):
        g = PepperGame(players=players, seed=seed, dealer=0)
        while len(g.results) < 2 and not g.is_over:
            if g.phase == "deal":
                g.apply("deal")
                continue
            seat = g.current_player
            assert seat is not None
            g.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
        record = g.to_record()
        for i, result in enumerate(g.results):
            if result.bidder is None:
                with pytest.raises(ValueError, match="not played out"):
                    review_hand(record, i, 0)
                continue
            for seat in range(players):
                r = review_hand(record, i, seat)
                lost = sum(c.lost for c in r.costly)
                assert r.taken == result.tricks[g.side_of(seat)]
                assert r.taken >= r.best - lost  # the others' slips can only give tricks back
                assert all(c.lost > 0 and g.side_of(c.seat) == g.side_of(seat) for c in r.costly)
                found += len(r.costly)
    assert found > 0  # random play does throw tricks away


def test_review_lines_in_words() -> None:
    g = _game(DEAL, ["small", "pass", "pass", "pass", "H"])
    while not g.results:
        g.apply(g.legal_actions()[-1])
    for seat in range(4):
        r = review_hand(g, 0, seat)
        lines = r.lines()
        word = "trick" if r.best == 1 else "tricks"
        assert lines[0] == (
            f"With best play your side could have taken {r.best} {word}; it took {r.taken}."
        )
        for c, line in zip(r.costly, lines[1:], strict=False):
            many = f"cost {c.lost} tricks." if c.lost > 1 else "cost a trick."
            assert line == f"{c.card} in trick {c.trick} {many}"
        if not r.costly and r.best == r.taken:
            assert lines[-1] == "No card cost a trick."
    de = review_hand(g, 0, 1).lines(translations("de").gettext, translations("de").ngettext)
    assert de[0].startswith("Bei bestem Spiel hätte euer Team")
    d = review_hand(g.to_record(), 0, 1).to_dict()
    assert d["best"] >= 0 and d["lines"] == review_hand(g, 0, 1).lines()
    assert json.loads(json.dumps(d)) == d
    with pytest.raises(ValueError, match="no hand 5"):
        review_hand(g, 4, 0)
