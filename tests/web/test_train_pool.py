"""The trainer's puzzles rated by everyone's results (issue 23): every answer is stored as an
attempt and moves the puzzle's pooled Glicko-2 rating (the puzzle playing the player), which the
player's own update plays and the page shows; the table is race-safe across processes, its
migration upgrades and downgrades, and the migrations match the models (SQLite and
PostgreSQL)."""

from __future__ import annotations

import functools
import threading
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from pfeffer.core.glicko2 import Rating, update
from pfeffer.core.trainer import PUZZLE_RD, Progress, puzzle_update
from pfeffer.dice.puzzle_set import shipped
from pfeffer.web.server import create_app
from pfeffer.web.storage.models import Base
from pfeffer.web.storage.puzzle_ratings import PuzzleRatings
from pfeffer.web.storage.repository import MIGRATIONS, make_engine, migrate
from tests.web.test_storage import url  # noqa: F401 - the SQLite / PostgreSQL fixture

BANK = next(z for z in shipped() if z.kind == "bank")
WRONG = BANK.options[1].action


def pooled(client: TestClient, puzzle: str, game: str = "dice") -> Rating:
    found: dict[str, Rating] = client.app.state.trainer.ratings.ratings(  # type: ignore[attr-defined]
        game, "", [puzzle]
    )
    return found[puzzle]


def answer(client: TestClient, given: str, progress: dict[str, Any] | None) -> dict[str, Any]:
    body = {"game": "dice", "puzzle": BANK.id, "answer": given, "progress": progress}
    r = client.post("/api/train/answer", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_two_players_both_move_the_shared_rating(client: TestClient) -> None:
    """Anna (new) and Ben (rated 1900 ± 80) answer the same puzzle right: each answer lowers
    the one pooled rating, Ben's from where Anna's left it; each player's own update plays the
    pooled rating before the answer."""
    start = Rating(float(BANK.difficulty), PUZZLE_RD)
    anna = answer(client, BANK.answer, None)
    after_anna = pooled(client, BANK.id)
    assert after_anna == puzzle_update(start, Rating(), correct=True)
    assert after_anna.rating < start.rating and anna["rating"]["puzzle"] == round(
        after_anna.rating, 1
    )
    ben_progress = Progress(game="dice", rating=Rating(1900, 80)).to_dict()
    ben = answer(client, BANK.answer, ben_progress)
    after_ben = pooled(client, BANK.id)
    assert after_ben == puzzle_update(after_anna, Rating(1900, 80), correct=True)
    assert after_ben.rating < after_anna.rating
    want = update(Rating(1900, 80), [(after_anna, 1.0)])  # Ben played the pooled rating
    assert ben["rating"]["after"] == round(want.rating, 1)
    store = client.app.state.trainer.ratings  # type: ignore[attr-defined]
    assert store.attempts("dice", "", BANK.id) == (2, 2)


def test_a_right_answer_lowers_the_puzzle_and_a_wrong_one_raises_it(client: TestClient) -> None:
    before = Rating(float(BANK.difficulty), PUZZLE_RD).rating
    answer(client, BANK.answer, None)
    lowered = pooled(client, BANK.id).rating
    assert lowered < before
    answer(client, WRONG, None)
    raised = pooled(client, BANK.id).rating
    assert raised > lowered
    assert client.app.state.trainer.ratings.attempts("dice", "", BANK.id) == (2, 1)  # type: ignore[attr-defined]


def test_the_page_shows_the_pooled_rating(client: TestClient) -> None:
    """The day's puzzle and the next puzzles show the pooled rating once somebody tried it; a
    refused answer stores nothing."""
    daily = client.get("/api/train/daily").json()
    assert daily["rating"] == next(z for z in shipped() if z.id == daily["id"]).difficulty
    given = {"game": "dice", "puzzle": daily["id"], "answer": "fly"}
    assert client.post("/api/train/answer", json=given).status_code == 400
    assert client.post("/api/train/answer", json={**given, "puzzle": "nosuch"}).status_code == 404
    assert client.app.state.trainer.ratings.ratings("dice", "") == {}  # type: ignore[attr-defined]
    z = next(z for z in shipped() if z.id == daily["id"])
    for _ in range(3):
        r = client.post("/api/train/answer", json={**given, "answer": z.options[0].action})
        assert r.status_code == 200
    now = client.get("/api/train/daily").json()["rating"]
    assert now == round(pooled(client, z.id).rating) and now < z.difficulty
    found = client.post("/api/train/next", json={"count": 20, "theme": z.themes[0]}).json()
    assert all(
        p["rating"] == BY_ID[p["id"]].difficulty for p in found["puzzles"] if p["id"] != z.id
    )


BY_ID = {z.id: z for z in shipped()}


def test_the_store_moves_the_rating_race_safe(url: str) -> None:  # noqa: F811
    """Answers to one puzzle from eight threads at once (each its own connection, as several
    server processes would be): every one is counted and moves the rating from the one before,
    on SQLite and PostgreSQL."""
    engine = make_engine(url)
    migrate(engine)
    store = PuzzleRatings(engine)
    start = Rating(1400.0, PUZZLE_RD)
    key = ("pepper", "all_pass=redeal", "p1")
    seen: list[Rating] = []
    lock = threading.Lock()

    def one(i: int) -> None:
        for j in range(5):
            correct = (i + j) % 2 == 0
            move = functools.partial(puzzle_update, player=Rating(), correct=correct)
            before, _after = store.record(key, start, correct, Rating(), move)
            with lock:
                seen.append(before)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.attempts(*key) == (40, 20)
    assert len(set(seen)) == 40  # no two answers read the same rating: none was lost
    assert set(store.ratings("pepper", "all_pass=redeal")) == {"p1"}
    assert store.ratings("pepper", "") == {} and store.ratings("dice", "all_pass=redeal") == {}
    engine.dispose()


def _config(conn: Any) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    return cfg


def test_the_migration_upgrades_and_downgrades(url: str) -> None:  # noqa: F811
    engine = make_engine(url)
    with engine.begin() as conn:
        command.upgrade(_config(conn), "0004")
    assert "puzzle_ratings" not in inspect(engine).get_table_names()
    migrate(engine)  # what the server does on start
    migrate(engine)  # and again: nothing changes
    assert {"puzzle_ratings", "puzzle_attempts"} <= set(inspect(engine).get_table_names())
    PuzzleRatings(engine).record(("dice", "", "x"), Rating(1500, 250), True, Rating(), lambda r: r)
    with engine.begin() as conn:
        command.downgrade(_config(conn), "0004")
    names = set(inspect(engine).get_table_names())
    assert not {"puzzle_ratings", "puzzle_attempts"} & names and "game_tables" in names
    migrate(engine)
    assert PuzzleRatings(engine).ratings("dice", "") == {}
    engine.dispose()


def test_the_migrations_match_the_models(url: str) -> None:  # noqa: F811
    engine = make_engine(url)
    migrate(engine)
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    engine.dispose()


def test_ratings_survive_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"
    with TestClient(create_app(db, bot_delay=0)) as c:
        answer(c, BANK.answer, None)
        first = pooled(c, BANK.id)
    with TestClient(create_app(db, bot_delay=0)) as c:
        assert pooled(c, BANK.id) == first
