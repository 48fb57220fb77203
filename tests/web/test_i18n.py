"""Languages (issue 4 item 8): German, Czech and English catalogues, chosen from the browser."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from pfeffer.web.i18n import LANGUAGES, LOCALE_DIR, pick_language, translations


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_catalogue_is_complete(lang: str) -> None:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        cat = read_po(f, locale=lang)
    untranslated = [
        m.id
        for m in cat
        if m.id and not all(m.string if isinstance(m.string, tuple) else [m.string])
    ]
    assert not untranslated
    assert cat.num_plurals == (3 if lang == "cs" else 2)


def test_czech_has_three_plural_forms() -> None:
    t = translations("cs")
    forms = [
        t.ngettext("%(num)d player", "%(num)d players", n) % {"num": n} for n in (1, 2, 4, 5, 21)
    ]
    assert forms == ["1 hráč", "2 hráči", "4 hráči", "5 hráčů", "21 hráčů"]


def test_pick_language() -> None:
    assert pick_language("cs-CZ,cs;q=0.9") == "cs"
    assert pick_language("fr-FR, de;q=0.5, en;q=0.4") == "de"
    assert pick_language("fr") == "en" and pick_language(None) == "en"
    assert set(LANGUAGES) == {"en", "de", "cs"}


def test_pages_follow_browser_and_switcher(client: TestClient) -> None:
    assert "Pfeffer spielen" in client.get("/", headers={"accept-language": "de"}).text
    assert "Hrát Pfeffer" in client.get("/", headers={"accept-language": "cs"}).text
    r = client.get("/?lang=cs", headers={"accept-language": "de"})
    assert "Hrát Pfeffer" in r.text and r.cookies.get("lang") == "cs"
    assert "Dohrané hry" in client.get("/history").text  # the cookie keeps the choice
    assert "Play Pfeffer" in client.get("/?lang=en").text
    page = client.get("/new/dice?lang=cs").text
    assert "Domácí pravidla" in page


def test_websocket_errors_are_translated(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "dice", "seats": [{"kind": "human"}] * 2})
    tid = r.json()["id"]
    with client.websocket_connect(f"/ws/{tid}?lang=de") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text("{")
        assert ws.receive_json()["message"] == "Diese Nachricht ist kein gültiges JSON."
