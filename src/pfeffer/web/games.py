"""One adapter per game: the only place where the web server touches a rules engine.

The server never decides a rule itself. It asks the engine for ``legal_actions``, applies
actions with ``apply`` (after checking that the sender holds the seat to act), builds every frame
a client gets from ``view(seat)`` (``view(None)`` for spectators), lets the engine's bots choose
computer moves and stores the engine's own JSON records.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pfeffer.core.errors import IllegalAction
from pfeffer.core.rulespec import RuleSpec
from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice import bots as dice_bots
from pfeffer.dice.rules import DICE_RULE_SPECS
from pfeffer.pepper import PepperGame, PepperRules
from pfeffer.pepper.rules import PEPPER_RULE_SPECS

BOT_KINDS = ("heuristic", "random")

#: Actions a front end never offers: the Brandenburg void throw is a referee's entry for dice
#: thrown by hand; with computer dice it never happens (D12).
_DICE_HIDDEN = frozenset({"void"})


def jsonable(value: Any) -> Any:
    """Turn an engine value (dataclasses, enums, named tuples, mappings, tuples) into JSON data."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if hasattr(value, "to_dict"):
            return jsonable(value.to_dict())
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: jsonable(v) for k, v in value._asdict().items()}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    raise TypeError(f"cannot turn {type(value).__name__} into JSON")


class GameAdapter(Protocol):
    """What the server needs from a game; one implementation per engine."""

    kind: str
    min_players: int
    max_players: int

    def rule_specs(self) -> tuple[RuleSpec, ...]: ...

    def parse_rules(self, data: Mapping[str, Any]) -> dict[str, Any]: ...

    def new(self, rules: Mapping[str, Any], names: Sequence[str], seed: int) -> Any: ...

    def replay(
        self, rules: Mapping[str, Any], names: Sequence[str], seed: int, actions: Sequence[str]
    ) -> Any: ...

    def record_actions(self, game: Any) -> list[str]: ...

    def clone(self, game: Any) -> Any: ...

    def to_record(self, game: Any) -> dict[str, Any]: ...

    def current_seat(self, game: Any) -> int | None: ...

    def legal_actions(self, game: Any, seat: int | None) -> list[str]: ...

    def apply(self, game: Any, action: str, seat: int) -> None: ...

    def view(self, game: Any, seat: int | None) -> dict[str, Any]: ...

    def bot_action(self, game: Any, seat: int, bot: str, rng_seed: int) -> str: ...

    def is_over(self, game: Any) -> bool: ...

    def winners(self, game: Any) -> list[int]: ...

    def scores(self, game: Any) -> list[int]: ...


def _check_turn(game: Any, seat: int, current: int | None, names: Sequence[str]) -> None:
    if current is None:
        raise IllegalAction("The game is over.")
    if seat != current:
        raise IllegalAction.format("It is {player}'s turn, not yours.", player=names[current])


class DiceAdapter:
    """Würfel-Pfeffer (pfeffer.dice)."""

    kind = "dice"
    min_players = 2
    max_players = 8

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

    def new(self, rules: Mapping[str, Any], names: Sequence[str], seed: int) -> DiceGame:
        return DiceGame(list(names), DiceRules.from_dict(rules), seed=seed)

    def replay(
        self, rules: Mapping[str, Any], names: Sequence[str], seed: int, actions: Sequence[str]
    ) -> DiceGame:
        game = self.new(rules, names, seed)
        for action in actions:
            game.apply(action)
        return game

    def record_actions(self, game: DiceGame) -> list[str]:
        return game.actions

    def clone(self, game: DiceGame) -> DiceGame:
        return game.clone()

    def to_record(self, game: DiceGame) -> dict[str, Any]:
        return game.to_record()

    def current_seat(self, game: DiceGame) -> int | None:
        return None if game.is_over else game.current_player

    def legal_actions(self, game: DiceGame, seat: int | None) -> list[str]:
        if seat is None or self.current_seat(game) != seat:
            return []
        return [a for a in game.legal_actions() if a not in _DICE_HIDDEN]

    def apply(self, game: DiceGame, action: str, seat: int) -> None:
        _check_turn(game, seat, self.current_seat(game), game.players)
        if action not in self.legal_actions(game, seat):
            # Only the offered actions are accepted (no hand-entered dice); the engine explains.
            game.clone().apply(action, seat=seat)
            raise IllegalAction.format(
                "{action} is not one of your choices now.", action=repr(action)
            )
        game.apply(action, seat=seat)

    def view(self, game: DiceGame, seat: int | None) -> dict[str, Any]:
        data: dict[str, Any] = jsonable(game.view(seat))
        return data

    def bot_action(self, game: DiceGame, seat: int, bot: str, rng_seed: int) -> str:
        player: dice_bots.RandomBot | dice_bots.HeuristicBot = (
            dice_bots.RandomBot(rng_seed) if bot == "random" else dice_bots.HeuristicBot()
        )
        legal = self.legal_actions(game, seat)
        return player.choose(game.view(seat), legal)

    def is_over(self, game: DiceGame) -> bool:
        return game.is_over

    def winners(self, game: DiceGame) -> list[int]:
        return list(game.winners)

    def scores(self, game: DiceGame) -> list[int]:
        return list(game.scores)


class PepperAdapter:
    """Karten-Pfeffer / Pepper (pfeffer.pepper)."""

    kind = "pepper"
    min_players = 2
    max_players = 4

    def rule_specs(self) -> tuple[RuleSpec, ...]:
        """The house rules of the new-table form."""
        return PEPPER_RULE_SPECS

    def parse_rules(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return PepperRules.from_dict(data).to_dict()

    def new(self, rules: Mapping[str, Any], names: Sequence[str], seed: int) -> PepperGame:
        return PepperGame(
            players=len(names), rules=PepperRules.from_dict(rules), seed=seed, names=list(names)
        )

    def replay(
        self, rules: Mapping[str, Any], names: Sequence[str], seed: int, actions: Sequence[str]
    ) -> PepperGame:
        game = self.new(rules, names, seed)
        for action in actions:
            game.apply(action)
        return game

    def record_actions(self, game: PepperGame) -> list[str]:
        actions: list[str] = game.to_record()["actions"]
        return actions

    def clone(self, game: PepperGame) -> PepperGame:
        return game.clone()

    def to_record(self, game: PepperGame) -> dict[str, Any]:
        return game.to_record()

    def current_seat(self, game: PepperGame) -> int | None:
        return game.current_player

    def legal_actions(self, game: PepperGame, seat: int | None) -> list[str]:
        if seat is None or self.current_seat(game) != seat:
            return []
        return game.legal_actions()

    def apply(self, game: PepperGame, action: str, seat: int) -> None:
        _check_turn(game, seat, self.current_seat(game), game.names)
        if action not in game.legal_actions():
            # Only the offered actions are accepted (no hand-entered deals); the engine explains.
            game.clone().apply(action)
            raise IllegalAction.format(
                "{action} is not one of your choices now.", action=repr(action)
            )
        game.apply(action)

    def view(self, game: PepperGame, seat: int | None) -> dict[str, Any]:
        data: dict[str, Any] = jsonable(game.view(seat))
        # Results of finished hands are public (the score pad everyone sees at the table).
        data["hands"] = jsonable(game.results)
        return data

    def bot_action(self, game: PepperGame, seat: int, bot: str, rng_seed: int) -> str:
        from pfeffer.pepper import bots as pepper_bots

        player: pepper_bots.RandomBot | pepper_bots.HeuristicBot = (
            pepper_bots.RandomBot(rng_seed) if bot == "random" else pepper_bots.HeuristicBot()
        )
        return player.choose(game.view(seat), game.legal_actions())

    def is_over(self, game: PepperGame) -> bool:
        return game.is_over

    def winners(self, game: PepperGame) -> list[int]:
        return list(game.winners)

    def scores(self, game: PepperGame) -> list[int]:
        return list(game.scores)


ADAPTERS: dict[str, GameAdapter] = {"dice": DiceAdapter(), "pepper": PepperAdapter()}


def adapter(kind: str) -> GameAdapter:
    """The adapter for ``kind`` ("dice" or "pepper"); KeyError if unknown."""
    return ADAPTERS[kind]


def bot_seed() -> int:
    """A seed for a random bot's own generator (bots are recreated for each move)."""
    return random.getrandbits(32)
