"""The new-table form's presets and "Play now against the computer".

A preset (:class:`pfeffer.core.presets.Preset`, the games' data in ``pfeffer.dice.presets`` and
``pfeffer.pepper.presets``) is a set of house rules and seats. The form shows the presets as
links (``/new/dice?preset=farkle``, no script needed) and fills every field from the chosen one:
the number of players, who plays each seat and every house rule, folded under "More rules". The
API takes ``"preset"`` in ``POST /api/tables`` (its rules under the body's own ``rules``, its
seats unless the body has ``seats``) and lists the presets at ``GET /api/presets/{game}``.
Nothing here decides a rule: the values are the preset's, checked by the game's rule schema.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from pfeffer.core.errors import RulesError
from pfeffer.core.presets import Preset, find
from pfeffer.core.rulespec import RuleSpec
from pfeffer.web.adapters.games import adapter


@dataclasses.dataclass(frozen=True)
class FormState:
    """What the new-table form shows: the presets, the chosen one, the value of every house rule
    under it and who plays each seat (one entry per possible seat; the rows past ``players``
    are hidden)."""

    presets: tuple[Preset, ...]
    preset: Preset
    values: Mapping[str, Any]
    players: int
    seat_kinds: tuple[str, ...]
    error: RulesError | None = None


def rule_values(specs: tuple[RuleSpec, ...], rules: Mapping[str, Any]) -> dict[str, Any]:
    """The value of every option of ``specs`` under ``rules`` (the options ``rules`` leaves out
    keep their default; a mapping is merged with its default, keys as numbers); RulesError if a
    value is not allowed."""
    return {s.name: s.check(rules[s.name]) if s.name in rules else s.default for s in specs}


def form_state(kind: str, preset_key: str | None, bot_key: str) -> FormState:
    """The form of a new ``kind`` table under the preset ``preset_key`` (None: the default
    preset; an unknown key: the default, with the error to show). ``bot_key`` is the computer
    player a preset's ``"bot"`` seat gets (the game's default kind)."""
    ad = adapter(kind)
    error = None
    try:
        preset = ad.presets[0] if preset_key is None else find(ad.presets, preset_key)
    except RulesError as exc:
        preset, error = ad.presets[0], exc
    kinds = [bot_key if s == "bot" else "human" for s in preset.seats]
    kinds += [bot_key] * (ad.max_players - len(kinds))  # rows shown when more players are chosen
    return FormState(
        presets=ad.presets,
        preset=preset,
        values=rule_values(ad.rule_specs(), preset.rules),
        players=len(preset.seats),
        seat_kinds=tuple(kinds),
        error=error,
    )


def with_preset(kind: str, key: Any, rules_in: Any, seats_in: Any) -> tuple[Any, Any]:
    """The rules and seats of a ``POST /api/tables`` body with ``"preset": key``: the preset's
    rules with the body's own ``rules`` over them, the preset's seats unless the body gives
    ``seats``. No key: the body as it is. RulesError for a key that is no preset of ``kind``."""
    if key is None:
        return rules_in, seats_in
    preset = find(adapter(kind).presets, key)
    rules = {**preset.rules, **(rules_in if isinstance(rules_in, dict) else {})}
    seats = seats_in if seats_in is not None else [{"kind": k} for k in preset.seats]
    return rules, seats


def play_now(kind: str, name: Any = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Rules and seats of "Play now against the computer": the game's play-now preset, one
    human seat (the visitor's, named ``name``; None or empty: the default name) and computer
    players of the default kind. The name is checked where every seat's is (``parse_seats``).

    >>> play_now("dice", "Anna")[1]
    [{'kind': 'human', 'name': 'Anna'}, {'kind': 'bot'}]
    """
    preset = adapter(kind).play_now
    seats: list[dict[str, Any]] = [{"kind": k} for k in preset.seats]
    if name is not None:
        for seat in seats:
            if seat["kind"] == "human":
                seat["name"] = name
    return dict(preset.rules), seats


def presets_json(kind: str) -> list[dict[str, Any]]:
    """The presets of ``kind`` for the API: key, label, description, every house rule as a
    table created with the preset plays it, and the seats."""
    ad = adapter(kind)
    return [
        {
            "key": p.key,
            "label": p.label,
            "description": p.description,
            "rules": ad.parse_rules(p.rules),
            "seats": list(p.seats),
        }
        for p in ad.presets
    ]
