"""A number that meets its noun in the wrong form ("1 Stiche", "2 štychů"): the check of the
terminal's walk (tests/cli/test_language_walk.py) and of the pages
(tests/web/test_no_english.py)."""

from __future__ import annotations

import re

#: A number (not part of a decimal or a range) and the plural forms it must not take: German
#: plurals after 1; Czech: after 1 the few and many forms, after 2-4 the many form, after 5
#: and more the few form. Only nouns whose forms differ; after 5 and more not the few forms
#: that are also the instrumental ("s 30 body", "s 5 hráči").
_DE_PLURALS = "Stiche|Entscheidungen|Punkte|Runden|Karten|Prozentpunkte|Möglichkeiten|Prozesse"
_CS_FEW = "štychy|body|karty|hráči|kostky|možnosti|procesy|kola"
_CS_MANY = "štychů|bodů|karet|hráčů|kostek|možností|procesů|kol"
_CS_FEW_NOT_INSTRUMENTAL = "štychy|karty|kostky|možnosti|procesy|kola"
_BROKEN = {
    "de": [re.compile(rf"(?<![\w,.–-])1 (?:{_DE_PLURALS})\b")],
    "cs": [
        re.compile(rf"(?<![\w,.–-])1 (?:{_CS_FEW}|{_CS_MANY})\b"),
        re.compile(rf"(?<![\w,.–-])[234] (?:{_CS_MANY})\b"),
        re.compile(rf"(?<![\w,.–-])(?:[5-9]|[1-9]\d+) (?:{_CS_FEW_NOT_INSTRUMENTAL})\b"),
    ],
}


def broken_plurals(text: str, lang: str) -> list[str]:
    """The numbers in ``text`` that meet their noun in the wrong form for ``lang``.

    >>> broken_plurals("1 Stiche, 2 Stiche, 1,5 Punkte", "de")
    ['1 Stiche']
    >>> broken_plurals("1 štych, 2 štychů, 5 štychy, 4 body, 0,5 bodu", "cs")
    ['2 štychů', '5 štychy']
    """
    return [m.group(0) for pattern in _BROKEN[lang] for m in pattern.finditer(text)]
