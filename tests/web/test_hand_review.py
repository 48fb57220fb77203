"""The review of a finished Pepper hand at the live table (issue 11 §6): ``{"type":
"hand_review", "hand": N}`` answered to the asking connection alone with the double-dummy
review of ``pfeffer.pepper.analysis.review_hand`` for the seat's side (a spectator: every side),
worded in the page's language; refused with hints off, for a hand not finished, for an all-pass
hand, at a dice table; no card in it that the seat has not seen; worked out once per side."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.pepper import PepperGame
from pfeffer.pepper.analysis import review_hand
from pfeffer.web.adapters.pepper_table import CARD_NAMES
from pfeffer.web.i18n import translations
from pfeffer.web.services import hand_reviews
from tests.web.test_hints import until

CARD = re.compile(r"^[9TJQKA][CDHS]$")
NAMES = ("Ann", "Ben", "Cy", "Dot")


def new_table(client: TestClient, players: int, hints: bool = True, **rules: Any) -> dict[str, Any]:
    seats = [{"name": NAMES[i], "kind": "human"} for i in range(players)]
    body = {"game": "pepper", "seats": seats, "hints": hints, "rules": rules}
    t: dict[str, Any] = client.post("/api/tables", json=body).json()
    return t


def choose(game: PepperGame, rng: random.Random) -> str:
    """The first seat to speak bids the lowest bid, the others pass; cards at random (so that
    some cost a trick)."""
    legal = game.legal_actions()
    if game.phase == "auction":
        if game.bidder is not None and "pass" in legal:
            return "pass"
        return next(a for a in legal if a != "pass")
    if game.phase == "play":
        return rng.choice(legal)
    return legal[0]


def live_of(client: TestClient, tid: str) -> Any:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    return client.portal.call(hub.get, tid)  # type: ignore[union-attr]


def play(client: TestClient, tid: str, *, hands: int = 1, seed: int = 1, cards: int = 0) -> Any:
    """Play on (every seat through the table service) until ``hands`` hands are over and
    ``cards`` cards of the hand on the table are played; the live table."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = live_of(client, tid)
    rng = random.Random(seed)
    while len(live.game.results) < hands or played(live.game) < cards:
        game = live.game
        seat = game.current_player
        assert seat is not None
        token = live.seats[seat].token  # the seat's own link (issue 20 §1.2)
        client.portal.call(hub.act, live, seat, choose(game, rng), token)  # type: ignore[union-attr]
    return live


def played(game: PepperGame) -> int:
    """Cards played so far in the hand on the table (0 before its first card)."""
    if game.phase != "play":
        return 0
    return sum(len(t.cards) for t in game.tricks) + len(game.current_trick)


def hand_cards(game: PepperGame, hand: int) -> set[str]:
    """The cards played to the tricks of hand number ``hand``."""
    number, out = 0, set()
    for action in game.actions:
        if action.startswith("deal"):
            number += 1
        elif number == hand and CARD.match(action):
            out.add(action)
    return out


def ask(client: TestClient, tid: str, token: str | None, hand: Any, lang: str = "en") -> Any:
    """One connection's question and its answer (a ``hand_review`` or an ``error``), and the
    raw text of every message it got."""
    url = f"/ws/{tid}?lang={lang}" + (f"&token={token}" if token else "")
    with client.websocket_connect(url) as ws:
        until(ws, "state")
        ws.send_json({"type": "hand_review", "hand": hand})
        while True:
            msg: dict[str, Any] = ws.receive_json()
            if msg["type"] in ("hand_review", "error"):
                ws.send_json({"type": "ping"})  # the connection stays open
                until(ws, "pong")
                return msg


def strings(x: Any) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for v in x.values() for s in strings(v)]
    if isinstance(x, list):
        return [s for v in x for s in strings(v)]
    return []


def expected(game: PepperGame, hand: int, seat: int, lang: str) -> dict[str, Any]:
    """What the frame says of ``seat``'s side: ``review_hand`` worded in ``lang``."""
    t = translations(lang)

    def card(code: str) -> str:
        return t.gettext(CARD_NAMES[code])

    data = review_hand(game, hand - 1, seat).to_dict(t.gettext, t.ngettext, card)
    data["lines"] = [x[:1].upper() + x[1:] for x in data["lines"]]
    return data


def first_played_hand(client: TestClient, tid: str, seed: int) -> tuple[Any, int]:
    """Play until a hand that was played out (not all passed) is over: (live, its number)."""
    live = play(client, tid, seed=seed)
    while live.game.results[-1].bidder is None:
        live = play(client, tid, hands=len(live.game.results) + 1, seed=seed)
    return live, len(live.game.results)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_gets_its_sides_review_of_a_finished_hand(client: TestClient, players: int) -> None:
    t = new_table(client, players)
    live, hand = first_played_hand(client, t["id"], seed=players)
    game: PepperGame = live.game
    for seat in range(players):
        answer = ask(client, t["id"], t["seats"][seat]["token"], hand)
        assert answer["type"] == "hand_review" and answer["hand"] == hand
        assert answer["seat"] == seat
        ((side,),) = [answer["sides"]]
        assert side["side"] == game.side_of(seat)
        want = expected(game, hand, hand_reviews.sides_of(players)[game.side_of(seat)], "en")
        assert {k: v for k, v in side.items() if k not in ("side", "name")} == want
        # Partners share the review: it is the same from either seat but for the seat field.
        mine, first = review_hand(game, hand - 1, seat), review_hand(game, hand - 1, want["seat"])
        assert (mine.best, mine.taken, mine.costly) == (first.best, first.taken, first.costly)
        assert answer["lines"] == side["lines"]
        assert answer["lines"][0].startswith("With best play your side" if players == 4
                                             else "With best play you could")  # fmt: skip
        only_seen_cards(game, hand, answer)
    only_seen_cards(game, hand, ask(client, t["id"], None, hand))  # a spectator: every side


def only_seen_cards(game: PepperGame, hand: int, answer: dict[str, Any]) -> None:
    """Nothing in the answer that the viewer has not seen: every card it names was played in
    that hand (never one of the dead hand of 2 players)."""
    assert answer["type"] == "hand_review"
    seen = hand_cards(game, hand)
    assert {s for s in strings(answer) if CARD.match(s)} <= seen
    text = json.dumps(answer, ensure_ascii=False)
    unseen = set(CARD_NAMES) - seen  # the dead hand with 2 players; none else
    assert len(unseen) == (8 if len(game.players) == 2 else 0)
    for code in unseen:
        assert f'"{code}"' not in text and CARD_NAMES[code] not in text.lower()


def test_a_spectator_gets_every_side(client: TestClient) -> None:
    t = new_table(client, 3)
    live, hand = first_played_hand(client, t["id"], seed=5)
    game: PepperGame = live.game
    answer = ask(client, t["id"], None, hand)
    assert answer["seat"] is None and answer["title"] == f"Review of hand {hand}:"
    assert [s["side"] for s in answer["sides"]] == [0, 1, 2]
    lines: list[str] = []
    for s in answer["sides"]:
        want = expected(game, hand, s["side"], "en")
        figures = {k: v for k, v in s.items() if k not in ("side", "name", "lines")}
        assert figures == {k: v for k, v in want.items() if k != "lines"}
        trick = "trick" if want["best"] == 1 else "tricks"
        first = f"{NAMES[s['side']]}: with best play {want['best']} {trick}, taken {want['taken']}"
        assert s["lines"] == [first, *want["lines"][1:]]  # "your side" is not the spectator's
        lines += s["lines"]
    assert answer["lines"] == lines


def test_four_players_spectator_sees_both_teams(client: TestClient) -> None:
    t = new_table(client, 4)
    live, hand = first_played_hand(client, t["id"], seed=7)
    answer = ask(client, t["id"], None, hand)
    assert [(s["side"], s["seat"], s["name"]) for s in answer["sides"]] == [
        (0, 0, "Ann & Cy"),
        (1, 1, "Ben & Dot"),
    ]
    for s in answer["sides"]:
        assert s["best"] == expected(live.game, hand, s["side"], "en")["best"]


def test_refusals(client: TestClient) -> None:
    t = new_table(client, 4)
    tid, token = t["id"], t["seats"][0]["token"]
    first = ask(client, tid, token, 1)  # before the first deal
    assert first == {"type": "error", "code": "hand_not_finished",
                     "message": "That hand is not finished yet."}  # fmt: skip
    live, hand = first_played_hand(client, tid, seed=3)
    play(client, tid, hands=hand, cards=2)  # the next hand is on the table: two cards played
    assert played(live.game) == 2
    on_table = len(live.game.results) + 1
    assert ask(client, tid, token, on_table)["code"] == "hand_not_finished"
    assert ask(client, tid, token, hand)["type"] == "hand_review"  # the finished one is there
    for bad in (0, -1, "1", None, True, 1.5):
        err = ask(client, tid, token, bad)
        assert err["code"] == "malformed" and err["message"] == hand_reviews.REFUSALS["malformed"]
    # German once: the refusal and (below) the review.
    de = ask(client, tid, token, on_table, lang="de")
    assert de["message"] == "Diese Runde ist noch nicht zu Ende."


def test_an_all_pass_hand_has_no_review(client: TestClient) -> None:
    t = new_table(client, 3, all_pass="redeal")
    tid = t["id"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = live_of(client, tid)
    while not live.game.results:
        game = live.game
        legal = game.legal_actions()
        action = "pass" if "pass" in legal else legal[0]
        seat = game.current_player
        token = live.seats[seat].token
        client.portal.call(hub.act, live, seat, action, token)  # type: ignore[union-attr]
    assert live.game.results[0].bidder is None
    err = ask(client, tid, t["seats"][0]["token"], 1)
    assert err["code"] == "hand_not_played"


def test_no_review_where_the_host_said_no(client: TestClient) -> None:
    t = new_table(client, 3, hints=False)
    first_played_hand(client, t["id"], seed=2)
    for token, lang in ((t["seats"][0]["token"], "en"), (None, "cs")):
        err = ask(client, t["id"], token, 1, lang=lang)
        want = (
            "Hints are off at this table." if lang == "en" else "U tohoto stolu jsou rady vypnuté."
        )
        assert err == {"type": "error", "code": "hints_off", "message": want}
    dice = client.post("/api/tables", json={"game": "dice", "hints": True, "seats": [
        {"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]}).json()  # fmt: skip
    assert ask(client, dice["id"], None, 1)["code"] == "hand_review_game"


def test_german_wording(client: TestClient) -> None:
    t = new_table(client, 4)
    live, hand = first_played_hand(client, t["id"], seed=4)
    answer = ask(client, t["id"], t["seats"][1]["token"], hand, lang="de")
    assert answer["title"] == f"Rückblick auf Runde {hand} für Ben & Dot:"
    assert answer["lines"][0].startswith("Bei bestem Spiel hätte euer Team")
    assert answer["lines"] == expected(live.game, hand, 1, "de")["lines"]
    costly = answer["sides"][0]["costly"]
    for c, line in zip(costly, answer["lines"][1:], strict=False):
        name = translations("de").gettext(CARD_NAMES[c["card"]])
        assert line.startswith(f"{name} im {c['trick']}. Stich hat ")


def test_each_side_is_worked_out_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int]] = []
    real = review_hand

    def counted(game: PepperGame, index: int, seat: int) -> Any:
        calls.append((index, seat))
        return real(game, index, seat)

    monkeypatch.setattr(hand_reviews, "review_hand", counted)
    t = new_table(client, 4)
    _, hand = first_played_hand(client, t["id"], seed=6)
    for seat in (0, 2, 0):  # partners: one review
        ask(client, t["id"], t["seats"][seat]["token"], hand)
    ask(client, t["id"], None, hand, lang="de")  # the other side is new, the first is kept
    assert calls == [(hand - 1, 0), (hand - 1, 1)]


def test_the_message_is_documented() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs/web.md").read_text()
    for word in ('{"type": "hand_review"', "hand_not_finished", "hand_not_played",
                 "hand_review_game", "static/hand-review.js"):  # fmt: skip
        assert word in text
