"""Error messages in the page's language (issue 4 item 8): the engines' IllegalAction and
RulesError templates, the web front end's request errors and the server's own texts."""

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
from pfeffer.core.rulespec import texts
from pfeffer.dice.rules import DICE_RULE_SPECS
from pfeffer.pepper.rules import PEPPER_RULE_SPECS
from pfeffer.web.i18n import LOCALE_DIR, translate_error
from tests.web.conftest import form_data

SRC = Path(pfeffer.__file__).resolve().parent
MODULES = [
    "core/rulespec.py",
    "core/presets.py",
    "dice/game.py",
    "dice/sheet.py",
    "dice/scoring.py",
    "dice/rules.py",
    "dice/puzzles.py",
    "pepper/game.py",
    "pepper/sheet.py",
    "pepper/cards.py",
    "pepper/action.py",
    "pepper/rules.py",
    "web/adapters/games.py",
    "web/adapters/sheets.py",
    "web/services/chat.py",
    "web/services/newtable.py",
    "web/server.py",
    "web/services/seating.py",
    "web/services/tables.py",
    "web/services/errors.py",
    "web/routes/deps.py",
    "web/routes/tables.py",
    "web/routes/sheets.py",
    "web/routes/pages.py",
    "web/routes/ws.py",
    "web/middleware/limits.py",
    "web/middleware/csrf.py",
    "web/middleware/body.py",
]
ERRORS = (
    "StorageUnavailable",
    "TableMoved",
    "ActionError",
    "IllegalAction",
    "InvalidAction",
    "NotYourTurn",
    "RulesError",
    "SetupError",
    "TranslatableError",
)
CALLS = {*ERRORS, *(f"{e}.format" for e in ERRORS)}
# Texts the server writes itself: HTTPException details (translated by its exception handler)
# and the WebSocket replies (``gt``): server.py and the layers it was split into.
SERVER_MODULES = {
    "web/server.py",
    "web/middleware/limits.py",
    "web/middleware/csrf.py",
    *(m for m in MODULES if m.startswith("web/routes/")),
}
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
    """Every translatable text: the templates of IllegalAction / RulesError / TranslatableError
    (and their ``.format``), the server's ``HTTPException`` details and ``gt(...)`` texts:
    {template: where}."""
    found: dict[str, str] = {}
    for rel in MODULES:
        tree = ast.parse((SRC / rel).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = ast.unparse(node.func)
            if name in CALLS:
                arg = node.args[0]
            elif rel in SERVER_MODULES and name == "HTTPException" and len(node.args) > 1:
                if isinstance(node.args[1], ast.Call):
                    continue  # translate_error(exc, lang): translated already
                arg = node.args[1]
            elif rel in SERVER_MODULES and name == "gt":
                arg = node.args[0]
            else:
                continue
            where = f"{rel}:{node.lineno}"
            values = _strings(arg)
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
    assert "{name} must be one of {allowed} (got {value})" in found  # RulesError
    assert "players: a list of names" in found  # web/adapters/sheets.py
    assert "no such table" in found  # an HTTPException of the server
    assert "Spectators cannot play." in found  # a WebSocket reply


@pytest.mark.parametrize(
    "rel",
    [
        "dice/rules.py",
        "web/adapters/sheets.py",
        "web/server.py",
        "web/adapters/games.py",
        "web/services/seating.py",
        "web/services/tables.py",
        "web/routes/deps.py",
        "web/routes/tables.py",
        "web/routes/sheets.py",
        "web/routes/pages.py",
        "web/routes/ws.py",
    ],
)
def test_no_untranslatable_value_errors(rel: str) -> None:
    """Errors that reach a web user are TranslatableErrors, not plain ValueErrors."""
    tree = ast.parse((SRC / rel).read_text(encoding="utf-8"))
    plain = [
        f"{rel}:{n.lineno}"
        for n in ast.walk(tree)
        if isinstance(n, ast.Raise)
        and isinstance(n.exc, ast.Call)
        and ast.unparse(n.exc.func) == "ValueError"
        and any(isinstance(arg, ast.Constant | ast.JoinedStr) for arg in n.exc.args)
    ]
    assert plain == []


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


@pytest.mark.parametrize("lang", ["de", "cs", "en"])
def test_every_house_rule_label_and_help_is_in_the_catalogues(lang: str) -> None:
    """The RuleSpec texts (labels, help texts, what None means, a mapping key's label) are
    translated with the same placeholders; English and the template list them untranslated."""
    cat = catalogue(lang)
    with (LOCALE_DIR.parent / "messages.pot").open("rb") as f:
        pot = read_po(f)
    spec_texts = texts(DICE_RULE_SPECS + PEPPER_RULE_SPECS)
    assert len(spec_texts) > 50
    for text in spec_texts:
        assert pot.get(text) is not None, text
        msg = cat.get(text)
        assert msg is not None, f"{lang}: {text}"
        if lang != "en":
            assert msg.string, f"{lang}: {text}"
            assert fields(str(msg.string)) == fields(text), f"{lang}: {text} -> {msg.string}"


@pytest.mark.parametrize(
    ("lang", "label", "help_text", "key"),
    [
        ("en", "Minimum to bank", "Total that starts the final round.", "Three 2s"),
        ("de", "Mindestpunktzahl", "Punktestand, mit dem die Schlussrunde beginnt.", "Drei 2er"),
        ("cs", "Minimum k zapsání", "Součet bodů, kterým začíná poslední kolo.", "Trojice 2"),
    ],
)
def test_new_table_form_reads_the_specs(
    client: TestClient, lang: str, label: str, help_text: str, key: str
) -> None:
    page = client.get(f"/new/dice?lang={lang}").text
    assert label in page and help_text in page and key in page
    for spec in DICE_RULE_SPECS:
        for name in spec.field_names():
            assert f'name="{name}"' in page, name
    assert 'name="target" value="10000" min="50" max="1000000"' in page
    assert 'name="triples_2" value="200" min="0" max="100000"' in page
    double = {"en": "Double", "de": "Verdoppeln", "cs": "Zdvojnásobit"}[lang]
    assert f'<option value="double" selected>{double}</option><option value="add" >' in page
    pepper = client.get(f"/new/pepper?lang={lang}").text
    assert 'name="set_penalty" value="" min="0" max="100" step="1" placeholder="' in pepper
    none_text = {"en": "by player count", "de": "nach Spielerzahl", "cs": "podle počtu hráčů"}
    assert f'placeholder="{none_text[lang]}: 6 ' in pepper


def test_new_table_form_refuses_out_of_bounds_numbers(client: TestClient) -> None:
    form = {"players": "2", "seat0_kind": "human", "seat1_kind": "heuristic"}
    page = client.post(
        "/new/dice?lang=de", data=form_data(client, {**form, "min_bank": "1" + "0" * 399})
    ).text
    assert "min_bank muss zwischen 0 und 100000 liegen (nicht ≈10^399)" in page
    page = client.post("/new/dice?lang=cs", data=form_data(client, {**form, "target": "300"})).text
    assert "min_bank (350) nesmí být nad target (300)" in page
    page = client.post(
        "/new/pepper?lang=en", data=form_data(client, {**form, "target": "1" + "0" * 26})
    ).text
    assert "target must be between 1 and 1000 (got ≈10^26)" in page
    r = client.post(
        "/api/tables?lang=de",
        json={"game": "dice", "rules": {"triples": {"7": 100}}, "seats": [{"kind": "bot"}] * 2},
    )
    assert r.status_code == 400 and r.json()["detail"] == "triples: 7 gehört nicht zu 1-6"


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
    assert cs.startswith("teď nelze dražit: Seat ") and cs.endswith(
        " má rozdat karty na další kolo"
    )


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "A turn banks at least 350 points; 300 cannot be banked."),
        ("de", "Pro Zug schreibt man mindestens 350 Punkte; 300 können nicht geschrieben werden."),
        ("cs", "V jednom tahu se zapisuje aspoň 350 bodů; 300 zapsat nelze."),
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
    assert (
        r.status_code == 400
        and r.json()["detail"] == "Dva hráči mají stejné jméno; dej jim různá jména."
    )
    page = client.post(
        "/sheets?lang=de",
        data=form_data(client, {"game": "pepper", "name0": "Ann", "name1": "Ann"}),
    ).text
    assert "Zwei Spieler heißen gleich; gib ihnen verschiedene Namen." in page
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


@pytest.mark.parametrize(
    ("lang", "players", "unknown"),
    [
        ("en", "players: a list of names", "no such table"),
        ("de", "players: eine Liste von Namen", "diesen Tisch gibt es nicht"),
        ("cs", "players: seznam jmen", "takový stůl neexistuje"),
    ],
)
def test_malformed_sheet_and_unknown_table(
    client: TestClient, lang: str, players: str, unknown: str
) -> None:
    r = client.post(f"/api/sheets?lang={lang}", json={"game": "dice", "players": "Anna"})
    assert r.status_code == 400 and r.json()["detail"] == players
    r = client.get("/api/tables/nope", headers={"accept-language": lang})
    assert r.status_code == 404 and r.json()["detail"] == unknown
    r = client.post("/api/sheets", json=[1], headers={"accept-language": lang})
    assert r.status_code == 400
    assert r.json()["detail"] == {"en": "send a JSON object", "de": "schick ein JSON-Objekt"}.get(
        lang, "pošli objekt JSON"
    )


def test_bad_house_rule_on_new_table_in_czech(client: TestClient) -> None:
    seats = [{"kind": "human"}] * 2
    r = client.post(
        "/api/tables?lang=cs",
        json={"game": "dice", "rules": {"extra_dice": "triple"}, "seats": seats},
    )
    assert r.status_code == 400
    assert (
        r.json()["detail"] == "extra_dice musí být jedno z 'double', 'add', 'fixed' (ne 'triple')"
    )
    r = client.post(
        "/api/tables", json={"game": "dice", "rules": {"extra_dice": "triple"}, "seats": seats}
    )
    assert r.json()["detail"] == "extra_dice must be one of 'double', 'add', 'fixed' (got 'triple')"
    r = client.post(
        "/api/tables?lang=cs", json={"game": "pepper", "rules": {"target": 0}, "seats": seats}
    )
    assert r.json()["detail"] == "target musí být mezi 1 a 1000 (ne 0)"
    r = client.post("/api/tables?lang=de", json={"game": "dice", "rules": {"x": 1}, "seats": seats})
    assert r.json()["detail"] == "unbekannte Hausregel(n): x"
    r = client.post("/api/tables?lang=de", json={"game": "chess", "seats": seats})
    assert r.json()["detail"] == "game muss 'dice' oder 'pepper' sein"


def test_new_table_form_shows_rules_error_in_czech(client: TestClient) -> None:
    page = client.post(
        "/new/dice?lang=cs",
        data=form_data(client, {"players": "2", "target": "0", "seat0_kind": "human"}),
    ).text
    assert "target musí být mezi 50 a 1000000 (ne 0)" in page


def test_rules_errors_keep_template_and_english_text() -> None:
    from pfeffer.core.errors import RulesError, TranslatableError
    from pfeffer.dice.rules import DiceRules
    from pfeffer.pepper.rules import PepperRules

    with pytest.raises(RulesError) as info:
        DiceRules(min_bank=-1)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TranslatableError)
    assert str(info.value) == "min_bank must be between 0 and 100000 (got -1)"
    assert info.value.template == "{name} must be between {low} and {high} (got {value})"
    assert (
        translate_error(info.value, "de") == "min_bank muss zwischen 0 und 100000 liegen (nicht -1)"
    )
    with pytest.raises(ValueError, match=r"^all_pass must be one of 'last_must_bid', 'redeal'"):
        PepperRules(all_pass="x")


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_refused_text_is_explained_in_the_pages_language(lang: str) -> None:
    """pfeffer.core.text's refusals: every template and every field phrase is translated, with
    the same placeholders, and a refusal reads in the page's language."""
    from pfeffer.core.text import FIELDS, TEMPLATES, UnsafeText, check_text

    cat = catalogue(lang)
    for text in (*TEMPLATES, *FIELDS):
        msg = cat.get(text)
        assert msg is not None and msg.string, f"{lang}: {text}"
        assert fields(str(msg.string)) == fields(text)
    with pytest.raises(UnsafeText) as info:
        check_text("a\x00", field="Chat message")
    translated = translate_error(info.value, lang)
    assert translated.startswith({"de": "Chatnachricht: ", "cs": "Zpráva v chatu: "}[lang])
