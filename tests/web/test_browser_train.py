"""The puzzle trainer in a browser (issue 23 §3): a puzzle of each kind (dice: set-aside, bank
or roll, Pfeffer; Pepper: card, bid, trump, open cards) answered right and wrong on the games'
own table drawing, by tapping the dice or cards and with the keys at 1280 px and by touch on a
390 px phone; the feedback lists exactly the puzzle's options (dice: with the solver's
chances); a view-only Pepper puzzle shows no other hand, an open one every hand; the progress
survives a reload; the German page from the home page's daily puzzle; and the page after it
was loaded once, offline: the puzzles kept ahead go on, the answers wait and are checked when
the connection is back. No CSP violation. Screenshots: tests/web/screenshots/train-*.png."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pfeffer.dice.puzzle_set import shipped
from pfeffer.dice.puzzles import DicePuzzle
from pfeffer.pepper.puzzle_set import shipped as pepper_shipped
from pfeffer.pepper.puzzles import PepperPuzzle
from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess, free_port
from tests.web.test_browser_faults import CSP_LISTENER

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"
)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
BY_ID = {p.id: p for p in shipped()}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    path: Path = tmp_path_factory.mktemp("train") / "train.db"
    s = ServerProcess(f"sqlite:///{path}", free_port())
    s.start()
    yield s
    s.stop()


def open_train(browser: Any, srv: ServerProcess, device: dict[str, Any], query: str = "") -> Any:
    ctx = browser.new_context(**device)
    ctx.add_init_script(CSP_LISTENER)
    page = ctx.new_page()
    page.goto(srv.base + "/train" + query)
    page.wait_for_selector("#train[data-state=asking]")
    return page


def choose_theme(page: Any, theme: str) -> DicePuzzle:
    page.select_option("#theme", theme)
    page.wait_for_function(
        f"() => {{ const r = document.getElementById('train'); return r.dataset.state === "
        f"'asking' && (r.dataset.kind === '{theme}' || '{theme}' === ''); }}"
    )
    return current(page)


def current(page: Any) -> DicePuzzle:
    return BY_ID[page.get_attribute("#train", "data-puzzle")]


def answer(page: Any, puzzle: DicePuzzle, action: str, *, touch: bool, keys: bool) -> None:
    """Give ``action`` as a player would: tap the dice of a set-aside and press Roll (or R),
    or press the button (B, R for bank and roll)."""
    press = page.tap if touch else page.click
    if action.startswith("keep "):
        faces = [int(f) for f in action[5:]]
        roll = puzzle.view().roll
        assert roll is not None
        used: list[int] = []
        for f in faces:
            pos = next(i for i, r in enumerate(roll) if r == f and i not in used)
            used.append(pos)
            press(f'#board .die-btn[data-pos="{pos}"]')
        if keys:
            page.keyboard.press("r")
        else:
            press('#actions [data-then="roll"]')
    elif keys and action in ("bank", "roll"):
        page.keyboard.press(action[0])
    else:
        press(f'#actions [data-action="{action}"]')
    page.wait_for_selector("#train[data-state=answered]")


def percent(x: float, lang: str) -> str:
    """``x`` as a percentage as the page's language writes it ("29.7%"; "29,7 %" in German
    and Czech, with a no-break space)."""
    text = f"{math.floor(x * 1000 + 0.5) / 10:.1f}"  # the page's Math.round(x * 1000) / 10
    return f"{text}%" if lang == "en" else f"{text.replace('.', ',')}\u00a0%"


def check_feedback(page: Any, puzzle: DicePuzzle, action: str) -> None:
    right = action == puzzle.answer
    page.wait_for_selector(".verdict." + ("right" if right else "wrong"))
    wins = page.locator(".optionlist li .win").all_inner_texts()
    assert wins == [percent(o.win, page.evaluate("document.documentElement.lang"))
                    for o in puzzle.options]  # fmt: skip
    assert page.locator(".optionlist li.best").count() == 1
    assert page.locator(".optionlist li.chosen").count() == 1
    assert page.locator(".feedback .why").count() >= 1
    assert page.is_visible("#next")


def no_overflow(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_each_kind_right_and_wrong(browser: Any, srv: ServerProcess, device: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    phone = device == "phone"
    page = open_train(browser, srv, PHONE if phone else DESKTOP)
    assert page.is_hidden("#daily")  # only the day's puzzle has the tag
    right = 0
    for kind in ("keep", "bank", "pfeffer"):
        for good in (True, False):
            puzzle = choose_theme(page, kind) if good else current(page)
            action = puzzle.answer if good else puzzle.options[-1].action
            answer(page, puzzle, action, touch=phone, keys=not phone and kind != "pfeffer")
            check_feedback(page, puzzle, action)
            right += good
            page.screenshot(path=str(SHOTS / f"train-{device}-{kind}-{good}.png"), full_page=True)
            no_overflow(page, 390 if phone else 1280)
            if good:  # the next puzzle of the theme: N or the button
                if phone:
                    page.tap("#next")
                else:
                    page.keyboard.press("n")
                page.wait_for_selector("#train[data-state=asking]")
    stats = page.locator("#stats dd").all_inner_texts()
    assert stats[3] == f"{right} / 6" and stats[1] == "0"  # right answers; the streak after a miss
    assert page.locator("#chart polyline").count() == 1
    assert page.locator("#themeacc tbody tr").count() >= 3
    # the progress stays in the browser: a reload shows it
    page.reload()
    page.wait_for_selector("#train[data-state=asking]")
    assert page.locator("#stats dd").all_inner_texts()[3] == f"{right} / 6"
    assert page.evaluate("window.__csp") == []


def test_the_german_page_and_the_daily_puzzle(browser: Any, srv: ServerProcess) -> None:
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto(srv.base + "/?lang=de")
    assert page.inner_text("header .train-link") == "Training"
    page.tap("#dailylink-dice")
    page.wait_for_selector("#train[data-state=asking]")
    assert not page.is_hidden("#daily")
    puzzle = current(page)
    assert (
        page.inner_text("#question")
        == {
            "keep": "Welche Würfel legst du beiseite?",
            "bank": "Aufschreiben oder weiterwürfeln?",
            "pfeffer": "Pfeffer ansagen?",
        }[puzzle.kind]
    )
    answer(page, puzzle, puzzle.answer, touch=True, keys=False)
    check_feedback(page, puzzle, puzzle.answer)
    assert page.inner_text(".verdict").endswith("Richtig: die beste Antwort.")
    assert "Wertung" in page.inner_text(".ratingline")
    page.screenshot(path=str(SHOTS / "train-phone-de-daily.png"), full_page=True)
    no_overflow(page, 390)


def test_offline_after_load(browser: Any, srv: ServerProcess) -> None:
    """Loaded once, the page works without a connection: the puzzles kept ahead, the answers
    kept on the device and checked in order when the connection is back."""
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    page.goto(srv.base + "/train")
    page.wait_for_selector("#train[data-state=asking]")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=20_000)
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('pfeffer.train.dice.ahead') || '[]').length >= 6"
    )
    ctx.set_offline(True)
    page.reload()
    page.wait_for_selector("#train[data-state=asking]")
    given = []
    for _ in range(2):
        puzzle = current(page)
        given.append(puzzle)
        answer_offline(page, puzzle)
        page.click("#next")
        page.wait_for_selector("#train[data-state=asking]")
    assert page.is_visible("#offline")
    page.screenshot(path=str(SHOTS / "train-offline-held.png"), full_page=True)
    ctx.set_offline(False)
    page.wait_for_selector("#train[data-sent='2']", timeout=20_000)
    assert page.locator("#stats dd").all_inner_texts()[3] == "2 / 2"
    progress = page.evaluate("JSON.parse(localStorage.getItem('pfeffer.train.dice'))")
    assert progress["recent"] == [p.id for p in given]
    assert page.evaluate("localStorage.getItem('pfeffer.train.held')") == "[]"


def answer_offline(page: Any, puzzle: DicePuzzle) -> None:
    if puzzle.answer.startswith("keep "):
        page.click(f'#actions .keeps [data-action="{puzzle.answer}"]')
    else:
        page.click(f'#actions [data-action="{puzzle.answer}"]')
    page.wait_for_selector("#train[data-state=held]")


PEPPER = {p.id: p for p in pepper_shipped()}


def pepper_current(page: Any) -> PepperPuzzle:
    return PEPPER[page.get_attribute("#train", "data-puzzle")]


def pepper_answer(page: Any, action: str, *, touch: bool) -> None:
    """A card tapped in the hand, or a bid or trump button pressed."""
    press = page.tap if touch else page.click
    card = f'#board .phand button[data-action="{action}"]'
    press(card if page.locator(card).count() else f'#actions button[data-action="{action}"]')
    page.wait_for_selector("#train[data-state=answered]")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_pepper_each_kind_right_and_wrong(browser: Any, srv: ServerProcess, device: str) -> None:
    """Card, bid, trump (the seat's own hand only) and open-card puzzles (every hand shown),
    each answered right and wrong; the values in points or tricks; every hand after."""
    phone = device == "phone"
    page = open_train(browser, srv, PHONE if phone else DESKTOP)
    page.select_option("#game", "pepper")
    page.wait_for_function(
        "() => document.getElementById('train').dataset.state === 'asking' && "
        "document.getElementById('train').dataset.puzzle.length && "
        "document.querySelector('#board .ptable') !== null"
    )
    for kind in ("card", "bid", "trump", "open"):
        page.select_option("#theme", kind)
        page.wait_for_function(
            "() => { const r = document.getElementById('train'); return r.dataset.state === "
            f"'asking' && r.dataset.kind === '{kind}'; }}"
        )
        for good in (True, False):
            puzzle = pepper_current(page)
            assert puzzle.kind == kind
            others = page.locator(".ptable .openhand .card").count()
            assert (others > 0) == (kind == "open")  # only an open puzzle shows other hands
            wrong = next(
                o.action for o in reversed(puzzle.options) if o.action not in puzzle.answers
            )
            action = puzzle.answer if good else wrong
            pepper_answer(page, action, touch=phone)
            page.wait_for_selector(".verdict." + ("right" if good else "wrong"))
            assert page.locator(".optionlist li").count() == len(puzzle.options)
            assert page.locator(".feedback .hands li").count() == puzzle.players
            unit = "tricks: " if kind == "open" else "points: "
            assert all(unit in w for w in page.locator(".optionlist li .win").all_inner_texts())
            page.screenshot(
                path=str(SHOTS / f"train-{device}-pepper-{kind}-{good}.png"), full_page=True
            )
            no_overflow(page, 390 if phone else 1280)
            if phone:
                page.tap("#next")
            else:
                page.keyboard.press("n")
            page.wait_for_selector("#train[data-state=asking]")
    assert page.evaluate("window.__csp") == []
    progress = page.evaluate("JSON.parse(localStorage.getItem('pfeffer.train.pepper'))")
    assert progress["game"] == "pepper" and progress["tries"] == 8 and progress["right"] == 4


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_house_rules_from_their_solved_table(browser: Any, srv: ServerProcess, device: str) -> None:
    """The rules picker offers the Short game (its solved table ships); its puzzles come from
    the server, made from that table, are answered right and wrong, and keep a progress of
    their own (the shipped rules' is untouched); the choice and the progress survive a
    reload. In German the picker is named in German."""
    from pfeffer.web.adapters.puzzles import puzzles

    pool = {p.id: p for p in puzzles("dice", "short") if isinstance(p, DicePuzzle)}
    phone = device == "phone"
    page = open_train(browser, srv, PHONE if phone else DESKTOP, "?lang=de" if phone else "")
    assert page.is_visible("#rules")
    labels = page.locator("#rules option:not([disabled])").all_inner_texts()
    assert labels == (["Unsere Familienregeln", "Kurzes Spiel"] if phone else
                      ["Our family's rules", "Short game"])  # fmt: skip
    before = page.locator("#stats dd").all_inner_texts()
    page.select_option("#rules", "short")
    page.wait_for_function(
        "() => { const r = document.getElementById('train'); return r.dataset.rules === 'short'"
        " && r.dataset.state === 'asking'; }"
    )
    for good in (True, False):
        if not good:
            page.click("#next") if not phone else page.tap("#next")
            page.wait_for_selector("#train[data-state=asking]")
        z = pool[page.get_attribute("#train", "data-puzzle")]
        assert z.rules.target == 5000
        action = z.answer if good else z.options[-1].action
        answer(page, z, action, touch=phone, keys=False)
        check_feedback(page, z, action)
    page.screenshot(path=str(SHOTS / f"train-{device}-short.png"), full_page=True)
    no_overflow(page, 390 if phone else 1280)
    assert page.locator("#stats dd").all_inner_texts()[3] == "1 / 2"
    page.reload()
    page.wait_for_selector("#train[data-state=asking][data-rules=short]")
    assert page.input_value("#rules") == "short"
    assert page.locator("#stats dd").all_inner_texts()[3] == "1 / 2"
    page.select_option("#rules", "")
    page.wait_for_function(
        "() => { const r = document.getElementById('train'); return r.dataset.rules === ''"
        " && r.dataset.state === 'asking'; }"
    )
    assert page.locator("#stats dd").all_inner_texts() == before
    assert page.get_attribute("#train", "data-puzzle") in BY_ID
    assert page.evaluate("window.__csp") == []
