"""Dice puzzles for the trainer: one decision of a real game, the solver's chance to win for every
option, the answer, themes to drill and a difficulty estimate (issue 23).

A :class:`DicePuzzle` is a small frozen value: the position as the engine's record (a game
started from the scores before the opponent's last turn: that turn and the mover's turn so far
are its actions, so the Pfeffer offer, Auto-Pfeffer and the final round are the engine's own),
the kind of question, every option with its chance to win (best first), the themes and a
difficulty. It reads and writes JSON (:meth:`DicePuzzle.to_dict`), and :meth:`DicePuzzle.feedback`
tells a player how good an answer was and why, in sentences built from the position (the chance
that the dice left score nothing, what the opponent's score means). Pure: the puzzles are made
by :mod:`pfeffer.dice.solver.puzzles` and shipped by :mod:`pfeffer.dice.puzzle_set`.

>>> from pfeffer.dice import DiceGame
>>> g = DiceGame(["You", "Opponent"], seed=0)
>>> g.apply("roll 115236")
>>> p = DicePuzzle.make(g.to_record(), "keep", [("keep 115", 0.50), ("keep 1", 0.52),
...     ("keep 11", 0.49), ("keep 15", 0.48), ("keep 5", 0.47)], themes=("keep",))
>>> p.answer, round(p.margin, 3), p.question
('keep 1', 0.02, 'Which dice do you set aside?')
>>> f = p.feedback("1 1 5")
>>> f.correct, f.chosen, round(f.cost, 3)
(False, 'keep 115', 0.02)
>>> DicePuzzle.from_dict(p.to_dict()) == p
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pfeffer.core.errors import IllegalAction
from pfeffer.core.trainer import Line
from pfeffer.core.trainer import line as _line
from pfeffer.dice.game import DiceAction, DiceGame, DiceView, PfefferMode, Phase
from pfeffer.dice.probability import throw_distribution
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import score_table

#: The kinds of question, by the phase they are asked in.
KINDS = ("keep", "bank", "pfeffer")

#: The question of each kind, as a player reads it (a msgid).
QUESTIONS: Mapping[str, str] = {
    "keep": "Which dice do you set aside?",
    "bank": "Bank or roll on?",
    "pfeffer": "Call Pfeffer?",
}

#: An option as a sentence says it (msgids; ``{dice}``: the faces set aside, "1-5-5"): the
#: web trainer's words, and the terminal's in German and Czech.
OPTION_LABELS: Mapping[str, str] = {
    "keep": "set aside {dice}",
    "bank": "bank the points",
    "roll": "roll on",
    "pfeffer": "call Pfeffer",
}

#: The themes a player can drill, with what each means (msgids). Every puzzle has its kind's
#: theme; the others say what else is going on.
THEMES: Mapping[str, str] = {
    "keep": "which dice to set aside",
    "bank": "banking or rolling on",
    "pfeffer": "calling Pfeffer, or playing a Pfeffer turn",
    "hot dice": "a choice that can score all the dice (six fresh dice)",
    "final round": "the last turn, after the opponent reached the target",
    "auto pfeffer": "a turn under Auto-Pfeffer (a bust costs extra)",
    "few dice": "one or two dice left to throw",
    "endgame": "a player is close to the target",
    "behind": "far behind",
    "ahead": "far ahead",
}

#: The options whose chances differ by less than this are the same answer: a puzzle's best
#: answer is ahead of the next by at least this much (the generator's default margin).
MARGIN = 0.01

#: A score this close to the target (or closer) is the endgame theme; a gap this large is far
#: behind or ahead.
ENDGAME = 2000
FAR = 2500

FORMAT = 1


@dataclasses.dataclass(frozen=True, slots=True)
class PuzzleOption:
    """One answer and the chance to win after it (both players playing on perfectly)."""

    action: str
    win: float


@dataclasses.dataclass(frozen=True, slots=True)
class Feedback:
    """How an answer compares: ``chosen`` is the option it names (canonical), ``best`` the
    answer, ``cost`` the chance to win it gives away, ``options`` all of them best first, and
    ``lines`` sentences to learn from."""

    correct: bool
    chosen: str
    best: str
    cost: float
    options: tuple[PuzzleOption, ...]
    lines: tuple[Line, ...]


def bust_chance(rules: DiceRules, dice: int) -> float:
    """The chance that a throw of ``dice`` dice scores nothing under ``rules``.

    >>> round(bust_chance(DiceRules(), 6), 4), round(bust_chance(DiceRules(), 1), 4)
    (0.0231, 0.6667)
    """
    options = score_table(rules).options
    return sum(p for throw, p in throw_distribution(dice) if not options[throw])


def estimate_rating(margin: float, missed_by: int, options: int) -> int:
    """A first guess of a puzzle's rating (on the Glicko scale, 1500 an average puzzle): harder
    the smaller the margin between the best two answers, the more of the computer's levels
    (easy, medium, hard) get it wrong, and the more options there are. The results of players
    move it from there (:mod:`pfeffer.core.trainer`).

    >>> estimate_rating(0.2, 0, 2), estimate_rating(0.01, 3, 6)
    (1100, 2450)
    """
    closeness = min(max(math.log2(0.16 / max(margin, 1e-9)), 0.0), 4.0)
    return round(1100 + 250 * missed_by + 120 * closeness + 30 * min(max(options - 2, 0), 4))


@dataclasses.dataclass(frozen=True)
class DicePuzzle:
    """A decision with one clearly best answer (see the module's text).

    ``record``: the position as the engine's JSON record (canonical text); ``kind``: one of
    :data:`KINDS`; ``options``: every option with its chance to win, best first; ``themes``:
    keys of :data:`THEMES`; ``difficulty``: the rating the puzzle starts from;
    ``missed_by``: the computer's levels that chose another option there.
    """

    id: str
    kind: str
    record: str
    options: tuple[PuzzleOption, ...]
    themes: tuple[str, ...]
    difficulty: int
    missed_by: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"no puzzle kind {self.kind!r} (choose from {', '.join(KINDS)})")
        if len(self.options) < 2:
            raise ValueError("a puzzle needs two options or more")
        wins = [o.win for o in self.options]
        if wins != sorted(wins, reverse=True):
            raise ValueError("a puzzle's options go best first")
        unknown = set(self.themes) - set(THEMES)
        if unknown:
            raise ValueError(f"no theme {sorted(unknown)[0]!r}")

    # ------------------------------------------------------------------ making and storing

    @classmethod
    def make(
        cls,
        record: Mapping[str, Any],
        kind: str,
        options: Iterable[tuple[str, float]],
        *,
        themes: Sequence[str] = (),
        missed_by: Sequence[str] = (),
        difficulty: int | None = None,
    ) -> DicePuzzle:
        """A puzzle of ``record`` (the engine's record of the position) with ``options`` as
        (action, chance to win) in any order; the id is a hash of the position, the difficulty
        :func:`estimate_rating` unless given."""
        text = json.dumps(record, sort_keys=True, separators=(",", ":"))
        ranked = tuple(PuzzleOption(a, w) for a, w in sorted(options, key=lambda o: (-o[1], o[0])))
        margin = ranked[0].win - ranked[1].win if len(ranked) > 1 else 0.0
        pid = hashlib.sha256(text.encode()).hexdigest()[:12]
        if difficulty is None:
            difficulty = estimate_rating(margin, len(missed_by), len(ranked))
        order = {t: i for i, t in enumerate(THEMES)}
        return cls(
            id=pid,
            kind=kind,
            record=text,
            options=ranked,
            themes=tuple(sorted(set(themes) | {kind}, key=order.__getitem__)),
            difficulty=difficulty,
            missed_by=tuple(missed_by),
        )

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-ready data (:meth:`from_dict` reads it back)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "record": json.loads(self.record),
            "options": [[o.action, o.win] for o in self.options],
            "themes": list(self.themes),
            "difficulty": self.difficulty,
            "missed_by": list(self.missed_by),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DicePuzzle:
        """The puzzle written by :meth:`to_dict` (ValueError if it is not one)."""
        try:
            return cls(
                id=str(data["id"]),
                kind=str(data["kind"]),
                record=json.dumps(data["record"], sort_keys=True, separators=(",", ":")),
                options=tuple(PuzzleOption(str(a), float(w)) for a, w in data["options"]),
                themes=tuple(str(t) for t in data["themes"]),
                difficulty=int(data["difficulty"]),
                missed_by=tuple(str(m) for m in data.get("missed_by", ())),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a dice puzzle: {exc}") from None

    # ------------------------------------------------------------------ the position

    def position(self) -> DiceGame:
        """A fresh game at the puzzle's position (the engine replays the record)."""
        return DiceGame.from_record(self.record)

    def view(self) -> DiceView:
        """What the player to act sees at the position."""
        g = self.position()
        return g.view(g.current_player)

    @property
    def rules(self) -> DiceRules:
        """The rules the puzzle is played under."""
        return DiceRules.from_dict(json.loads(self.record)["rules"])

    @property
    def answer(self) -> str:
        """The best option (ahead of the next by :attr:`margin`)."""
        return self.options[0].action

    @property
    def margin(self) -> float:
        """How far the best option's chance to win is ahead of the next best's."""
        return self.options[0].win - self.options[1].win

    @property
    def question(self) -> str:
        """The question asked (a msgid of :data:`QUESTIONS`)."""
        return QUESTIONS[self.kind]

    # ------------------------------------------------------------------ answering

    def option_of(self, answer: str) -> str:
        """The option that ``answer`` names, in the engine's notation (``"1 5"``, ``"keep 15"``
        and ``"k15"`` all name ``keep 15``; ``r``, ``b``, ``p`` and ``n``/``no`` (no Pfeffer:
        roll) too); :class:`~pfeffer.core.errors.InvalidAction` for no action, and
        :class:`~pfeffer.core.errors.IllegalAction` for one that is no option here."""
        text = answer.strip().lower() if isinstance(answer, str) else answer
        if isinstance(text, str):
            words = {"r": "roll", "b": "bank", "p": "pfeffer", "y": "pfeffer", "yes": "pfeffer"}
            if self.kind == "pfeffer":
                words |= {"n": "roll", "no": "roll"}
            text = words.get(text, text)
            faces = re.fullmatch(r"(?:k|keep)?\s*([\d ,]+)", text)
            if faces:
                text = "keep " + faces.group(1)
        action = str(DiceAction.parse(text))
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
        win = {o.action: o.win for o in self.options}
        cost = self.options[0].win - win[chosen]
        return Feedback(
            correct=chosen == self.answer,
            chosen=chosen,
            best=self.answer,
            cost=cost,
            options=self.options,
            lines=explain(self.view(), self.options, self.kind),
        )


# ---------------------------------------------------------------------- the sentences


#: The risk of rolling on, by (more than one die, a bust costs a penalty).
_ROLL_RISK = {
    (True, False): "Rolling {dice} dice scores nothing {bust}% of the time; a bust loses the "
    "{total} of this turn.",
    (True, True): "Rolling {dice} dice scores nothing {bust}% of the time; a bust loses the "
    "{total} of this turn and costs {penalty} more.",
    (False, False): "Rolling the last die scores nothing {bust}% of the time; a bust loses the "
    "{total} of this turn.",
    (False, True): "Rolling the last die scores nothing {bust}% of the time; a bust loses the "
    "{total} of this turn and costs {penalty} more.",
}


def _pct(p: float) -> float:
    return round(100 * p, 1)


def explain(view: DiceView, options: Sequence[PuzzleOption], kind: str) -> tuple[Line, ...]:
    """The sentences that explain a puzzle's answer at ``view``: what each choice risks (the
    chance that the dice left score nothing, what a bust costs), what the scores mean, and by
    how much the best option is ahead."""
    rules = view.rules
    me = view.current_player
    assert me is not None
    own, other = view.scores[me], view.scores[1 - me]
    out: list[Line] = []
    if kind == "bank":
        n = view.dice_to_roll
        out.append(
            _line(
                _ROLL_RISK[n > 1, view.bust_penalty > 0],
                dice=n,
                bust=_pct(bust_chance(rules, n)),
                total=view.turn_total,
                penalty=view.bust_penalty,
            )
        )
        out.append(
            _line(
                "Banking puts you at {after} against {other}; a bust would leave you at {bust}.",
                after=own + view.turn_total,
                other=other,
                bust=own - view.bust_penalty,
            )
        )
    elif kind == "keep":
        by_action = {o.action: o for o in view.keep_options}
        for opt in options[:2]:
            keep = by_action[opt.action]
            left = view.dice_to_roll - len(keep.dice)
            if left == 0:
                out.append(
                    _line(
                        "{action}: {points} points, and all the dice have scored: six fresh "
                        "dice (hot dice).",
                        action=opt.action,
                        points=view.turn_total + keep.points,
                    )
                )
            else:
                out.append(
                    _line(
                        "{action}: {points} points in the turn, {left} dice left, which score "
                        "nothing {bust}% of the time."
                        if left > 1
                        else "{action}: {points} points in the turn, one die left, which scores "
                        "nothing {bust}% of the time.",
                        action=opt.action,
                        points=view.turn_total + keep.points,
                        left=left,
                        bust=_pct(bust_chance(rules, left)),
                    )
                )
    else:  # pfeffer
        out.append(
            _line(
                "Pfeffer on the {pred} your opponent banked: you must bank at least {need} this "
                "turn, and a bust costs you {cost}.",
                pred=view.predecessor_result,
                need=view.pfeffer_need,
                cost=view.pfeffer_bust_penalty,
            )
        )
        if view.pfeffer_bonus:
            out.append(_line("Made, the call pays {bonus} more.", bonus=view.pfeffer_bonus))
        else:
            out.append(_line("Under these rules a made call pays nothing: it can only add risk."))
    out.extend(_score_lines(view, own, other))
    best, second = options[0], options[1]
    out.append(
        _line(
            "{best} wins {best_win}%, {second} {second_win}%: {margin} percentage points more.",
            best=best.action,
            best_win=_pct(best.win),
            second=second.action,
            second_win=_pct(second.win),
            margin=_pct(best.win - second.win),
        )
    )
    return tuple(out)


def _score_lines(view: DiceView, own: int, other: int) -> list[Line]:
    target = view.rules.target
    if view.final_round:
        return [
            _line(
                "Final round: this is your last turn, and only a total above {other} wins "
                "(you need {need} more).",
                other=other,
                need=max(other - own + view.points_step - view.turn_total, 0),
            )
        ]
    out = []
    if view.pfeffer is PfefferMode.AUTO:
        out.append(
            _line(
                "Auto-Pfeffer: your opponent went bust, so a bust costs you {penalty} now.",
                penalty=view.bust_penalty,
            )
        )
    if target - other <= ENDGAME:
        out.append(
            _line(
                "Your opponent needs only {left} more to reach {target}: after that you get one "
                "last turn.",
                left=target - other,
                target=target,
            )
        )
    elif target - own - view.turn_total <= ENDGAME:
        out.append(
            _line(
                "You are {left} from {target}: reaching it gives your opponent one last turn "
                "to pass you.",
                left=max(target - own - view.turn_total, 0),
                target=target,
            )
        )
    return out


def themes_of(view: DiceView, kind: str) -> tuple[str, ...]:
    """The themes of a decision of ``kind`` at ``view`` (the kind's own among them)."""
    me = view.current_player
    assert me is not None
    own, other = view.scores[me], view.scores[1 - me]
    target = view.rules.target
    found = {kind}
    if view.phase is Phase.KEEP and any(
        len(o.dice) == view.dice_to_roll for o in view.keep_options
    ):
        found.add("hot dice")
    if view.final_round:
        found.add("final round")
    if view.pfeffer is PfefferMode.AUTO:
        found.add("auto pfeffer")
    if view.pfeffer is PfefferMode.CALLED:
        found.add("pfeffer")
    if view.phase is Phase.DECIDE and view.dice_to_roll <= 2:
        found.add("few dice")
    if target - max(own, other) <= ENDGAME:
        found.add("endgame")
    if other - own >= FAR:
        found.add("behind")
    elif own - other >= FAR:
        found.add("ahead")
    order = {t: i for i, t in enumerate(THEMES)}
    return tuple(sorted(found, key=order.__getitem__))


def kind_of(view: DiceView) -> str | None:
    """The kind of question the player to act faces at ``view``, None where there is no choice
    (a single option, or a throw still to make)."""
    if view.phase is Phase.KEEP and len(view.keep_options) > 1:
        return "keep"
    if view.phase is Phase.DECIDE and view.can_bank:
        return "bank"
    if view.phase is Phase.START and view.can_call_pfeffer:
        return "pfeffer"
    return None


__all__ = [
    "KINDS",
    "MARGIN",
    "QUESTIONS",
    "THEMES",
    "DicePuzzle",
    "Feedback",
    "Line",
    "PuzzleOption",
    "bust_chance",
    "estimate_rating",
    "explain",
    "kind_of",
    "themes_of",
]
