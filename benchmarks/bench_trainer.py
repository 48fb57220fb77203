"""The puzzle trainer's API (issue 23, the browser): how long the server takes for the next ten
puzzles (what the page asks for to keep ten ahead) and for checking an answer.

    .venv/bin/python benchmarks/bench_trainer.py [--game dice|pepper] [--runs N] [--tries T]
        [--json FILE] [--db URL]
    .venv/bin/python benchmarks/bench_trainer.py --house all_pass=redeal [--db URL]

The app runs in process (FastAPI's TestClient: every middleware, no network); the player sends
a progress of T tries (the default 300: a full list of recent puzzles and their ratings, the
largest the page sends). Each figure is the wall time of one request, median and p90 over N
runs, after one warm-up request (the puzzle set is read once per process): through the app
(HTTP: the body read and checked, JSON both ways) and the service alone
(``services/trainer.py``: picking, drawing the frames, checking, the rating). The machine is
noisy; quote medians, run twice. An answer through the app stores the attempt and moves the
puzzle's pooled rating (one transaction on the database of ``--db``, default a fresh SQLite
file); the service alone does not.

``--house RULE``: the Pepper house rule's puzzles made by the server (a worker process), timed
from the first ``next`` until they come (asking every 0.5 s), while the day's puzzle is asked
every 0.1 s to show the event loop is not held (its median and worst time).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

warnings.filterwarnings("ignore", category=DeprecationWarning)


def progress_of(game: str, tries: int, seed: int = 1) -> dict[str, Any] | None:
    """The progress after ``tries`` answers, two in three right (as the page would keep it)."""
    from pfeffer.web.adapters.puzzles import puzzles as shipped
    from pfeffer.web.services import trainer

    rng = random.Random(seed)
    progress = None
    puzzles = shipped(game)
    for _ in range(tries):
        p = rng.choice(puzzles)
        given = p.answer if rng.random() < 2 / 3 else p.options[-1].action
        progress = trainer.answer(game, p.id, given, progress, lang="en")["progress"]
    return progress


def timed(call: Any) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("dice", "pepper"), default="dice")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--tries", type=int, default=300)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--db", help="the app's database (default: a fresh SQLite file)")
    parser.add_argument("--house", help="time a Pepper house rule's puzzles being made")
    args = parser.parse_args()
    if args.house:
        house(args.house, args.db)
        return

    from fastapi.testclient import TestClient

    from pfeffer.web.server import create_app

    game = args.game
    progress = progress_of(game, args.tries)
    body_bytes = len(json.dumps(progress))
    with (
        tempfile.TemporaryDirectory() as tmp,
        TestClient(create_app(args.db or f"sqlite:///{tmp}/b.db")) as c,
    ):

        def ahead() -> list[dict[str, Any]]:
            r = c.post("/api/train/next", json={"game": game, "count": 10, "progress": progress})
            assert r.status_code == 200, r.text
            found: list[dict[str, Any]] = r.json()["puzzles"]
            return found

        puzzles = ahead()  # warm-up: the puzzle set is read once
        nexts = [timed(ahead) for _ in range(args.runs)]
        answers = []
        for i in range(args.runs):
            p = puzzles[i % len(puzzles)]
            body = {
                "game": game,
                "puzzle": p["id"],
                "answer": p["frame"]["legal"][0],
                "progress": progress,
            }
            answers.append(timed(lambda body=body: c.post("/api/train/answer", json=body)))
        size = len(
            c.post(
                "/api/train/next", json={"game": game, "count": 10, "progress": progress}
            ).content
        )

    from pfeffer.web.services import trainer

    service_next = [
        timed(lambda: trainer.next_puzzles(game, progress, lang="en", count=10))
        for _ in range(args.runs)
    ]
    service_answer = []
    for i in range(args.runs):
        p = puzzles[i % len(puzzles)]
        given = p["frame"]["legal"][0]
        pid = p["id"]
        service_answer.append(
            timed(
                lambda pid=pid, given=given: trainer.answer(game, pid, given, progress, lang="en")
            )
        )

    def summary(xs: list[float]) -> dict[str, float]:
        xs = sorted(xs)
        return {"median": round(statistics.median(xs), 1), "p90": round(xs[int(0.9 * len(xs))], 1)}

    result = {
        "game": game,
        "runs": args.runs,
        "tries": args.tries,
        "progress_bytes": body_bytes,
        "next10_bytes": size,
        "next10_ms": summary(nexts),
        "answer_ms": summary(answers),
        "service_next10_ms": summary(service_next),
        "service_answer_ms": summary(service_answer),
    }
    print(
        f"{game}: progress sent: {body_bytes} bytes ({args.tries} tries); ten puzzles: {size} bytes"
    )
    print(f"next 10 puzzles: median {result['next10_ms']['median']} ms, "
          f"p90 {result['next10_ms']['p90']} ms")  # fmt: skip
    print(f"an answer:       median {result['answer_ms']['median']} ms, "
          f"p90 {result['answer_ms']['p90']} ms")  # fmt: skip
    print(f"the service alone: next 10 median {result['service_next10_ms']['median']} ms, "
          f"an answer median {result['service_answer_ms']['median']} ms")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


def house(rule: str, db: str | None) -> None:
    """How long the server takes to make a Pepper house rule's puzzles, and the day's puzzle's
    time meanwhile."""
    import threading

    from fastapi.testclient import TestClient

    from pfeffer.web.server import create_app

    with (
        tempfile.TemporaryDirectory() as tmp,
        TestClient(create_app(db or f"sqlite:///{tmp}/h.db")) as c,
    ):
        c.get("/api/train/daily?game=pepper")  # warm-up
        done = threading.Event()
        daily: list[float] = []

        def poll() -> None:
            while not done.is_set():
                daily.append(timed(lambda: c.get("/api/train/daily?game=pepper")))
                time.sleep(0.1)

        t = threading.Thread(target=poll)
        start = time.perf_counter()
        t.start()
        asked = 0
        while True:
            asked += 1
            body = {"game": "pepper", "rules": rule, "count": 10}
            r = c.post("/api/train/next", json=body).json()
            if not r.get("preparing"):
                break
            time.sleep(0.5)
        took = time.perf_counter() - start
        done.set()
        t.join()
        from pfeffer.web.adapters.puzzles import puzzles

        n = len(puzzles("pepper", rule))
    daily.sort()
    print(f"{rule}: {n} puzzles ready after {took:.1f} s ({asked} requests of next); the day's "
          f"puzzle meanwhile: median {statistics.median(daily):.1f} ms, worst "
          f"{daily[-1]:.1f} ms over {len(daily)} requests")  # fmt: skip


if __name__ == "__main__":
    main()
