"""The Würfel-Pfeffer game state machine (docs/rules.md D1–D14).

A :class:`DiceGame` is driven either through its methods (``roll``, ``keep``, ``bank``,
``call_pfeffer``, ``void_roll``) or through action strings (``legal_actions()`` / ``apply()``); both
go through the same checks. Chance is explicit: ``"roll"`` throws the game's seeded dice, and
``"roll 415236"`` enters dice thrown by hand. The record lists every throw written out, so it
replays without the generator and reads like a score sheet.

>>> g = DiceGame(players=["Anna", "Ben"], seed=7)
>>> g.legal_actions()
['roll']
>>> g.roll([1, 1, 5, 2, 3, 3])
(1, 1, 5, 2, 3, 3)
>>> g.legal_actions()
['keep 115', 'keep 11', 'keep 15', 'keep 1', 'keep 5']
>>> g.apply("keep 11"); g.turn_total, g.dice_to_roll
(200, 4)
>>> g.bank()
Traceback (most recent call last):
...
pfeffer.core.errors.IllegalAction: You need at least 350 points to bank; you have 200.
>>> g.roll([5, 5, 5, 2]); g.keep([5, 5, 5]); g.bank()
(5, 5, 5, 2)
500
700
>>> g.scores, g.current_player
([700, 0], 1)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from pfeffer.core import records
from pfeffer.core.errors import (
    ActionError,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    RecordError,
    RulesError,
    SetupError,
)
from pfeffer.core.rng import ChanceStream, new_seed
from pfeffer.core.rulespec import shown
from pfeffer.dice.probability import throw_distribution
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import KeepOption, ScoreTable, ordered_throws, score_table
from pfeffer.dice.turns import PfefferMode, Phase, SheetRow, Throw, Turn, sheet_rows

__all__ = [
    "DiceAction",
    "DiceGame",
    "DiceView",
    "PfefferMode",
    "Phase",
    "Throw",
    "Turn",
]

MIN_PLAYERS, MAX_PLAYERS = 2, 8
_POW6 = (1, 6, 36, 216, 1296, 7776, 46656)
DICE = 6
MAX_TURN_POINTS = 1_000_000
"""The most a score sheet takes for one turn: far above any turn played (a turn that reaches it
would have thrown all six dice scoring more than 300 times), far below a typing accident."""


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> DiceAction:
    """Memoised :meth:`DiceAction.parse` (actions are immutable; bots repeat the same few)."""
    return DiceAction.parse(text)


def _not_a_face(face: object, what: str) -> InvalidAction:
    return InvalidAction.format(
        "{face} is not a die face: a group holds faces 1 to 6."
        if what == "group"
        else "{face} is not a die face: a throw holds faces 1 to 6.",
        face=repr(face),
    )


def _faces(dice: object, what: str) -> tuple[int, ...]:
    """The faces given to :meth:`DiceGame.roll` or :meth:`DiceGame.keep` (``what``: "throw" or
    "group"); :class:`InvalidAction` for what is no list of faces, as in notation."""
    if isinstance(dice, str | bytes) or not isinstance(dice, Iterable):
        raise InvalidAction.format(
            "Dice are given as a list of faces 1 to 6, not {dice}.", dice=repr(dice)
        )
    faces = tuple(dice)
    for d in faces:
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise _not_a_face(d, what)
    return faces


def _as_action(action: object) -> DiceAction:
    if isinstance(action, DiceAction):
        return action
    return DiceAction.parse(action)  # type: ignore[arg-type]  # raises IllegalAction


@dataclasses.dataclass(frozen=True, slots=True)
class DiceAction:
    """A parsed action. Notation (``str(action)`` prints it, :meth:`parse` reads it):

    ``pfeffer`` · ``roll`` (computer dice) · ``roll 415236`` (dice thrown by hand, as thrown) ·
    ``keep 155`` (faces set aside) · ``bank`` · ``void`` (Brandenburg: discard the last throw) ·
    and, for a score sheet that only writes down results, a whole turn: ``turn 450`` or ``bust``.

    >>> DiceAction.parse("Keep 5 1 5")
    DiceAction(kind='keep', dice=(1, 5, 5), points=0)
    >>> str(DiceAction.parse("roll 4,1,5")), str(DiceAction.parse(" turn 450 "))
    ('roll 415', 'turn 450')
    >>> DiceAction.parse("jump")
    Traceback (most recent call last):
    ...
    pfeffer.core.errors.InvalidAction: 'jump' is not an action (roll, keep 15, ...
    """

    kind: str
    dice: tuple[int, ...] = ()
    points: int = 0

    KINDS = ("pfeffer", "roll", "keep", "bank", "void", "turn", "bust")

    @classmethod
    def parse(cls, text: str) -> DiceAction:
        """Read an action in notation; :class:`InvalidAction` if it is not one."""
        if not isinstance(text, str):
            raise InvalidAction.format(
                "An action is a string, not {action} (for example {examples}).",
                examples="'roll', 'keep 15'",
                action=repr(text),
            )
        words = text.strip().lower().replace(",", " ").split(None, 1)
        kind = words[0] if words else ""
        rest = words[1].replace(" ", "") if len(words) > 1 else ""
        if kind not in cls.KINDS:
            raise InvalidAction.format(
                "{text} is not an action (roll, keep 15, bank, pfeffer, void).",
                text=repr(text),
            )
        if rest and not rest.isdigit():
            if kind == "turn":
                raise InvalidAction.format(
                    "{text}: write points, e.g. 'turn 450'.", text=repr(text)
                )
            raise InvalidAction.format("{text}: write faces 1-6, e.g. 'keep 155'.", text=repr(text))
        if kind == "turn":
            if not rest:
                raise InvalidAction("Say how many points the turn banked, e.g. 'turn 450'.")
            return cls(kind, (), int(rest))
        if kind in ("pfeffer", "bank", "void", "bust") and rest:
            raise InvalidAction.format(
                "{text}: '{kind}' takes nothing after it.", text=repr(text), kind=kind
            )
        if kind == "keep" and not rest:
            raise InvalidAction("Say which dice to set aside, e.g. 'keep 15'.")
        dice = tuple(int(ch) for ch in rest)
        for d in dice:
            if not 1 <= d <= 6:
                raise _not_a_face(d, "group" if kind == "keep" else "throw")
        if kind == "keep":
            dice = tuple(sorted(dice))
        return cls(kind, dice)

    def __str__(self) -> str:
        if self.kind == "turn":
            return f"turn {self.points}"
        return self.kind + (" " + "".join(map(str, self.dice)) if self.dice else "")


class DiceView(NamedTuple):
    """What a seat may see. The dice game has no hidden information except the future: the view
    holds the whole public state but never the seed of the computer dice. (A named tuple: it is
    built for every decision of every bot, so it must be cheap.)"""

    seat: int | None
    players: tuple[str, ...]
    rules: DiceRules
    scores: tuple[int, ...]
    current_player: int | None
    phase: Phase
    turn_total: int
    dice_to_roll: int
    roll: tuple[int, ...] | None
    keep_options: tuple[KeepOption, ...]
    pfeffer: PfefferMode
    stake: int
    min_to_bank: int
    can_bank: bool
    can_call_pfeffer: bool
    pfeffer_stake: int | None
    pfeffer_need: int | None
    pfeffer_bust_penalty: int | None
    pfeffer_bonus: int | None
    bust_penalty: int
    hot_dice: bool
    predecessor_result: int | None
    final_round: bool
    turns_left_in_final_round: tuple[int, ...]
    playoff: tuple[int, ...]
    turn_throws: tuple[Throw, ...]
    history: tuple[Turn, ...]
    is_over: bool
    winners: tuple[int, ...]
    points_step: int
    is_sheet: bool

    @property
    def sheet_rows(self) -> list[SheetRow]:
        """The score sheet so far: one row per round, a cell per player (see
        :func:`pfeffer.dice.sheet.sheet_rows`)."""
        return sheet_rows(self.history, len(self.players))

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for: every player is a side."""
        return seat

    @property
    def is_my_turn(self) -> bool:
        """True when the viewing seat is the one to act."""
        return self.seat == self.current_player and not self.is_over


def _after_keep(turn_total: int, dice_to_roll: int, option: KeepOption) -> tuple[int, int, bool]:
    """The turn total, the dice to throw next and whether all six scored after ``option`` is
    set aside from a throw of ``dice_to_roll`` dice with ``turn_total`` so far (D3, D7)."""
    left = dice_to_roll - len(option.dice)
    if left == 0:  # D7: all six set aside, throw all six again
        return turn_total + option.points, DICE, True
    return turn_total + option.points, left, False


def _may_bank(phase: Phase, hot: bool, turn_total: int, need: int, rules: DiceRules) -> bool:
    """Whether a turn standing at ``phase`` with ``turn_total`` (``hot``: all six just scored)
    may be banked where ``need`` points are needed (D5, D7, D8)."""
    return (
        phase is Phase.DECIDE
        and not (hot and rules.hot_dice_must_roll)
        and turn_total >= need
        and turn_total > 0
    )


#: ``tuple.__new__``: builds a :class:`DiceView` from its fields in order, without the named
#: tuple's argument handling (see :meth:`DiceGame.view`).
_new_view = tuple.__new__


class DiceGame:
    """A game of Würfel-Pfeffer for 2–8 players (D1), under the given house rules.

    ``seed`` drives the computer dice (a fresh one is chosen and kept in the record if omitted);
    dice thrown by hand are entered with ``roll(dice=[…])`` or ``apply("roll 415236")``.
    ``scores`` starts the game from a position (the totals by seat, as an advisor needs them;
    nobody has opened yet); the record keeps them.

    Public state is read-only: every attribute is a property, and a list it returns is a fresh
    copy, so changing it changes nothing in the game (nor in its views and records).
    """

    __slots__ = (
        "_actions",
        "_bust_undo",
        "_chance",
        "_cur",
        "_dice_to_roll",
        "_final_queue",
        "_first",
        "_has_banked",
        "_history",
        "_history_view",
        "_hot",
        "_manual",
        "_options",
        "_pfeffer",
        "_phase",
        "_phase_before_throw",
        "_players",
        "_playoff",
        "_playoff_queue",
        "_predecessor_result",
        "_roll_faces",
        "_rules",
        "_scores",
        "_seed",
        "_sheet",
        "_stake",
        "_start_scores",
        "_table",
        "_throw_key",
        "_throws",
        "_turn_throws",
        "_turn_total",
        "_winners",
    )

    # Turn state, (re)set by _start_turn.
    _phase: Phase
    _phase_before_throw: Phase
    _options: tuple[KeepOption, ...]
    _throw_key: tuple[int, ...]
    _hot: bool
    _turn_throws: list[Throw]
    _turn_total: int
    _dice_to_roll: int
    _roll_faces: tuple[int, ...] | None
    _pfeffer: PfefferMode
    _stake: int

    def __init__(
        self,
        players: Sequence[str] | int = 2,
        rules: DiceRules | None = None,
        seed: int | None = None,
        first_player: int = 0,
        *,
        sheet: bool = False,
        hand_dice: bool = False,
        scores: Sequence[int] | None = None,
    ) -> None:
        if (
            isinstance(players, bool)
            or not isinstance(players, int | Sequence)
            or (isinstance(players, str))
        ):
            raise SetupError.format(
                "players must be a list of names or a number, not {players}.",
                players=repr(players),
            )
        if rules is not None and not isinstance(rules, DiceRules):
            raise RulesError("rules must be a DiceRules.")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise SetupError.format("seed must be a whole number, not {seed}.", seed=repr(seed))
        names = (
            [f"Player {i + 1}" for i in range(players)]
            if isinstance(players, int)
            else list(players)
        )
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise SetupError.format("Würfel-Pfeffer is for 2 to 8 players, not {n}.", n=len(names))
        if not all(isinstance(n, str) and n.strip() for n in names):
            raise SetupError("Every player needs a name.")
        if (
            isinstance(first_player, bool)
            or not isinstance(first_player, int)
            or not 0 <= first_player < len(names)
        ):
            raise SetupError.format(
                "first_player must be a seat from 0 to {last}.", last=len(names) - 1
            )
        self._rules = rules if rules is not None else DiceRules()
        self._players: tuple[str, ...] = tuple(n.strip() for n in names)
        self._seed = new_seed() if seed is None else seed
        self._chance = ChanceStream(self._seed)
        self._table: ScoreTable = score_table(self._rules)
        self._start_scores = self._check_start_scores(scores, len(names))
        self._scores: list[int] = list(self._start_scores)
        self._cur = first_player
        self._first = first_player
        self._sheet = sheet
        self._history: list[Turn] = []
        self._history_view: tuple[Turn, ...] = ()  # the same, shared by views until the next turn
        self._actions: list[str] = []
        self._throws = 0  # throws so far in the game: the index into the chance stream
        self._manual = hand_dice  # real dice thrown at the table: a throw may be void (D12)
        self._has_banked = [False] * len(names)
        self._final_queue: list[int] | None = None  # seats still to play the final round (D14)
        self._playoff: tuple[int, ...] = ()  # seats in a tie playoff (house rule tie="playoff")
        self._playoff_queue: list[int] = []
        self._winners: list[int] = []
        self._bust_undo: dict[str, Any] | None = None
        self._predecessor_result: int | None = None  # D9: None on the first turn of the game
        self._start_turn()

    # ------------------------------------------------------------------ public state

    @property
    def players(self) -> tuple[str, ...]:
        """The names by seat."""
        return self._players

    @property
    def rules(self) -> DiceRules:
        """The house rules of this game."""
        return self._rules

    @property
    def seed(self) -> int:
        """The seed of the computer dice (never in a view; stored in the record)."""
        return self._seed

    @property
    def scores(self) -> list[int]:
        """The totals by seat: a fresh list each time (changing it changes nothing)."""
        return list(self._scores)

    @property
    def turn_total(self) -> int:
        """The points set aside in the turn so far."""
        return self._turn_total

    @property
    def dice_to_roll(self) -> int:
        """How many dice the next throw throws."""
        return self._dice_to_roll

    @property
    def roll_faces(self) -> tuple[int, ...] | None:
        """The throw lying on the table waiting for dice to be set aside, else None."""
        return self._roll_faces

    @property
    def pfeffer(self) -> PfefferMode:
        """Whether a Pfeffer bet is on for the turn (D10, D11)."""
        return self._pfeffer

    @property
    def stake(self) -> int:
        """The Pfeffer stake of the turn (0 without a call)."""
        return self._stake

    @property
    def predecessor_result(self) -> int | None:
        """What the previous turn banked (0 on a bust, D9); None before the first turn."""
        return self._predecessor_result

    @property
    def start_scores(self) -> tuple[int, ...]:
        """The totals the game started from (zeros unless a position was given)."""
        return self._start_scores

    @property
    def current_player(self) -> int | None:
        """The seat to act; None once the game is over."""
        return None if self._phase is Phase.OVER else self._cur

    @property
    def hand_dice(self) -> bool:
        """True when the table throws real dice and enters them (``roll 415236``): only then can
        a throw be void (D12). Faces can be entered in any game (a search, a replay)."""
        return self._manual

    @property
    def is_sheet(self) -> bool:
        """True for a score sheet's game: whole turns are entered (``turn 450``, ``bust``)
        instead of throws (see :class:`pfeffer.dice.sheet.DiceSheet`)."""
        return self._sheet

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for: in the dice game every player is a side."""
        return seat

    @property
    def phase(self) -> Phase:
        """The kind of action that comes next."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """True once the game has ended (D14)."""
        return self._phase is Phase.OVER

    @property
    def winners(self) -> list[int]:
        """Seats of the winners (several on a shared win); empty while the game runs."""
        return list(self._winners)

    @property
    def history(self) -> list[Turn]:
        """Every finished turn, in order."""
        return list(self._history)

    @property
    def actions(self) -> list[str]:
        """Every applied action in notation (what the record stores)."""
        return list(self._actions)

    @property
    def last_throw(self) -> tuple[int, ...] | None:
        """The throw lying on the table waiting for dice to be set aside, else None."""
        return self._roll_faces

    @property
    def final_round(self) -> bool:
        """True while the final round runs (someone reached the target, D14)."""
        return self._final_queue is not None

    @property
    def turn_throws(self) -> list[Throw]:
        """The throws of the turn in progress."""
        return list(self._turn_throws)

    def keep_choices(self) -> list[KeepOption]:
        """The ways to set dice aside from the throw on the table (empty outside that phase)."""
        return list(self._options) if self._phase is Phase.KEEP else []

    def min_to_bank(self) -> int:
        """The turn total needed to bank now (D8, D10 and the house rules)."""
        r = self._rules
        need = r.min_bank
        if r.min_bank_opening_only and self._has_banked[self._cur]:
            need = 0
        if self._pfeffer is PfefferMode.CALLED and r.pfeffer_short_bank == "forbidden":
            need = max(need, self._stake)
        return need

    def _shortfall(self, total: int) -> tuple[int, bool] | None:
        """None if ``total`` may be banked now, else (points needed, whether the Pfeffer stake
        is what raises the need above the minimum)."""
        need = self.min_to_bank()
        if total >= need:
            return None
        by_pfeffer = (
            self._pfeffer is PfefferMode.CALLED
            and need == self._stake
            and need > self._rules.min_bank
        )
        return need, by_pfeffer

    @property
    def first_player(self) -> int:
        """The seat that had the first turn of the game."""
        return self._first

    @property
    def hot_dice(self) -> bool:
        """True right after all six dice scored (D7): six dice are thrown next."""
        return self._hot

    def bust_penalty(self) -> int:
        """What a bust would cost the player to act now (D10, D11): 0 without a Pfeffer bet."""
        if self._pfeffer is PfefferMode.CALLED:
            return self._rules.pfeffer_penalty_factor * self._stake
        if self._pfeffer is PfefferMode.AUTO:
            return self._rules.auto_pfeffer_penalty
        return 0

    def _pfeffer_offer(self) -> tuple[int, int, int, int]:
        """If Pfeffer were called now: the stake, the turn total needed to bank, what a bust
        would cost and the bonus for making it (D10, house rules)."""
        r = self._rules
        assert self._predecessor_result is not None
        stake = self._predecessor_result + r.pfeffer_margin
        need = r.min_bank
        if r.min_bank_opening_only and self._has_banked[self._cur]:
            need = 0
        if r.pfeffer_short_bank == "forbidden":
            need = max(need, stake)
        bonus = stake if r.pfeffer_reward == "stake" else 0
        return stake, need, r.pfeffer_penalty_factor * stake, bonus

    def pfeffer_stake(self) -> int | None:
        """The stake a Pfeffer call would set now (predecessor's result + margin), else None."""
        if not self.can_call_pfeffer():
            return None
        assert self._predecessor_result is not None
        return self._predecessor_result + self._rules.pfeffer_margin

    def can_bank(self) -> bool:
        """True when ``bank`` is legal now."""
        return self._bank_allowed(self.min_to_bank())

    def _bank_allowed(self, need: int) -> bool:
        return _may_bank(self._phase, self._hot, self._turn_total, need, self._rules)

    def keep_outcome(self, option: KeepOption) -> tuple[int, int, bool, bool]:
        """What setting ``option`` aside (one of :meth:`keep_choices`) would leave, without
        doing it: the turn total, the dice to throw next, whether all six scored and whether
        the turn may be banked then. The very state :meth:`apply` of ``option.action`` makes
        (the same arithmetic, :func:`_after_keep`; setting dice aside changes nothing the
        minimum to bank depends on)."""
        total, dice, hot = _after_keep(self._turn_total, self._dice_to_roll, option)
        return (
            total,
            dice,
            hot,
            _may_bank(Phase.DECIDE, hot, total, self.min_to_bank(), self._rules),
        )

    def can_call_pfeffer(self) -> bool:
        """True when ``pfeffer`` is legal now (D10)."""
        return (
            self._phase is Phase.START
            and self._rules.pfeffer
            and self._pfeffer is PfefferMode.NONE
            and self._predecessor_result is not None
            and self._predecessor_result > 0
        )

    def legal_actions(self) -> list[str]:
        """Every action string that :meth:`apply` accepts now.

        ``"roll"`` stands for any throw (the dice themselves are chance, not a choice);
        ``"void"`` undoes the last throw while nothing has happened since (D12). On a score
        sheet's game (:attr:`is_sheet`) a turn may also be entered whole: ``"turn"`` stands
        for any ``turn N`` the rules allow, ``"bust"`` for a turn that scored nothing.
        """
        phase = self._phase
        if phase is Phase.KEEP:
            out = list(self._table.keep_actions[self._throw_key])
            if self._manual:  # D12: only dice thrown by hand can land void
                out.append("void")
            return out
        if phase is Phase.DECIDE:
            return ["roll", "bank"] if self.can_bank() else ["roll"]
        if phase is Phase.START:
            out = ["pfeffer", "roll"] if self.can_call_pfeffer() else ["roll"]
            if self._bust_undo is not None:
                out.append("void")
            if self._sheet:
                out += ("turn", "bust")
            return out
        return []

    def chance_outcomes(self) -> list[tuple[tuple[int, ...], float]]:
        """The distinct throws of the dice to roll now (sorted faces) with their probabilities."""
        return list(throw_distribution(self._dice_to_roll))

    def view(self, seat: int | None = None) -> DiceView:
        """What ``seat`` may see (``None``: a spectator). Never includes the dice seed."""
        if seat is not None and (
            type(seat) is not int or not 0 <= seat < len(self._players)  # (the quick test)
        ):
            self._check_view_seat(seat)
        phase = self._phase
        over = phase is Phase.OVER
        need = self.min_to_bank()
        can_call = self.can_call_pfeffer()
        offer: tuple[int, int, int, int] | tuple[None, None, None, None] = (
            self._pfeffer_offer() if can_call else (None, None, None, None)
        )
        stake, pfeffer_need, pfeffer_bust, bonus = offer
        # Built as a plain tuple of the fields in order: a view is made for every decision of
        # every bot, and this skips the named tuple's argument handling (same object as
        # ``DiceView(...)``).
        return _new_view(
            DiceView,
            (
                seat,
                self._players,
                self._rules,
                tuple(self._scores),
                None if over else self._cur,
                phase,
                self._turn_total,
                self._dice_to_roll,
                self._roll_faces,
                self._options if phase is Phase.KEEP else (),
                self._pfeffer,
                self._stake,
                need,
                self._bank_allowed(need),
                can_call,
                stake,
                pfeffer_need,
                pfeffer_bust,
                bonus,
                self.bust_penalty(),
                self._hot,
                self._predecessor_result,
                self._final_queue is not None,
                tuple(self._final_queue or ()),
                self._playoff,
                tuple(self._turn_throws),
                self._history_view,
                over,
                tuple(self._winners),
                self._table.step,
                self._sheet,
            ),
        )

    def _check_view_seat(self, seat: object) -> None:
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < len(self._players)
        ):
            raise SetupError.format("There is no seat {seat}.", seat=repr(seat))

    # ------------------------------------------------------------------ actions

    def apply(self, action: str | DiceAction, seat: int | None = None) -> None:
        """Apply an action given in notation (see :class:`DiceAction`).

        ``seat``, if given, must be the player to act: a front end passes the sender's seat.
        Only what :meth:`legal_actions` lists is accepted, plus the faces of a throw where
        ``roll`` is listed (``roll 415236``) and, on a score sheet, ``turn N``.

        Raises :class:`InvalidAction` (not an action), :class:`NotYourTurn` or
        :class:`IllegalAction` (not allowed now), and changes nothing.
        """
        if (
            self._phase is Phase.KEEP
            and type(action) is str
            and (seat is None or (seat == self._cur and type(seat) is int))
        ):
            # Fast path for the commonest action: a keep exactly as legal_actions() lists it.
            option = self._table.by_action[self._throw_key].get(action)
            if option is not None:
                self._keep(option)
                return
        act = _parse(action) if type(action) is str else _as_action(action)
        kind = act.kind
        if kind in ("turn", "bust") and not self._sheet:
            self._check_turn(seat)
            raise IllegalAction.format(
                "{action} is an entry for a score sheet; in a game the dice decide: roll.",
                action=repr(str(act)),
            )
        if kind == "roll":
            self.roll(act.dice or None, seat=seat)
        elif kind == "keep":
            self.keep(act.dice, seat=seat)
        elif kind == "bank":
            self.bank(seat=seat)
        elif kind == "pfeffer":
            self.call_pfeffer(seat=seat)
        elif kind == "turn":
            self.enter_turn(act.points, seat=seat)
        elif kind == "bust":
            self.enter_turn(None, seat=seat)
        else:
            self.void_roll(seat=seat)

    def call_pfeffer(self, *, seat: int | None = None) -> None:
        """Call "Pfeffer!" before the first throw of the turn (D10)."""
        self._check_turn(seat)
        if self._phase is not Phase.START:
            raise IllegalAction(
                "Pfeffer can only be called at the start of a turn, before the first throw."
            )
        if not self._rules.pfeffer:
            raise IllegalAction("Pfeffer is not played at this table (house rule).")
        if self._pfeffer is PfefferMode.CALLED:
            raise IllegalAction("Pfeffer is already called for this turn.")
        if self._pfeffer is PfefferMode.AUTO:
            raise IllegalAction("Auto-Pfeffer is already on: your predecessor scored nothing.")
        if self._predecessor_result is None:
            raise IllegalAction("Nobody has had a turn yet, so there is nothing to bet against.")
        if self._predecessor_result <= 0:
            raise IllegalAction("Pfeffer can only be called when your predecessor banked points.")
        self._bust_undo = None
        self._pfeffer = PfefferMode.CALLED
        self._stake = self._predecessor_result + self._rules.pfeffer_margin
        self._actions.append("pfeffer")

    def roll(
        self, dice: Iterable[int] | None = None, *, seat: int | None = None
    ) -> tuple[int, ...]:
        """Throw the dice in play: from the seeded generator, or ``dice`` as thrown by hand.

        Returns the faces thrown. A throw with no scoring die busts and ends the turn at once (D6).
        """
        self._check_turn(seat)
        phase = self._phase
        if phase is Phase.KEEP:
            raise IllegalAction("Set aside at least one scoring die before you throw again.")
        if phase is Phase.OVER:
            raise IllegalAction("The game is over.")
        n = self._dice_to_roll
        if dice is None:
            faces, key, record = ordered_throws(n)[self._chance.bits(self._throws) % _POW6[n]]
        else:
            faces = _faces(dice, "throw")
            if len(faces) != n:
                raise IllegalAction.format(
                    "You throw {n} die now; {m} were entered."
                    if n == 1
                    else "You throw {n} dice now; {m} was entered."
                    if len(faces) == 1
                    else "You throw {n} dice now; {m} were entered.",
                    n=n,
                    m=len(faces),
                )
            key = tuple(sorted(faces))
            record = "roll " + "".join(map(str, faces))
        self._throws += 1
        self._actions.append(record)
        self._phase_before_throw = phase
        options = self._table.options[key]
        if options:
            self._roll_faces = faces
            self._options = options
            self._throw_key = key
            self._phase = Phase.KEEP
            self._bust_undo = None
        else:
            self._turn_throws.append(Throw(faces))
            self._bust_undo = self._snapshot() if self._manual else None
            self._end_turn(busted=True)
        return faces

    def keep(self, dice: Iterable[int], *, seat: int | None = None) -> int:
        """Set aside ``dice`` from the throw on the table (D3); returns the points they score."""
        self._check_turn(seat)
        if self._phase is not Phase.KEEP:
            raise IllegalAction("There is no throw to set dice aside from; throw first.")
        kept = tuple(sorted(_faces(dice, "group")))
        if not kept:
            raise IllegalAction("You must set aside at least one scoring die.")
        option = self._table.by_action[self._throw_key].get("keep " + "".join(map(str, kept)))
        if option is None:
            self._explain_bad_keep(kept)
        assert option is not None
        return self._keep(option)

    def _keep(self, option: KeepOption) -> int:
        assert self._roll_faces is not None
        self._turn_throws.append(Throw(self._roll_faces, option.dice, option.points))
        self._actions.append(option.action)
        self._turn_total, self._dice_to_roll, self._hot = _after_keep(
            self._turn_total, self._dice_to_roll, option
        )
        self._roll_faces = None
        self._options = ()
        self._phase = Phase.DECIDE
        return option.points

    def bank(self, *, seat: int | None = None) -> int:
        """End the turn, adding the turn total to the score (D5, D8); returns the points."""
        self._check_turn(seat)
        if self._phase is Phase.KEEP:
            raise IllegalAction("Set aside at least one scoring die first.")
        if self._phase is not Phase.DECIDE:
            raise IllegalAction(
                "The game is over." if self._phase is Phase.OVER else "Throw the dice first."
            )
        if self._hot and self._rules.hot_dice_must_roll:
            raise IllegalAction("All six dice scored: you must prove it and throw all six again.")
        short = self._shortfall(self._turn_total)
        if short is not None:
            need, by_pfeffer = short
            if by_pfeffer:
                raise IllegalAction.format(
                    "Pfeffer! You bet on at least {need} points; you have {points}.",
                    need=need,
                    points=self._turn_total,
                )
            raise IllegalAction.format(
                "You need at least {need} points to bank; you have {points}.",
                need=need,
                points=self._turn_total,
            )
        points = self._turn_total
        self._actions.append("bank")
        self._bust_undo = None
        self._end_turn(busted=False)
        return points

    def enter_turn(self, points: int | None, *, seat: int | None = None) -> None:
        """Enter a whole turn by its result, as on a paper score sheet: ``points`` banked, or
        ``None`` for a bust. Call :meth:`call_pfeffer` first if Pfeffer was called.

        The same checks as in play apply: the minimum and a Pfeffer stake (D8, D10), and the points
        must be reachable with the table's scoring (a multiple of 50 with the default scores).
        Penalties, Auto-Pfeffer, the final round and the winner follow as in play.
        """
        self._check_turn(seat)
        if not self._sheet:
            raise IllegalAction("Whole turns are entered only on a score sheet.")
        if self._phase is not Phase.START:
            raise IllegalAction("A whole turn can only be entered before its first throw.")
        if points is None:
            self._bust_undo = None
            self._actions.append("bust")
            self._end_turn(busted=True)
            return
        if isinstance(points, bool) or not isinstance(points, int):
            raise InvalidAction.format(
                "Points are a whole number, not {points}.", points=repr(points)
            )
        if points > MAX_TURN_POINTS:
            raise IllegalAction.format(
                "A turn scores at most {most} points; {points} cannot be entered.",
                most=MAX_TURN_POINTS,
                points=shown(points),
            )
        step = self._table.step
        if points <= 0 or points % step:
            raise IllegalAction.format(
                "{points} points cannot be scored: a turn scores a multiple of {step} above 0.",
                points=points,
                step=step,
            )
        short = self._shortfall(points)
        if short is not None:
            need, by_pfeffer = short
            if by_pfeffer:
                raise IllegalAction.format(
                    "Pfeffer was called on {need} points; {points} cannot be banked.",
                    need=need,
                    points=points,
                )
            raise IllegalAction.format(
                "A turn banks at least {need} points; {points} cannot be banked.",
                need=need,
                points=points,
            )
        self._turn_total = points
        self._bust_undo = None
        self._actions.append(f"turn {points}")
        self._end_turn(busted=False)

    def void_roll(self, *, seat: int | None = None) -> None:
        """Brandenburg (D12): the last throw was void (a die leaned on another or left the table).

        It is discarded as if never thrown, also a throw that busted, as long as nothing has been
        done since; then the same dice are thrown again. Once the game is over, nothing is void.
        """
        if self._phase is Phase.OVER:
            raise IllegalAction("The game is over.")
        if self._phase is Phase.KEEP:
            self._check_turn(seat)
            if not self._manual:
                raise IllegalAction(
                    "Only real dice thrown at the table can be void: computer dice never are."
                )
            self._roll_faces = None
            self._options = ()
            self._phase = self._phase_before_throw
        elif self._bust_undo is not None:
            # The busting thrower, or the player now to act (who holds the legal actions).
            if seat is not None and type(seat) is not int:
                self._check_turn(seat)  # raises: no seat
            if seat is not None and seat not in (
                self._bust_undo["_cur"],
                self._cur,
            ):
                raise NotYourTurn("Only the player who threw can declare the throw void.")
            self._restore(self._bust_undo)
            self._bust_undo = None
        else:
            raise IllegalAction(
                "There is no throw to declare void: only the last throw, before dice are set aside."
            )
        self._actions.append("void")

    # ------------------------------------------------------------------ records

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record: rules, seed, players, the first player, every action (chance
        written out) and the result (see :mod:`pfeffer.core.records`)."""
        rec = records.envelope(
            "dice",
            rules=self._rules.to_dict(),
            seed=self._seed,
            players=list(self._players),
            first_player=self._first,
            actions=list(self._actions),
        )
        if self._sheet:
            rec["sheet"] = True
        if self._manual:
            rec["hand_dice"] = True
        if any(self._start_scores):
            rec["start_scores"] = list(self._start_scores)
        rec["result"] = records.result(
            self._scores, self._winners, over=self.is_over, actions=len(self._actions)
        )
        return rec

    def to_json(self) -> str:
        """The record as JSON text."""
        return records.dumps(self.to_record())

    @classmethod
    def from_record(cls, data: str | bytes | dict[str, Any]) -> DiceGame:
        """Replay a record; :class:`RecordError` if it is not a valid dice record, or if its
        written result is not what its actions lead to."""
        rec = records.load(data, "dice")
        # Records written before the "sheet" field: a sheet's record enters whole turns.
        sheet = rec.get("sheet", any(a == "bust" or a.startswith("turn") for a in rec["actions"]))
        try:
            rules = DiceRules.from_dict(rec["rules"])
            game = cls(
                rec["players"],
                rules,
                seed=rec.get("seed"),
                first_player=records.first_player(rec),
                sheet=bool(sheet),
                # Records written before the "hand_dice" field: a void throw says so.
                hand_dice=bool(rec.get("hand_dice", "void" in rec["actions"])),
                scores=rec.get("start_scores"),
            )
        except (ValueError, TypeError) as exc:
            raise RecordError(f"The record's set-up is invalid: {exc}") from exc
        for i, action in enumerate(rec["actions"]):
            try:
                game.apply(action)
            except ActionError as exc:
                raise RecordError(f"Action {i + 1} ({action!r}) does not replay: {exc}") from exc
        records.check_result(rec, scores=game._scores, winners=game._winners, over=game.is_over)
        return game

    def clone(self) -> DiceGame:
        """An independent copy (for search): same state, same future dice."""
        other = DiceGame.__new__(DiceGame)
        for name in DiceGame.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = list(value)  # the items (turns, throws, seats) are immutable
            setattr(other, name, value)
        return other

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self._players[self._cur]} to {self._phase.value}"
        totals = ", ".join(f"{p} {s}" for p, s in zip(self._players, self._scores, strict=True))
        return f"<DiceGame {totals}; {state}>"

    # ------------------------------------------------------------------ internals

    @staticmethod
    def _check_start_scores(scores: Sequence[int] | None, n: int) -> tuple[int, ...]:
        if scores is None:
            return (0,) * n
        if (
            isinstance(scores, str)
            or not isinstance(scores, Sequence)
            or len(scores) != n
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in scores)
        ):
            raise SetupError.format(
                "scores must be {n} whole numbers, one per player, not {scores}.",
                n=n,
                scores=repr(scores),
            )
        return tuple(scores)

    def _check_turn(self, seat: int | None) -> None:
        if self._phase is Phase.OVER:
            raise IllegalAction("The game is over.")
        if seat is not None and (seat != self._cur or type(seat) is not int):
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise InvalidAction.format("There is no seat {seat}.", seat=repr(seat))
            if not 0 <= seat < len(self._players):
                raise NotYourTurn.format("There is no seat {seat}.", seat=seat)
            raise NotYourTurn.format(
                "It is {player}'s turn, not {seat_player}'s.",
                player=self._players[self._cur],
                seat_player=self._players[seat],
            )

    def _explain_bad_keep(self, kept: tuple[int, ...]) -> None:
        assert self._roll_faces is not None
        pool = list(self._roll_faces)
        for d in kept:
            if d not in pool:
                raise IllegalAction.format(
                    "You cannot set aside {kept}: the throw {throw} has no more {face}s.",
                    kept=" ".join(map(str, kept)),
                    throw=" ".join(map(str, self._roll_faces)),
                    face=d,
                )
            pool.remove(d)
        raise IllegalAction.format(
            "{kept} does not score: every die set aside must belong to a "
            "scoring combination of this throw.",
            kept=" ".join(map(str, kept)),
        )

    def _start_turn(self) -> None:
        self._phase = Phase.START
        self._turn_total = 0
        self._dice_to_roll = DICE
        self._roll_faces = None
        self._options = ()
        self._throw_key = ()
        self._hot = False
        self._turn_throws = []
        self._stake = 0
        self._phase_before_throw = Phase.START
        if self._predecessor_result == 0 and self._rules.auto_pfeffer:
            self._pfeffer = PfefferMode.AUTO  # D11
        else:
            self._pfeffer = PfefferMode.NONE

    def _end_turn(self, *, busted: bool) -> None:
        r = self._rules
        seat = self._cur
        points = 0 if busted else self._turn_total
        penalty = bonus = 0
        if busted:
            penalty = self.bust_penalty()
        else:
            self._has_banked[seat] = True
            if (
                self._pfeffer is PfefferMode.CALLED
                and r.pfeffer_reward == "stake"
                and points >= self._stake
            ):
                bonus = self._stake
        self._scores[seat] += points + bonus - penalty
        self._history.append(
            Turn(
                seat,
                points,
                busted,
                self._pfeffer,
                self._stake,
                penalty,
                bonus,
                tuple(self._turn_throws),
                self._scores[seat],
            )
        )
        self._history_view = tuple(self._history)
        self._predecessor_result = points  # D9
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        """Pick the next player, or end the game (D14 and the tie house rule)."""
        n = len(self._players)
        if self._playoff:
            if self._playoff_queue:
                self._next(self._playoff_queue.pop(0))
                return
            self._finish(self._playoff, seat)
            return
        if self._final_queue is not None:
            if self._final_queue:
                self._next(self._final_queue.pop(0))
                return
            self._finish(tuple(range(n)), seat)
            return
        if self._scores[seat] >= self._rules.target:
            if not self._rules.final_round:
                self._winners = [seat]
                self._phase = Phase.OVER
                return
            self._final_queue = [(seat + i) % n for i in range(1, n)]
            self._next(self._final_queue.pop(0))
            return
        self._next((seat + 1) % n)

    def _finish(self, contenders: tuple[int, ...], last: int) -> None:
        best = max(self._scores[s] for s in contenders)
        leaders = tuple(s for s in contenders if self._scores[s] == best)
        if len(leaders) > 1 and self._rules.tie == "playoff":
            n = len(self._players)
            order = sorted(leaders, key=lambda s: (s - last - 1) % n)
            self._playoff = tuple(order)
            self._playoff_queue = list(order[1:])
            self._next(order[0])
            return
        self._winners = list(leaders)
        self._phase = Phase.OVER

    def _next(self, seat: int) -> None:
        self._cur = seat
        self._start_turn()

    def _snapshot(self) -> dict[str, Any]:
        snap: dict[str, Any] = {}
        for name in DiceGame.__slots__:
            if name in ("_actions", "_bust_undo"):
                continue
            value = getattr(self, name)
            snap[name] = list(value) if isinstance(value, list) else value
        return snap

    def _restore(self, snap: dict[str, Any]) -> None:
        for name, value in snap.items():
            setattr(self, name, list(value) if isinstance(value, list) else value)
        # The snapshot was taken after the bust throw was noted; take the throw back out.
        self._turn_throws.pop()
        self._phase = self._phase_before_throw
