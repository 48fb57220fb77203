"""The trainer page's engine side (issue 23): the shipped puzzles of each game, a puzzle as the
table draws it (the same frame as a game's: the seats, the view of the player to act, the
legal actions, which are the puzzle's options), and an answer checked against the puzzle, in a
language. The service (``services/trainer.py``) deals only in ids, dictionaries and the
:class:`~pfeffer.core.trainer.PuzzleLike` values this module hands out.

Nothing of a puzzle's answer leaves with the puzzle: the frame holds what the player to act
sees and the options unranked (in the engine's order); the values come with the answer. A
Pepper puzzle's frame is the seat's view (its own hand only) but for the open-card puzzles
("all hands shown"), whose other hands are in the view's ``all_hands``."""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from pfeffer.dice.presets import DICE_PRESETS
from pfeffer.dice.puzzle_set import shipped as dice_shipped
from pfeffer.dice.puzzles import OPTION_LABELS, DicePuzzle
from pfeffer.dice.puzzles import QUESTIONS as DICE_QUESTIONS
from pfeffer.dice.puzzles import THEMES as DICE_THEMES
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import cache as solver_cache
from pfeffer.pepper.puzzle_set import shipped as pepper_shipped
from pfeffer.pepper.puzzles import THEMES as PEPPER_THEMES
from pfeffer.pepper.puzzles import PepperPuzzle
from pfeffer.web.adapters import pepper_house
from pfeffer.web.adapters.games import DiceAdapter, PepperAdapter
from pfeffer.web.adapters.pepper_table import CARD_NAMES

#: The games with puzzles, in the page's order.
GAMES = ("dice", "pepper")

#: A puzzle of any of them.
Puzzle: TypeAlias = DicePuzzle | PepperPuzzle

#: The names in a puzzle's record, as the page shows them (msgids).
NAMES = {"You": "You", "Opponent": "Opponent", "Left": "Left", "Right": "Right",
         "Partner": "Partner"}  # fmt: skip

#: A Pepper bid or trump in words (msgids of the Pepper table's).
PEPPER_WORDS = {
    "pass": "Pass",
    "small": "Small Pepper",
    "big": "Big Pepper",
    "C": "Clubs",
    "D": "Diamonds",
    "H": "Hearts",
    "S": "Spades",
    "NT": "No trump",
}
#: The parameters of a Pepper sentence that hold options (cards, bids, trumps).
PEPPER_PARAMS = frozenset({"best", "chosen", "second", "card", "cards", "bid"})

_DICE = DiceAdapter()
_PEPPER = PepperAdapter()


#: Under a preset's house rules: the games played to make the dice puzzles (at most) and the
#: puzzles of each kind (as ``pfeffer dice train --rule``).
HOUSE_GAMES = 60
HOUSE_PER_KIND = {"keep": 150, "bank": 150, "pfeffer": 30}


def _preset_rules(key: str) -> DiceRules | None:
    """The rules of the dice preset ``key`` (None: no such preset)."""
    for preset in DICE_PRESETS:
        if preset.key == key:
            return DiceRules(**preset.rules)
    return None


def rulesets(game: str) -> list[tuple[str, tuple[str, ...]]]:
    """The rules the page can train for ``game``: ``("", label)`` for the shipped puzzles (the
    default rules); for dice ``(preset key, name)`` for every preset of other rules whose
    solved table is at hand (shipped or in the cache: :mod:`pfeffer.dice.solver.cache`); for
    Pepper ``(rule=value, (rule's label, value))`` for each house rule the page offers
    (:mod:`pfeffer.web.adapters.pepper_house`). The labels are msgids."""
    out: list[tuple[str, tuple[str, ...]]] = [("", ("Our family's rules",))]
    if game == "pepper":
        return out + [(key, (label, value)) for key, label, value in pepper_house.options()]
    if game != "dice":
        return out
    for preset in DICE_PRESETS:
        rules = DiceRules(**preset.rules)
        if rules != DiceRules() and solver_cache.exists(rules):
            out.append((preset.key, (preset.label,)))
    return out


class Preparing(Exception):
    """The puzzles of these Pepper house rules are being made (:func:`prepare` started it)."""


def prepare(game: str, rules: str) -> bool:
    """Start making the puzzles of ``game`` under ``rules`` where they are made in the
    background (Pepper's house rules: :mod:`~pfeffer.web.adapters.pepper_house`); whether
    they are ready. KeyError for rules the page does not offer."""
    if game != "pepper" or not rules:
        return True
    return pepper_house.start(rules) == "ready"


def stop() -> None:
    """Stop the background work of :func:`prepare` (the app is shutting down)."""
    pepper_house.shutdown()


def wait(game: str, rules: str, timeout: float) -> None:
    """Wait (in a worker thread) until the puzzles of ``game`` under ``rules`` are made;
    KeyError, TimeoutError."""
    if game == "pepper" and rules:
        pepper_house.wait(rules, timeout)


@functools.cache
def _house(key: str) -> tuple[Puzzle, ...]:
    """The dice puzzles of preset ``key``, made from its solved table once per rules key (the
    presets of the same rules share them). KeyError without a table."""
    rules = _preset_rules(key)
    strategy = solver_cache.load(rules) if rules is not None else None
    if strategy is None:
        raise KeyError(key)
    return _house_of(solver_cache.rules_key(strategy.rules), strategy)


_MADE: dict[str, tuple[Puzzle, ...]] = {}


def _house_of(rules_key: str, strategy: Any) -> tuple[Puzzle, ...]:
    if rules_key not in _MADE:
        from pfeffer.dice.solver.puzzles import generate

        found, _ = generate(strategy, games=HOUSE_GAMES, seed=0, per_kind=HOUSE_PER_KIND)
        _MADE[rules_key] = tuple(found)
    return _MADE[rules_key]


def puzzles(game: str, rules: str = "") -> tuple[Puzzle, ...]:
    """The puzzles of ``game``: the shipped ones, under the dice preset ``rules`` those made
    from its solved table, under the Pepper house rules ``rules`` those made in the background
    (:class:`Preparing` until they are: :func:`prepare` starts it). KeyError for a game without
    puzzles or rules the page does not offer."""
    if rules:
        if game == "pepper":
            if pepper_house.rules_of(rules) is None:
                raise KeyError(rules)
            found = pepper_house.made(rules)
            if found is None:
                raise Preparing(rules)
            return found
        if game != "dice":
            raise KeyError(rules)
        return _house(rules)
    if game == "dice":
        return dice_shipped()
    if game == "pepper":
        return pepper_shipped()
    raise KeyError(game)


@functools.cache
def _by_id(game: str, rules: str = "") -> Mapping[str, Puzzle]:
    return {p.id: p for p in puzzles(game, rules)}


def find(game: str, puzzle_id: str, rules: str = "") -> Puzzle | None:
    """The puzzle ``puzzle_id`` of ``game`` (under the preset ``rules``; None if there is none)."""
    return _by_id(game, rules).get(puzzle_id)


def themes(game: str) -> Mapping[str, str]:
    """The themes of ``game``'s puzzles with what each means (msgids)."""
    if game == "dice":
        return DICE_THEMES
    if game == "pepper":
        return PEPPER_THEMES
    raise KeyError(game)


def pepper_label(action: str, _: Callable[[str], str]) -> str:
    """A Pepper option in words: a card's name, a bid, a trump ("AH" → "ace of hearts")."""
    if action in CARD_NAMES:
        return _(CARD_NAMES[action])
    if action in PEPPER_WORDS:
        return _(PEPPER_WORDS[action])
    return action  # a bid of that many tricks


def _pepper_param(value: Any, _: Callable[[str], str]) -> Any:
    if not isinstance(value, str):
        return value
    return ", ".join(pepper_label(v.strip(), _) for v in value.split(","))


def option_label(action: str, _: Callable[[str], str]) -> str:
    """An option in words (``keep 155`` → "set aside 1-5-5"), translated by ``_``."""
    word, _sep, rest = action.partition(" ")
    template = OPTION_LABELS.get(word)
    if template is None:
        return action
    return _(template).format(dice="-".join(rest))


def puzzle_view(puzzle: Puzzle, _: Callable[[str], str]) -> dict[str, Any]:
    """What the page shows of ``puzzle``: its id, kind, question, themes, difficulty and the
    table's frame (the seats, the view of the player to act, the options as the legal
    actions, in the engine's order). No value of an option, no card the player cannot see."""
    if isinstance(puzzle, PepperPuzzle):
        return _pepper_view(puzzle, _)
    game = puzzle.position()
    seat = game.current_player
    names = [_(NAMES.get(n, n)) for n in game.players]
    legal = [a for a in _DICE.legal_actions(game, seat) if a in {o.action for o in puzzle.options}]
    frame = {
        "seat": seat,
        "seats": [{"name": n, "kind": "human"} for n in names],
        "view": _DICE.view(game, seat),
        "legal": legal,
    }
    return {
        "id": puzzle.id,
        "game": "dice",
        "kind": puzzle.kind,
        "question": _(DICE_QUESTIONS[puzzle.kind]),
        "themes": list(puzzle.themes),
        "difficulty": puzzle.difficulty,
        "frame": frame,
    }


def _name(name: str, _: Callable[[str], str]) -> str:
    """A seat's or a side's name of a puzzle's record as the page shows it ("Left & Right":
    "Links & Rechts")."""
    return " & ".join(_(NAMES.get(n, n)) for n in name.split(" & "))


def _in_words(view: dict[str, Any], _: Callable[[str], str]) -> dict[str, Any]:
    """``view`` with the record's names of seats and sides (the score pad's column heads)
    translated."""
    for key in ("players", "side_names", "winner_names"):
        if isinstance(view.get(key), list):
            view[key] = [_name(n, _) for n in view[key]]
    return view


def _pepper_view(puzzle: PepperPuzzle, _: Callable[[str], str]) -> dict[str, Any]:
    game = puzzle.game()
    seat = puzzle.seat
    names = [_name(n, _) for n in game.players]
    view = _in_words(_PEPPER.view(game, seat), _)
    if puzzle.kind == "open":  # every other hand shown; the player's own is its hand to play
        view["all_hands"] = [[] if s == seat else h for s, h in enumerate(puzzle.hands())]
        view["puzzle_hand"] = True
    options = {o.action for o in puzzle.options}
    legal = [a for a in _PEPPER.legal_actions(game, seat) if a in options]
    q = puzzle.question_line
    return {
        "id": puzzle.id,
        "game": "pepper",
        "kind": puzzle.kind,
        "question": _(q.template).format(**dict(q.params)),
        "themes": list(puzzle.themes),
        "difficulty": puzzle.difficulty,
        "frame": {
            "seat": seat,
            "seats": [{"name": n, "kind": "human"} for n in names],
            "view": view,
            "legal": legal,
        },
    }


def check(puzzle: Puzzle, answer: str, t: gettext.NullTranslations) -> dict[str, Any]:
    """``answer`` to ``puzzle``: right or not, the option it names and the best, what it gave
    away, every option with its chance to win (best first, in words too) and the sentences to
    learn from, translated by ``t``. The engine's InvalidAction or IllegalAction for an
    answer that is no option."""
    _ = t.gettext
    if isinstance(puzzle, PepperPuzzle):
        return _check_pepper(puzzle, answer, _)
    f = puzzle.feedback(answer)

    def words(value: Any) -> Any:
        return option_label(value, _) if isinstance(value, str) else value

    lines = []
    for line in f.lines:
        params = {k: words(v) if k in ("action", "best", "second") else v for k, v in line.params}
        text = _(line.template).format(**params)
        lines.append(text[:1].upper() + text[1:])  # "{best} wins …" starts with an option
    return {
        "id": puzzle.id,
        "correct": f.correct,
        "chosen": f.chosen,
        "best": f.best,
        "cost": round(f.cost, 6),
        "options": [
            {"action": o.action, "label": option_label(o.action, _), "win": round(o.win, 6)}
            for o in f.options
        ],
        "lines": lines,
    }


def _check_pepper(puzzle: PepperPuzzle, answer: str, _: Callable[[str], str]) -> dict[str, Any]:
    """A Pepper answer (see :func:`check`); ``win`` is the option's value there (points of the
    hand on average, or tricks for an open-card puzzle), ``answers`` every option as good as
    the best (equal cards), and ``hands`` every hand, shown now that it is answered."""
    f = puzzle.feedback(answer)
    lines = []
    for line in f.lines:
        params = {k: _pepper_param(v, _) if k in PEPPER_PARAMS else v for k, v in line.params}
        text = _(line.template).format(**params)
        lines.append(text[:1].upper() + text[1:])
    return {
        "id": puzzle.id,
        "correct": f.correct,
        "chosen": f.chosen,
        "best": f.best,
        "cost": round(f.cost, 4),
        "unit": "tricks" if puzzle.kind == "open" else "points",
        "answers": list(puzzle.answers),
        "options": [
            {"action": o.action, "label": pepper_label(o.action, _), "win": o.value}
            for o in f.options
        ],
        "lines": lines,
        "hands": puzzle.hands(),
    }
