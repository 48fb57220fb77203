"""A player's progress in the puzzle trainer, for any game (issue 23): a Glicko-2 rating per
player and game, the puzzles' ratings moved by the results, the streak, the accuracy per theme,
and the missed puzzles coming back after a while (spaced repetition). Pure: a front end keeps
the value (:meth:`Progress.to_dict`) where it likes, the terminal in the user data folder.

Every try is one rating period of one game (as puzzle sites do): the player plays the puzzle
at the puzzle's rating; the puzzle plays back at the player's. A puzzle starts from its
difficulty estimate (with a deviation of :data:`PUZZLE_RD`). A missed puzzle comes back after
:data:`REPEAT` tries: 3, then 10, then 30 tries after each time it is solved; missed again, it
starts over; solved at the last step, it is done. A due puzzle takes at most every
:data:`REPEAT_EVERY`-th try, so at least two of three puzzles are new however many are missed
(without that, a player who misses half of them saw 39 different puzzles in 300 tries).

>>> p = Progress(game="dice")
>>> p, out = record(p, Attempt("a1", 1500, ("keep",), correct=True))
>>> out.before.rating, round(out.after.rating), p.streak
(1500.0, 1670, 1)
>>> p, out = record(p, Attempt("b2", 1400, ("bank", "endgame"), correct=False))
>>> p.streak, p.best_streak, p.themes["bank"], p.reviews["b2"].due
(0, 1, (1, 0), 5)
>>> Progress.from_dict(p.to_dict()) == p
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from pfeffer.core.glicko2 import Rating, update

#: A puzzle's deviation when it starts from its difficulty estimate (less sure than a new
#: player's 350, more than a rating that results have settled).
PUZZLE_RD = 250.0
#: After how many tries a missed puzzle comes back: the first number after a miss, the next
#: after each time it is solved then; solved after the last, it leaves the repetition.
REPEAT = (3, 10, 30)
#: A puzzle due again is asked only on every this many tries (those before which the number
#: of tries is a multiple of it); the others are new puzzles.
REPEAT_EVERY = 3
#: How many of the last puzzles are not asked again (unless due for repetition).
RECENT = 300
#: A puzzle this close to the player's rating (or closer) is a fair pick; the window widens
#: until there are enough.
WINDOW = 150.0

FORMAT = 1


class PuzzleLike(Protocol):
    """What the trainer needs of a puzzle of any game."""

    @property
    def id(self) -> str: ...
    @property
    def difficulty(self) -> int: ...
    @property
    def themes(self) -> tuple[str, ...]: ...


P = TypeVar("P", bound=PuzzleLike)


@dataclasses.dataclass(frozen=True, slots=True)
class Line:
    """One sentence of a puzzle's feedback (both games'): an English template (a msgid with
    ``{name}`` fields) and its values; :meth:`text` fills it in (a front end may translate the
    template first).

    >>> Line("{n} dice left.", (("n", 3),)).text()
    '3 dice left.'
    """

    template: str
    params: tuple[tuple[str, Any], ...] = ()

    def text(self, translate: Callable[[str], str] | None = None) -> str:
        """The sentence, its template passed through ``translate`` (a gettext) if given."""
        template = translate(self.template) if translate is not None else self.template
        return template.format(**dict(self.params))


def line(template: str, **params: Any) -> Line:
    """A :class:`Line` of ``template`` with ``params``."""
    return Line(template, tuple(params.items()))


@dataclasses.dataclass(frozen=True, slots=True)
class Attempt:
    """One try at a puzzle: its id, its difficulty estimate and themes, and whether the
    answer was the best."""

    puzzle: str
    difficulty: int
    themes: tuple[str, ...]
    correct: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Review:
    """A missed puzzle in the repetition: due at try number ``due``, at step ``step`` of
    :data:`REPEAT`."""

    due: int
    step: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """What one try changed: the player's rating before and after, the puzzle's after."""

    before: Rating
    after: Rating
    puzzle: Rating
    streak: int


@dataclasses.dataclass(frozen=True)
class Progress:
    """One player's progress in one game's trainer (see the module's text). ``themes`` maps a
    theme to (tries, right); ``puzzles`` holds the ratings of the puzzles tried; ``recent`` the
    last puzzles asked, the newest last."""

    game: str
    rating: Rating = dataclasses.field(default_factory=Rating)
    tries: int = 0
    right: int = 0
    streak: int = 0
    best_streak: int = 0
    themes: Mapping[str, tuple[int, int]] = dataclasses.field(default_factory=dict)
    puzzles: Mapping[str, Rating] = dataclasses.field(default_factory=dict)
    reviews: Mapping[str, Review] = dataclasses.field(default_factory=dict)
    recent: tuple[str, ...] = ()

    def puzzle_rating(self, puzzle: str, difficulty: int) -> Rating:
        """The rating of ``puzzle`` as this player's results moved it (its estimate if none)."""
        found = self.puzzles.get(puzzle)
        return found if found is not None else Rating(float(difficulty), PUZZLE_RD)

    def accuracy(self, theme: str) -> float | None:
        """The share of right answers in ``theme`` (None before the first try)."""
        tries, right = self.themes.get(theme, (0, 0))
        return right / tries if tries else None

    def due(self) -> list[str]:
        """The missed puzzles due again now, the longest due first."""
        return sorted(
            (p for p, r in self.reviews.items() if r.due <= self.tries),
            key=lambda p: (self.reviews[p].due, p),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (:meth:`from_dict` reads it back)."""

        def rating(r: Rating) -> list[float]:
            return [r.rating, r.rd, r.vol]

        return {
            "format": FORMAT,
            "game": self.game,
            "rating": rating(self.rating),
            "tries": self.tries,
            "right": self.right,
            "streak": self.streak,
            "best_streak": self.best_streak,
            "themes": {t: list(v) for t, v in sorted(self.themes.items())},
            "puzzles": {p: rating(r) for p, r in sorted(self.puzzles.items())},
            "reviews": {p: [r.due, r.step] for p, r in sorted(self.reviews.items())},
            "recent": list(self.recent),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Progress:
        """The progress written by :meth:`to_dict` (ValueError if it is not one)."""
        try:
            if data.get("format") != FORMAT:
                raise ValueError(f"progress of format {data.get('format')!r}")
            return cls(
                game=str(data["game"]),
                rating=Rating(*map(float, data["rating"])),
                tries=int(data["tries"]),
                right=int(data["right"]),
                streak=int(data["streak"]),
                best_streak=int(data["best_streak"]),
                themes={str(t): (int(a), int(b)) for t, (a, b) in data["themes"].items()},
                puzzles={str(p): Rating(*map(float, r)) for p, r in data["puzzles"].items()},
                reviews={str(p): Review(int(d), int(s)) for p, (d, s) in data["reviews"].items()},
                recent=tuple(str(p) for p in data["recent"]),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a trainer's progress: {exc}") from None


def puzzle_update(puzzle: Rating, player: Rating, correct: bool) -> Rating:
    """The puzzle's rating after a player rated ``player`` tried it: the puzzle played the
    player and lost if the answer was right."""
    return update(puzzle, [(player, 0.0 if correct else 1.0)])


def record(
    progress: Progress, attempt: Attempt, pooled: tuple[Rating, Rating] | None = None
) -> tuple[Progress, Outcome]:
    """``progress`` after ``attempt``, and what changed (see the module's text). ``pooled``:
    the puzzle's rating before and after this try where it is pooled over every player's
    results (a server's); without it, the player's own results move it."""
    p = progress
    score = 1.0 if attempt.correct else 0.0
    if pooled is None:
        puzzle = p.puzzle_rating(attempt.puzzle, attempt.difficulty)
        puzzle_after = puzzle_update(puzzle, p.rating, attempt.correct)
    else:
        puzzle, puzzle_after = pooled
    player = update(p.rating, [(puzzle, score)])
    tries = p.tries + 1
    streak = p.streak + 1 if attempt.correct else 0
    themes = dict(p.themes)
    for theme in attempt.themes:
        t, r = themes.get(theme, (0, 0))
        themes[theme] = (t + 1, r + attempt.correct)
    reviews = dict(p.reviews)
    was = reviews.pop(attempt.puzzle, None)
    if not attempt.correct:
        reviews[attempt.puzzle] = Review(tries + REPEAT[0], 0)
    elif was is not None and was.due <= tries and was.step + 1 < len(REPEAT):
        reviews[attempt.puzzle] = Review(tries + REPEAT[was.step + 1], was.step + 1)
    elif was is not None and was.due > tries:
        reviews[attempt.puzzle] = was  # solved before it was due: it still comes back
    recent = (*(x for x in p.recent if x != attempt.puzzle), attempt.puzzle)[-RECENT:]
    out = dataclasses.replace(
        p,
        rating=player,
        tries=tries,
        right=p.right + attempt.correct,
        streak=streak,
        best_streak=max(p.best_streak, streak),
        themes=themes,
        puzzles={**p.puzzles, attempt.puzzle: puzzle_after},
        reviews=reviews,
        recent=recent,
    )
    return out, Outcome(p.rating, player, puzzle_after, streak)


def pick(
    progress: Progress,
    puzzles: Sequence[P],
    rng: random.Random,
    *,
    theme: str | None = None,
) -> P | None:
    """The next puzzle for the player: a missed one that is due again (on every
    :data:`REPEAT_EVERY`-th try only), else one not asked lately whose rating is near the
    player's (the window of :data:`WINDOW` widens until there are a few to choose from at
    random); only of ``theme`` if given. None if there is none."""
    pool = [p for p in puzzles if theme is None or theme in p.themes]
    if not pool:
        return None
    due_now = progress.due() if progress.tries % REPEAT_EVERY == 0 else []
    if due_now:
        by_id = {p.id: p for p in pool}
        for due in due_now:
            if due in by_id:
                return by_id[due]
    recent = set(progress.recent)
    fresh = [p for p in pool if p.id not in recent and p.id not in progress.reviews] or pool
    me = progress.rating.rating
    moved = progress.puzzles
    # each puzzle's distance from the player's rating, once (its moved rating, else its estimate)
    away = [
        abs((r.rating if (r := moved.get(p.id)) is not None else float(p.difficulty)) - me)
        for p in fresh
    ]
    window = WINDOW
    while True:
        near = [p for p, d in zip(fresh, away, strict=True) if d <= window]
        if len(near) >= min(20, len(fresh)):
            return rng.choice(near)
        window *= 2
