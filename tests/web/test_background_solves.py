"""Background solves (issue 21 §1): a dice table with hints or an optimal computer player gets
its rules solved in a worker process; one solve per rules and one at a time on the machine
(flocks), progress in a JSON file the status reads, refusal of solves above an hour; the status
API for a table's and for the new-table form's rules. A tiny rule set (target 500, the bound at
10 steps through ``PFEFFER_TEST_SOLVE_LOWER``) solves in seconds."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.dice.presets import FARKLE
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import cache
from pfeffer.web.adapters import advisor, solves
from pfeffer.web.server import create_app
from pfeffer.web.services import solves as service

TINY = DiceRules(target=500).to_dict()


@pytest.fixture(autouse=True)
def background(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Solves on, an empty cache, this test's own machine lock, the tiny bound."""
    monkeypatch.setenv(service.BACKGROUND_ENV, "1")
    monkeypatch.setenv(cache.DATA_DIR_ENV, str(tmp_path / "data"))
    monkeypatch.setenv(solves.LOCK_ENV, str(tmp_path / "machine.lock"))
    monkeypatch.setenv(solves.TEST_LOWER_ENV, "10")
    advisor.forget()
    yield
    advisor.forget()


def until(check: Callable[[], Any], seconds: float = 180.0) -> Any:
    """``check()`` once it is true (polled), else the test fails."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds} s")


def lock_file(rules: dict[str, Any]) -> Path:
    return cache.cache_dir() / f"{solves.key(rules)}.lock"


def progress_file(rules: dict[str, Any]) -> Path:
    return cache.cache_dir() / f"{solves.key(rules)}.progress.json"


# ------------------------------------------------------------------------------- the adapter


def test_a_worker_solves_in_the_background_and_the_table_is_cached() -> None:
    assert solves.status(TINY)["state"] == "idle"
    assert solves.start(TINY) is True
    assert solves.start(TINY) is False or solves.status(TINY)["state"] == "ready"  # one per rules
    until(lambda: solves.status(TINY)["state"] == "ready")
    assert cache.path_for(DiceRules(target=500)).exists()
    assert not progress_file(TINY).exists()
    assert advisor.dice_strategy(DiceRules(target=500)) is not None
    assert solves.start(TINY) is False  # solved: nothing to start


def test_a_held_rules_lock_is_a_solve_under_way_and_no_second_worker_starts() -> None:
    progress_file(TINY).parent.mkdir(parents=True)
    started = time.time() - 10
    progress_file(TINY).write_text(json.dumps(
        {"state": "solving", "fraction": 0.4, "started": started, "estimate": 30.0}))  # fmt: skip
    with solves._flock(lock_file(TINY), wait=False) as held:
        assert held
        state = solves.status(TINY)
        assert state["state"] == "solving" and state["fraction"] == 0.4
        assert state["seconds"] == pytest.approx(15.0, abs=1.0)  # the pace so far: 10 s for 40%
        assert solves.start(TINY) is False
    # The lock released with the progress file left behind (a worker killed): not a solve.
    assert solves.status(TINY)["state"] == "idle"


def test_one_solve_at_a_time_on_the_machine(tmp_path: Path) -> None:
    with solves._flock(tmp_path / "machine.lock", wait=False) as held:
        assert held
        assert solves.start(TINY) is True
        until(lambda: solves.status(TINY)["state"] == "waiting", 60)
        time.sleep(1.0)
        assert solves.status(TINY)["state"] == "waiting"  # still: the machine is busy
    until(lambda: solves.status(TINY)["state"] == "ready")


def test_a_solve_of_more_than_an_hour_is_refused() -> None:
    farkle = DiceRules(**FARKLE.rules).to_dict()
    state = solves.status(farkle)
    assert state["state"] == "too_long" and state["seconds"] > 3600
    assert "one hour" in state["refusal"]
    assert solves.start(farkle) is False
    assert not lock_file(farkle).exists()


def test_a_failed_solve_is_not_started_again_for_an_hour() -> None:
    mark = cache.cache_dir() / f"{solves.key(TINY)}.failed"
    mark.parent.mkdir(parents=True)
    mark.write_text("MemoryError: \n")
    assert solves.start(TINY) is False and solves.status(TINY)["state"] == "idle"
    old = time.time() - solves.RETRY_AFTER - 1
    os.utime(mark, (old, old))
    assert not solves.failed_lately(DiceRules(target=500))


def test_shipped_rules_are_ready() -> None:
    assert solves.status(DiceRules().to_dict()) == {"state": "ready"}
    assert solves.status(DiceRules(target=5000).to_dict()) == {"state": "ready"}
    assert solves.start(DiceRules(target=5000).to_dict()) is False


# ------------------------------------------------------------------------------- the service


def test_the_service_starts_solves_only_when_a_table_wants_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert service.needs_table("dice", True, ["human"])
    assert service.needs_table("dice", False, [None, "optimal"])
    assert not service.needs_table("dice", False, [None, "heuristic"])
    assert not service.needs_table("pepper", True, [])
    monkeypatch.setenv(service.BACKGROUND_ENV, "0")
    assert not service.enabled()
    import asyncio

    assert asyncio.run(service.start(TINY)) is False
    assert not lock_file(TINY).exists()


# ------------------------------------------------------------------------------- the API


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        yield c


def form_query(rules: DiceRules) -> dict[str, str]:
    """The new-table form's fields for ``rules`` (checkboxes sent only when on)."""
    out: dict[str, str] = {}
    for name, value in rules.to_dict().items():
        if isinstance(value, bool):
            if value:
                out[name] = "on"
        elif isinstance(value, dict):
            out |= {f"{name}_{k}": str(v) for k, v in value.items()}
        elif value is not None:
            out[name] = str(value)
    return out


def test_the_status_of_the_forms_rules(client: TestClient) -> None:
    r = client.get("/api/strategy/dice/status", params=form_query(DiceRules(target=5000)))
    assert r.status_code == 200 and r.json()["state"] == "ready"
    assert r.json()["message"] == "Strategy for these rules: ready."
    r = client.get("/api/strategy/dice/status", params=form_query(DiceRules(target=6000)))
    assert r.json()["state"] == "idle"
    assert r.json()["message"].startswith("Strategy for these rules: solved when the table is")
    r = client.get("/api/strategy/dice/status", params=form_query(DiceRules(**FARKLE.rules)),
                   headers={"Accept-Language": "de"})  # fmt: skip
    assert r.json()["state"] == "too_long" and "refusal" not in r.json()
    assert "etwa 9 Stunden" in r.json()["message"]
    assert client.get("/api/strategy/dice/status", params={"target": "x"}).status_code == 400


def test_a_table_with_hints_solves_and_its_status_turns_ready(client: TestClient) -> None:
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot", "bot": "optimal"}]
    t = client.post(
        "/api/tables", json={"game": "dice", "seats": seats, "hints": True, "rules": TINY}
    ).json()
    url = f"/api/strategy/dice/status?table={t['id']}"
    first = client.get(url).json()
    assert first["state"] in ("waiting", "solving", "ready")
    if first["state"] != "ready":
        assert first["message"].startswith("Strategy for these rules")
        assert "heuristic" in first["heuristic"]
    last = until(lambda: (s := client.get(url).json())["state"] == "ready" and s)
    assert "heuristic" not in last
    assert client.get("/api/strategy/dice/status?table=nope").status_code == 404


def test_a_table_without_hints_or_optimal_player_starts_nothing(client: TestClient) -> None:
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot", "bot": "heuristic"}]
    t = client.post("/api/tables", json={"game": "dice", "seats": seats, "rules": TINY}).json()
    assert client.get(f"/api/strategy/dice/status?table={t['id']}").json()["state"] == "idle"
    assert not lock_file(TINY).exists()


def test_the_form_and_a_dice_table_carry_the_solve_note(client: TestClient) -> None:
    page = client.get("/new/dice").text
    assert 'id="solvestatus"' in page and "/static/solve-status.js" in page
    assert 'id="solvestatus"' not in client.get("/new/pepper").text
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot"}]
    t = client.post("/api/tables", json={"game": "dice", "seats": seats}).json()
    play = client.get(f"/play/{t['id']}/{t['seats'][0]['token']}").text
    assert f'id="solvestatus" class="banner inline solve-status" data-table="{t["id"]}"' in play


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "Strategy for these rules: 40%, about 20 seconds."),
     ("de", "Strategie für diese Regeln: 40 %, noch etwa 20 Sekunden."),
     ("cs", "Strategie pro tato pravidla: 40 %, ještě asi 20 sekund.")],
)  # fmt: skip
def test_the_progress_in_each_language(client: TestClient, lang: str, text: str) -> None:
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot", "bot": "optimal"}]
    rules = DiceRules(target=700).to_dict()
    os.environ[service.BACKGROUND_ENV] = "0"  # restored by the autouse fixture's monkeypatch
    t = client.post("/api/tables", json={"game": "dice", "seats": seats, "rules": rules}).json()
    progress_file(rules).parent.mkdir(parents=True, exist_ok=True)
    mark = {"state": "solving", "fraction": 0.4, "started": time.time() - 12, "estimate": 99.0}
    progress_file(rules).write_text(json.dumps(mark))
    with solves._flock(lock_file(rules), wait=False):
        got = client.get(f"/api/strategy/dice/status?table={t['id']}&lang={lang}").json()
    assert got["message"] == text
    assert got["wants"] is True and got["heuristic"]


def test_the_optimal_player_switches_once_the_table_is_there() -> None:
    """As the web's registry makes it (never solving): the heuristic while there is no table,
    the solved play from the next decision once the background solve stored it."""
    import warnings

    from pfeffer.dice import DiceGame
    from pfeffer.dice.bots import DICE_BOTS, OptimalBot
    from pfeffer.dice.solver import advise
    from pfeffer.dice.solver.solve import solve_tables

    rules = DiceRules(target=500)
    game = DiceGame(2, rules, seed=3)
    bot = DICE_BOTS.create("optimal", seed=0)
    assert isinstance(bot, OptimalBot)

    def decide() -> str:
        """The bot's choice at the next decision of more than one option."""
        while len(game.legal_actions()) < 2:
            game.apply(game.legal_actions()[0])
        choice = bot.choose(game.view(game.current_player), game.legal_actions())
        game.apply(choice)
        return choice

    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        decide()
    assert bot.fallback and bot.strategy is None
    cache.save(solve_tables(rules, lower=10))
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    view = game.view(game.current_player)
    assert decide() == advise(solve_tables(rules, lower=10), view)[0].action
    assert bot.strategy is not None and bot.strategy.rules == rules


def test_the_web_optimal_player_reads_the_table_once_for_many_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The web's optimal player (``DiceAdapter.bot_action``, a new bot per move) keeps no table
    of its own: the advisor's tables in memory serve it, so the table is read from disk once
    for a whole game, and a table solved in the background is picked up at the next move."""
    import warnings

    from pfeffer.dice import DiceGame
    from pfeffer.dice.solver import advise
    from pfeffer.dice.solver.solve import solve_tables
    from pfeffer.web.adapters.games import DiceAdapter

    reads: list[Path] = []
    real = cache._read

    def counted(path: Path, rules: DiceRules) -> Any:
        reads.append(path)
        return real(path, rules)

    monkeypatch.setattr(cache, "_read", counted)
    rules = DiceRules(target=500)
    games = [DiceGame(2, rules, seed=seed) for seed in range(3, 13)]
    dice = DiceAdapter()
    solved = None

    def move() -> bool:
        """The optimal player's choice at the next decision of an unfinished game, checked
        against the advice there once the table is solved; False when every game is over."""
        game = next((g for g in games if not g.is_over), None)
        if game is None:
            return False
        while not game.is_over and len(game.legal_actions()) < 2:
            game.apply(game.legal_actions()[0])
        if game.is_over:
            return True
        seat = game.current_player
        assert seat is not None
        choice = dice.bot_action(game, seat, "optimal", 0)
        if solved is not None:
            assert choice == advise(solved, game)[0].action  # optimal from the first move
        game.apply(choice)
        return True

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the heuristic's "no solved table" warning
        move()  # no table yet: the heuristic, nothing read
    assert reads == []
    solved = solve_tables(rules, lower=10)
    cache.save(solved)
    moves = 0
    while moves < 40 and move():
        moves += 1
    assert moves == 40 and len(reads) == 1  # read once, then kept in memory
