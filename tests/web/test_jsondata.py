"""The fast ``jsonable`` (web/jsondata.py, a converter looked up per class) gives exactly what
the plain one it replaced gives (asking each value what it is), on every engine value a frame
carries (views, logs, previews, statistics of whole games) and on random nested values."""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Mapping
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pfeffer.dice import DiceGame
from pfeffer.dice.preview import keep_previews
from pfeffer.dice.stats import face_stats
from pfeffer.web.adapters.games import adapter, log_fields
from pfeffer.web.jsondata import jsonable


def reference(value: Any) -> Any:
    """The plain conversion (as the server had it): each value asked what it is, in order."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return reference(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if hasattr(value, "to_dict"):
            return reference(value.to_dict())
        return {f.name: reference(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: reference(v) for k, v in value._asdict().items()}
    if isinstance(value, Mapping):
        return {str(k): reference(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [reference(v) for v in value]
    raise TypeError(f"cannot turn {type(value).__name__} into JSON")


def same(value: Any) -> None:
    expected = reference(value)
    got = jsonable(value)
    assert got == expected
    assert repr(got) == repr(expected)  # the same types too (True is not 1, [] is not ())


def play(kind: str, players: int, seed: int) -> list[Any]:
    """Engine values met along a whole random game (views of every seat and a spectator)."""
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    table = adapter(kind).table({}, names, seed)
    values: list[Any] = []
    for _ in range(400):
        game = table.game
        seats: list[int | None] = [None, *range(players)]
        values += [table.engine_view(s) for s in seats]
        if isinstance(game, DiceGame):
            values += [keep_previews(game), face_stats(game.actions)]
        if game.is_over:
            break
        seat = next(s for s in range(players) if table.legal_actions(s))
        table = table.after(rng.choice(table.legal_actions(seat)), seat)
    return values


@pytest.mark.parametrize(
    ("kind", "players", "seed"), [("dice", 2, 1), ("dice", 3, 2), ("pepper", 4, 3)]
)
def test_engine_values_convert_as_before(kind: str, players: int, seed: int) -> None:
    for value in play(kind, players, seed):
        same(value)


def test_frames_convert_as_before() -> None:
    table = adapter("dice").table({"target": 3000}, ["Ann", "Bob"], 5)
    view = table.engine_view(0)
    same(log_fields([]))
    same(view.rules)  # a dataclass with to_dict (its triples a mapping proxy)
    same(view.history)


class Colour(enum.Enum):
    RED = "red"
    BLUE = 2


class Level(enum.IntEnum):
    LOW = 1


class Point(NamedTuple):
    x: int
    tag: Any


@dataclasses.dataclass(frozen=True)
class Box:
    content: Any
    colour: Colour = Colour.RED


leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.sampled_from([*Colour, *Level]),
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.frozensets(st.integers(), max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), inner, max_size=4),
        st.builds(Point, st.integers(), inner),
        st.builds(Box, inner),
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(values)
def test_random_values_convert_as_before(value: Any) -> None:
    same(value)


def test_what_is_not_json_is_refused_alike() -> None:
    for bad in (object(), b"bytes", Box, complex(1, 2)):
        with pytest.raises(TypeError, match="cannot turn"):
            reference(bad)
        with pytest.raises(TypeError, match="cannot turn"):
            jsonable(bad)
