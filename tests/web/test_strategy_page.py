"""The strategy page of Würfel-Pfeffer (issue 10 §5, browser side): ``/strategy/dice`` and its
data ``/api/strategy/dice`` for the default rules (their table ships) and for a table's rules,
checked against the solver's advice on game states the engine builds; rules without a solved
table, other games, more players; the link from a dice table."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.cli.dice_advice import play_turn, table_state
from pfeffer.dice import DiceRules
from pfeffer.dice.solver import advise
from pfeffer.web.adapters import advisor
from pfeffer.web.i18n import translations
from pfeffer.web.server import create_app
from pfeffer.web.services import strategy as strategy_route


@pytest.fixture
def client(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("PFEFFER_DATA_DIR", str(tmp_path / "data"))  # only the shipped table
    advisor.forget()
    strategy_route._cache.clear()
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        yield c
    advisor.forget()
    strategy_route._cache.clear()


def dice_table(client: TestClient, n: int = 2, **rules: Any) -> dict[str, Any]:
    seats = [{"name": f"P{i}", "kind": "human"} for i in range(n)]
    t: dict[str, Any] = client.post(
        "/api/tables", json={"game": "dice", "rules": rules, "seats": seats}
    ).json()
    return t


def bank_beats_roll(rules: DiceRules, own: int, other: int, total: int, dice: int) -> bool:
    """Whether the solver's advice, on a state the engine builds, banks at ``total``."""
    strategy = advisor.dice_strategy(rules)
    assert strategy is not None
    game = play_turn(table_state(rules, own, other, None), total=total, dice=dice)
    tips = {a.action: a.win_probability for a in advise(strategy, game)}
    return tips["bank"] >= tips["roll"] - 1e-12


def test_default_rules_data_against_the_advice(client: TestClient) -> None:
    d = client.get("/api/strategy/dice").json()
    assert d["available"] and d["table"] is None and d["target"] == 10000
    strategy = advisor.dice_strategy(DiceRules())
    assert strategy is not None
    totals = d["map"]["totals"]
    assert totals[0] == 0 and totals[-1] < 10000 and len(totals) >= 20
    for i in (0, 7, len(totals) - 1):
        for j in (0, 3, len(totals) - 2):
            want = strategy.win_probability(totals[i], totals[j])
            assert d["map"]["win"][i][j] == pytest.approx(want, abs=1e-12)
    assert d["first_player"] == pytest.approx(strategy.win_probability(0, 0))
    # The thresholds: banking wins at the threshold, and rolling one step below it.
    step, rules = d["step"], DiceRules()
    bank = d["bank"]
    for n in (1, 2, 3):
        for i, j in ((0, 0), (4, 2), (8, 9)):
            own, other = bank["totals"][i], bank["totals"][j]
            at = bank["thresholds"][str(n)][i][j]
            assert at is not None and at >= d["min_bank"]
            assert bank_beats_roll(rules, own, other, at, n)
            assert bank_beats_roll(rules, own, other, at + 4 * step, n)
            if at - step >= d["min_bank"]:
                assert not bank_beats_roll(rules, own, other, at - step, n)


def test_a_tables_rules_and_what_has_no_strategy(client: TestClient) -> None:
    plain = dice_table(client)
    d = client.get(f"/api/strategy/dice?table={plain['id']}").json()
    assert d["available"] and d["table"] == plain["id"]
    page = client.get(f"/strategy/dice?table={plain['id']}")
    assert page.status_code == 200 and "/static/strategy.js" in page.text
    assert f'data-table="{plain["id"]}"' in page.text
    small = dice_table(client, target=1000)
    d = client.get(f"/api/strategy/dice?table={small['id']}", headers={"accept-language": "cs"})
    assert d.json()["available"] is False
    assert d.json()["message"].startswith("Pro tato pravidla zatím strategie není")
    assert "Target: 1000" in client.get(f"/strategy/dice?table={small['id']}").text
    pepper = client.post(
        "/api/tables", json={"game": "pepper", "seats": [{"kind": "human"}] * 2}
    ).json()
    assert client.get(f"/api/strategy/dice?table={pepper['id']}").status_code == 404
    assert client.get("/strategy/dice?table=nosuch").status_code == 404


def test_the_dice_table_links_to_its_strategy(client: TestClient) -> None:
    t = dice_table(client)
    play = client.get(t["seats"][0]["url"]).text
    assert f'href="/strategy/dice?table={t["id"]}"' in play
    pepper = client.post(
        "/api/tables", json={"game": "pepper", "seats": [{"kind": "human"}] * 2}
    ).json()
    assert "/strategy/dice" not in client.get(pepper["seats"][0]["url"]).text


def changed_rules(html: str) -> list[str]:
    """The page's list of rules off their defaults, as text."""
    return [
        re.sub(r"\s+", " ", m).strip()
        for m in re.findall(r'<span class="rule-changed"[^>]*>(.*?)</span>', html, re.S)
    ]


@pytest.mark.parametrize(
    ("lang", "want"),
    [
        ("en", ["Target: 2000", "Minimum only until the first bank: yes",
                "Three of a kind: Three 1s: 1000, Three 2s: 250, Three 3s: 300, Three 4s: 400, "
                "Three 5s: 500, Three 6s: 600", "Tie: Play-off"]),
        ("de", ["Zielpunktzahl: 2000", "Mindestpunktzahl nur bis zum ersten Aufschreiben: ja",
                "Dreierpasch: Drei 1er: 1000, Drei 2er: 250, Drei 3er: 300, Drei 4er: 400, "
                "Drei 5er: 500, Drei 6er: 600", "Gleichstand: Stechen"]),
        ("cs", None),
    ],
)  # fmt: skip
def test_the_rules_in_the_forms_labels_and_the_pages_language(
    client: TestClient, lang: str, want: list[str] | None
) -> None:
    t = dice_table(client, target=2000, min_bank_opening_only=True, tie="playoff",
                   triples={"2": 250})  # fmt: skip
    html = client.get(f"/strategy/dice?table={t['id']}&lang={lang}").text
    shown = changed_rules(html)
    assert "min_bank_opening_only=" not in html and "True" not in html  # the old key=value
    if want is None:  # Czech: the catalogue's words for the same labels
        cs = translations("cs").gettext
        want = [f"{cs('Target')}: 2000", f"{cs('Minimum only until the first bank')}: {cs('yes')}",
                f"{cs('Tie')}: {cs('Play-off')}"]  # fmt: skip
        assert want[0] != "Target: 2000"  # translated
        shown = shown[:2] + shown[3:]
    assert shown == want


def test_more_players_get_the_approximation_said_plainly(client: TestClient) -> None:
    three = dice_table(client, 3)
    d = client.get(f"/api/strategy/dice?table={three['id']}").json()
    assert d["available"] and d["approximation"] and d["players"] == 3
    assert "approximation" in d["note"] and "highest total of the others" in d["note"]
    assert d["first_player"] == pytest.approx(
        client.get("/api/strategy/dice").json()["first_player"]
    )
    page = client.get(f"/strategy/dice?table={three['id']}").text
    assert 'class="approx-note"' in page and "an approximation for more players" in page
    de = client.get(f"/strategy/dice?table={three['id']}&lang=de").text
    assert "Näherung" in de
    two = dice_table(client)
    assert not client.get(f"/api/strategy/dice?table={two['id']}").json()["approximation"]
    assert "approx-note" not in client.get(f"/strategy/dice?table={two['id']}").text
