"""What the views already know, the frames carry (issue 7): team names, the tricks a contract
needs, the last trick by seat, the Pfeffer offer, the score-sheet rows and the sheet's step; the
browser's scripts only draw them. Also: the adapters apply actions through the engine's seat
check and make computer players from the games' bot registries."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import pfeffer.web
from pfeffer.core.errors import IllegalAction, NotYourTurn
from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.bots import DICE_BOTS, HeuristicBot
from pfeffer.dice.sheet import sheet_rows
from pfeffer.pepper.bots import PEPPER_BOTS
from pfeffer.web.adapters.games import DiceAdapter, PepperAdapter, Table, adapter
from pfeffer.web.jsondata import jsonable

STATIC = Path(pfeffer.web.__file__).resolve().parent / "static"
NAMES = ["Ann", "Bob", "Cy", "Di"]


def first_state(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            return msg


def pepper_through_auction() -> tuple[Table, list[tuple[int, str]]]:
    """A 4-player Pepper table after the deal, the auction and the trump call."""
    table = adapter("pepper").table({}, NAMES, 7)
    bids: list[tuple[int, str]] = []
    while table.game.phase in ("deal", "auction", "declare"):
        seat = table.game.current_player
        assert seat is not None
        legal = table.legal_actions(seat)
        numbers = [a for a in legal if a.isdigit()]
        choice = "pass" if "pass" in legal and bids else (numbers or legal)[0]
        if table.game.phase == "auction" and choice != "pass":
            bids.append((seat, choice))
        table = table.after(choice, seat)
    return table, bids


# ---------------------------------------------------------------------- Pepper


def test_pepper_frame_carries_teams_and_contract() -> None:
    table = adapter("pepper").table({}, NAMES, 7)
    before = table.view(0)
    assert before["side_names"] == ["Ann & Cy", "Bob & Di"]
    assert before["seat_sides"] == [0, 1, 0, 1] and before["teams"] is True
    assert before["partner"] == 2 and table.view(1)["partner"] == 3
    assert table.view(None)["partner"] is None
    assert before["tricks_needed"] is None and before["tricks_in_hand"] == 6
    assert before["last_trick"] is None

    table, bids = pepper_through_auction()
    frame = table.view(0)
    assert frame["phase"] == "play" and frame["high_bid"] == bids[-1][1]
    high = bids[-1][1]
    assert frame["tricks_needed"] == (6 if high in ("small", "big") else int(high))


def test_pepper_three_players_have_no_teams() -> None:
    frame = adapter("pepper").table({}, NAMES[:3], 1).view(1)
    assert frame["side_names"] == NAMES[:3]
    assert frame["seat_sides"] == [0, 1, 2] and frame["teams"] is False
    assert frame["partner"] is None


def test_pepper_last_trick_is_drawn_by_seat() -> None:
    table, _ = pepper_through_auction()
    played: list[tuple[int, str]] = []
    while len(played) < len(NAMES):  # one whole trick
        seat = table.game.current_player
        assert seat is not None
        card = table.legal_actions(seat)[0]
        played.append((seat, card))
        table = table.after(card, seat)
    frame = table.view(None)
    assert [tuple(p) for p in frame["last_trick"]["cards"]] == played
    assert frame["last_trick"]["winner"] in [s for s, _ in played]
    assert frame["current_trick"] == []


def test_pepper_winner_names_are_side_names() -> None:
    table = adapter("pepper").table({"target": 1}, NAMES, 3)
    rng_seed = 0
    while not table.game.is_over:
        seat = table.game.current_player
        assert seat is not None
        table = table.after(table.bot_action(seat, "heuristic", rng_seed), seat)
    frame = table.view(None)
    assert frame["winner_names"] == [frame["side_names"][w] for w in frame["winners"]]
    assert all(" & " in n for n in frame["winner_names"])


# ---------------------------------------------------------------------- dice


def test_dice_frame_carries_the_pfeffer_offer() -> None:
    rules = DiceRules(pfeffer_reward="stake")
    game = DiceGame(["Ann", "Bob"], rules, seed=5)
    bot = HeuristicBot()
    while not game.view().can_call_pfeffer:  # play until a player may call Pfeffer
        seat = game.current_player
        assert seat is not None
        game.apply(bot.choose(game.view(seat), game.legal_actions()), seat=seat)
    seat = game.current_player
    assert seat is not None
    frame = DiceAdapter().view(game, seat)
    pred = game.view().predecessor_result
    assert pred is not None and pred > 0
    stake = pred + rules.pfeffer_margin
    assert frame["pfeffer_stake"] == stake
    assert frame["pfeffer_bust_penalty"] == rules.pfeffer_penalty_factor * stake
    assert frame["pfeffer_need"] == max(rules.min_bank, stake)  # pfeffer_short_bank forbidden
    assert frame["pfeffer_bonus"] == stake
    assert frame["bust_penalty"] == 0 and frame["is_my_turn"] is True
    assert DiceAdapter().view(game, 1 - seat)["is_my_turn"] is False
    # Once called, the offer is gone and a bust costs the penalty.
    game.apply("pfeffer", seat=seat)
    after = DiceAdapter().view(game, seat)
    assert after["pfeffer_stake"] is None
    assert after["bust_penalty"] == rules.pfeffer_penalty_factor * stake


def test_dice_frames_carry_the_sheet_rows() -> None:
    table = adapter("dice").table({"target": 1500}, ["Ann", "Bob", "Cy"], 11)
    frames = 0
    while not table.game.is_over:
        seat = table.game.current_player
        assert seat is not None
        table = table.after(table.bot_action(seat, None, 0), seat)
        game = table.game
        assert isinstance(game, DiceGame)
        frame = table.view(None)
        assert frame["sheet_rows"] == jsonable(sheet_rows(game.history, 3))
        frames += 1
    frame = table.view(None)
    assert frame["sheet_rows"] and frame["sheet_rows"][-1]["totals"] == frame["scores"]
    assert frame["winner_names"] == [["Ann", "Bob", "Cy"][w] for w in frame["winners"]]
    assert frame["side_names"] == ["Ann", "Bob", "Cy"] and frame["teams"] is False
    assert frame["single_faces"] == [1, 5] and frame["points_step"] == 50
    assert frames > 10


def test_dice_sheet_api_carries_rows_and_step(client: TestClient) -> None:
    sid = client.post(
        "/api/sheets",
        json={"game": "dice", "players": ["Oma", "Opa"], "rules": {"single_five": 25}},
    ).json()["id"]
    for body in ({"points": 400}, {"bust": True}, {"points": 425, "pfeffer": False}):
        d = client.post(f"/api/sheets/{sid}/entries", json=body).json()
    v = d["view"]
    assert v["points_step"] == 25  # single fives of 25: entries in steps of 25
    assert [r["number"] for r in v["sheet_rows"]] == [1, 2]
    assert v["sheet_rows"][0]["totals"] == [400, 0]
    assert v["sheet_rows"][1]["turns"][0]["points"] == 425
    assert v["sheet_rows"][1]["turns"][1] is None


def test_pepper_sheet_api_carries_side_names_and_choices(client: TestClient) -> None:
    sid = client.post(
        "/api/sheets",
        json={"game": "pepper", "players": NAMES, "rules": {"no_trump": False}},
    ).json()["id"]
    d = client.get(f"/api/sheets/{sid}").json()
    assert d["side_names"] == ["Ann & Cy", "Bob & Di"]
    assert d["trumps"] == ["C", "D", "H", "S"] and d["can_enter_passed"] is False
    d = client.post(
        f"/api/sheets/{sid}/entries", json={"bidder": 0, "bid": 3, "trump": "H", "tricks": [4, 2]}
    ).json()
    assert d["rows"][0]["number"] == 1


# ---------------------------------------------------------------------- over the wire


def test_websocket_frame_of_a_team_game(client: TestClient) -> None:
    seats = [{"name": n, "kind": "human"} for n in NAMES]
    t = client.post("/api/tables", json={"game": "pepper", "seats": seats}).json()
    with client.websocket_connect(f"/ws/{t['id']}") as spectator:
        dealer = first_state(spectator)["view"]["current_player"]
    seat = (dealer + 1) % 4
    with client.websocket_connect(f"/ws/{t['id']}?token={t['seats'][seat]['token']}") as ws:
        view = first_state(ws)["view"]
        assert view["side_names"] == ["Ann & Cy", "Bob & Di"] and view["partner"] == (seat + 2) % 4
        ws.send_text(json.dumps({"type": "action", "action": "deal"}))
        reply = ws.receive_json()  # the engine refuses the seat, in its own words
        assert reply["code"] == "not_your_turn"
        assert NAMES[dealer] in reply["message"] and NAMES[seat] in reply["message"]


# ---------------------------------------------------------------------- the adapters


def test_adapters_apply_only_offered_actions_for_the_seat_to_act() -> None:
    ad = DiceAdapter()
    game = ad.new({}, ["Ann", "Bob"], 3)
    with pytest.raises(NotYourTurn):
        ad.apply(game, "roll", 1)
    with pytest.raises(IllegalAction, match="not one of your choices"):
        ad.apply(game, "roll 111111", 0)  # the engine would take it; the server offers "roll"
    ad.apply(game, "roll", 0)
    assert len(game.actions) == 1
    pad = PepperAdapter()
    pgame = pad.new({}, NAMES, 3)
    dealer = pgame.current_player
    assert dealer is not None
    with pytest.raises(NotYourTurn):
        pad.apply(pgame, "deal", (dealer + 1) % 4)
    assert pad.legal_actions(pgame, (dealer + 1) % 4) == []
    assert pad.legal_actions(pgame, dealer) == ["deal"]


def test_bot_kinds_come_from_the_registries(client: TestClient) -> None:
    assert [b.key for b in adapter("dice").bot_kinds()] == list(DICE_BOTS.keys())
    assert [b.key for b in adapter("pepper").bot_kinds()] == list(PEPPER_BOTS.keys())
    page = client.get("/new/pepper").text
    for kind in PEPPER_BOTS:
        assert f'value="{kind.key}"' in page and kind.label in page
    t = client.post(
        "/api/tables",
        json={
            "game": "dice",
            "seats": [{"kind": "human", "public": True}, {"kind": "bot", "bot": "random"}],
        },
    ).json()
    lobby = client.get("/api/tables").json()
    seat = next(x for x in lobby if x["id"] == t["id"])["seats"][1]
    assert seat["bot"] == "random" and seat["bot_label"] == DICE_BOTS.kind("random").label
    # Stored tables keep working: their bot column holds registry keys; no kind: the default.
    table = adapter("dice").table({}, ["Ann", "Bob"], 1)
    for stored in ("heuristic", "random", None, "gone"):
        assert table.bot_action(0, stored, 3) in table.legal_actions(0)


# ---------------------------------------------------------------------- the scripts draw


@pytest.mark.parametrize(
    ("script", "pattern"),
    [
        ("play.js", r'" & "'),  # team names: view.side_names
        ("sheet.js", r'" & "'),
        ("play.js", r"players\s*===\s*4"),  # teams: view.teams / seat_sides / partner
        ("sheet.js", r"===\s*4"),
        ("play.js", r"leader\s*\+"),  # the last trick's seats: view.last_trick
        ("play.js", r"%\s*v\.players"),
        ("play.js", r"pfeffer_margin"),  # the stake: view.pfeffer_stake
        ("play.js", r"predecessor_result"),
        ("play.js", r"history\.forEach"),  # the sheet rows: view.sheet_rows
        ("sheet.js", r"history\.forEach"),
        ("sheet.js", r'step:\s*"\d+"'),  # the entry step: view.points_step
        ("sheet.js", r"rules\.no_trump"),  # the trumps an entry may name: trumps
        ("sheet.js", r"rules\.all_pass"),  # whether a passed hand may be entered: can_enter_passed
        ("play.js", r'"keep "\s*\+'),  # a keep's action: keep_options[].action
        ("cards.js", r"face\s*===\s*[15]"),  # scoring faces: view.single_faces
        ("play.js", r"over\s*=[^;]*phase"),  # the end: view.is_over
        # sheet-pwa: entries held offline are listed as entered, never scored in the browser
        ("sheet.js", r"scores\[[^\]]*\]\s*[-+*]?="),  # totals: the server's answer
        ("sheet.js", r"[-+*]\s*\w+\.points\b|\.points\s*[-+*]"),  # a turn's or hand's points
        ("sheet.js", r"\breduce\("),  # no sums of rows
        ("sheet.js", r"current_player\s*[-+%]"),  # the next seat: the view, after the entry
        ("sheet.js", r"rules\.pfeffer\b"),  # whether Pfeffer may be called: may_call_pfeffer
    ],
)
def test_scripts_work_out_no_rules(script: str, pattern: str) -> None:
    # "play.js" stands for every script of the live table (play.js and the game tables it loads),
    # "sheet.js" for the score sheets' (sheet.js, sheet-sync.js, sheets.js).
    files = (
        sorted(STATIC.glob("*.js"))
        if script == "play.js"
        else sorted(STATIC.glob("sheet*.js"))
        if script == "sheet.js"
        else [STATIC / script]
    )
    assert files
    text = "\n".join(f.read_text(encoding="utf-8") for f in files)
    assert not re.search(pattern, text), f"{script} works out {pattern!r} again"
