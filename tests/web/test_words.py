"""The catalogue corrections of issue 22 §3 (de, cs) and Czech without gendered "(a)" forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pfeffer.web.i18n import LOCALE_DIR, translations


@pytest.mark.parametrize(
    ("lang", "msgid", "expected"),
    [
        ("de", "%(name)s banks %(points)s", "%(name)s schreibt %(points)s auf"),
        ("de", "throws away the least useful card", "wirft die entbehrlichste Karte ab"),
        (
            "de",
            "bids what the hand should make",
            "bietet so viele Stiche, wie das Blatt machen sollte",
        ),
        ("cs", "passes: no bid pays off here", "pasuje: žádná nabídka se tu nevyplatí"),
        ("cs", "sets the contract", "porazí závazek"),
        ("cs", "bids what the hand should make", "draží tolik, kolik štychů karty nejspíš uhrají"),
    ],
)
def test_corrections(lang: str, msgid: str, expected: str) -> None:
    assert translations(lang).gettext(msgid) == expected


def test_side_review_de() -> None:
    t = translations("de")
    one = "With best play your side could have taken %(best)d trick; it took %(taken)d."
    many = "With best play your side could have taken %(best)d tricks; it took %(taken)d."
    text = t.ngettext(one, many, 2) % {"best": 2, "taken": 1}
    assert text == "Bei bestem Spiel hätte euer Team 2 Stiche machen können; es hat 1 gemacht."


def test_czech_plural_forms_of_tricks() -> None:
    t = translations("cs")
    one = "With best play you could have taken %(best)d trick; you took %(taken)d."
    many = "With best play you could have taken %(best)d tricks; you took %(taken)d."
    got = [t.ngettext(one, many, n) % {"best": n, "taken": 0} for n in (1, 2, 5)]
    assert [re.search(r"\d+ (\w+)", s).group(1) for s in got] == ["štych", "štychy", "štychů"]  # type: ignore[union-attr]


def test_czech_is_gender_neutral() -> None:
    text = (LOCALE_DIR / "cs" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    msgstrs = re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', text, flags=re.M)
    assert not [s for s in msgstrs if re.search(r"\w\((a|la)\)", s)]
    assert not [s for s in msgstrs if re.search(r"\bjsi (mohl|vzal|hodil)\b", s)]


def test_catalogues_compile_and_agree() -> None:
    ids = {}
    for lang in ("de", "cs"):
        po = Path(LOCALE_DIR, lang, "LC_MESSAGES", "messages.po").read_text(encoding="utf-8")
        ids[lang] = set(re.findall(r'^msgid "(.+)"$', po, flags=re.M))
    assert ids["de"] == ids["cs"]


def test_a_card_as_object_takes_the_accusative_in_czech() -> None:
    from pfeffer.web.render import js_strings

    t = translations("cs")
    strings = js_strings(t.gettext, t.ngettext, t.pgettext)
    assert strings["card_9S"] == "piková devítka" and strings["card_obj_9S"] == "pikovou devítku"
    assert strings["card_obj_JH"] == "srdcového kluka" and strings["card_obj_AS"] == "pikové eso"
    line = strings["review_card"] % {"name": "Bot 3", "card": strings["card_obj_9S"], "lost": 1}
    assert line.startswith("Bot 3 hraje pikovou devítku")
    de = translations("de")
    assert js_strings(de.gettext, de.ngettext, de.pgettext)["card_obj_JC"] == "Kreuz-Buben"
