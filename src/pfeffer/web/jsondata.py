"""Engine values as JSON data (:func:`jsonable`), for every frame the server sends.

A frame holds hundreds of small engine values (a dice game's turns and throws, a Pepper game's
tricks); each is turned into JSON data on every broadcast. So the way to convert a value is
worked out once per class (:func:`_converter`) and looked up by ``type(value)`` after that,
instead of asking every value which kind of thing it is. The answer is the same as asking:
``tests/web/test_jsondata.py`` checks it against the plain reference on whole games.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable, Mapping
from typing import Any

Converter = Callable[[Any], Any]

MAX_DEPTH = 64
"""Arrays and objects inside each other that a message or body may hold (the deepest the pages
send is 4: a table's rules' triples). Deeper text is refused before it is parsed."""

# A string (skipped whole, escapes included) or a bracket. UTF-8 never puts an ASCII byte
# inside a multi-byte character, so one bytes pattern reads any text.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_OPENING = (b"[", b"{")


def too_deep(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON ``text`` nests arrays and objects more than ``limit`` deep, found without
    parsing it. Python's parser recurses once per level: near the interpreter's recursion
    limit any callback that runs meanwhile (the garbage collector's, for one) fails too, so
    such text is refused before ``json.loads`` ever sees it.

    >>> too_deep('{"a": [[1], {"b": "[[[["}]}', limit=3)
    False
    >>> too_deep(b"[" * 65 + b"]" * 65)
    True
    """
    if isinstance(text, str):
        if text.count("[") + text.count("{") <= limit:  # the usual case, at C speed
            return False
        data = text.encode("utf-8", "surrogatepass")
    else:
        if text.count(b"[") + text.count(b"{") <= limit:
            return False
        data = text
    depth = 0
    for match in _TOKENS.finditer(data):
        piece = match.group()
        if piece in _OPENING:
            depth += 1
            if depth > limit:
                return True
        elif len(piece) == 1:
            depth -= 1
    return False


_ATOMS = frozenset({type(None), bool, int, float, str})
_CONVERTERS: dict[type, Converter] = {}


def jsonable(value: Any) -> Any:
    """Turn an engine value (dataclasses, enums, named tuples, mappings, tuples) into JSON data.

    >>> import enum, typing
    >>> class Colour(enum.Enum):
    ...     RED = "red"
    >>> class Pair(typing.NamedTuple):
    ...     a: int
    ...     b: tuple[Colour, ...]
    >>> jsonable({"x": Pair(1, (Colour.RED,)), 2: frozenset({None})})
    {'x': {'a': 1, 'b': ['red']}, '2': [None]}
    >>> jsonable(object())
    Traceback (most recent call last):
    ...
    TypeError: cannot turn object into JSON
    """
    cls = type(value)
    if cls in _ATOMS:
        return value
    convert = _CONVERTERS.get(cls)
    if convert is None:
        convert = _CONVERTERS[cls] = _converter(cls)
    return convert(value)


def _items(values: Any) -> list[Any]:
    return [v if type(v) in _ATOMS else jsonable(v) for v in values]


def _converter(cls: type) -> Converter:
    """How to turn a value of class ``cls`` into JSON data (the checks in this order)."""
    if issubclass(cls, type(None) | bool | int | float | str):  # an IntEnum, a str subclass
        return _same
    if issubclass(cls, enum.Enum):
        return _enum
    if dataclasses.is_dataclass(cls):
        if hasattr(cls, "to_dict"):
            return _to_dict
        names = tuple(f.name for f in dataclasses.fields(cls))
        return lambda value: {name: jsonable(getattr(value, name)) for name in names}
    if issubclass(cls, tuple) and hasattr(cls, "_asdict"):  # a named tuple
        return _named_tuple
    if issubclass(cls, Mapping):
        return lambda value: {str(k): jsonable(v) for k, v in value.items()}
    if issubclass(cls, list | tuple | set | frozenset):
        return _items
    raise TypeError(f"cannot turn {cls.__name__} into JSON")


def _same(value: Any) -> Any:
    return value


def _enum(value: enum.Enum) -> Any:
    return jsonable(value.value)


def _to_dict(value: Any) -> Any:
    return jsonable(value.to_dict())


def _named_tuple(value: Any) -> dict[str, Any]:
    return {k: v if type(v) in _ATOMS else jsonable(v) for k, v in value._asdict().items()}
