"""The Pepper trainer in a browser beyond the shipped puzzles (issue 23): a Pepper house rule
chosen in the rules picker (the page says it prepares the puzzles while the server makes them,
then asks them, answered right and wrong, with a progress of their own) at 1280 px and on a
390 px phone in German; and the page after it was loaded once, offline: the Pepper puzzles kept
ahead go on, the answers wait and are checked when the connection is back. No CSP violation.
The server's worker plays 8 hands per rules here (``PFEFFER_TEST_HOUSE_HANDS``).
Screenshots: tests/web/screenshots/train-*-pepper-house*.png, train-offline-pepper.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pfeffer.pepper.puzzle_gen import generate
from pfeffer.pepper.puzzles import PepperPuzzle
from pfeffer.web.adapters import pepper_house
from tests.web.conftest import SHOTS, ServerProcess, free_port
from tests.web.test_browser_train import (
    DESKTOP,
    PEPPER,
    PHONE,
    no_overflow,
    open_train,
    pepper_answer,
    pytestmark,  # noqa: F401 - skipped without chromium
)

TEST_HANDS = "8"
#: The rule each device picks (each new to the server: the page says it prepares them).
RULES = {"desktop": "all_pass=redeal", "phone": "no_trump=false"}
LABELS = {
    "desktop": "When everybody passes: Deal again",
    "phone": "Ohne Trumpf erlaubt: nein",
}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    path: Path = tmp_path_factory.mktemp("trainpepper") / "train.db"
    s = ServerProcess(f"sqlite:///{path}", free_port())
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(pepper_house.TEST_HANDS_ENV, TEST_HANDS)
        s.start()
    yield s
    s.stop()


def made(key: str) -> dict[str, PepperPuzzle]:
    """The puzzles the server makes for ``key`` (the generator is deterministic)."""
    rules = pepper_house.rules_of(key)
    assert rules is not None
    found, _ = generate(hands=int(TEST_HANDS), seed=0, per_kind=pepper_house.HOUSE_PER_KIND,
                        worlds=pepper_house.HOUSE_WORLDS, rules=rules)  # fmt: skip
    return {p.id: p for p in found}


def state(page: Any, want: str) -> None:
    page.wait_for_function(
        f"() => document.getElementById('train').dataset.state === '{want}'", timeout=240_000
    )


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_pepper_house_rule(browser: Any, srv: ServerProcess, device: str) -> None:
    phone = device == "phone"
    key = RULES[device]
    pool = made(key)
    page = open_train(browser, srv, PHONE if phone else DESKTOP, "?lang=de" if phone else "")
    page.select_option("#game", "pepper")
    page.wait_for_function(
        "() => document.getElementById('train').dataset.state === 'asking' && "
        "document.querySelector('#board .ptable') !== null"
    )
    labels = page.locator("#rules option:not([disabled])").all_inner_texts()
    assert LABELS[device] in labels and len(labels) == 3
    page.select_option("#rules", key)
    state(page, "preparing")
    want = "Die Aufgaben für diese Regeln werden vorbereitet…" if phone else "Preparing the puzzles"
    assert want in page.inner_text("#question")
    page.screenshot(path=str(SHOTS / f"train-{device}-pepper-house-preparing.png"), full_page=True)
    state(page, "asking")
    assert page.get_attribute("#train", "data-rules") == key
    for good in (True, False):
        if not good:
            page.tap("#next") if phone else page.keyboard.press("n")
            state(page, "asking")
        z = pool[page.get_attribute("#train", "data-puzzle")]
        wrong = next(o.action for o in reversed(z.options) if o.action not in z.answers)
        pepper_answer(page, z.answer if good else wrong, touch=phone)
        page.wait_for_selector(".verdict." + ("right" if good else "wrong"))
        assert page.locator(".optionlist li").count() == len(z.options)
    page.screenshot(path=str(SHOTS / f"train-{device}-pepper-house.png"), full_page=True)
    no_overflow(page, 390 if phone else 1280)
    progress = page.evaluate(f"JSON.parse(localStorage.getItem('pfeffer.train.pepper@{key}'))")
    assert progress["tries"] == 2 and progress["right"] == 1
    assert page.evaluate("localStorage.getItem('pfeffer.train.pepper')") is None
    page.reload()
    state(page, "asking")
    assert page.input_value("#rules") == key
    assert page.locator("#stats dd").all_inner_texts()[3] == "1 / 2"
    assert page.evaluate("window.__csp") == []


def test_pepper_offline_after_load(browser: Any, srv: ServerProcess) -> None:
    """Loaded once, the Pepper trainer works without a connection: the puzzles kept ahead, the
    answers kept on the device and checked in order when the connection is back."""
    page = open_train(browser, srv, DESKTOP)
    page.select_option("#game", "pepper")
    page.wait_for_function(
        "() => document.getElementById('train').dataset.state === 'asking' && "
        "document.querySelector('#board .ptable') !== null"
    )
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=20_000)
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('pfeffer.train.pepper.ahead') || '[]').length >= 6"
    )
    page.context.set_offline(True)
    page.reload()
    state(page, "asking")
    assert page.locator("#board .ptable").count() == 1
    given = []
    for _ in range(2):
        z = PEPPER[page.get_attribute("#train", "data-puzzle")]
        given.append(z)
        card = f'#board .phand button[data-action="{z.answer}"]'
        page.click(card if page.locator(card).count() else f'#actions [data-action="{z.answer}"]')
        state(page, "held")
        page.click("#next")
        state(page, "asking")
    assert page.is_visible("#offline")
    page.screenshot(path=str(SHOTS / "train-offline-pepper.png"), full_page=True)
    page.context.set_offline(False)
    page.wait_for_selector("#train[data-sent='2']", timeout=20_000)
    assert page.locator("#stats dd").all_inner_texts()[3] == "2 / 2"
    progress = page.evaluate("JSON.parse(localStorage.getItem('pfeffer.train.pepper'))")
    assert progress["recent"] == [z.id for z in given]
    assert page.evaluate("localStorage.getItem('pfeffer.train.held')") == "[]"
    assert page.evaluate("window.__csp") == []
