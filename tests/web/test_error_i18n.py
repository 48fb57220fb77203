"""The engines' IllegalAction messages in the page's language (issue 4 item 8)."""

from __future__ import annotations

import ast
import json
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

import pfeffer
from pfeffer.core.errors import IllegalAction
from pfeffer.web.i18n import LOCALE_DIR, translate_error

SRC = Path(pfeffer.__file__).resolve().parent
MODULES = [
    "dice/game.py",
    "dice/sheet.py",
    "dice/scoring.py",
    "pepper/game.py",
    "pepper/sheet.py",
    "pepper/cards.py",
    "web/games.py",
    "web/server.py",
]
PHRASES = ["deal", "bid", "pass", "name trump", "play a card"]  # {what} in pepper phase errors


def _strings(node: ast.expr) -> list[str] | None:
    """The string constants a template argument can be (literal, conditional, dict lookup)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        a, b = _strings(node.body), _strings(node.orelse)
        return None if a is None or b is None else a + b
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
        parts = [_strings(v) for v in node.value.values]
        return None if any(p is None for p in parts) else [s for p in parts if p for s in p]
    return None


def templates() -> dict[str, str]:
    """Every IllegalAction(...) / IllegalAction.format(...) template: {template: where}."""
    found: dict[str, str] = {}
    for rel in MODULES:
        tree = ast.parse((SRC / rel).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = ast.unparse(node.func)
            if name not in ("IllegalAction", "IllegalAction.format"):
                continue
            where = f"{rel}:{node.lineno}"
            values = _strings(node.args[0])
            assert values is not None, f"{where}: the template must be a string literal"
            for v in values:
                found.setdefault(v, where)
    return found


def catalogue(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def test_templates_are_found() -> None:
    found = templates()
    assert len(found) > 80
    assert "A turn banks at least {need} points; {points} cannot be banked." in found


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_every_template_is_translated_with_the_same_placeholders(lang: str) -> None:
    cat = catalogue(lang)
    missing, wrong = [], []
    for template, where in templates().items():
        msg = cat.get(template)
        if msg is None or not msg.string:
            missing.append(f"{where}: {template}")
        elif fields(str(msg.string)) != fields(template):
            wrong.append(f"{where}: {template} -> {msg.string}")
    assert not missing
    assert not wrong
    assert all((m := cat.get(p)) is not None and m.string for p in PHRASES)


def test_translate_error_fallbacks() -> None:
    exc = IllegalAction.format("There is no seat {seat}.", seat=9)
    assert translate_error(exc, "cs") == "Místo 9 neexistuje."
    assert translate_error(exc, "xx") == "There is no seat 9."
    assert (
        translate_error(IllegalAction.format("No entry for {x}.", x=1), "de") == "No entry for 1."
    )
    bad = IllegalAction.format("There is no seat {seat}.", seat=9)
    bad.params = {}  # the translation cannot be filled in: English
    assert translate_error(bad, "de") == "There is no seat 9."
    assert translate_error(ValueError("players: a list of names"), "de") == (
        "players: a list of names"
    )
    assert translate_error(IllegalAction("There is nothing to undo."), "de") == (
        "Es gibt nichts rückgängig zu machen."
    )


def test_phrases_are_translated_too() -> None:
    from pfeffer.pepper.game import PepperGame

    with pytest.raises(IllegalAction) as info:
        PepperGame(4).bid(2)
    de, cs = translate_error(info.value, "de"), translate_error(info.value, "cs")
    assert de.startswith("Bieten geht jetzt nicht: Seat ") and de.endswith(" gibt als Nächstes")
    assert cs.startswith("teď nelze dražit: Seat ") and cs.endswith(" má rozdat další hru")


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "A turn banks at least 350 points; 300 cannot be banked."),
        ("de", "Ein Zug schreibt mindestens 350 Punkte; 300 können nicht geschrieben werden."),
        ("cs", "Tah zapisuje aspoň 350 bodů; 300 zapsat nelze."),
    ],
)
def test_sheet_entry_below_the_minimum(client: TestClient, lang: str, message: str) -> None:
    r = client.post("/api/sheets", json={"game": "dice", "players": ["Anna", "Ben"]})
    sid = r.json()["id"]
    r = client.post(
        f"/api/sheets/{sid}/entries", json={"points": 300}, headers={"accept-language": lang}
    )
    assert r.status_code == 400 and r.json()["detail"] == message
    r = client.post(f"/api/sheets/{sid}/entries?lang={lang}", json={"points": 300})
    assert r.json()["detail"] == message


def test_sheet_page_and_new_sheet_errors(client: TestClient) -> None:
    r = client.post("/api/sheets?lang=cs", json={"game": "pepper", "players": ["A", "A"]})
    assert r.status_code == 400 and r.json()["detail"] == "Dva hráči mají stejné jméno; rozliš je."
    page = client.post(
        "/sheets?lang=de", data={"game": "pepper", "name0": "Ann", "name1": "Ann"}
    ).text
    assert "Zwei Spieler haben denselben Namen; unterscheide sie." in page
    assert 'data-lang="de"' in client.get(f"/sheet/{_a_sheet(client)}?lang=de").text


def _a_sheet(client: TestClient) -> str:
    sid: str = client.post("/api/sheets", json={"game": "dice", "players": ["A", "B"]}).json()["id"]
    return sid


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "Throw the dice first."),
        ("de", "Wirf zuerst die Würfel."),
        ("cs", "Nejdřív hoď kostkami."),
    ],
)
def test_websocket_illegal_action_is_translated(
    client: TestClient, lang: str, message: str
) -> None:
    t = client.post("/api/tables", json={"game": "dice", "seats": [{"kind": "human"}] * 2}).json()
    tid, token = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}?token={token}&lang={lang}") as ws:
        while ws.receive_json()["type"] != "state":
            pass
        ws.send_text(json.dumps({"type": "action", "action": "bank"}))
        reply = ws.receive_json()
        assert reply == {"type": "error", "code": "illegal", "message": message}
