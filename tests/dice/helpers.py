"""Small drivers for dice tests: play scripted turns with dice entered by hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pfeffer.dice import DiceGame


def state_of(game: DiceGame) -> dict[str, Any]:
    """Every piece of a game's state, for before/after comparisons."""
    out: dict[str, Any] = {}
    for name in DiceGame.__slots__:
        value = getattr(game, name, None)
        out[name] = list(value) if isinstance(value, list) else value
    return out


def play_turn(
    game: DiceGame,
    steps: Sequence[tuple[Sequence[int], Sequence[int]]],
    *,
    bank: bool = True,
    pfeffer: bool = False,
) -> None:
    """Play one turn: each step throws the given dice and keeps the given ones; then bank."""
    if pfeffer:
        game.call_pfeffer()
    for thrown, kept in steps:
        game.roll(list(thrown))
        game.keep(list(kept))
    if bank:
        game.bank()


def bust_turn(game: DiceGame, steps: Sequence[tuple[Sequence[int], Sequence[int]]] = ()) -> None:
    """Play the given steps, then a throw with no scoring die."""
    for thrown, kept in steps:
        game.roll(list(thrown))
        game.keep(list(kept))
    n = game.dice_to_roll
    game.roll([2, 3, 4, 6, 6, 2][:n] if n != 6 else [2, 3, 4, 6, 6, 2])
