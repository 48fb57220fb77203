"""The trainer's rating and progress (issue 23): Glicko-2 against the paper's example and a
second reference, streaks, theme accuracy, the repetition of missed puzzles, the choice of the
next puzzle."""

from __future__ import annotations

import dataclasses
import random

import pytest

from pfeffer.core.glicko2 import NEW_RD, Rating, expected, update
from pfeffer.core.trainer import (
    REPEAT,
    Attempt,
    Progress,
    Review,
    pick,
    record,
)

PAPER_OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickmans_example() -> None:
    """Glickman, "Example of the Glicko-2 system" (2012): r' = 1464.06, RD' = 151.52,
    σ' = 0.05999."""
    r = update(Rating(1500, 200, 0.06), PAPER_OPPONENTS)
    assert round(r.rating, 2) == 1464.05  # the paper rounds μ' = -0.2069 first: 1464.06
    assert r.rating == pytest.approx(1464.06, abs=0.01)
    assert round(r.rd, 2) == 151.52
    assert r.vol == pytest.approx(0.05999, abs=1e-5)


def test_away_from_1500_volatility_uses_the_deviation() -> None:
    """A player at 1800 who loses all three: the values of glicko2-py 0.1.0 (which follows the
    paper); the PyPI package glicko2 2.1.0 gives σ' = 0.0600117, with the rating in place of the
    deviation in its volatility step."""
    r = update(Rating(1800, 200, 0.06), [(o, 0.0) for o, _ in PAPER_OPPONENTS])
    assert r.rating == pytest.approx(1470.372121455034, abs=1e-6)
    assert r.rd == pytest.approx(165.0920401710711, abs=1e-6)
    assert r.vol == pytest.approx(0.0600242859596002, abs=1e-9)
    assert abs(r.vol - 0.0600117290254014) > 1e-6


def test_expected_and_idle_period() -> None:
    assert expected(Rating(1600), Rating(1400)) == pytest.approx(1 - expected(Rating(1400),
                                                                 Rating(1600)))  # fmt: skip
    idle = update(Rating(1500, 300, 0.06), [])
    assert idle.rating == 1500 and 300 < idle.rd <= NEW_RD
    assert update(Rating(1500, NEW_RD), []).rd == NEW_RD


def _try(p: Progress, puzzle: str, correct: bool, themes: tuple[str, ...] = ("keep",)) -> Progress:
    return record(p, Attempt(puzzle, 1500, themes, correct))[0]


def test_rating_moves_both_ways() -> None:
    p = Progress(game="dice")
    won, out = record(p, Attempt("a", 1500, ("keep",), True))
    assert out.after.rating > 1500 and out.puzzle.rating < 1500 and out.after.rd < NEW_RD
    _lost, out = record(p, Attempt("a", 1500, ("keep",), False))
    assert out.after.rating < 1500 and out.puzzle.rating > 1500
    # A puzzle starts from its difficulty, then from what the results made of it.
    assert p.puzzle_rating("a", 1800).rating == 1800
    assert won.puzzle_rating("a", 1800) == won.puzzles["a"]


def test_streaks_and_themes() -> None:
    p = Progress(game="dice")
    for i, ok in enumerate([True, True, False, True]):
        p = _try(p, f"p{i}", ok, ("bank", "endgame") if i % 2 else ("keep",))
    assert (p.streak, p.best_streak, p.tries, p.right) == (1, 2, 4, 3)
    assert p.themes == {"keep": (2, 1), "bank": (2, 2), "endgame": (2, 2)}
    assert p.accuracy("keep") == 0.5 and p.accuracy("hot dice") is None


def test_missed_puzzles_come_back_spaced() -> None:
    p = _try(Progress(game="dice"), "m", False)
    assert p.reviews["m"] == Review(1 + REPEAT[0], 0)
    for n in range(REPEAT[0] - 1):
        p = _try(p, f"x{n}", True)
    assert p.due() == []
    p = _try(p, "y", True)
    assert p.due() == ["m"]
    for step in range(1, len(REPEAT)):
        p = _try(p, "m", True)
        assert p.reviews["m"] == Review(p.tries + REPEAT[step], step)
        for n in range(REPEAT[step]):
            p = _try(p, f"z{step}-{n}", True)
        assert "m" in p.due()
    p = _try(p, "m", True)
    assert "m" not in p.reviews  # solved at the last step: done
    p = _try(p, "m", False)
    assert p.reviews["m"] == Review(p.tries + REPEAT[0], 0)  # missed again: from the start


@dataclasses.dataclass(frozen=True)
class Puzzle:
    id: str
    difficulty: int
    themes: tuple[str, ...]


POOL = [Puzzle(f"p{i}", 1000 + 10 * i, ("keep",) if i % 2 else ("bank",)) for i in range(100)]


def test_pick_prefers_due_then_near_the_rating() -> None:
    rng = random.Random(1)
    p = Progress(game="dice")
    chosen = [pick(p, POOL, rng) for _ in range(50)]
    assert all(c is not None and abs(c.difficulty - 1500) <= 150 for c in chosen)
    p = _try(p, "p3", False)
    p = dataclasses.replace(p, tries=9)
    assert pick(p, POOL, rng) == POOL[3]  # due again
    later = dataclasses.replace(p, tries=10)
    assert pick(later, POOL, rng) != POOL[3]  # not on this try: two of three are new
    assert pick(p, POOL, rng, theme="bank") != POOL[3]  # not of the theme
    picked = pick(p, POOL, rng, theme="bank")
    assert picked is not None and "bank" in picked.themes
    assert pick(p, POOL, rng, theme="final round") is None


def test_pick_avoids_recent_puzzles() -> None:
    rng = random.Random(2)
    p = Progress(game="dice")
    seen = set()
    for _ in range(30):
        c = pick(p, POOL, rng)
        assert c is not None and c.id not in seen
        seen.add(c.id)
        p = _try(p, c.id, True)


def test_most_puzzles_are_new_however_many_are_missed() -> None:
    """A player who misses every puzzle still sees new ones on two tries of three."""
    pool = [Puzzle(f"q{i}", 1500, ("keep",)) for i in range(1000)]
    rng = random.Random(3)
    for share in (0.0, 0.5):
        p, seen = Progress(game="dice"), []
        for _ in range(300):
            c = pick(p, pool, rng)
            assert c is not None
            seen.append(c.id)
            p = _try(p, c.id, rng.random() < share)
        assert len(set(seen)) >= 200, share
        assert max(len(set(seen[i : i + 3])) for i in range(0, 297, 3)) == 3


def test_progress_round_trips() -> None:
    p = _try(_try(Progress(game="dice"), "a", False), "b", True, ("bank",))
    assert Progress.from_dict(p.to_dict()) == p
    with pytest.raises(ValueError, match="not a trainer's progress"):
        Progress.from_dict({"format": 1, "game": "dice"})
    with pytest.raises(ValueError, match="format"):
        Progress.from_dict({"format": 99})
