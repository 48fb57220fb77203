"""The puzzle trainer's API and page (issue 23 §3, the browser): the next puzzles, an answer
checked on the server with every option's value and the explanation, the progress the page
keeps, the day's puzzle, and the refusals of bad input (400 naming the field, 404 for no such
puzzle), in the request's language."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.core.trainer import Progress
from pfeffer.dice.puzzle_set import shipped
from pfeffer.pepper.puzzle_set import shipped as pepper_shipped
from pfeffer.pepper.puzzles import PepperPuzzle
from pfeffer.web.services import trainer

BY_ID = {p.id: p for p in shipped()}


def next_puzzles(client: TestClient, **body: Any) -> list[dict[str, Any]]:
    r = client.post("/api/train/next", json=body)
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["puzzles"]
    return found


def test_next_gives_puzzles_without_their_answers(client: TestClient) -> None:
    found = next_puzzles(client, count=10)
    assert len(found) == 10 and len({p["id"] for p in found}) == 10
    for p in found:
        puzzle = BY_ID[p["id"]]
        assert p["kind"] == puzzle.kind and p["question"] == puzzle.question
        frame = p["frame"]
        assert frame["seats"][frame["seat"]]["name"] == "You"
        assert sorted(frame["legal"]) == sorted(o.action for o in puzzle.options)
        text = json.dumps(p)
        assert "win" not in json.dumps(p["frame"]["legal"])
        assert str(puzzle.options[0].win) not in text  # no value leaves with the puzzle
        assert "missed_by" not in text and '"options"' not in text


def test_next_keeps_to_a_theme_and_skips_what_the_page_has(client: TestClient) -> None:
    first = next_puzzles(client, count=5, theme="hot dice")
    assert all("hot dice" in p["themes"] for p in first)
    more = next_puzzles(client, count=5, theme="hot dice", exclude=[p["id"] for p in first])
    assert not {p["id"] for p in first} & {p["id"] for p in more}


def test_an_answer_is_checked_with_every_value_and_why(client: TestClient) -> None:
    p = next(z for z in shipped() if z.kind == "bank")
    r = client.post("/api/train/answer", json={"puzzle": p.id, "answer": p.answer})
    assert r.status_code == 200, r.text
    right = r.json()
    assert right["correct"] is True and right["best"] == p.answer and right["cost"] == 0
    assert [o["action"] for o in right["options"]] == [o.action for o in p.options]
    assert [o["win"] for o in right["options"]] == [round(o.win, 6) for o in p.options]
    assert right["lines"] and all(line[:1].isupper() for line in right["lines"])
    assert right["rating"]["after"] > right["rating"]["before"] == 1500
    assert right["streak"] == 1
    progress = Progress.from_dict(right["progress"])
    assert progress.tries == 1 and progress.right == 1 and progress.recent == (p.id,)
    # the wrong answer, with the progress the page kept: the streak ends, the puzzle comes back
    wrong_answer = p.options[1].action
    r = client.post(
        "/api/train/answer",
        json={"puzzle": p.id, "answer": wrong_answer, "progress": right["progress"]},
    )
    wrong = r.json()
    assert wrong["correct"] is False and wrong["chosen"] == wrong_answer
    assert wrong["cost"] == pytest.approx(p.margin, abs=1e-5)
    assert wrong["streak"] == 0 and wrong["rating"]["after"] < wrong["rating"]["before"]
    assert p.id in wrong["progress"]["reviews"]


def test_answers_in_other_languages(client: TestClient) -> None:
    p = next(z for z in shipped() if z.kind == "keep")
    r = client.post("/api/train/answer?lang=de", json={"puzzle": p.id, "answer": p.answer})
    body = r.json()
    assert body["options"][0]["label"].endswith("beiseitelegen")
    assert not any("Rolling" in line or "keep " in line for line in body["lines"])
    r = client.post("/api/train/next?lang=cs", json={"count": 1, "theme": "bank"})
    assert r.json()["puzzles"][0]["question"] not in ("", "Bank or roll on?")


def test_the_progress_kept_stays_small(client: TestClient) -> None:
    """However long someone trains, the progress the page sends fits the body limit."""
    for wrong in (False, True):  # every answer right, every answer wrong
        progress = None
        for p in list(shipped())[:600]:
            given = p.options[-1].action if wrong else p.answer
            progress = trainer.answer("dice", p.id, given, progress, lang="en")["progress"]
        assert progress is not None and progress["tries"] == 600
        assert len(progress["reviews"]) <= trainer.MAX_REVIEWS
        assert len(progress["puzzles"]) <= 300 + trainer.MAX_REVIEWS
        assert len(json.dumps(progress)) < 40_000


def test_the_daily_puzzle_is_the_same_all_day(client: TestClient) -> None:
    a = client.get("/api/train/daily").json()
    b = client.get("/api/train/daily?lang=de").json()
    assert (
        a["id"] == b["id"] and a["date"] == datetime.datetime.now(datetime.UTC).date().isoformat()
    )
    days = {trainer.daily("dice", datetime.date(2026, 1, d), lang="en")["id"] for d in range(1, 29)}
    assert len(days) >= 20
    home = client.get("/").text
    assert 'href="/train?game=dice&amp;daily=1"' in home and a["question"] in home
    pepper = client.get("/api/train/daily?game=pepper").json()
    assert 'href="/train?game=pepper&amp;daily=1"' in home
    assert pepper["question"].replace("'", "&#39;") in home


@pytest.mark.parametrize(
    ("path", "body", "field", "words"),
    [
        ("next", {"count": 0}, "count", "at least 1"),
        ("next", {"count": 21}, "count", "at most 20"),
        ("next", {"count": "3"}, "count", "whole number"),
        ("next", {"game": "chess"}, "game", "dice"),
        ("next", {"exclude": "abc"}, "exclude", "a list"),
        ("next", {"theme": "luck"}, None, "no such theme"),
        ("next", {"progress": {"game": "dice"}}, None, "not the trainer's progress"),
        ("next", {"progress": [1, 2]}, "progress", "an object"),
        ("answer", {"answer": "bank"}, "puzzle", "needed"),
        ("answer", {"puzzle": "x" * 41, "answer": "bank"}, "puzzle", "at most 40"),
        ("answer", {"puzzle": "PUZZLE", "answer": "keep 666"}, None, "not one of the options"),
        ("answer", {"puzzle": "PUZZLE", "answer": "fly"}, None, "is not an action"),
        ("answer", {"puzzle": "PUZZLE", "answer": 3}, "answer", "a text"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(
    client: TestClient, path: str, body: dict[str, Any], field: str | None, words: str
) -> None:
    bank = next(z for z in shipped() if z.kind == "bank")
    body = {k: bank.id if v == "PUZZLE" else v for k, v in body.items()}
    r = client.post(f"/api/train/{path}", json=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["detail"], r.json()
    assert r.json().get("field") == field


def test_refusals_are_translated_and_no_puzzle_is_404(client: TestClient) -> None:
    r = client.post("/api/train/answer?lang=de", json={"puzzle": "nosuch", "answer": "bank"})
    assert r.status_code == 404 and "Aufgabe" in r.json()["detail"]
    r = client.post("/api/train/next?lang=cs", json={"count": 0})
    assert r.status_code == 400 and r.json()["detail"] == "count: nejméně 1."
    other = Progress(game="pepper").to_dict()
    r = client.post("/api/train/next?lang=en", json={"progress": other})
    assert r.status_code == 400 and "not of dice" in r.json()["detail"]
    bad = {**Progress(game="dice").to_dict(), "rating": [1500, -1, 0.06]}
    r = client.post("/api/train/next", json={"progress": bad})
    assert r.status_code == 400 and "out of range" in r.json()["detail"]


@pytest.mark.parametrize("lang", ["en", "de", "cs"])
def test_the_page_and_the_header_link(client: TestClient, lang: str) -> None:
    r = client.get(f"/train?lang={lang}")
    assert r.status_code == 200
    label = {"en": "Train", "de": "Training", "cs": "Úlohy"}[lang]
    assert f'<a href="/train" class="train-link">{label}</a>' in r.text
    assert '<script src="/static/train.js"></script>' in r.text
    assert 'option value="hot dice"' in r.text
    for page in ("/", "/sheets", "/rules/dice"):
        assert f'class="train-link">{label}</a>' in client.get(f"{page}?lang={lang}").text


def test_the_service_worker_keeps_the_trainer(client: TestClient) -> None:
    sw = client.get("/sw.js").text
    kept = ("/train", "/static/train.js", "/static/train.css", "/static/dice-table.js",
            "/static/pepper-table.js", "/static/pepper-table.css")  # fmt: skip
    for url in kept:
        assert f'"{url}"' in sw
    assert '"/api/' not in sw


# ------------------------------------------------------------------ Pepper

PEPPER = {p.id: p for p in pepper_shipped()}


def hidden_cards(puzzle: PepperPuzzle) -> set[str]:
    """The cards the player to act cannot see: the other hands (and a 2-player game's dead
    hand), unless the puzzle shows every hand."""
    game = puzzle.game()
    seat = puzzle.seat
    seen = set(game.hand(seat))
    every = {c for s in range(len(game.players)) for c in game.hand(s)}
    dead = set(game.dead_hand())
    return (every | dead) - seen


@pytest.mark.parametrize("kind", ["card", "bid", "trump"])
def test_no_hidden_pepper_card_leaves_with_a_view_puzzle(client: TestClient, kind: str) -> None:
    """A view-only puzzle's frame holds the player's own hand and what was played, never a
    card of another hand (every puzzle of the kind the server hands out, 60 of them)."""
    found = next_puzzles(client, game="pepper", count=20, theme=kind)
    found += next_puzzles(client, game="pepper", count=20, theme=kind,
                          exclude=[p["id"] for p in found])  # fmt: skip
    assert len(found) >= 20
    for p in found:
        puzzle = PEPPER[p["id"]]
        assert p["kind"] == kind
        hidden = hidden_cards(puzzle)
        assert hidden
        text = json.dumps(p)
        leaked = {c for c in hidden if f'"{c}"' in text}
        assert not leaked, (p["id"], leaked)
        assert "all_hands" not in p["frame"]["view"]


def test_an_open_card_puzzle_shows_every_hand_and_is_answered(client: TestClient) -> None:
    body = {"game": "pepper", "count": 1, "theme": "open"}
    p = next_puzzles(client, **body)[0]
    puzzle = PEPPER[p["id"]]
    seat = puzzle.seat
    shown = p["frame"]["view"]["all_hands"]
    hands = puzzle.hands()
    assert [sorted(h) for s, h in enumerate(shown) if s != seat] == [
        sorted(h) for s, h in enumerate(hands) if s != seat
    ]
    assert sorted(p["frame"]["view"]["hand"]) == sorted(hands[seat])
    assert p["question"].startswith("All hands shown: play to take")
    wrong = next(o.action for o in puzzle.options if o.action not in puzzle.answers)
    r = client.post("/api/train/answer", json={"game": "pepper", "puzzle": puzzle.id,
                                               "answer": wrong})  # fmt: skip
    body = r.json()
    assert r.status_code == 200 and body["correct"] is False and body["unit"] == "tricks"
    assert body["hands"] == hands and set(body["answers"]) == set(puzzle.answers)
    right = client.post("/api/train/answer", json={"game": "pepper", "puzzle": puzzle.id,
                                                   "answer": puzzle.answers[-1]})  # fmt: skip
    assert right.json()["correct"] is True


@pytest.mark.parametrize("kind", ["card", "bid", "trump", "open"])
def test_pepper_answers_in_words_and_in_german(client: TestClient, kind: str) -> None:
    puzzle = next(z for z in pepper_shipped() if z.kind == kind)
    given = {"game": "pepper", "puzzle": puzzle.id, "answer": puzzle.answer}
    r = client.post("/api/train/answer?lang=de", json=given)
    body = r.json()
    assert r.status_code == 200 and body["correct"] is True
    assert [o["action"] for o in body["options"]] == [o.action for o in puzzle.options]
    assert [o["win"] for o in body["options"]] == [o.value for o in puzzle.options]
    assert all(o["label"] != o["action"] or o["action"].isdigit() for o in body["options"])
    assert body["lines"] and not any("scores" in line or "tricks" in line for line in body["lines"])
    progress = Progress.from_dict(body["progress"])
    assert progress.game == "pepper" and progress.tries == 1
    # a dice progress is not a Pepper one
    r = client.post(
        "/api/train/answer", json={**given, "progress": Progress(game="dice").to_dict()}
    )
    assert r.status_code == 400 and "not of pepper" in r.json()["detail"]


def test_the_page_offers_both_games(client: TestClient) -> None:
    r = client.get("/train")
    assert '<select id="game">' in r.text and 'data-game="pepper"' in r.text
    assert '<script src="/static/pepper-table.js"></script>' in r.text
    assert client.get("/api/train/daily?game=pepper").status_code == 200


def test_every_theme_offered_has_puzzles() -> None:
    """Every theme the page's picker or a terminal trainer's ``--theme`` offers has a puzzle
    (the "forced bid" puzzles are made on purpose: the levels seldom all pass)."""
    from pfeffer.dice.puzzles import THEMES as DICE_THEMES
    from pfeffer.pepper.puzzles import THEMES as PEPPER_THEMES

    sets: dict[str, set[str]] = {
        "dice": {t for p in shipped() for t in p.themes},
        "pepper": {t for p in pepper_shipped() for t in p.themes},
    }
    offered = {"dice": set(DICE_THEMES), "pepper": set(PEPPER_THEMES)}
    for game in trainer.GAMES:
        offered[game] |= {t["key"] for t in trainer.theme_list(game, "en")}
    for game, have in sets.items():
        assert offered[game] <= have, (game, offered[game] - have)


def test_house_rules_with_a_solved_table(client: TestClient) -> None:
    """The Short game ships its solved table: the page offers it, its puzzles are made on the
    server from that table (the target is 5,000) and answered there; rules without a table
    are refused."""
    from pfeffer.web.adapters import puzzles as adapter

    assert "short" in {k for k, _ in adapter.rulesets("dice")}
    assert 'data-rules="short"' in client.get("/train").text
    r = client.post("/api/train/next", json={"game": "dice", "rules": "short", "count": 3})
    assert r.status_code == 200, r.text
    found = r.json()["puzzles"]
    assert len(found) == 3 and r.json()["rules"] == "short"
    pool = {p.id: p for p in adapter.puzzles("dice", "short")}
    assert all(p["id"] in pool and p["id"] not in BY_ID for p in found)
    assert all(p.rules.target == 5000 for p in pool.values())
    z = pool[found[0]["id"]]
    body = {"game": "dice", "rules": "short", "puzzle": z.id, "answer": z.answer}
    r = client.post("/api/train/answer", json=body)
    assert r.status_code == 200 and r.json()["correct"], r.text
    assert client.post("/api/train/answer", json={**body, "rules": ""}).status_code == 404
    r = client.post("/api/train/next", json={"game": "dice", "rules": "nosuch"})
    assert r.status_code == 400 and "rules" in r.text


@pytest.mark.parametrize(("lang", "seat"), [("de", "Rechts"), ("cs", "Vpravo")])
def test_the_seat_right_is_a_seat_not_a_verdict(lang: str, seat: str) -> None:
    """The Pepper seat "Right" is drawn as a seat name (it was "Richtig"/"Správně", the
    verdict, through the same msgid)."""
    from pfeffer.web.adapters.puzzles import puzzle_view
    from pfeffer.web.i18n import translations

    puzzle = next(p for p in pepper_shipped() if "Right" in p.game().players)
    names = [s["name"] for s in puzzle_view(puzzle, translations(lang).gettext)["frame"]["seats"]]
    assert seat in names
    assert not {"Richtig", "Správně"} & set(names)


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_the_score_pad_s_sides_are_named_in_the_language(lang: str) -> None:
    """A four-player Pepper puzzle's score pad heads its columns with the sides' names in the
    page's language ("Left & Right" was English on the German page)."""
    from pfeffer.web.adapters.puzzles import puzzle_view
    from pfeffer.web.i18n import translations

    t = translations(lang).gettext
    puzzle = next(p for p in pepper_shipped() if len(p.game().players) == 4)
    view = puzzle_view(puzzle, t)["frame"]["view"]
    english = {"Left", "Right", "You", "Opponent"}
    assert all(" & " in side for side in view["side_names"])
    named = [n for side in view["side_names"] for n in side.split(" & ")] + view["players"]
    assert not english & set(named), named
    assert t("Left") in named and t("Right") in named
