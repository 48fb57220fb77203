"""The puzzle trainer's service (issue 23, the browser): the next puzzles for a player, an answer
checked and the player's progress moved, and the day's puzzle.

The server keeps nothing of a player: the page keeps its progress
(:class:`pfeffer.core.trainer.Progress`, as :meth:`~pfeffer.core.trainer.Progress.to_dict`) in
the browser's local storage and sends it with each request; an answer comes back with the
progress to store. To keep that under the body limit however long someone trains, the progress
sent back keeps the puzzles' own ratings only for the puzzles asked lately and those in the
repetition (a puzzle tried longer ago starts from its estimate again), at most
:data:`MAX_REVIEWS` missed puzzles in the repetition (those due first), and its numbers
rounded.

The answer is checked here, never in the page: a puzzle leaves without its options' values."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pfeffer.core.errors import TranslatableError
from pfeffer.core.glicko2 import Rating
from pfeffer.core.trainer import PUZZLE_RD, RECENT, Attempt, Progress, pick, record
from pfeffer.web.adapters.puzzles import (
    GAMES,
    Preparing,
    check,
    find,
    puzzle_view,
    puzzles,
    rulesets,
    themes,
)
from pfeffer.web.i18n import translations
from pfeffer.web.services.catalog import CHOICE_LABELS

#: Stores an attempt at a puzzle and moves its pooled rating: (puzzle id, its starting rating,
#: right or not, the player's rating) → the puzzle's rating before and after.
Pool = Callable[[str, Rating, bool, Rating], tuple[Rating, Rating]]

__all__ = [
    "GAMES",
    "BadProgress",
    "NoSuchPuzzle",
    "Pool",
    "Preparing",
    "answer",
    "daily",
    "next_puzzles",
    "theme_list",
]

#: The most puzzles one request gets (the page keeps ten ahead).
MOST = 20
#: The daily puzzle is one of the puzzles of about this difficulty (not the easiest, not
#: the hardest).
DAILY_RANGE = (1250, 1800)
#: The most missed puzzles the page keeps for repetition (one who misses more than a third of
#: them adds faster than the repetition asks them again).
MAX_REVIEWS = 100


class BadProgress(TranslatableError):
    """The progress sent is not one this trainer wrote (400)."""


class NoSuchPuzzle(LookupError):
    """No puzzle of the game has the id sent (404)."""


def read_progress(game: str, data: Mapping[str, Any] | None) -> Progress:
    """The progress the page sent (a new player's for None); BadProgress if it is not one."""
    if data is None:
        return Progress(game=game)
    try:
        p = Progress.from_dict(data)
    except (ValueError, TypeError) as exc:
        raise BadProgress.format(
            "progress: not the trainer's progress ({reason}); start afresh or send none.",
            reason=str(exc)[:80],
        ) from None
    if p.game != game:
        raise BadProgress.format("progress: the progress of {other}, not of {game}.",
                                 other=p.game[:20], game=game)  # fmt: skip
    ratings = [p.rating, *p.puzzles.values()]
    if not all(_sane(r) for r in ratings) or min(p.tries, p.right, p.streak) < 0:
        raise BadProgress.format(
            "progress: a rating or count out of range; start afresh or send none."
        )
    return p


def _sane(r: Rating) -> bool:
    values = (r.rating, r.rd, r.vol)
    return all(math.isfinite(v) for v in values) and 0 < r.rd <= 500 and 0 < r.vol < 1


def _rounded(r: Rating) -> Rating:
    return Rating(round(r.rating, 2), round(r.rd, 2), round(r.vol, 6))


def kept(p: Progress) -> Progress:
    """``p`` as the page keeps it (see the module's text)."""
    reviews = dict(sorted(p.reviews.items(), key=lambda kv: (kv[1].due, kv[0]))[:MAX_REVIEWS])
    keep = set(p.recent) | set(reviews)
    return dataclasses.replace(
        p,
        rating=_rounded(p.rating),
        reviews=reviews,
        puzzles={k: _rounded(r) for k, r in p.puzzles.items() if k in keep},
    )


def theme_list(game: str, lang: str) -> list[dict[str, str]]:
    """The themes of ``game`` for the page's picker: key and label."""
    _ = translations(lang).gettext
    return [{"key": k, "label": _(v)} for k, v in themes(game).items()]


def rules_list(game: str, lang: str) -> list[dict[str, str]]:
    """The rules the page offers for ``game``: key ("" for the shipped puzzles) and label (a
    Pepper house rule as the new-table form names it and its value: "When everybody passes:
    Deal again")."""
    _ = translations(lang).gettext
    return [
        {"key": k, "label": ": ".join(_(CHOICE_LABELS.get(w, w)) for w in words)}
        for k, words in rulesets(game)
    ]


def _view(game: str, puzzle: Any, rating: Rating, lang: str) -> dict[str, Any]:
    data = puzzle_view(puzzle, translations(lang).gettext)
    data["rating"] = round(rating.rating)
    data["theme_labels"] = [translations(lang).gettext(themes(game)[t]) for t in puzzle.themes]
    return data


def next_puzzles(
    game: str,
    progress: Mapping[str, Any] | None,
    *,
    lang: str,
    theme: str | None = None,
    count: int = 1,
    exclude: Sequence[str] = (),
    seed: int | None = None,
    rules: str = "",
    pooled: Mapping[str, Rating] | None = None,
) -> list[dict[str, Any]]:
    """The next ``count`` puzzles for the player of ``progress`` (fewer if a theme has fewer),
    as :func:`pick` would give them one after the other (each counted as asked), none of
    ``exclude`` (those the page has already); under ``rules`` (a dice preset, a Pepper house
    rule) the puzzles made for them. ``pooled``: the puzzles' ratings pooled over every
    player's results (those tried by somebody; the others are at their estimate), which the
    pick and the page go by; without it, the player's own. BadProgress; KeyError for an
    unknown theme or rules not offered; Preparing while the rules' puzzles are being made."""
    p = read_progress(game, progress)
    if pooled is not None:
        p = dataclasses.replace(p, puzzles=pooled)
    if theme is not None and theme not in themes(game):
        raise KeyError(theme)
    skip = set(exclude)
    pool = [z for z in puzzles(game, rules) if z.id not in skip]
    rng = random.Random(seed)
    ahead, out = p, list[Any]()
    for _n in range(max(0, min(count, MOST))):
        z = pick(ahead, pool, rng, theme=theme)
        if z is None or any(z.id == o.id for o in out):
            break
        out.append(z)
        ahead = dataclasses.replace(
            ahead,
            tries=ahead.tries + 1,
            recent=(*(r for r in ahead.recent if r != z.id), z.id)[-RECENT:],
            reviews={k: v for k, v in ahead.reviews.items() if k != z.id},
        )
    return [_view(game, z, p.puzzle_rating(z.id, z.difficulty), lang) for z in out]


def answer(
    game: str,
    puzzle_id: str,
    given: str,
    progress: Mapping[str, Any] | None,
    *,
    lang: str,
    rules: str = "",
    pool: Pool | None = None,
) -> dict[str, Any]:
    """``given`` checked against puzzle ``puzzle_id``: the feedback (every option's value and
    the explanation), the rating change and the progress to keep. ``pool`` stores the attempt
    and moves the puzzle's pooled rating (the player's own update then plays the pooled
    rating); without it, the player's own results move the puzzle. NoSuchPuzzle,
    BadProgress, Preparing, the engine's InvalidAction or IllegalAction for an answer that is
    no option."""
    p = read_progress(game, progress)
    try:
        puzzle = find(game, puzzle_id, rules)
    except KeyError:
        puzzle = None
    if puzzle is None:
        raise NoSuchPuzzle(puzzle_id)
    result = check(puzzle, given, translations(lang))
    correct = bool(result["correct"])
    pooled = None
    if pool is not None:
        pooled = pool(puzzle.id, Rating(float(puzzle.difficulty), PUZZLE_RD), correct, p.rating)
    attempt = Attempt(puzzle.id, puzzle.difficulty, puzzle.themes, correct)
    after, outcome = record(p, attempt, pooled)
    return {
        **result,
        "rating": {
            "before": round(outcome.before.rating, 1),
            "after": round(outcome.after.rating, 1),
            "rd": round(outcome.after.rd, 1),
            "puzzle": round(outcome.puzzle.rating, 1),
        },
        "streak": outcome.streak,
        "progress": kept(after).to_dict(),
    }


def daily(
    game: str, day: datetime.date, *, lang: str, pooled: Mapping[str, Rating] | None = None
) -> dict[str, Any]:
    """The puzzle of ``day`` (the same for everyone that day): one of middling difficulty,
    chosen by a hash of the date; its rating the pooled one if ``pooled`` has it."""
    low, high = DAILY_RANGE
    pool = sorted((z for z in puzzles(game) if low <= z.difficulty <= high), key=lambda z: z.id)
    pool = pool or sorted(puzzles(game), key=lambda z: z.id)
    digest = hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()
    z = pool[int.from_bytes(digest[:8], "big") % len(pool)]
    rating = Progress(game=game, puzzles=pooled or {}).puzzle_rating(z.id, z.difficulty)
    return {**_view(game, z, rating, lang), "date": day.isoformat()}
