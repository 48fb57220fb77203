"""One adapter per game: the only place where the web server touches a rules engine.

The server never decides a rule itself. Each adapter is typed with its engine's game
(:class:`GameAdapter` is generic over a :class:`~pfeffer.core.game.Game`): it asks the engine for
``legal_actions``, applies only the actions listed there with ``game.apply(action, seat=seat)``
(the engine refuses a seat that is not to act with ``NotYourTurn``), builds every frame a client
gets from ``view(seat)`` (``view(None)`` for spectators) plus the facts the view already carries
(the score-sheet rows, team names, the tricks a contract needs, the last trick by seat), and makes
computer players from the game's bot registry (``DICE_BOTS``, ``PEPPER_BOTS``).

The server holds a game together with its adapter as a :class:`Table` (an adapter and its game,
typed alike), so it never needs to know which engine a table plays.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from pfeffer.core.bots import BotRegistry
from pfeffer.core.errors import IllegalAction
from pfeffer.core.game import Game
from pfeffer.core.presets import Preset
from pfeffer.core.rulespec import RuleSpec
from pfeffer.dice import DiceGame, DiceRules, DiceView
from pfeffer.dice.bots import DICE_BOTS, OptimalBot
from pfeffer.dice.log import DiceEvent, current_log, finished_turns_log
from pfeffer.dice.presets import DICE_PRESETS
from pfeffer.dice.presets import PLAY_NOW as DICE_PLAY_NOW
from pfeffer.dice.preview import keep_previews
from pfeffer.dice.rules import DICE_RULE_SPECS
from pfeffer.dice.scoring import score
from pfeffer.dice.stats import count_faces, stats_of
from pfeffer.pepper import PepperGame, PepperRules, PepperView
from pfeffer.pepper.bots import PEPPER_BOTS
from pfeffer.pepper.log import PepperEvent, pepper_log
from pfeffer.pepper.presets import PEPPER_PRESETS
from pfeffer.pepper.presets import PLAY_NOW as PEPPER_PLAY_NOW
from pfeffer.pepper.rules import PEPPER_RULE_SPECS
from pfeffer.pepper.rules import side_names as pepper_side_names
from pfeffer.web.jsondata import jsonable

G = TypeVar("G", bound=Game[object])
V = TypeVar("V")

#: How many of the latest log events a frame carries (the whole game is in the record/replay).
LOG_TAIL = 150


@dataclasses.dataclass(frozen=True)
class BotChoice:
    """A kind of computer player a table can seat: the registry's key and display name."""

    key: str
    label: str


class Table(Protocol):
    """A game together with its adapter: everything the server does with a running game."""

    @property
    def kind(self) -> str:
        """The game: "dice" or "pepper"."""
        ...

    @property
    def game(self) -> Game[object]:
        """The engine's game (records, actions, scores, winners, whose turn)."""
        ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """The JSON view for ``seat`` (None: a spectator)."""
        ...

    def engine_view(self, seat: int | None) -> Any:
        """The engine's own view for ``seat`` (what a bot or the advisor may look at)."""
        ...

    def legal_actions(self, seat: int | None) -> list[str]:
        """The actions offered to ``seat``: the engine's list while it is that seat's turn."""
        ...

    def after(self, action: str, seat: int) -> Table:
        """A new table with ``action`` applied for ``seat`` to a copy of the game; raises an
        :class:`~pfeffer.core.errors.ActionError` (and changes nothing) when refused."""
        ...

    def replay(self, actions: Sequence[str]) -> Table:
        """A new table with ``actions`` as the engine recorded them (``game.actions``: another
        process's or the database's) applied to a copy of the game; this table is untouched."""
        ...

    def bot_action(self, seat: int, bot: str | None, rng_seed: int) -> str:
        """What the computer player of kind ``bot`` at ``seat`` does now."""
        ...

    def reveal(self) -> dict[str, Any]:
        """The spectator's view of a finished game, with what may be shown now (every hand)."""
        ...


class GameKind(Protocol):
    """A game as the server sees it before any table exists: forms, set-up, computer players."""

    kind: str
    min_players: int
    max_players: int
    presets: tuple[Preset, ...]  # rules and seats in one choice, the default first
    play_now: Preset  # "Play now against the computer": one human seat, computers
    # Whether a seat's view holds what the other seats must not see (Pepper's hands; the dice
    # hide nothing): one device passed round shows a pass screen between two players then.
    private_hands: bool

    def rule_specs(self) -> tuple[RuleSpec, ...]:
        """The house rules of the new-table form, from the game's rule schema."""
        ...

    def parse_rules(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Rules from form-like data, as a dict; RulesError if invalid."""
        ...

    def bot_kinds(self) -> list[BotChoice]:
        """The game's computer players, from its bot registry; the default first."""
        ...

    def side_names(self, names: Sequence[str]) -> list[str]:
        """The scoring sides' display names for players ``names`` (teams as "Ann & Cy")."""
        ...

    def table(
        self, rules: Mapping[str, Any], names: Sequence[str], seed: int, actions: Sequence[str] = ()
    ) -> Table:
        """A new game (SetupError/RulesError if it cannot be set up), with ``actions`` replayed."""
        ...


class GameAdapter(GameKind, Protocol[G]):
    """A :class:`GameKind` with the calls typed with its engine's game ``G``."""

    def new(self, rules: Mapping[str, Any], names: Sequence[str], seed: int) -> G:
        """A new game."""
        ...

    def legal_actions(self, game: G, seat: int | None) -> list[str]:
        """The actions offered to ``seat`` (none unless it is that seat's turn)."""
        ...

    def engine_view(self, game: G, seat: int | None) -> Any:
        """The engine's own view for ``seat``."""
        ...

    def apply(self, game: G, action: str, seat: int) -> None:
        """Apply ``action`` for ``seat`` if the engine lists it; ActionError otherwise."""
        ...

    def view(self, game: G, seat: int | None, memo: Memo | None = None) -> dict[str, Any]:
        """The JSON view for ``seat`` (``memo``: what earlier views of the table's games may
        leave for later ones, see :class:`BoundTable`)."""
        ...

    def reveal(self, game: G) -> dict[str, Any]:
        """The spectator's view with whatever a finished game may show."""
        ...

    def bot_action(self, game: G, seat: int, bot: str | None, rng_seed: int) -> str:
        """The action of a computer player of kind ``bot`` (the default kind if unknown)."""
        ...


Memo = dict[str, Any]
"""What the views of one table keep for the next ones (the JSON of the finished dice turns)."""


@dataclasses.dataclass(frozen=True)
class BoundTable(Generic[G]):
    """An adapter and its game, typed alike (implements :class:`Table`). ``memo`` goes from a
    table to the tables made from it (:meth:`after`): a view works out what only changes
    from one turn to the next (the sheet, the finished turns' log) once per turn, not per
    frame. Whatever is kept there is keyed by the engine's objects it was made from, so a view
    is the same with or without it."""

    adapter: GameAdapter[G]
    game: G
    memo: Memo = dataclasses.field(default_factory=dict, compare=False, repr=False)

    @property
    def kind(self) -> str:
        return self.adapter.kind

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.adapter.view(self.game, seat, self.memo)

    def legal_actions(self, seat: int | None) -> list[str]:
        return self.adapter.legal_actions(self.game, seat)

    def engine_view(self, seat: int | None) -> Any:
        return self.adapter.engine_view(self.game, seat)

    def after(self, action: str, seat: int) -> BoundTable[G]:
        game = self.game.clone()
        self.adapter.apply(game, action, seat)
        return BoundTable(self.adapter, game, self.memo)

    def replay(self, actions: Sequence[str]) -> BoundTable[G]:
        game = self.game.clone()
        for action in actions:
            game.apply(action)
        return BoundTable(self.adapter, game, self.memo)

    def bot_action(self, seat: int, bot: str | None, rng_seed: int) -> str:
        return self.adapter.bot_action(self.game, seat, bot, rng_seed)

    def reveal(self) -> dict[str, Any]:
        return self.adapter.reveal(self.game)


class _EngineAdapter(abc.ABC, Generic[G, V]):
    """What both adapters share: replaying, the offered-actions rule, bots from the registry."""

    kind: str
    min_players: int
    max_players: int
    bots: BotRegistry[V]
    presets: tuple[Preset, ...]
    play_now: Preset
    private_hands: bool

    @abc.abstractmethod
    def rule_specs(self) -> tuple[RuleSpec, ...]: ...

    @abc.abstractmethod
    def parse_rules(self, data: Mapping[str, Any]) -> dict[str, Any]: ...

    @abc.abstractmethod
    def side_names(self, names: Sequence[str]) -> list[str]: ...

    @abc.abstractmethod
    def new(self, rules: Mapping[str, Any], names: Sequence[str], seed: int) -> G: ...

    @abc.abstractmethod
    def engine_view(self, game: G, seat: int | None) -> V:
        """The engine's own view (what the bots see)."""

    @abc.abstractmethod
    def view(self, game: G, seat: int | None, memo: Memo | None = None) -> dict[str, Any]: ...

    def reveal(self, game: G) -> dict[str, Any]:
        return self.view(game, None)

    def table(
        self, rules: Mapping[str, Any], names: Sequence[str], seed: int, actions: Sequence[str] = ()
    ) -> Table:
        game = self.new(rules, names, seed)
        for action in actions:
            game.apply(action)
        adapter: GameAdapter[G] = self
        return BoundTable(adapter, game)

    def legal_actions(self, game: G, seat: int | None) -> list[str]:
        if seat is None or game.current_player != seat:
            return []
        return game.legal_actions()

    def apply(self, game: G, action: str, seat: int) -> None:
        if action not in game.legal_actions():
            # Only the offered actions are accepted (no hand-entered dice or deals from a
            # browser); the engine explains first (not your turn, not allowed, not an action).
            game.clone().apply(action, seat=seat)
            raise IllegalAction.format(
                "{action} is not one of your choices now.", action=repr(action)
            )
        game.apply(action, seat=seat)  # NotYourTurn unless ``seat`` is to act

    def bot_kinds(self) -> list[BotChoice]:
        return [BotChoice(k.key, k.label) for k in self.bots]

    def bot_action(self, game: G, seat: int, bot: str | None, rng_seed: int) -> str:
        key = bot if bot in self.bots else self.bots.default
        player = self.bots.create(key, seed=rng_seed)
        return player.choose(self.engine_view(game, seat), self.legal_actions(game, seat))


def _seat_facts(
    view_seat: int | None, players: int, side_of: Callable[[int], int], side_names: Sequence[str]
) -> dict[str, Any]:
    """Who plays with whom: each seat's side, whether sides are teams, the viewer's partner."""
    sides = [side_of(s) for s in range(players)]
    partner = None
    if view_seat is not None:
        partner = next(
            (s for s in range(players) if s != view_seat and sides[s] == sides[view_seat]), None
        )
    return {
        "side_names": list(side_names),
        "seat_sides": sides,
        "teams": len(side_names) < players,
        "partner": partner,
    }


class DiceAdapter(_EngineAdapter[DiceGame, DiceView]):
    """Würfel-Pfeffer (pfeffer.dice)."""

    kind = "dice"
    min_players = 2
    max_players = 8
    bots = DICE_BOTS
    presets = DICE_PRESETS
    play_now = DICE_PLAY_NOW
    private_hands = False  # every seat sees the same dice

    def rule_specs(self) -> tuple[RuleSpec, ...]:
        """The house rules of the new-table form (``triples`` as fields ``triples_1`` … ``_6``)."""
        return DICE_RULE_SPECS

    def parse_rules(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Rules from form-like data (flat ``triples_N`` fields allowed); RulesError if invalid."""
        plain = {k: v for k, v in data.items() if not k.startswith("triples_")}
        triples = {k[8:]: v for k, v in data.items() if k.startswith("triples_")}
        if triples:
            plain["triples"] = {**dict(plain.get("triples", {})), **triples}
        return DiceRules.from_dict(plain).to_dict()

    def side_names(self, names: Sequence[str]) -> list[str]:
        return list(names)  # every player is a side (DiceView.side_of)

    def bot_action(self, game: DiceGame, seat: int, bot: str | None, rng_seed: int) -> str:
        """As every computer player, but the optimal one gets the solved table from the
        advisor's tables in memory (``adapters/advisor.py``: found tables are kept, a miss is
        asked again), so a move reads nothing from disk once the table was read; without a table
        it plays as the heuristic player and switches at its next move once a background solve
        stored one."""
        key = bot if bot in self.bots else self.bots.default
        player = self.bots.create(key, seed=rng_seed)
        if isinstance(player, OptimalBot) and len(game.players) == 2:
            from pfeffer.web.adapters.advisor import dice_strategy  # numpy: the 'ai' extra

            player.strategy = dice_strategy(game.rules)
        return player.choose(self.engine_view(game, seat), self.legal_actions(game, seat))

    def new(self, rules: Mapping[str, Any], names: Sequence[str], seed: int) -> DiceGame:
        return DiceGame(list(names), DiceRules.from_dict(rules), seed=seed)

    def engine_view(self, game: DiceGame, seat: int | None) -> DiceView:
        return game.view(seat)

    def view(self, game: DiceGame, seat: int | None, memo: Memo | None = None) -> dict[str, Any]:
        """The dice view (:func:`dice_view`) plus what the table shows around it: the log,
        the dice statistics of the table's record and, for each keep option, what follows it.
        What comes from the finished turns alone is kept in ``memo`` until the next turn ends;
        the view of one state is made once for every seat (:class:`SeatlessView`): a dice view
        differs from seat to seat only in ``seat``, ``is_my_turn`` and ``partner``."""
        v = game.view(seat)  # (also refuses a seat the game does not have)
        actions = len(game.actions)
        made = memo.get("view") if memo is not None else None
        if isinstance(made, SeatlessView) and made.game is game and made.actions == actions:
            return made.for_seat(v)
        data = self._view(game, v, memo)
        if memo is not None:
            memo["view"] = SeatlessView(game, actions, data)
            data = memo["view"].for_seat(v)
        return data

    def _view(self, game: DiceGame, v: DiceView, memo: Memo | None) -> dict[str, Any]:
        done = memo.get("dice") if memo is not None else None
        if not isinstance(done, FinishedTurns) or not done.fits(v):
            done = FinishedTurns.of(v, done if isinstance(done, FinishedTurns) else None)
            if memo is not None:
                memo["dice"] = done
        data = dice_view(v, done)
        current = [e.to_dict() for e in current_log(v, done.last_round)]
        data["log"] = (done.log[-LOG_TAIL:] + current)[-LOG_TAIL:]  # as log_fields(dice_log(v))
        data["log_count"] = len(done.log) + len(current)
        data["dice_stats"] = FaceCounts.on(game.actions, memo).json()
        for option, preview in zip(data["keep_options"], keep_previews(game), strict=True):
            option["next"] = jsonable(preview)
        return data


@dataclasses.dataclass(frozen=True)
class SeatlessView:
    """The JSON view of one state of a dice game (``game`` after ``actions`` actions: every
    action is one more in the record, so the count tells a game's states apart, also where
    another process's actions are applied to the game in place), made for one seat and given
    to every seat with the three fields that depend on the seat set for it."""

    game: DiceGame
    actions: int
    data: dict[str, Any]

    def for_seat(self, v: DiceView) -> dict[str, Any]:
        """The view for ``v``'s seat (``v``: the engine's view of this state for that seat);
        a frame's lists are its own, the items in them shared."""
        data = {k: list(x) if type(x) is list else x for k, x in self.data.items()}
        data["seat"] = v.seat
        data["is_my_turn"] = v.is_my_turn
        data["partner"] = _seat_facts(v.seat, len(v.players), v.side_of, v.players)["partner"]
        return data


@dataclasses.dataclass(frozen=True)
class FaceCounts:
    """The dice statistics of a table's record (``face_stats``), counted on from the last
    frame's instead of over the whole record again: a record only grows, so what its first
    actions counted (``seen``, compared whole: cheap beside parsing them) stays."""

    seen: tuple[str, ...]
    counts: tuple[int, ...]
    throws: int
    stats: dict[str, Any]  # their JSON

    @classmethod
    def on(cls, actions: Sequence[str], memo: Memo | None) -> FaceCounts:
        """The counts of ``actions``, from ``memo``'s where they fit (the memo keeps them)."""
        old = memo.get("faces") if memo is not None else None
        if isinstance(old, FaceCounts) and old.fits(actions):
            if len(old.seen) == len(actions):
                return old
            counts, throws = count_faces(actions[len(old.seen) :], old.counts, old.throws)
            stats = old.stats if (counts, throws) == (old.counts, old.throws) else None
        else:
            counts, throws = count_faces(actions)
            stats = None
        if stats is None:
            stats = jsonable(stats_of(counts, throws))
        new = cls(tuple(actions), counts, throws, stats)
        if memo is not None:
            memo["faces"] = new
        return new

    def fits(self, actions: Sequence[str]) -> bool:
        """Whether ``actions`` begin with the actions these counts were made of."""
        n = len(self.seen)
        return len(actions) >= n and tuple(actions[:n]) == self.seen

    def json(self) -> dict[str, Any]:
        """The statistics as JSON (a copy: a frame's data is its own)."""
        return {k: list(v) if isinstance(v, list) else v for k, v in self.stats.items()}


@dataclasses.dataclass(frozen=True)
class FinishedTurns:
    """The JSON of what a dice view's finished turns alone decide (the same for every seat and
    every action until the next turn ends): the turns, the score sheet, the log's events.
    Made on from the last one when a turn ends (:meth:`of`): only the new turns are turned
    into JSON and logged; the score sheet's rows are made again (their totals change) from the
    turns' JSON already made."""

    history: tuple[Any, ...]  # the engine's tuple of finished turns this was made from
    players: int
    auto_cost: int  # the rules' auto_pfeffer_penalty (in the log's events)
    turns: list[Any]
    sheet_rows: list[Any]
    log: list[dict[str, Any]]
    last_round: int

    @classmethod
    def of(cls, v: DiceView, before: FinishedTurns | None = None) -> FinishedTurns:
        """The finished turns of ``v``, made on from ``before`` where ``v``'s turns begin
        with the very turns ``before`` was made of (the same as made from scratch)."""
        n, auto_cost = len(v.players), v.rules.auto_pfeffer_penalty
        history = v.history
        start, turns, log, last_round = 0, [], [], 0
        if before is not None and before.continued_by(history, n, auto_cost):
            start, last_round = len(before.history), before.last_round
            turns, log = list(before.turns), list(before.log)
        events, last_round = finished_turns_log(
            history, n, auto_cost, start=start, last_round=last_round
        )
        turns += [jsonable(t) for t in history[start:]]
        log += [e.to_dict() for e in events]
        by_turn = {id(t): j for t, j in zip(history, turns, strict=True)}
        rows = [
            {
                "number": row.number,
                "turns": [None if t is None else by_turn[id(t)] for t in row.turns],
                "totals": list(row.totals),
            }
            for row in v.sheet_rows
        ]  # as jsonable(v.sheet_rows), with the turns' JSON already made
        return cls(history, n, auto_cost, turns, rows, log, last_round)

    def fits(self, v: DiceView) -> bool:
        """Whether this was made from ``v``'s finished turns (the engine's very tuple)."""
        return (
            self.history is v.history
            and self.players == len(v.players)
            and self.auto_cost == v.rules.auto_pfeffer_penalty
        )

    def continued_by(self, history: tuple[Any, ...], players: int, auto_cost: int) -> bool:
        """Whether ``history`` begins with the very turns this was made of (same game set-up)."""
        mine = self.history
        return (
            self.players == players
            and self.auto_cost == auto_cost
            and len(history) >= len(mine)
            and all(a is b for a, b in zip(mine, history, strict=False))
        )


def dice_view(v: DiceView, done: FinishedTurns | None = None) -> dict[str, Any]:
    """A dice view as JSON: its fields (the Pfeffer offer, the bust penalty, the sheet's points
    step, …) plus what its properties know (the score-sheet rows: one per round, a cell per seat;
    whether it is the viewer's turn), the faces that score alone under these rules, who plays
    for which side and the winners by name. Used for play frames and for score sheets.
    ``done``: the JSON of ``v``'s finished turns, if already made (:class:`FinishedTurns`)."""
    if done is None or not done.fits(v):
        done = FinishedTurns.of(v)
    data: dict[str, Any] = {
        name: jsonable(value) if name not in _MADE else None
        for name, value in zip(v._fields, v, strict=True)
    }  # as jsonable(v), with the turns and the rules already made
    data["history"] = list(done.turns)
    data["rules"] = rules_json(v.rules)
    sides = list(v.players)  # every player is a side
    data["sheet_rows"] = list(done.sheet_rows)
    data["single_faces"] = list(single_faces(v.rules))
    data["is_my_turn"] = v.is_my_turn
    data["winner_names"] = [sides[w] for w in v.winners]
    data |= _seat_facts(v.seat, len(v.players), v.side_of, sides)
    return data


_MADE = frozenset({"history", "rules"})  # the view's fields dice_view does not convert itself


def rules_json(rules: DiceRules) -> dict[str, Any]:
    """``jsonable(rules)``, worked out once per rules (a copy: a frame's data is its own)."""
    return {k: dict(v) if isinstance(v, dict) else v for k, v in _rules_json(rules).items()}


@functools.lru_cache(maxsize=64)
def _rules_json(rules: DiceRules) -> dict[str, Any]:
    made: dict[str, Any] = jsonable(rules)
    return made


@functools.lru_cache(maxsize=64)
def single_faces(rules: DiceRules) -> tuple[int, ...]:
    """The faces that score alone under ``rules`` (worked out once per rules).

    >>> single_faces(DiceRules())
    (1, 5)
    """
    return tuple(f for f in range(1, 7) if score([f], rules))


def log_fields(events: Sequence[DiceEvent] | Sequence[PepperEvent]) -> dict[str, Any]:
    """The table log for a frame: the latest :data:`LOG_TAIL` events (``log``) and how many
    there are in all (``log_count``; the first event sent is number ``log_count - len(log)``)."""
    tail = [e.to_dict() for e in events[-LOG_TAIL:]]  # JSON data already
    return {"log": tail, "log_count": len(events)}


class PepperAdapter(_EngineAdapter[PepperGame, PepperView]):
    """Karten-Pfeffer / Pepper (pfeffer.pepper)."""

    kind = "pepper"
    min_players = 2
    max_players = 4
    bots = PEPPER_BOTS
    presets = PEPPER_PRESETS
    play_now = PEPPER_PLAY_NOW
    private_hands = True  # each seat sees its own hand only

    def rule_specs(self) -> tuple[RuleSpec, ...]:
        """The house rules of the new-table form."""
        return PEPPER_RULE_SPECS

    def parse_rules(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return PepperRules.from_dict(data).to_dict()

    def side_names(self, names: Sequence[str]) -> list[str]:
        return pepper_side_names(names)

    def new(self, rules: Mapping[str, Any], names: Sequence[str], seed: int) -> PepperGame:
        return PepperGame(list(names), PepperRules.from_dict(rules), seed=seed)

    def engine_view(self, game: PepperGame, seat: int | None) -> PepperView:
        return game.view(seat)

    def view(self, game: PepperGame, seat: int | None, memo: Memo | None = None) -> dict[str, Any]:
        """The view's fields (team names, the tricks the contract needs, …) plus the last
        trick as (seat, card) pairs, the suit to follow, who plays with whom, winners by name
        and the results of the finished hands (the score pad everyone sees at the table)."""
        v = game.view(seat)
        n = len(v.players)
        data: dict[str, Any] = jsonable(v)
        last = v.tricks[-1] if v.tricks else None
        data["last_trick"] = (
            None
            if last is None
            else {
                "cards": [[s, card] for s, card in zip(last.seats, last.cards, strict=True)],
                "winner": last.winner,
            }
        )
        data["led_suit"] = v.led_suit
        data["is_my_turn"] = seat is not None and v.current_player == seat
        data["winner_names"] = [v.side_names[w] for w in v.winners]
        data["hands"] = jsonable(game.history)
        data |= _seat_facts(seat, n, v.side_of, v.side_names)
        data |= pepper_table_facts(v)
        data |= log_fields(pepper_log(v, game.history))  # dice-table: the shared log panel
        return data

    def reveal(self, game: PepperGame) -> dict[str, Any]:
        data = self.view(game, None)
        data["all_hands"] = [game.hand(s) for s in range(len(game.players))]
        return data


def pepper_table_facts(v: PepperView) -> dict[str, Any]:
    """What the Pepper table draws beyond the view's fields, from the view's own facts (the
    engine's, :class:`~pfeffer.pepper.game.PepperView`): the ladder's terms during the
    auction (``bid_terms``), the contract's (``contract_terms``), ``must_bid``, the hand as it
    is held (``hand_order``) and the bowers this seat sees (``bowers``)."""
    contract = v.contract_terms
    return {
        "bid_terms": {b: jsonable(t) for b, t in v.bid_terms.items()},
        "contract_terms": None if contract is None else jsonable(contract),
        "must_bid": v.must_bid,
        "hand_order": v.hand_order,
        "bowers": v.bowers,
    }


ADAPTERS: dict[str, GameKind] = {"dice": DiceAdapter(), "pepper": PepperAdapter()}


def adapter(kind: str) -> GameKind:
    """The adapter for ``kind`` ("dice" or "pepper"); KeyError if unknown."""
    return ADAPTERS[kind]


def bot_seed() -> int:
    """A seed for a random bot's own generator (bots are recreated for each move)."""
    return random.getrandbits(32)


CHANCE_ACTIONS = ("roll ", "deal ")


def chosen_action(action: str) -> str:
    """The action as its player chose it, from the action as the record keeps it: a throw or
    a deal is stored with its outcome (``roll 415236``, the whole deal), but the player chose
    ``roll`` / ``deal``, and a frame's ``last`` must not show a deal's hidden hands. A table
    never offers an outcome as a choice (``_EngineAdapter.apply``), so this is exact.

    >>> chosen_action("roll 415236"), chosen_action("deal 9C TC / JD"), chosen_action("keep 15")
    ('roll', 'deal', 'keep 15')
    """
    return action.split(" ", 1)[0] if action.startswith(CHANCE_ACTIONS) else action


def warm_up() -> None:
    """Build the engines' cached tables (every throw of one to six dice in the chance stream's
    order, the default scoring) that the first game of a process would otherwise wait for, up
    to a second on a busy machine."""
    from pfeffer.dice.scoring import ordered_throws, score_table

    for n in range(1, 7):
        ordered_throws(n)
    score_table()
