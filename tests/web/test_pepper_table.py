"""The Pepper table's frames and the one-device page (issue 8 §2), without a browser: the terms
of the bids, the contract, the hand's order and the bowers come from the engine; the one-device
page holds the human seats' tokens and nothing else; card names are translated."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.pepper import PepperGame
from pfeffer.pepper.cards import CARD_STR, bower, display_order
from pfeffer.pepper.rules import PepperRules, bid_ladder, bid_terms
from pfeffer.web.adapters.games import PepperAdapter, Table, adapter
from pfeffer.web.adapters.pepper_table import CARD_NAMES
from pfeffer.web.i18n import translations
from pfeffer.web.jsondata import jsonable
from pfeffer.web.server import js_strings

NAMES = ["Ann", "Bob", "Cy", "Di"]


def play(table: Table, choose: Any, until: Any) -> Table:
    """Apply ``choose(legal)`` for the seat to act until ``until(table)``."""
    while not until(table):
        seat = table.game.current_player
        assert seat is not None
        table = table.after(choose(table.legal_actions(seat)), seat)
    return table


def test_the_auction_frame_says_what_each_bid_means() -> None:
    table = adapter("pepper").table({}, NAMES, 5)
    table = play(table, lambda legal: legal[0], lambda t: t.game.phase == "auction")
    seat = table.game.current_player
    frame = table.view(seat)
    assert list(frame["bid_terms"]) == list(bid_ladder(4))
    for bid, terms in frame["bid_terms"].items():
        assert terms == jsonable(bid_terms(PepperRules(), 4, bid))
    assert frame["bid_terms"]["4"]["need"] == 4 and frame["bid_terms"]["big"]["set_points"] == -12
    assert frame["contract_terms"] is None and frame["must_bid"] is False
    # The other seats (and spectators) see the same terms: they explain the bubbles.
    assert table.view(None)["bid_terms"] == frame["bid_terms"]
    # After the auction: no bids to explain, the contract's terms instead.
    table = play(
        table, lambda legal: "3" if "3" in legal else legal[0], lambda t: t.game.phase != "auction"
    )
    after = table.view(None)
    assert after["bid_terms"] == {}
    assert after["contract_terms"] == jsonable(bid_terms(PepperRules(), 4, after["high_bid"]))


@pytest.mark.parametrize(("all_pass", "must"), [("last_must_bid", True), ("redeal", False)])
def test_the_last_player_must_bid_when_everyone_else_passed(all_pass: str, must: bool) -> None:
    table = adapter("pepper").table({"all_pass": all_pass}, NAMES, 2)
    table = play(table, lambda legal: legal[0], lambda t: t.game.phase == "auction")
    for _ in range(3):
        assert table.view(table.game.current_player)["must_bid"] is False
        seat = table.game.current_player
        assert seat is not None
        table = table.after("pass", seat)
    seat = table.game.current_player
    assert seat is not None
    frame = table.view(seat)
    assert frame["must_bid"] is must
    assert ("pass" in table.legal_actions(seat)) is not must


def test_the_hand_order_and_the_bowers_show_only_what_the_seat_sees() -> None:
    ad = PepperAdapter()
    game = ad.new({}, NAMES, 11)
    checked = 0
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        for viewer in (*range(4), None):
            frame = ad.view(game, viewer)
            assert frame["hand_order"] == display_order(frame["hand"], frame["trump"])
            visible = set(frame["hand"]) | {c for _, c in frame["current_trick"]}
            visible |= {c for t in frame["tricks"] for c in t["cards"]}
            assert set(frame["bowers"]) <= visible
            hidden = set(CARD_STR) - visible
            assert not hidden & set(json.dumps(frame).replace('"', " ").split())
            for card, role in frame["bowers"].items():
                assert bower(card, frame["trump"]) == role
            checked += 1
        legal = game.legal_actions()
        game.apply("2" if "2" in legal else legal[-1] if game.phase == "play" else legal[0])
    assert checked > 100


def test_a_trump_hand_names_its_bowers() -> None:
    game = PepperGame(players=4, seed=1, dealer=3)
    hands = [
        ["JH", "JD", "AH", "9C", "TS", "KD"],
        ["9D", "TD", "QD", "AD", "9H", "TH"],
        ["JC", "QH", "KH", "QC", "KC", "AC"],
        ["JS", "9S", "QS", "KS", "AS", "TC"],
    ]
    game.deal(hands)
    game.bid("small")
    for _ in range(3):
        game.pass_bid()
    game.declare("H")
    frame = PepperAdapter().view(game, 0)
    assert frame["bowers"] == {"JH": "right", "JD": "left"}
    assert frame["hand_order"] == ["JH", "JD", "AH", "TS", "KD", "9C"]
    assert PepperAdapter().view(game, 2)["bowers"] == {}


# ---------------------------------------------------------------------- the one-device page


def make_table(client: TestClient, kinds: list[str], game: str = "pepper") -> dict[str, Any]:
    seats = [{"name": n, "kind": k} for n, k in zip(NAMES, kinds, strict=False)]
    made: dict[str, Any] = client.post("/api/tables", json={"game": game, "seats": seats}).json()
    return made


def test_the_device_page_holds_the_human_seats_only(client: TestClient) -> None:
    t = make_table(client, ["human", "bot", "human", "bot"])
    page = client.get(f"/device/{t['id']}/{t['host_token']}")
    assert page.status_code == 200
    found = re.search(r'id="device-seats"[^>]*>(.*?)</script>', page.text, re.S)
    assert found is not None
    data = json.loads(found[1])
    humans = [s for s in t["seats"] if s["kind"] == "human"]
    assert data == [{"seat": s["seat"], "name": s["name"], "token": s["token"]} for s in humans]
    store = client.app.state.store  # type: ignore[attr-defined]
    for row in store.seats(t["id"]):
        if row.kind == "bot":
            assert row.token not in page.text
    assert "<script>" not in page.text and " style=" not in page.text  # no inline code (CSP)
    # Only the host's key opens it.
    assert client.get(f"/device/{t['id']}/{humans[0]['token']}").status_code == 404
    assert client.get(f"/device/{t['id']}/nosuch").status_code == 404
    assert client.get(f"/device/nosuch/{t['host_token']}").status_code == 404


def test_the_host_page_offers_the_device_with_two_humans(client: TestClient) -> None:
    two = make_table(client, ["human", "bot", "human", "bot"])
    host = client.get(two["host_url"]).text
    assert f'href="/device/{two["id"]}/{two["host_token"]}"' in host
    one = make_table(client, ["human", "bot", "bot", "bot"])
    assert "/device/" not in client.get(one["host_url"]).text
    dice = make_table(client, ["human", "human"], game="dice")
    assert f"/device/{dice['id']}/" in client.get(dice["host_url"] + "?lang=de").text
    page = client.get(f"/device/{dice['id']}/{dice['host_token']}?lang=cs").text
    assert "Jedno zařízení pro celý stůl" in page


# ---------------------------------------------------------------------- names of the cards


@pytest.mark.parametrize(
    ("lang", "pattern", "ranks"),
    [
        ("de", r"(Kreuz|Pik|Herz|Karo)-(Neun|Zehn|Bube|Dame|König|Ass)", ["B", "D", "K", "A"]),
        ("cs", r"(křížov|pikov|srdcov|károv)(á|ý|é) (devítka|desítka|kluk|dáma|král|eso)",
         ["J", "Q", "K", "A"]),
        ("en", r"(nine|ten|jack|queen|king|ace) of (clubs|spades|hearts|diamonds)",
         ["J", "Q", "K", "A"]),
    ],
)  # fmt: skip
def test_every_card_has_a_translated_name(lang: str, pattern: str, ranks: list[str]) -> None:
    strings = js_strings(translations(lang).gettext)
    names = [strings[f"card_{c}"] for c in CARD_STR]
    assert all(re.fullmatch(pattern, n) for n in names), names
    assert len(set(names)) == 24
    assert strings["rank_letters"].split() == ranks
    if lang != "en":
        english = js_strings(translations("en").gettext)
        for key in ("suit_C", "suit_H", "bid_need_team", "pass_meaning", "pass_to", "i_am"):
            assert strings[key] != english[key], key
    assert set(CARD_NAMES) == set(CARD_STR)


def test_czech_card_names_agree_in_gender() -> None:
    s = js_strings(translations("cs").gettext)
    assert [s[f"card_{c}"] for c in ("AH", "QH", "KS", "9D", "JC")] == [
        "srdcové eso",
        "srdcová dáma",
        "pikový král",
        "kárová devítka",
        "křížový kluk",
    ]
