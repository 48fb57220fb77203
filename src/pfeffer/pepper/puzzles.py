"""Pepper puzzles for the trainer: one decision of a real hand, every option's value, the answer,
themes to drill and a difficulty estimate (issue 23).

Four kinds of question:

- ``card`` "Which card do you play?", ``bid`` "What do you bid?" and ``trump`` "Which trump do
  you name?": from the seat's view only (:meth:`PepperPuzzle.view`). An option's value is the
  expert's average over sampled worlds (the unseen cards dealt anew, each world solved double
  dummy) of the hand's points, own side's less the others' (their mean with 3 players): what a
  choice is worth when nobody can see the cards.
- ``open`` "All hands shown: play to take N tricks": every hand is open
  (:meth:`PepperPuzzle.hands`) and an option's value is exactly the tricks the mover's side
  takes of the tricks still to play after that card, with best play by all (double dummy).

The position is one hand of a game, kept as its actions from the deal on
(:attr:`PepperPuzzle.position`, canonical JSON text); the scores before the hand are not part of
it (the values are the hand's points). **The position holds every hand**: a front end shows a
player :meth:`~PepperPuzzle.view` (and, for ``open``, :meth:`~PepperPuzzle.hands`), never the
position, until the puzzle is answered.

Equal cards (nothing between them but the seat's own cards and cards of finished tricks) share
a value: either is right. A puzzle is answered right when the chosen option is worth as much as
the best (:meth:`PepperPuzzle.feedback`), which for ``card``, ``bid`` and ``trump`` means the
best option itself (its lead over the next is the puzzle's margin), and for ``open`` any card
that takes the target.

>>> p = PepperPuzzle.make(
...     {"players": 4, "dealer": 0, "actions": [
...         "deal 9D TD JD QD KD AD / AH QH 9C TC QC KC / KH 9H TH 9S TS QS / JH JC JS AC AS KS",
...         "pass", "1", "pass", "pass", "S", "KH", "JH", "9D"]},
...     "card", [("AH", 1.4), ("QH", -0.6)])
>>> p.answer, p.margin, p.question, p.view().hand
('AH', 2.0, 'Which card do you play?', ('9C', 'TC', 'QC', 'KC', 'QH', 'AH'))
>>> f = p.feedback("Q♥")
>>> f.correct, f.chosen, f.cost
(False, 'QH', 2.0)
>>> PepperPuzzle.from_dict(p.to_dict()) == p
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pfeffer.core.errors import IllegalAction
from pfeffer.core.trainer import Line
from pfeffer.core.trainer import line as _line
from pfeffer.pepper.action import PepperAction
from pfeffer.pepper.cards import CARD_INDEX, EFFECTIVE_SUIT, TRICK_VALUE, parse_trump
from pfeffer.pepper.game import PepperGame, PepperView
from pfeffer.pepper.rules import PepperRules

#: The kinds of question.
KINDS = ("card", "bid", "trump", "open")

#: The question of each kind, as a player reads it (a msgid).
QUESTIONS: Mapping[str, str] = {
    "card": "Which card do you play?",
    "bid": "What do you bid?",
    "trump": "Which trump do you name?",
    "open": "All hands shown: play to take {target} of the {left} tricks left.",
}

#: The themes a player can drill, with what each means (msgids). Every puzzle has its kind's
#: theme; the others say what else is going on.
THEMES: Mapping[str, str] = {
    "card": "which card to play, seeing only your hand",
    "bid": "what to bid",
    "trump": "which trump to name",
    "open": "all hands shown: the card that takes the most tricks",
    "opening lead": "the first card of the hand",
    "left bower": "the jack of the trump suit's colour: the second-highest trump",
    "count the trumps": "a few trumps are still out: count them",
    "endplay": "the last tricks: who must lead, and into what",
    "defence": "playing against the contract",
    "Small Pepper": "a Small Pepper: every trick",
    "Big Pepper": "a Big Pepper: every trick, for double",
    "no trump": "a hand without trumps",
    "forced bid": "everybody else passed: a bid is a must",
}

#: The margins the generator keeps by default: the best card ahead of the next by half a point
#: of the hand's score, a bid or trump by a point (:mod:`pfeffer.pepper.puzzle_gen`).
MARGIN: Mapping[str, float] = {"card": 0.5, "bid": 1.0, "trump": 1.0, "open": 1.0}

#: Options worth this close to the best count as the best (equal cards, rounding).
EPS = 1e-6

FORMAT = 1


@dataclasses.dataclass(frozen=True, slots=True)
class PuzzleOption:
    """One answer and what it is worth: points of the hand on average (``card``, ``bid``,
    ``trump``) or the tricks still to play that the side takes, double dummy (``open``)."""

    action: str
    value: float


@dataclasses.dataclass(frozen=True, slots=True)
class Feedback:
    """How an answer compares: ``chosen`` is the option it names (canonical), ``best`` the
    answer, ``cost`` what it gives away (points, or tricks for ``open``), ``options`` all of
    them best first, and ``lines`` sentences to learn from."""

    correct: bool
    chosen: str
    best: str
    cost: float
    options: tuple[PuzzleOption, ...]
    lines: tuple[Line, ...]


def estimate_rating(kind: str, margin: float, depth: int, options: int) -> int:
    """A first guess of a puzzle's rating (on the Glicko scale, 1500 an average puzzle). View
    puzzles: harder the smaller the margin (points) and the more options. Open puzzles: harder
    the more cards are left to play (``depth``: the mover's cards) and the more options. The
    results of players move it from there (:mod:`pfeffer.core.trainer`).

    >>> estimate_rating("card", 4.0, 6, 2), estimate_rating("card", 0.5, 6, 6)
    (1100, 1620)
    >>> estimate_rating("open", 1.0, 2, 2), estimate_rating("open", 1.0, 7, 5)
    (1000, 1870)
    """
    spread = 40 * min(max(options - 2, 0), 4)
    if kind == "open":
        return round(1000 + 150 * max(depth - 2, 0) + spread)
    closeness = min(max(math.log2(4.0 / max(margin, 1e-9)), 0.0), 4.0)
    return round(1100 + 120 * closeness + spread)


def seat_names(players: int, seat: int) -> list[str]:
    """The names of the seats as the player at ``seat`` sees them.

    >>> seat_names(4, 1), seat_names(2, 0)
    (['Right', 'You', 'Left', 'Partner'], ['You', 'Opponent'])
    """
    if players == 2:
        rel = ["You", "Opponent"]
    elif players == 3:
        rel = ["You", "Left", "Right"]
    else:
        rel = ["You", "Left", "Partner", "Right"]
    return [rel[(s - seat) % players] for s in range(players)]


@dataclasses.dataclass(frozen=True)
class PepperPuzzle:
    """A decision with one clearly best answer (see the module's text).

    ``position``: the hand as canonical JSON text (``players``, ``dealer``, ``actions`` from
    the deal, and ``rules`` if not the defaults); ``kind``: one of :data:`KINDS`; ``options``:
    every legal option with its value, best first; ``themes``: keys of :data:`THEMES`;
    ``difficulty``: the rating the puzzle starts from; ``worlds``: the sampled worlds behind a
    view puzzle's values (0 for ``open``).
    """

    id: str
    kind: str
    position: str
    options: tuple[PuzzleOption, ...]
    themes: tuple[str, ...]
    difficulty: int
    worlds: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"no puzzle kind {self.kind!r} (choose from {', '.join(KINDS)})")
        if len(self.options) < 2:
            raise ValueError("a puzzle needs two options or more")
        values = [o.value for o in self.options]
        if values != sorted(values, reverse=True):
            raise ValueError("a puzzle's options go best first")
        unknown = set(self.themes) - set(THEMES)
        if unknown:
            raise ValueError(f"no theme {sorted(unknown)[0]!r}")

    # ------------------------------------------------------------------ making and storing

    @classmethod
    def make(
        cls,
        position: Mapping[str, Any],
        kind: str,
        options: Iterable[tuple[str, float]],
        *,
        themes: Sequence[str] = (),
        worlds: int = 0,
        difficulty: int | None = None,
    ) -> PepperPuzzle:
        """A puzzle at ``position`` (``players``, ``dealer``, ``actions``, optional ``rules``)
        with ``options`` as (action, value) in any order; the id is a hash of the position and
        kind, the difficulty :func:`estimate_rating` unless given."""
        text = json.dumps(position, sort_keys=True, separators=(",", ":"))
        ranked = tuple(
            PuzzleOption(a, round(float(v), 4))
            for a, v in sorted(options, key=lambda o: (-o[1], o[0]))
        )
        pid = hashlib.sha256(f"{kind}:{text}".encode()).hexdigest()[:12]
        order = {t: i for i, t in enumerate(THEMES)}
        puzzle = cls(
            id=pid,
            kind=kind,
            position=text,
            options=ranked,
            themes=tuple(sorted(set(themes) | {kind}, key=order.__getitem__)),
            difficulty=0,
            worlds=worlds,
        )
        if difficulty is None:
            depth = len(puzzle.view().hand)
            difficulty = estimate_rating(kind, puzzle.margin, depth, len(ranked))
        return dataclasses.replace(puzzle, difficulty=difficulty)

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-ready data (:meth:`from_dict` reads it back)."""
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "position": json.loads(self.position),
            "options": [[o.action, o.value] for o in self.options],
            "themes": list(self.themes),
            "difficulty": self.difficulty,
        }
        if self.worlds:
            out["worlds"] = self.worlds
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PepperPuzzle:
        """The puzzle written by :meth:`to_dict` (ValueError if it is not one)."""
        try:
            return cls(
                id=str(data["id"]),
                kind=str(data["kind"]),
                position=json.dumps(data["position"], sort_keys=True, separators=(",", ":")),
                options=tuple(PuzzleOption(str(a), float(v)) for a, v in data["options"]),
                themes=tuple(str(t) for t in data["themes"]),
                difficulty=int(data["difficulty"]),
                worlds=int(data.get("worlds", 0)),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a Pepper puzzle: {exc}") from None

    # ------------------------------------------------------------------ the position

    def game(self) -> PepperGame:
        """A fresh game at the puzzle's position (the engine replays the hand; the player to
        act is called "You", the others by where they sit from there)."""
        data = json.loads(self.position)
        n = int(data["players"])
        rules = PepperRules.from_dict(data["rules"]) if "rules" in data else None
        probe = PepperGame(players=n, rules=rules, seed=0, dealer=int(data["dealer"]))
        for a in data["actions"]:
            probe.apply(a)
        seat = probe.current_player
        assert seat is not None
        g = PepperGame(
            players=n, rules=rules, seed=0, dealer=int(data["dealer"]), names=seat_names(n, seat)
        )
        for a in data["actions"]:
            g.apply(a)
        return g

    @property
    def seat(self) -> int:
        """The seat to act."""
        return _seat_of(self.position)

    def view(self) -> PepperView:
        """What the player to act sees: their own hand only (for ``open``, see :meth:`hands`)."""
        return self.game().view(self.seat)

    def hands(self) -> list[list[str]]:
        """Every seat's unplayed cards (the dead hand of 2 players aside): shown with the
        question for ``open`` puzzles, and only after the answer for the others."""
        g = self.game()
        return [g.hand(s) for s in range(len(g.players))]

    @property
    def rules(self) -> PepperRules:
        """The rules the puzzle is played under."""
        data = json.loads(self.position)
        return PepperRules.from_dict(data["rules"]) if "rules" in data else PepperRules()

    @property
    def players(self) -> int:
        """How many play."""
        return int(json.loads(self.position)["players"])

    @property
    def answer(self) -> str:
        """The best option (for ``open``: one of the cards that take the target)."""
        return self.options[0].action

    @property
    def answers(self) -> tuple[str, ...]:
        """Every option worth as much as the best (equal cards; open puzzles' other ways)."""
        top = self.options[0].value
        return tuple(o.action for o in self.options if o.value >= top - EPS)

    @property
    def margin(self) -> float:
        """How far the best options are ahead of the next (points, or tricks for ``open``)."""
        top = self.options[0].value
        rest = [o.value for o in self.options if o.value < top - EPS]
        return round(top - rest[0], 4) if rest else 0.0

    @property
    def target(self) -> int:
        """For ``open``: the tricks of those left that the mover's side can take."""
        return round(self.options[0].value)

    @property
    def question(self) -> str:
        """The question asked, as a player reads it (English; :attr:`question_line` for a
        template to translate)."""
        return self.question_line.text()

    @property
    def question_line(self) -> Line:
        """The question as a template and its values."""
        if self.kind == "open":
            v = self.view()
            left = v.tricks_in_hand - len(v.tricks)
            return _line(QUESTIONS["open"], target=self.target, left=left)
        return _line(QUESTIONS[self.kind])

    # ------------------------------------------------------------------ answering

    def option_of(self, answer: str) -> str:
        """The option that ``answer`` names, in the engine's notation (``"10♥"`` and ``"th"``
        name ``TH``, ``"small pepper"`` names ``small``, ``"no trump"`` ``NT``, ``"p"``
        ``pass``); :class:`~pfeffer.core.errors.InvalidAction` for no action, and
        :class:`~pfeffer.core.errors.IllegalAction` for one that is no option here."""
        text = answer.strip() if isinstance(answer, str) else answer
        if self.kind == "bid" and isinstance(text, str):
            text = {"p": "pass", "s": "small", "sp": "small", "b": "big", "bp": "big"}.get(
                text.lower(), text
            )
        action = str(PepperAction.parse(text))
        if action not in {o.action for o in self.options}:
            raise IllegalAction.format(
                "{action} is not one of the options here: {options}.",
                action=action,
                options=", ".join(o.action for o in self.options),
            )
        return action

    def feedback(self, answer: str) -> Feedback:
        """How good ``answer`` is (see :class:`Feedback`); the errors of :meth:`option_of`."""
        chosen = self.option_of(answer)
        value = {o.action: o.value for o in self.options}
        best = chosen if chosen in self.answers else self.answer
        return Feedback(
            correct=chosen in self.answers,
            chosen=chosen,
            best=best,
            cost=round(self.options[0].value - value[chosen], 4),
            options=self.options,
            lines=explain(self, chosen),
        )


def _seat_of(position: str) -> int:
    data = json.loads(position)
    g = PepperGame(
        players=int(data["players"]),
        rules=PepperRules.from_dict(data["rules"]) if "rules" in data else None,
        seed=0,
        dealer=int(data["dealer"]),
    )
    for a in data["actions"]:
        g.apply(a)
    assert g.current_player is not None
    return g.current_player


# ---------------------------------------------------------------------- themes and sentences


def trumps_out(view: PepperView) -> list[str]:
    """The trumps the seat cannot see: neither in its hand nor played (empty with no trump)."""
    t = parse_trump(view.trump)
    if t == 4:
        return []
    seen = set(view.hand) | {c for tr in view.tricks for c in tr.cards}
    seen |= {c for _, c in view.current_trick}
    return sorted(
        (c for c, i in CARD_INDEX.items() if EFFECTIVE_SUIT[t][i] == t and c not in seen),
        key=lambda c: -TRICK_VALUE[t][t][CARD_INDEX[c]],
    )


def left_bower(trump: str | None) -> str | None:
    """The left bower of ``trump`` (the jack of the same colour), None with no trump.

    >>> left_bower("H"), left_bower("C"), left_bower("NT")
    ('JD', 'JS', None)
    """
    if trump in (None, "NT"):
        return None
    return "J" + {"C": "S", "S": "C", "D": "H", "H": "D"}[trump]


def themes_of(view: PepperView, kind: str, answer: str) -> tuple[str, ...]:
    """The themes of a decision of ``kind`` at ``view`` whose best answer is ``answer``."""
    found = {kind}
    contract = view.high_bid
    if kind in ("card", "open"):
        if not view.tricks and not view.current_trick:
            found.add("opening lead")
        if answer == left_bower(view.trump):
            found.add("left bower")
        out = trumps_out(view)
        if view.tricks and 0 < len(out) <= 2:
            found.add("count the trumps")
        if view.tricks_in_hand - len(view.tricks) <= 3:
            found.add("endplay")
        seat, bidder = view.seat, view.bidder
        if seat is not None and bidder is not None and view.side_of(bidder) != view.side_of(seat):
            found.add("defence")
        if view.trump == "NT":
            found.add("no trump")
    elif kind == "trump":
        bower = left_bower(answer)
        if bower is not None and bower in view.hand:
            found.add("left bower")
        if answer == "NT":
            found.add("no trump")
    else:
        contract = answer
        if view.must_bid:
            found.add("forced bid")
    if contract == "small":
        found.add("Small Pepper")
    elif contract == "big":
        found.add("Big Pepper")
    order = {t: i for i, t in enumerate(THEMES)}
    return tuple(sorted(found, key=order.__getitem__))


def _pts(v: float) -> str:
    return f"{v:+.1f}"


def explain(puzzle: PepperPuzzle, chosen: str) -> tuple[Line, ...]:
    """The sentences that explain ``puzzle``'s answer to a player who chose ``chosen``: what the
    best and the chosen option are worth, and what the position teaches (the contract, the
    trumps still out, the left bower, the tricks left)."""
    view = puzzle.view()
    value = {o.action: o.value for o in puzzle.options}
    best = puzzle.answer if chosen not in puzzle.answers else chosen
    out: list[Line] = []
    if puzzle.kind == "open":
        left = view.tricks_in_hand - len(view.tricks)
        out.append(
            _line(
                "Double dummy (every hand open, best play by all): {best} takes {tricks} of the "
                "{left} tricks left for your side.",
                best=best,
                tricks=round(value[best]),
                left=left,
            )
        )
        if chosen != best:
            out.append(
                _line(
                    "{chosen} takes only {tricks}: the others can then answer it best.",
                    chosen=chosen,
                    tricks=round(value[chosen]),
                )
            )
        others = [a for a in puzzle.answers if a != best]
        if others:
            out.append(_line("These take as many: {cards}.", cards=", ".join(others)))
    else:
        out.append(
            _line(
                "Over {worlds} deals of the cards you cannot see, each played out double dummy, "
                "{best} scores {value} points for your side on average (your side's points less "
                "the others').",
                worlds=puzzle.worlds,
                best=best,
                value=_pts(value[best]),
            )
        )
        if chosen != best:
            out.append(
                _line(
                    "{chosen} scores {value}: {cost} points less.",
                    chosen=chosen,
                    value=_pts(value[chosen]),
                    cost=f"{value[best] - value[chosen]:.1f}",
                )
            )
        else:
            second = next(o for o in puzzle.options if o.value < value[best] - EPS)
            out.append(
                _line(
                    "The next best, {second}, scores {value}: {cost} points less.",
                    second=second.action,
                    value=_pts(second.value),
                    cost=f"{value[best] - second.value:.1f}",
                )
            )
    out.extend(_position_lines(view, puzzle, best))
    return tuple(out)


def _position_lines(view: PepperView, puzzle: PepperPuzzle, best: str) -> list[Line]:
    out: list[Line] = []
    if puzzle.kind in ("card", "open") and view.bidder is not None:
        need = view.tricks_needed or 0
        side = view.side_of(view.bidder)
        won = view.tricks_won[side]
        left = view.tricks_in_hand - len(view.tricks)
        ours = view.seat is not None and side == view.side_of(view.seat)
        if need - won > left:
            out.append(_line("The contract is already set: every trick still counts a point."))
        elif ours:
            out.append(
                _line(
                    "Your side holds the contract ({bid}) and needs {more} more of the {left} "
                    "tricks left.",
                    bid=view.high_bid,
                    more=max(need - won, 0),
                    left=left,
                )
            )
        else:
            out.append(
                _line(
                    "The contract ({bid}) needs {more} more of the {left} tricks left: {stop} "
                    "more for your side sets it.",
                    bid=view.high_bid,
                    more=max(need - won, 0),
                    left=left,
                    stop=max(left - (need - won) + 1, 0),
                )
            )
        out_trumps = trumps_out(view)
        if view.trump not in (None, "NT") and view.tricks:
            shown = puzzle.kind == "open"  # every hand is shown: the trumps out are the others'
            if out_trumps:
                out.append(
                    _line(
                        "Trumps in the other hands: {count} ({cards})."
                        if shown
                        else "Trumps you cannot see: {count} ({cards}).",
                        count=len(out_trumps),
                        cards=", ".join(out_trumps),
                    )
                )
            else:
                out.append(
                    _line(
                        "You hold every trump that has not been played."
                        if shown
                        else "Every trump you cannot see has been played."
                    )
                )
    bower = left_bower(best if puzzle.kind == "trump" else view.trump)
    if bower is not None and (best == bower or (puzzle.kind == "trump" and bower in view.hand)):
        out.append(
            _line(
                "{card} is the left bower: a trump, second only to the jack of trumps.",
                card=bower,
            )
        )
    if puzzle.kind == "bid" and best in ("small", "big"):
        out.append(_line("A Pepper promises every trick: Big Pepper doubles the win and the loss."))
    if puzzle.kind == "bid" and view.must_bid:
        out.append(_line("Everybody else passed: you must bid at least 1."))
    return out


__all__ = [
    "EPS",
    "FORMAT",
    "KINDS",
    "MARGIN",
    "QUESTIONS",
    "THEMES",
    "Feedback",
    "Line",
    "PepperPuzzle",
    "PuzzleOption",
    "estimate_rating",
    "explain",
    "left_bower",
    "seat_names",
    "themes_of",
    "trumps_out",
]
