"""No English UI string on a German or Czech page (web-forms, i18n review).

Every page is rendered in German and in Czech (lobby, new-table forms with every preset and
with an error, rules, host page, play and watch pages, score sheets, history, replay, error
pages), and every text a person reads there (text nodes, placeholders, titles, aria-labels) is
compared with the English msgids whose translation differs from the msgid: a text node that
is such a msgid (placeholders match anything), or that contains a longer one, is English that
leaked. The strings the scripts draw the play, watch, replay and sheet pages with (``js_strings``,
embedded in every page) are checked the same way, and so are the new-table form's house-rule
labels, help texts and choices against the rule schema. Runs without a browser (the browser
test in test_browser_faults.py looks at the drawn pages word by word)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from pfeffer.core.rulespec import texts
from pfeffer.dice.presets import DICE_PRESETS
from pfeffer.dice.rules import DICE_RULE_SPECS
from pfeffer.pepper.presets import PEPPER_PRESETS
from pfeffer.pepper.rules import PEPPER_RULE_SPECS
from pfeffer.web.i18n import LOCALE_DIR
from pfeffer.web.server import create_app
from pfeffer.web.services.catalog import CHOICE_LABELS
from tests.plurals import broken_plurals
from tests.web.conftest import form_data
from tests.web.htmlparse import page_texts

LANGS = ["de", "cs"]
PLACEHOLDER = re.compile(r"%\([^)]*\)[sd]|\{[^}]*\}")
# Player names, titles and other texts the tests themselves put on the pages.
OURS = {"Anna", "Ben", "Robo", "Oma", "Opa", "Jana", "Petr", "Eva", "Karel"}
NAMES = {"Pfeffer", "Auto-Pfeffer"}  # names of rules, the same in every language
I18N = re.compile(r'<script id="i18n" type="application/json">(.*?)</script>', re.S)


def catalogue(lang: str) -> dict[str, list[str]]:
    """{msgid: translations (plural forms)} of ``lang``; the plural msgid too."""
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        cat = read_po(f, locale=lang)
    out: dict[str, list[str]] = {}
    for m in cat:
        if not m.id:
            continue
        ids = [str(i) for i in (m.id if isinstance(m.id, tuple) else (m.id,))]
        strings = [str(x) for x in (m.string if isinstance(m.string, tuple) else (m.string,))]
        for msgid in ids:
            out[msgid] = strings
    return out


def english_patterns(lang: str) -> list[tuple[str, re.Pattern[str], bool]]:
    """(msgid, pattern, whole-text-only) for every msgid whose translation into ``lang``
    differs from it. Short msgids ("Bid", "Hand") count only as a whole text node; longer ones
    (two words and more, placeholders not counted) also inside one."""
    out = []
    for msgid, strings in catalogue(lang).items():
        if msgid in strings or not re.search(r"[A-Za-z]{2}", PLACEHOLDER.sub("", msgid)):
            continue  # the same in both languages ("Pfeffer!", "Team"), or no words at all
        parts = [_part(p) for p in PLACEHOLDER.split(msgid)]
        pattern = re.compile(r"(?<![\w])" + ".+?".join(parts) + r"(?![\w])")
        whole = len(PLACEHOLDER.sub("", msgid).split()) < 2  # one word and placeholders
        out.append((msgid, pattern, whole))
    return out


def _part(text: str) -> str:
    """The pattern of a msgid's text between placeholders: a word set off by a space from a
    placeholder stays a word (" bid " does not match inside "(bid)s gewonnen")."""
    core = re.escape(" ".join(text.split()))
    if core and text[0].isspace():
        core = r"\s" + core
    if core and text[-1].isspace():
        core += r"\s"
    return core


def leaks(found: list[str], lang: str) -> dict[str, list[str]]:
    """{text: English msgids in it} of the texts ``found``."""
    hits: dict[str, list[str]] = {}
    patterns = english_patterns(lang)
    for text in found:
        if text in OURS:
            continue
        for msgid, pattern, whole in patterns:
            if (pattern.fullmatch(text) if whole else pattern.search(text)) is not None:
                hits.setdefault(text, []).append(msgid)
    return hits


def script_strings(html: str) -> dict[str, str]:
    """The strings a page gives its scripts (``js_strings``, in ``<script id="i18n">``)."""
    found = I18N.search(html)
    assert found is not None
    strings: dict[str, str] = json.loads(found[1])
    return strings


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, list[str]]]:
    """The app with a game of every kind and stage: the paths of every page."""
    db = tmp_path_factory.mktemp("noenglish") / "web.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0, computer_tables=True)) as c:
        dice = c.post(
            "/api/tables",
            json={
                "game": "dice",
                "seats": [
                    {"name": "Anna", "kind": "human", "public": True},
                    {"name": "Robo", "kind": "bot"},
                ],
            },
        ).json()
        pepper = c.post(
            "/api/tables",
            json={
                "game": "pepper",
                "seats": [{"name": "Jana", "kind": "human"}]
                + [{"name": n, "kind": "bot"} for n in ("Petr", "Eva", "Karel")],
            },
        ).json()
        done = []
        for game, rules in (("dice", {"target": 1000, "min_bank": 0}), ("pepper", {"target": 1})):
            seats = [{"name": n, "kind": "bot"} for n in ("Oma", "Opa")]
            t = c.post("/api/tables", json={"game": game, "rules": rules, "seats": seats}).json()
            deadline = time.monotonic() + 60
            while c.get(f"/api/tables/{t['id']}").json()["status"] != "finished":
                assert time.monotonic() < deadline
                time.sleep(0.05)
            done.append(t["id"])
        dice_sheet = c.post("/api/sheets", json={"game": "dice", "players": ["Oma", "Opa"]})
        pepper_sheet = c.post(
            "/api/sheets", json={"game": "pepper", "players": ["Jana", "Petr", "Eva", "Karel"]}
        )
        paths = [
            "/",
            "/sheets",
            "/history",
            "/rules/dice",
            "/rules/pepper",
            f"/table/{dice['id']}/{dice['admin_token']}",
            f"/table/{pepper['id']}/{pepper['admin_token']}",
            dice["seats"][0]["url"],
            pepper["seats"][0]["url"],
            f"/watch/{dice['id']}",
            f"/watch/{pepper['id']}",
            f"/device/{dice['id']}/{dice['admin_token']}",  # pepper-table: one device
            f"/device/{pepper['id']}/{pepper['admin_token']}",
            dice_sheet.json()["url"],
            pepper_sheet.json()["url"],
            *(f"/replay/{i}" for i in done),
            *(f"/new/dice?preset={p.key}" for p in DICE_PRESETS),
            *(f"/new/pepper?preset={p.key}" for p in PEPPER_PRESETS),
            "/new/pepper?preset=nosuch",  # the form with an error
            "/watch/nosuch",  # 404
            f"/replay/{dice['id']}?token={dice['seats'][0]['token']}",  # 409: it is running
            "/play/nosuch/nosuch",
            "/rules/chess",
            "/strategy/dice",  # tablehints: the strategy page, for a table's rules too
            f"/strategy/dice?table={dice['id']}",
            "/train",  # issue 23: the puzzle trainer
            "/train?daily=1",
        ]
        yield c, paths


def test_the_scan_finds_english() -> None:
    assert leaks(["Your turn"], "de") == {"Your turn": ["Your turn"]}
    assert leaks(["Waiting for Anna…"], "cs") == {"Waiting for Anna…": ["Waiting for %(name)s…"]}
    assert "Well played!" in leaks(["Robo: Well played!"], "de")["Robo: Well played!"]
    assert leaks(["Du bist dran", "Anna", "Gut gespielt!", "Pfeffer!"], "de") == {}
    assert leaks(["Handy"], "de") == {}  # "Hand" only as a whole text


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_text_on_any_page(site: tuple[TestClient, list[str]], lang: str) -> None:
    client, paths = site
    found: dict[str, dict[str, list[str]]] = {}
    for path in paths:
        sep = "&" if "?" in path else "?"
        r = client.get(f"{path}{sep}lang={lang}")
        assert r.headers["content-type"].startswith("text/html"), path
        assert f'<html lang="{lang}">' in r.text, path
        hits = leaks(page_texts(r.text), lang)
        if plurals := broken_plurals(" · ".join(page_texts(r.text)), lang):
            hits["broken plural"] = plurals
        if hits:
            found[path] = hits
    # The form posted with a wrong value: the page comes back with the error.
    r = client.post(f"/new/dice?lang={lang}", data=form_data(client, {"players": "9"}))
    assert r.status_code == 400
    if hits := leaks(page_texts(r.text), lang):
        found["POST /new/dice"] = hits
    assert found == {}


@pytest.mark.parametrize("lang", LANGS)
def test_the_scripts_strings_are_translated(site: tuple[TestClient, list[str]], lang: str) -> None:
    client, _ = site
    strings = script_strings(client.get(f"/?lang={lang}").text)
    english = script_strings(client.get("/?lang=en").text)
    assert strings.keys() == english.keys()
    same = {k for k in strings if strings[k] == english[k]}
    # Only what is the same in every language: symbols, names, the word "online".
    allowed = {"pfeffer", "total", "online", "offline", "team", "rank_letters"}  # cs: J Q K A
    allowed |= {"card_by"}  # pepper-table: "%(name)s: %(card)s", a name and a card's name
    assert same <= allowed, sorted(same)
    assert leaks(list(strings.values()), lang) == {}
    # Plural forms of "Roll n dice" for every count a throw can have.
    forms = [strings[f"roll_n#{n}"].replace("%(n)s", str(n)) for n in range(1, 7)]
    if lang == "cs":
        assert forms[0] == "Hodit 1 kostkou" and forms[1] == "Hodit 2 kostkami"
        assert forms[4] == "Hodit 5 kostkami"
    else:
        assert forms[0] == "1 Würfel werfen" and forms[5] == "6 Würfel werfen"
    assert (english["roll_n#1"], english["roll_n#2"]) == ("Roll %(n)s die", "Roll %(n)s dice")
    assert strings["rank_letters"] == ("B D K A" if lang == "de" else "J Q K A")
    # A counted message's form for each plural category, filled with a count of that category.
    counts = {"one": 1, "few": 2, "other": 5}
    counted = {k: v.replace("%(n)s", str(counts[k.rsplit("@", 1)[1]]))
               for k, v in strings.items() if "@" in k}  # fmt: skip
    assert {k.split("@")[0] for k in counted} >= {"review_player", "review_side", "keys_hint"}
    assert not broken_plurals(" · ".join(counted.values()), lang), counted


@pytest.mark.parametrize("lang", LANGS)
def test_every_house_rule_label_help_and_choice_is_translated(
    site: tuple[TestClient, list[str]], lang: str
) -> None:
    client, _ = site
    cat = catalogue(lang)
    for game, specs in (("dice", DICE_RULE_SPECS), ("pepper", PEPPER_RULE_SPECS)):
        page = client.get(f"/new/{game}?lang={lang}").text
        shown = page_texts(page)
        english: list[str] = [*texts(specs)]
        english += [CHOICE_LABELS[c] for s in specs for c in s.choices]
        for msgid in english:
            assert msgid in cat and all(cat[msgid]), msgid
            if msgid not in NAMES:
                assert msgid not in cat[msgid], msgid  # translated, not copied
        for text in shown:
            for msgid in english:
                if "{" not in msgid and msgid not in NAMES:
                    assert msgid != text, (game, msgid)
        # No raw option names or choice values as visible text either.
        raw = {s.name for s in specs} | {c for s in specs for c in s.choices}
        assert not raw & set(shown), raw & set(shown)
        for spec in specs:
            if spec.type != "mapping":
                label = cat[spec.label][0]
                assert label in shown, (game, spec.name, label)
