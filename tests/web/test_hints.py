"""The hint over the WebSocket (issue 10 §4, issue 11 §6): ``{"type": "hint"}`` answered to the
asking connection alone, from that seat's view only; dice: every legal option with its win %,
best first, as the solver values it; rules without a solved table: "no hint for these rules
yet"; Pepper: the expert's action and a reason; refusals (hints off, spectators, not your turn)
as translated error frames."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.solver import advise
from pfeffer.pepper import PepperGame
from pfeffer.pepper.analysis import REASONS
from pfeffer.web.adapters import advisor
from pfeffer.web.i18n import translations
from pfeffer.web.jsondata import jsonable
from pfeffer.web.server import create_app
from pfeffer.web.services.hints import hint_seed


@pytest.fixture
def client(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app with an empty solver cache (only the package's default table is there)."""
    monkeypatch.setenv("PFEFFER_DATA_DIR", str(tmp_path / "data"))
    advisor.forget()
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        yield c
    advisor.forget()


def humans(n: int) -> list[dict[str, str]]:
    return [{"name": f"P{i}", "kind": "human"} for i in range(n)]


def new_table(client: TestClient, game: str, n: int, **body: Any) -> dict[str, Any]:
    t: dict[str, Any] = client.post(
        "/api/tables", json={"game": game, "seats": humans(n), "hints": True, **body}
    ).json()
    return t


def until(ws: Any, kind: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read until a message of type ``kind``: (it, the messages before it)."""
    before: list[dict[str, Any]] = []
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg, before
        before.append(msg)


def live_game(client: TestClient, tid: str) -> Any:
    return client.app.state.hub.lives[tid].game  # type: ignore[attr-defined]


def test_dice_hint_lists_every_legal_option_best_first(client: TestClient) -> None:
    t = new_table(client, "dice", 2)  # the default rules: their table ships with the package
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with (
        client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as ws0,
        client.websocket_connect(f"/ws/{tid}?token={tokens[1]}") as ws1,
    ):
        socks = [ws0, ws1]
        until(ws0, "state")
        ws0.send_json({"type": "hint"})  # before the first throw: roll is all there is
        first, _ = until(ws0, "hint")
        assert [o["action"] for o in first["options"]] == ["roll"] and first["best"] == "roll"
        assert first["options"][0]["kind"] == "roll" and first["options"][0]["dice"] == 6
        for _ in range(60):  # the seats roll and bank until seat 0 has a scoring throw
            game: DiceGame = live_game(client, tid)
            if game.current_player == 0 and game.phase == "keep":
                break
            seat, legal, version = game.current_player, game.legal_actions(), hub.lives[tid].version
            assert seat is not None
            action = "roll" if "roll" in legal else "bank" if "bank" in legal else legal[0]
            socks[seat].send_json({"type": "action", "action": action, "version": version})
            for ws in socks:
                while until(ws, "state")[0]["version"] <= version:
                    pass
        ws0.send_json({"type": "sync"})
        state, _ = until(ws0, "state")
        ws0.send_json({"type": "hint", "version": state["version"]})
        answer, _ = until(ws0, "hint")
        game = live_game(client, tid)  # while seated: a table nobody is at leaves memory
    assert answer["version"] == state["version"] and answer["seat"] == 0
    assert sorted(o["action"] for o in answer["options"]) == sorted(state["legal"])
    wins = [o["win"] for o in answer["options"]]
    assert wins == sorted(wins, reverse=True) and answer["best"] == answer["options"][0]["action"]
    strategy = advisor.dice_strategy(game.rules)
    assert strategy is not None
    want = {a.action: a.win_probability for a in advise(strategy, game)}
    assert {o["action"]: o["win"] for o in answer["options"]} == pytest.approx(want, abs=1e-12)
    keeps = {o["action"]: o for o in state["view"]["keep_options"]}
    for o in answer["options"]:
        assert o["kind"] == "keep" and o["dice"] == keeps[o["action"]]["dice"]
        assert o["points"] == keeps[o["action"]]["points"]
        assert o["total"] == state["view"]["turn_total"] + o["points"]


def test_the_answer_goes_to_the_asking_connection_only(client: TestClient) -> None:
    t = new_table(client, "dice", 2)
    other = t["seats"][1]["token"]
    with client.websocket_connect(f"/ws/{t['id']}?token={other}") as ws1:
        until(ws1, "state")
        with client.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws0:
            until(ws0, "state")
            ws0.send_json({"type": "hint"})
            until(ws0, "hint")
            ws1.send_json({"type": "ping"})
            _, before = until(ws1, "pong")
            assert before and all(m["type"] == "state" for m in before)
            # Not the seat's turn: refused, and the page says why.
            ws1.send_json({"type": "hint"})
            err, _ = until(ws1, "error")
            assert err["code"] == "hint_not_your_turn"
            assert err["message"] == "A hint is for your own turn."
    with client.websocket_connect(f"/ws/{t['id']}?lang=de") as spectator:
        until(spectator, "state")
        spectator.send_json({"type": "hint"})
        err, _ = until(spectator, "error")
        assert (
            err["code"] == "hint_spectator" and err["message"] == "Zuschauer bekommen keine Tipps."
        )


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "Hints are off at this table."), ("cs", "U tohoto stolu jsou rady vypnuté.")],
)
def test_no_hint_where_the_host_said_no(client: TestClient, lang: str, text: str) -> None:
    t = new_table(client, "pepper", 2, hints=False)
    with client.websocket_connect(
        f"/ws/{t['id']}?lang={lang}&token={t['seats'][0]['token']}"
    ) as ws:
        until(ws, "state")
        ws.send_json({"type": "hint"})
        err, _ = until(ws, "error")
        assert err == {"type": "error", "code": "hints_off", "message": text}
        ws.send_json({"type": "ping"})  # the connection stays open
        until(ws, "pong")


@pytest.mark.parametrize(
    ("n", "rules", "none", "de"),
    [
        (2, {"target": 1000}, "unsolved", "Noch kein Tipp für diese Regeln"),
        (3, {"target": 1000}, "unsolved", "Noch kein Tipp für diese Regeln"),
    ],
)
def test_no_dice_hint_without_a_solved_table(
    client: TestClient, n: int, rules: dict[str, int], none: str, de: str
) -> None:
    t = new_table(client, "dice", n, rules=rules)
    with client.websocket_connect(f"/ws/{t['id']}?lang=de&token={t['seats'][0]['token']}") as ws:
        until(ws, "state")
        ws.send_json({"type": "hint"})
        answer, _ = until(ws, "hint")
    assert answer["none"] == none and answer["options"] == [] and answer["best"] is None
    assert de in answer["message"]


@pytest.mark.parametrize("n", [3, 4])
def test_more_than_two_players_get_the_approximation_said_so(client: TestClient, n: int) -> None:
    """Issue 21 §1: the two-player table against the strongest opponent (method="approx")."""
    t = new_table(client, "dice", n)
    with client.websocket_connect(f"/ws/{t['id']}?lang=en&token={t['seats'][0]['token']}") as ws:
        until(ws, "state")
        ws.send_json({"type": "hint"})
        answer, _ = until(ws, "hint")
    assert answer["none"] is None and answer["best"] == "roll"
    assert [o["action"] for o in answer["options"]] == ["roll"]
    assert answer["reason"].startswith(f"An approximation for {n} players")


def test_unsolved_rules_are_never_solved_by_the_server(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pfeffer.dice import solver

    def boom(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the server must not solve")

    monkeypatch.setattr(solver, "solve", boom)
    monkeypatch.setattr(solver, "solve_tables", boom)
    assert advisor.dice_strategy(DiceRules(target=1000)) is None
    assert advisor.dice_strategy(DiceRules()) is not None  # the shipped table: loaded, not solved


def cards_of(view: Any) -> set[str]:
    """Every card string anywhere in a view's JSON."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            found.add(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(jsonable(view))
    return found


def test_pepper_hint_is_the_experts_choice_from_the_seats_view(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = new_table(client, "pepper", 4)
    tokens = [s["token"] for s in t["seats"]]
    seen: list[tuple[Any, list[str]]] = []
    real = advisor.pepper_hint

    def spy(view: Any, legal: Any, seed: int) -> tuple[str, str, dict[str, Any]]:
        seen.append((view, list(legal)))
        return real(view, legal, seed)

    monkeypatch.setattr(advisor, "pepper_hint", spy)
    with client.websocket_connect(f"/ws/{t['id']}?token={tokens[0]}") as ws0:
        state, _ = until(ws0, "state")
        dealer = state["view"]["current_player"]
        with client.websocket_connect(f"/ws/{t['id']}?token={tokens[dealer]}") as wd:
            until(wd, "state")
            wd.send_json({"type": "action", "action": "deal"})
            until(wd, "state")
        game: PepperGame = live_game(client, t["id"])
        seat = game.current_player
        assert seat is not None
    with client.websocket_connect(f"/ws/{t['id']}?lang=de&token={tokens[seat]}") as ws:
        state, _ = until(ws, "state")
        ws.send_json({"type": "hint"})
        answer, _ = until(ws, "hint")
    assert answer["best"] in state["legal"] and answer["seat"] == seat
    # The expert's reason (pfeffer.pepper.analysis), in the page's language, as a sentence.
    german = [translations("de").gettext(r) for r in REASONS]
    assert answer["reason"] in {g[:1].upper() + g[1:] for g in german}
    ((view, legal),) = seen
    assert view == game.view(seat) and legal == game.legal_actions()
    hidden = {c for s in range(4) if s != seat for c in game.hand(s)}
    assert not hidden & cards_of(view)  # never more than the seat may see
    again = advisor.pepper_answer(
        game.view(seat), legal, hint_seed(t["id"], state["version"], seat)
    )
    assert again.best == answer["best"]


def swapped_deal(deal: str, a: int, b: int) -> str:
    hands = deal.removeprefix("deal ").split(" / ")
    hands[a], hands[b] = hands[b], hands[a]
    return "deal " + " / ".join(hands)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pepper_hint_depends_on_the_seats_view_alone(players: int) -> None:
    """Two deals that differ only in cards the seat cannot see give the same hint."""
    g = PepperGame(players=players, seed=11, dealer=0)
    g.apply("deal")
    seat = g.current_player
    assert seat is not None
    others = [s for s in range(players) if s != seat]
    h = PepperGame(players=players, seed=11, dealer=0)
    if players == 2:  # the other seat's hand and the dead hand (the deal's third) change places
        h.apply(swapped_deal(g.actions[0], others[0], 2))
    else:
        h.apply(swapped_deal(g.actions[0], others[0], others[1]))
    assert h.hand(seat) == g.hand(seat) and h.hand(others[0]) != g.hand(others[0])
    assert h.view(seat) == g.view(seat)
    one = advisor.pepper_answer(g.view(seat), g.legal_actions(), seed=5)
    two = advisor.pepper_answer(h.view(seat), h.legal_actions(), seed=5)
    assert one == two and one.best in g.legal_actions()


def test_the_hint_message_is_documented() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs/web.md").read_text()
    for word in ('{"type": "hint"', "hints_off", "hint_spectator", "hint_not_your_turn"):
        assert word in text


def test_a_slow_hint_holds_up_nobody(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint is worked out off the event loop: while one takes a second, another table's
    connection is answered at once."""
    import time

    from pfeffer.web.services import hints as hint_service

    real = hint_service.hint  # type: ignore[attr-defined]

    def slow(*args: Any) -> Any:
        time.sleep(1.5)
        return real(*args)

    monkeypatch.setattr(hint_service, "hint", slow)
    t = new_table(client, "dice", 2)
    other = new_table(client, "dice", 2)
    with (
        client.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws,
        client.websocket_connect(f"/ws/{other['id']}?token={other['seats'][0]['token']}") as ws2,
    ):
        until(ws, "state")
        until(ws2, "state")
        start = time.monotonic()
        ws.send_json({"type": "hint"})
        ws2.send_json({"type": "ping"})
        until(ws2, "pong")
        assert time.monotonic() - start < 1.0  # not after the slow hint
        answer, _ = until(ws, "hint")
        assert answer["best"] == "roll" and time.monotonic() - start >= 1.5
