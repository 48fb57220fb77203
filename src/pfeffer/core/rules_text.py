"""The rules in short, written once for every front end: :mod:`pfeffer.dice.rules_text` and
:mod:`pfeffer.pepper.rules_text` hold one :class:`Rule` per rule id of docs/rules.md and what
the game is about (``INTRO``). The terminal prints them (``pfeffer dice rules``, ``?`` at a
prompt), the web's rules pages (``/rules/dice``, ``/rules/pepper``) show them translated. The
texts are gettext msgids (English); pybabel does not extract them: the catalogues in
``pfeffer/web/i18n`` keep them by hand.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class Rule:
    """One rule of docs/rules.md: its id, a title and a sentence or two (msgids)."""

    id: str
    title: str
    text: str
