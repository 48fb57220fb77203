"""Dice puzzles from games of the computer's levels, valued by the solved table (issue 23).

The levels (easy, medium, hard: the strategy cards; perfect: the solved table) play each other,
and every decision with a choice is a candidate. A candidate is kept only where

1. the choice matters: the best option's chance to win is ahead of the next best's by at least
   ``margin`` (one percentage point by default), so the best answer is also unique by it;
2. the position stands on its own: a game started from the scores before the opponent's last
   turn, replaying that turn and the mover's turn so far, gets exactly the same chances (what
   the puzzle stores, :class:`~pfeffer.dice.puzzles.DicePuzzle`);
3. it is new: no puzzle of the set has the same scores, turn and throw;
4. its kind still has room (``per_kind``), so that the set is not all set-asides.

:func:`generate` says how many candidates each filter kept (:class:`Counts`), and
:func:`verify` checks a puzzle against the solver again (the tests do, for every shipped one).

>>> from pfeffer.dice.solver.solve import solve_small
>>> found, counts = generate(solve_small(), games=2, seed=1)
>>> counts.games, counts.decisions >= counts.mattered >= counts.kept == len(found)
(2, True)
>>> all(verify(solve_small(), p) == [] for p in found)
True
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping, Sequence

from pfeffer.core.bots import Bot
from pfeffer.dice.bots import OptimalBot
from pfeffer.dice.card import CARDS, CardBot
from pfeffer.dice.game import DiceGame, DiceView
from pfeffer.dice.puzzles import MARGIN, DicePuzzle, kind_of, themes_of
from pfeffer.dice.solver.advice import advise
from pfeffer.dice.solver.strategy import DiceStrategy

#: The levels that play the games, weakest first (the card levels are also asked which of them
#: would get a puzzle wrong: its difficulty).
LEVELS = ("easy", "medium", "hard", "perfect")
CARD_LEVELS = ("easy", "medium", "hard")
#: The players' names in a puzzle's record.
NAMES = ("You", "Opponent")


@dataclasses.dataclass
class Counts:
    """How many games were played and how many candidates each filter kept (see the module's
    text): ``decisions`` with a choice, ``mattered`` (margin), ``standalone`` (the compact
    position gives the same chances), ``new`` (not a repeat), ``kept`` (room in the kind)."""

    games: int = 0
    decisions: int = 0
    mattered: int = 0
    standalone: int = 0
    new: int = 0
    kept: int = 0
    by_kind: dict[str, int] = dataclasses.field(default_factory=dict)


def _bot(level: str, strategy: DiceStrategy) -> Bot[DiceView]:
    if level == "perfect":
        return OptimalBot(strategy, name="perfect")
    return CardBot(CARDS[level], name=level)


def _values(strategy: DiceStrategy, game: DiceGame) -> list[tuple[str, float]]:
    return [(a.action, a.win_probability) for a in advise(strategy, game)]


def compact(game: DiceGame, turns: Sequence[tuple[int, int, tuple[int, ...]]]) -> DiceGame:
    """``game`` rebuilt from the scores before the previous turn: that turn and the current
    turn so far replayed (``turns``: where each turn of ``game`` began, as the index of its first
    action, its seat and the scores then)."""
    start, seat, scores = turns[-2] if len(turns) > 1 else turns[-1]
    names = list(NAMES) if game.current_player == 0 else list(reversed(NAMES))
    out = DiceGame(names, game.rules, seed=0, first_player=seat, scores=list(scores))
    for action in game.actions[start:]:
        out.apply(action)
    return out


def positions(
    strategy: DiceStrategy, players: tuple[str, str], seed: int
) -> Iterator[tuple[DiceGame, Sequence[tuple[int, int, tuple[int, ...]]]]]:
    """Every decision with a choice in one game of ``players`` (levels), with where its turns
    began (for :func:`compact`); the game is the live one: read it before the next."""
    bots = [_bot(level, strategy) for level in players]
    g = DiceGame(list(NAMES), strategy.rules, seed=seed, first_player=seed % 2)
    turns: list[tuple[int, int, tuple[int, ...]]] = []
    finished = -1
    while (seat := g.current_player) is not None:
        if len(g.history) != finished:
            finished = len(g.history)
            turns.append((len(g.actions), seat, tuple(g.scores)))
        view = g.view(seat)
        if kind_of(view) is not None:
            yield g, turns
        g.apply(bots[seat].choose(view, g.legal_actions()), seat=seat)


def _key(view: DiceView) -> tuple[object, ...]:
    me = view.current_player
    assert me is not None
    return (
        view.scores[me],
        view.scores[1 - me],
        view.phase,
        view.turn_total,
        view.dice_to_roll,
        view.roll,
        view.pfeffer,
        view.stake,
        view.predecessor_result,
        view.final_round,
    )


def generate(
    strategy: DiceStrategy,
    *,
    games: int,
    seed: int = 0,
    margin: float = MARGIN,
    per_kind: Mapping[str, int] | None = None,
) -> tuple[list[DicePuzzle], Counts]:
    """Puzzles from ``games`` games of the levels against each other (every pairing in turn,
    game ``i`` with seed ``seed + i``), kept by the filters of the module's text; stops early
    once every kind of ``per_kind`` is full. Two players (the solved table's)."""
    counts = Counts()
    seen: set[tuple[object, ...]] = set()
    found: list[DicePuzzle] = []
    pairings = list(itertools.product(LEVELS, repeat=2))
    cards = {level: CardBot(CARDS[level]) for level in CARD_LEVELS}
    for i in range(games):
        if per_kind is not None and all(counts.by_kind.get(k, 0) >= n for k, n in per_kind.items()):
            break
        counts.games += 1
        a, b = pairings[i % len(pairings)]
        for g, turns in positions(strategy, (a, b), seed + i):
            counts.decisions += 1
            values = _values(strategy, g)
            if len(values) < 2 or values[0][1] - values[1][1] < margin:
                continue
            counts.mattered += 1
            try:
                small = compact(g, turns)
            except ValueError:
                continue
            if _values(strategy, small) != values:
                continue
            counts.standalone += 1
            seat = small.current_player
            assert seat is not None
            view = small.view(seat)
            key = _key(view)
            if key in seen:
                continue
            seen.add(key)
            counts.new += 1
            kind = kind_of(view)
            assert kind is not None
            if per_kind is not None and counts.by_kind.get(kind, 0) >= per_kind.get(kind, 0):
                continue
            legal = small.legal_actions()
            missed = tuple(
                level for level, bot in cards.items() if bot.choose(view, legal) != values[0][0]
            )
            found.append(
                DicePuzzle.make(
                    small.to_record(),
                    kind,
                    values,
                    themes=themes_of(view, kind),
                    missed_by=missed,
                )
            )
            counts.kept += 1
            counts.by_kind[kind] = counts.by_kind.get(kind, 0) + 1
    return found, counts


def verify(strategy: DiceStrategy, puzzle: DicePuzzle, *, margin: float = MARGIN) -> list[str]:
    """What is wrong with ``puzzle`` by the solver (empty: nothing): the position replays, its
    kind is the question asked there, the options are exactly the legal decisions with exactly
    the solver's chances, and the answer is the best by at least ``margin``."""
    problems = []
    g = puzzle.position()
    seat = g.current_player
    if seat is None:
        return ["the position is a finished game"]
    if kind_of(g.view(seat)) != puzzle.kind:
        problems.append(f"the position asks no {puzzle.kind} question")
    values = _values(strategy, g)
    stored = [(o.action, o.win) for o in puzzle.options]
    if sorted(values) != sorted(stored):
        problems.append(f"the options and chances differ from the solver's: {values}")
    if values and values[0][0] != puzzle.answer:
        problems.append(f"the solver's best is {values[0][0]}, not {puzzle.answer}")
    if puzzle.margin < margin:
        problems.append(f"the margin {puzzle.margin:.4f} is below {margin}")
    return problems
