"""Presets of the new-table form and "Play now against the computer" (web-forms): each preset
makes the table it claims, through the API and through the form as rendered."""

from __future__ import annotations

import html
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.core.presets import Preset
from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.presets import DICE_PRESETS
from pfeffer.pepper.presets import PEPPER_PRESETS
from pfeffer.pepper.rules import PepperRules
from pfeffer.web.adapters.games import ADAPTERS
from tests.web.conftest import form_data
from tests.web.htmlparse import form_fields

# What each preset says it is (its description and docs), written out here independently of the
# preset data: options that must hold in the rules a table created with it plays.
CLAIMS: dict[tuple[str, str], dict[str, Any]] = {
    ("dice", "family"): {"target": 10_000, "min_bank": 350, "pfeffer": True, "auto_pfeffer": True},
    ("dice", "farkle"): {
        "target": 10_000,
        "min_bank": 500,
        "min_bank_opening_only": True,
        "single_one": 100,
        "single_five": 50,
        "triples": {"1": 1000, "2": 200, "3": 300, "4": 400, "5": 500, "6": 600},
        "extra_dice": "fixed",
        "fixed_four": 1000,
        "fixed_five": 2000,
        "fixed_six": 3000,
        "straight": 1500,
        "three_pairs": 1500,
        "hot_dice_must_roll": False,
        "pfeffer": False,
        "auto_pfeffer": False,
        "final_round": True,
    },
    ("dice", "short"): {"target": 5000, "pfeffer": True},
    ("pepper", "family"): {"target": 30},
    ("pepper", "two"): {"target": 30},
    ("pepper", "three"): {"target": 30},
    ("pepper", "short"): {"target": 15},
}
SEATS = {
    ("dice", "family"): 2,
    ("dice", "farkle"): 2,
    ("dice", "short"): 2,
    ("pepper", "family"): 4,
    ("pepper", "two"): 2,
    ("pepper", "three"): 3,
    ("pepper", "short"): 4,
}
ALL = [("dice", p.key) for p in DICE_PRESETS] + [("pepper", p.key) for p in PEPPER_PRESETS]


def state(client: TestClient, table_id: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table_id}/state")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_every_preset_has_claims_and_is_valid() -> None:
    assert set(CLAIMS) == set(ALL) == set(SEATS)
    for game, presets in (("dice", DICE_PRESETS), ("pepper", PEPPER_PRESETS)):
        ad = ADAPTERS[game]
        assert presets[0].key == "family" and presets[0].rules == {}  # the rules as written
        assert len({p.key for p in presets}) == len(presets)
        for p in presets:
            assert ad.min_players <= len(p.seats) <= ad.max_players
            assert p.seats[0] == "human" and set(p.seats) <= {"human", "bot"}
        assert ad.play_now.humans == 1 and ad.play_now.seats[0] == "human"


@pytest.mark.parametrize(("game", "key"), ALL)
def test_a_preset_through_the_api_makes_the_table_it_claims(
    client: TestClient, game: str, key: str
) -> None:
    r = client.post("/api/tables", json={"game": game, "preset": key})
    assert r.status_code == 201, r.text
    t = r.json()
    assert len(t["seats"]) == SEATS[game, key]
    assert [s["kind"] for s in t["seats"]] == ["human"] + ["bot"] * (len(t["seats"]) - 1)
    rules = state(client, t["id"])["view"]["rules"]
    for name, value in CLAIMS[game, key].items():
        assert rules[name] == value, (key, name)
    listed = {p["key"]: p for p in client.get(f"/api/presets/{game}").json()}
    assert listed[key]["rules"] == rules  # what the list says is what the table plays
    assert len(listed[key]["seats"]) == SEATS[game, key]


def test_the_body_overrides_a_preset_and_a_wrong_preset_is_refused(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    body: dict[str, Any] = {"game": "dice", "preset": "farkle", "rules": {"target": 4000}}
    body["seats"] = seats
    t = client.post("/api/tables", json=body).json()
    rules = state(client, t["id"])["view"]["rules"]
    assert rules["target"] == 4000 and rules["pfeffer"] is False and len(t["seats"]) == 3
    r = client.post(
        "/api/tables",
        json={"game": "dice", "preset": "poker"},
        headers={"accept-language": "de"},
    )
    assert r.status_code == 400
    want = "'poker' ist keine Vorlage; die Vorlagen sind: family, farkle, short"
    assert r.json()["detail"] == want
    assert client.get("/api/presets/chess").status_code == 404
    for bad in ({"game": ["dice"], "preset": "farkle"}, {"game": "dice", "preset": ["x"]}):
        assert client.post("/api/tables", json=bad).status_code == 400


@pytest.mark.parametrize(("game", "key"), ALL)
def test_the_form_as_rendered_creates_the_preset(client: TestClient, game: str, key: str) -> None:
    page = client.get(f"/new/{game}?preset={key}")
    assert page.status_code == 200
    assert 'aria-current="true"' in page.text and f'data-preset="{key}"' in page.text
    fields = form_fields(page.text)
    assert fields["preset"] == key and fields["players"] == str(SEATS[game, key])
    r = client.post(f"/new/{game}", data=fields, follow_redirects=False)
    assert r.status_code == 303, r.text
    table_id = r.headers["location"].split("/")[2]
    s = state(client, table_id)
    preset = {p["key"]: p for p in client.get(f"/api/presets/{game}").json()}[key]
    assert s["view"]["rules"] == preset["rules"]
    kinds = [x["kind"] for x in s["seats"]]
    assert kinds == preset["seats"]


def test_an_unknown_preset_on_the_form_shows_the_default_and_says_so(client: TestClient) -> None:
    page = client.get("/new/pepper?preset=bridge&lang=cs")
    assert page.status_code == 400
    assert "'bridge' není předvolba" in html.unescape(page.text)
    assert form_fields(page.text)["preset"] == "family"


def test_a_wrong_field_keeps_the_chosen_preset(client: TestClient) -> None:
    fields = form_fields(client.get("/new/dice?preset=farkle").text)
    fields["target"] = "-3"
    page = client.post("/new/dice", data=fields)
    assert page.status_code == 400 and 'role="alert"' in page.text
    again = form_fields(page.text)
    assert again["preset"] == "farkle" and again["min_bank"] == "500"


@pytest.mark.parametrize(("game", "seats"), [("dice", 2), ("pepper", 4)])
def test_play_now_opens_your_seat_at_a_running_table(
    client: TestClient, game: str, seats: int
) -> None:
    home = client.get("/?lang=de").text
    assert f'action="/play-now/{game}"' in home and "jetzt gegen den Computer spielen" in home
    r = client.post(f"/play-now/{game}", data=form_data(client), follow_redirects=False)
    assert r.status_code == 303
    _, play, table_id, token = r.headers["location"].split("/")
    assert play == "play"
    t = client.get(f"/api/tables/{table_id}").json()
    assert t["status"] == "running" and t["game"] == game
    assert [s["kind"] for s in t["seats"]] == ["human"] + ["bot"] * (seats - 1)
    frame = client.get(f"/api/tables/{table_id}/state", params={"token": token}).json()
    assert frame["seat"] == 0
    assert client.get(r.headers["location"]).status_code == 200
    assert client.post("/play-now/chess", data=form_data(client)).status_code == 404


def _play_out(preset: Preset, seed: int) -> set[str]:
    """Every action offered in a game of computer-ish random play under ``preset``."""
    game = DiceGame(["A", "B"], DiceRules(**preset.rules), seed=seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(400):
        if game.is_over:
            break
        legal = game.legal_actions()
        seen |= {a.split()[0] for a in legal}
        keeps = [a for a in legal if a.startswith("keep")]
        choice = "bank" if "bank" in legal else (keeps[0] if keeps else rng.choice(legal))
        game.apply(choice)
    return seen


def test_classic_farkle_never_offers_pfeffer_and_the_family_rules_do() -> None:
    farkle, family = (next(p for p in DICE_PRESETS if p.key == k) for k in ("farkle", "family"))
    assert "pfeffer" not in set().union(*(_play_out(farkle, s) for s in range(3)))
    assert "pfeffer" in set().union(*(_play_out(family, s) for s in range(3)))
    assert PepperRules(**dict(PEPPER_PRESETS[-1].rules)).target == 15
