"""The strategy page of Würfel-Pfeffer (issue 10 §5, browser side): ``/strategy/dice`` and its
data ``/api/strategy/dice`` for the default rules (their table ships) and for a table's rules,
checked against the solver's advice on game states the engine builds; rules without a solved
table, other games, more players; the link from a dice table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.cli.dice_advice import play_turn, table_state
from pfeffer.dice import DiceRules
from pfeffer.dice.solver import advise
from pfeffer.web.adapters import advisor
from pfeffer.web.server import create_app
from pfeffer.web.services import strategy as strategy_route


@pytest.fixture
def client(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("PFEFFER_DATA_DIR", str(tmp_path / "data"))  # only the shipped table
    advisor._strategy.cache_clear()
    strategy_route._cache.clear()
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        yield c
    advisor._strategy.cache_clear()
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
    assert "target=1000" in client.get(f"/strategy/dice?table={small['id']}").text
    three = dice_table(client, 3)
    assert "two players" in client.get(f"/api/strategy/dice?table={three['id']}").json()["message"]
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
