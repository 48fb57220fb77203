"""The dice table in a browser (issue 8 section 2): whole games played by tapping the dice (a
390×844 touch phone and a 1280×800 desktop), a turn played with the keyboard only, the log's
sentences against the engine's events, the dice statistics against the table's record, the
reduced-motion setting, the mute switch, and the Pepper lines of the shared log.

A whole game takes a few seconds in Chromium (the computer player moves at once; the test taps
every die it sets aside); it is the point of the test, so it is not shortened further.
Screenshots go to tests/web/screenshots/ (``dice-table-*.png``)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pfeffer.dice import DiceAction, DiceGame
from pfeffer.dice.log import DiceEvent, dice_log
from pfeffer.pepper import PepperGame
from pfeffer.pepper.log import PepperEvent, pepper_log
from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess, free_port

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"
)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
FACE_WORDS = ["one", "two", "three", "four", "five", "six"]


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module (computer players move at once)."""
    path: Path = tmp_path_factory.mktemp("dicetable") / "dicetable.db"
    s = ServerProcess(f"sqlite:///{path}", free_port())
    s.start()
    yield s
    s.stop()


# A seed whose first throw (Anna's) scores: 4-5-1-2-6-5 (the test servers take seeds).
SCORING_FIRST_THROW = 1


def new_table(
    srv: ServerProcess, rules: dict[str, Any] | None = None, seed: int | None = None
) -> dict[str, Any]:
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Robo", "kind": "bot"}]
    body = {"game": "dice", "rules": rules or {"target": 1000}, "seats": seats}
    table: dict[str, Any] = srv.post(
        "/api/tables", body if seed is None else {**body, "seed": seed}
    )
    return table


def version(page: Any) -> int:
    return int(page.locator("#app").get_attribute("data-version") or -1)


def wait_past(page: Any, before: int, steps: int = 1) -> None:
    """Until the table's version moved ``steps`` actions on from ``before``."""
    page.wait_for_function(  # an arrow function: the CSP forbids eval'd string predicates
        "(v) => Number(document.getElementById('app').dataset.version) >= v",
        arg=before + steps,
        timeout=10_000,
    )


def dice_on_table(page: Any) -> list[int]:
    buttons = page.locator("#board .die-btn")
    return [int(buttons.nth(i).get_attribute("data-face")) for i in range(buttons.count())]


def option_faces(page: Any) -> list[list[int]]:
    """The set-asides the engine offers, as the option buttons carry them (largest first)."""
    chips = page.locator("#actions button.keep")
    return [
        [int(ch) for ch in chips.nth(i).get_attribute("data-action").split()[1]]
        for i in range(chips.count())
    ]


def places_of(faces: list[int], on_table: list[int]) -> list[int]:
    """Where on the table the dice ``faces`` lie (each die once)."""
    free = list(enumerate(on_table))
    places = []
    for f in faces:
        i = next(k for k, (_, face) in enumerate(free) if face == f)
        places.append(free.pop(i)[0])
    return places


def tap_game(page: Any, touch: bool, shots: str) -> Counter[str]:
    """Play Anna's turns until the game ends by tapping dice (never the option buttons)."""
    seen = Counter[str]()
    tap = page.tap if touch else page.click
    for _ in range(300):
        if page.locator(".result").count():
            break
        page.wait_for_selector(
            "#board .die-btn:enabled, #actions [data-action=roll]:enabled, .result",
            timeout=15_000,
        )
        if page.locator(".result").count():
            break
        before = version(page)
        if page.locator("#board .die-btn").count():
            on_table = dice_on_table(page)
            options = option_faces(page)
            scoring = {f for o in options for f in o}
            dead = [i for i, f in enumerate(on_table) if f not in scoring]
            if dead and not seen["nothing"]:
                # A die that belongs to no set-aside: the page says so, and offers nothing.
                tap(f'#board .die-btn[data-pos="{dead[0]}"]')
                line = page.locator("#board .selection")
                assert line.inner_text() == "These dice score nothing."
                assert page.locator("[data-then=roll]").is_disabled()
                assert page.locator("[data-then=bank]").is_disabled()
                page.screenshot(path=str(SHOTS / f"dice-table-{shots}-nothing.png"), full_page=True)
                tap(f'#board .die-btn[data-pos="{dead[0]}"]')
                seen["nothing"] += 1
            choice = options[0]
            for place in places_of(choice, on_table):
                tap(f'#board .die-btn[data-pos="{place}"]')
            pressed = page.locator('#board .die-btn[aria-pressed="true"]').count()
            assert pressed == len(choice)
            line = page.locator("#board .selection").inner_text()
            points = page.locator("#actions button.keep").first.inner_text().split("=")[-1].strip()
            assert line.startswith("-".join(map(str, choice)) + ": " + points + " points"), line
            if not seen["chosen"]:
                page.screenshot(path=str(SHOTS / f"dice-table-{shots}-chosen.png"), full_page=True)
            seen["chosen"] += 1
            then = "bank" if page.locator("[data-then=bank]").is_enabled() else "roll"
            tap(f"[data-then={then}]")
            seen[then] += 1
            wait_past(page, before, 2)  # the set-aside, then the roll or the bank
        else:
            if page.locator("#actions [data-action=pfeffer]").count():
                terms = page.locator("#pfeffer-terms").inner_text()
                assert "stake" in terms and "A bust costs" in terms and "bonus" in terms
                seen["offer"] += 1
            tap("#actions [data-action=roll]")
            wait_past(page, before)
    assert page.locator(".result").count() == 1
    return seen


@pytest.mark.parametrize(("size", "touch"), [(PHONE, True), (DESKTOP, False)], ids=["390", "1280"])
def test_a_whole_game_by_tapping_dice(
    browser: Any, srv: ServerProcess, size: dict[str, Any], touch: bool
) -> None:
    SHOTS.mkdir(exist_ok=True)
    t = new_table(srv, {"target": 1500})
    ctx = browser.new_context(**size, locale="en-GB")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(srv.base + t["seats"][0]["url"])
    width = size["viewport"]["width"]
    page.wait_for_selector("#board .players")
    page.screenshot(path=str(SHOTS / f"dice-table-{width}-start.png"), full_page=True)
    seen = tap_game(page, touch, str(width))
    assert seen["chosen"] >= 1 and seen["bank"] + seen["roll"] == seen["chosen"]
    page.screenshot(path=str(SHOTS / f"dice-table-{width}-over.png"), full_page=True)
    assert "Winner" in page.locator(".result").inner_text()
    # The page is never wider than the screen; the header spans it.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    header = page.eval_on_selector("header.top", "h => h.getBoundingClientRect().width")
    assert header == page.evaluate("document.documentElement.clientWidth")
    # Dice statistics: the faces of every throw of the record.
    record = srv.get(f"/api/tables/{t['id']}/record?token={t['seats'][0]['token']}")
    assert_stats_match(page, record["actions"])
    # The score sheet: a row per round, Σ = the final scores, the marks explained.
    sheet = page.locator("#scores table.sheet.paper")
    totals = [int(x) for x in sheet.locator("tr.sum td").all_inner_texts()]
    assert totals == record["result"]["scores"]
    rows = DiceGame.from_record(record).view().sheet_rows
    assert sheet.locator("tbody tr").count() == len(rows)
    cells = sheet.locator("tbody tr").last.locator("td").all_inner_texts()
    last = [int(x.split()[-1]) for x in cells if x.strip()]
    assert last == [t.total_after for t in rows[-1].turns if t is not None]
    assert page.locator(".sheet-legend dt").all_inner_texts()[:2] == ["A", "P!"]
    # Sounds: a rattle for every throw seen, a chime whenever the turn came back to Anna.
    played = page.evaluate("PF.sound.played")
    assert "roll" in played
    if len(rows) > 1:
        assert "turn" in played
    # The log, drawn line by line as the frames came, says what the engine recorded.
    events = dice_log(DiceGame.from_record(record).view(0))
    expected = [dice_sentence(e, ["Anna", "Robo"]) for e in events][-150:]
    assert page.locator("#log li").all_inner_texts() == expected
    # Screen readers hear the newest lines of the log.
    heard = page.locator("#announce").inner_text().split(". ")
    assert heard and set(heard) <= set(page.locator("#log li").all_inner_texts())
    assert errors == []
    ctx.close()


def assert_stats_match(page: Any, actions: list[str]) -> None:
    dice = [d for a in actions if a.startswith("roll") for d in DiceAction.parse(a).dice]
    counts = [int(x) for x in page.locator("#stats table.facestats td.num").all_inner_texts()]
    assert counts == [dice.count(f) for f in range(1, 7)]
    summary = page.locator("#stats .stats-sum").inner_text()
    throws = sum(1 for a in actions if a.startswith("roll"))
    assert summary.startswith(f"Dice: {len(dice)} · throws: {throws} · chi-square ")
    assert "replays exactly" in page.locator("#statspanel .note").inner_text()


# ------------------------------------------------------------------ keyboard


def test_a_turn_by_keyboard_only(browser: Any, srv: ServerProcess) -> None:
    t = new_table(srv, {"target": 5000}, seed=SCORING_FIRST_THROW)
    page = browser.new_page(**DESKTOP, locale="en-GB")
    page.goto(srv.base + t["seats"][0]["url"])
    page.wait_for_selector("#actions [data-action=roll]")
    before = version(page)
    page.keyboard.press("r")  # R rolls
    wait_past(page, before)
    assert page.locator("#board .die-btn").count()  # the seed's first throw scores
    # Tab reaches the dice; Space and Enter toggle the focused die.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('die-btn')"):
            break
    focused = page.locator("#board .die-btn:focus")
    assert focused.count() == 1
    name = focused.get_attribute("aria-label")
    assert name == FACE_WORDS[int(focused.get_attribute("data-face")) - 1]  # "five"
    page.keyboard.press("Space")
    assert focused.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    assert focused.get_attribute("aria-pressed") == "false"
    turns = 0
    while page.locator("#board .die-btn").count() and turns < 12:
        on_table = dice_on_table(page)
        choice = option_faces(page)[-1]  # the smallest set-aside: the turn goes on longer
        for place in places_of(choice, on_table):
            page.keyboard.press(str(place + 1))  # digits pick the die at that place
        assert page.locator('#board .die-btn[aria-pressed="true"]').count() == len(choice)
        before = version(page)
        bank = page.locator("[data-then=bank]").is_enabled()
        page.keyboard.press("b" if bank else "r")
        wait_past(page, before, 2)
        turns += 1
        if bank:
            break
        # The focus stays on the table after the redraw: keys and Tab go on from there.
        assert (
            page.evaluate("!!document.activeElement.closest('#board, #actions')")
            or not page.locator("#board .die-btn").count()
        )
    log = page.locator("#log li").all_inner_texts()
    assert any(line.startswith("Anna sets aside ") for line in log)
    assert any(line.startswith("Anna banks ") or line.startswith("Anna busts") for line in log)
    page.close()


# ------------------------------------------------------------------ the log


def dice_sentence(e: DiceEvent, names: list[str]) -> str:
    """The English sentence of an event, written here independently of the page."""
    who = names[e.seat] if e.seat is not None else ""
    dice = "-".join(map(str, e.dice))
    return {
        "round": f"Round {e.number}",
        "throw": f"{who} throws {dice}",
        "keep": f"{who} sets aside {dice} for {e.points}",
        "hot_dice": f"{who} scored with every die: six dice again",
        "pfeffer": f"{who} calls Pfeffer! Stake {e.points}",
        "auto_pfeffer": f"Auto-Pfeffer for {who}: a bust costs {e.points}",
        "bank": f"{who} banks {e.points} (total {e.total})",
        "bonus": f"{who} wins the Pfeffer bet: bonus {e.points}",
        "bust": f"{who} busts and loses {e.points}" if e.points else f"{who} busts",
        "win": f"Winner: {who} with {e.total}",
    }[e.kind]


def test_the_log_says_what_the_engine_recorded(browser: Any, srv: ServerProcess) -> None:
    seats = [{"name": "Anna", "kind": "bot"}, {"name": "Petr", "kind": "bot", "bot": "random"}]
    t = srv.post(
        "/api/tables",
        {"game": "dice", "rules": {"target": 1500, "pfeffer_reward": "stake"}, "seats": seats},
    )
    deadline = time.monotonic() + 30
    while srv.get(f"/api/tables/{t['id']}")["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    record = srv.get(f"/api/tables/{t['id']}/record")
    game = DiceGame.from_record(record)
    expected = [dice_sentence(e, ["Anna", "Petr"]) for e in dice_log(game.view())][-150:]
    page = browser.new_page(**DESKTOP, locale="en-GB")
    page.goto(srv.base + f"/watch/{t['id']}")
    page.wait_for_selector("#log li")
    assert page.locator("#log li").all_inner_texts() == expected
    assert any(" banks " in line for line in expected) and expected[-1].startswith("Winner: ")
    assert_stats_match(page, record["actions"])
    # The replay shows the same panels, up to the step shown.
    page.goto(srv.base + f"/replay/{t['id']}")
    page.wait_for_selector("#stepinfo:not(:empty)")
    page.click("[data-go=last]")
    page.wait_for_selector("#log li.log-win")
    assert page.locator("#log li").all_inner_texts() == expected
    assert_stats_match(page, record["actions"])
    page.close()


def pepper_sentence(e: PepperEvent, names: list[str], sides: list[str]) -> str:
    suit = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    rank = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
    bid = {"small": "Small Pepper", "big": "Big Pepper"}
    trump = {"NT": "No trump", **suit}
    who = names[e.seat] if e.seat is not None else ""
    if e.kind == "hand":
        assert e.value is not None and e.trump is not None
        pts = ", ".join(
            f"{sides[i]} " + (f"+{p}" if p > 0 else f"−{-p}" if p < 0 else "0")
            for i, p in enumerate(e.points)
        )
        res = "made" if e.made else "set"
        return (
            f"Hand {e.number}: {who} bid {bid.get(e.value, e.value)} {trump[e.trump]}, {res}: {pts}"
        )
    if e.kind == "win":
        assert e.side is not None
        return f"Winner: {sides[e.side]} with {e.points[0]}"
    value = e.value or ""
    return {
        "deal": f"{who} deals",
        "bid": f"{who} bids {bid.get(value, value)}",
        "pass": f"{who} passes",
        "trump": f"{who} names trump: {trump.get(value, '')}",
        "play": f"{who} plays {rank.get(value[:1], '')}{suit.get(value[1:], '')}",
        "trick": f"{who} takes the trick",
        "redeal": f"Hand {e.number}: everyone passed",
    }[e.kind]


def test_the_log_tells_pepper_hands(browser: Any, srv: ServerProcess) -> None:
    names = ["Jana", "Petr", "Eva", "Karel"]
    t = srv.post(
        "/api/tables",
        {
            "game": "pepper",
            "rules": {"target": 3},  # a few hands: each folds into its result at the next deal
            "seats": [{"name": n, "kind": "bot"} for n in names],
        },
    )
    page = browser.new_page(**DESKTOP, locale="en-GB")
    page.goto(srv.base + f"/watch/{t['id']}")  # watched while the computer players play
    page.wait_for_selector(".result", timeout=30_000)
    game = PepperGame.from_record(srv.get(f"/api/tables/{t['id']}/record"))
    sides = ["Jana & Eva", "Petr & Karel"]
    expected = [pepper_sentence(e, names, sides) for e in pepper_log(game.view(None), game.history)]
    lines = page.locator("#log li").all_inner_texts()
    assert lines == expected
    assert sum(1 for line in lines if " plays " in line) == 24  # the last hand, card by card
    assert sum(1 for line in lines if line.startswith("Hand ")) == len(game.history)
    assert page.locator("#statspanel").is_hidden()  # no dice in Pepper
    page.goto(srv.base + f"/watch/{t['id']}")  # drawn at once, the same
    page.wait_for_selector("#log li")
    assert page.locator("#log li").all_inner_texts() == expected
    page.close()


# ------------------------------------------------------------------ motion and sound

WATCH_ROLLING = """() => {
  window.rollingSeen = 0;
  new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => {
    if (n.querySelectorAll) window.rollingSeen += n.querySelectorAll('svg.die.rolling').length;
  }))).observe(document.getElementById('board'), {childList: true, subtree: true});
}"""


@pytest.mark.parametrize("reduce", [True, False], ids=["reduced-motion", "motion"])
def test_reduced_motion_turns_the_throw_animation_off(
    browser: Any, srv: ServerProcess, reduce: bool
) -> None:
    t = new_table(srv, seed=SCORING_FIRST_THROW)
    ctx = browser.new_context(**DESKTOP, reduced_motion="reduce" if reduce else "no-preference")
    page = ctx.new_page()
    page.goto(srv.base + t["seats"][0]["url"])
    page.wait_for_selector("#actions [data-action=roll]")
    page.evaluate(WATCH_ROLLING)
    # Anna throws until she has dice to set aside (the seed's first throw scores; the loop stays
    # for a throw that does not: it ends her turn, and after the computer player's the tray is
    # empty again).
    for _ in range(20):
        page.wait_for_selector("#actions [data-action=roll]:enabled")
        before = version(page)
        page.click("#actions [data-action=roll]")
        wait_past(page, before)
        page.wait_for_selector("#board .die-btn, #actions [data-action=roll]:enabled")
        if page.locator("#board .die-btn").count():
            break
    page.wait_for_selector("#board .tray svg.die")
    rolled = page.evaluate("window.rollingSeen")
    if reduce:
        assert rolled == 0
        assert page.locator("svg.die.rolling").count() == 0
    else:
        assert rolled >= 1  # a new throw tumbles in
        name = page.evaluate(
            "getComputedStyle(document.querySelector('#board .tray svg.die')).animationName"
        )
        assert name in ("pf-tumble", "none")  # "none" once it has landed
    # The stylesheet agrees: with reduced motion no die animates, whatever its class.
    page.evaluate("document.querySelector('#board .tray svg.die').classList.add('rolling')")
    name = page.evaluate(
        "getComputedStyle(document.querySelector('#board .tray svg.die.rolling')).animationName"
    )
    assert name == ("none" if reduce else "pf-tumble")
    ctx.close()


def test_the_mute_switch_is_remembered(browser: Any, srv: ServerProcess) -> None:
    t = new_table(srv, {"target": 5000})
    ctx = browser.new_context(**DESKTOP, locale="de-DE")
    page = ctx.new_page()
    url = srv.base + t["seats"][0]["url"]
    page.goto(url)
    page.wait_for_selector("#actions [data-action=roll]")
    mute = page.locator("#mute")
    assert mute.get_attribute("aria-pressed") == "false"
    assert mute.get_attribute("aria-label") == "Töne aus"
    before = version(page)
    page.click("#actions [data-action=roll]")
    wait_past(page, before)
    assert "roll" in page.evaluate("PF.sound.played")  # a throw rattles
    mute.click()
    assert mute.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('pfeffer.sound')") == "off"
    page.reload()
    page.wait_for_selector("#board .players")
    assert page.locator("#mute").get_attribute("aria-pressed") == "true"
    # Muted: nothing sounds, not the next throw either.
    if page.locator("#board .die-btn").count():
        page.click("#actions button.keep")  # set aside by the option button, then throw
        page.wait_for_selector("#actions [data-action=roll]:enabled")
        before = version(page)
        page.click("#actions [data-action=roll]")
        wait_past(page, before)
    page.wait_for_timeout(200)
    assert page.evaluate("PF.sound.played") == []
    ctx2 = browser.new_context(**DESKTOP)  # another browser profile: sound on
    other = ctx2.new_page()
    other.goto(url)
    other.wait_for_selector("#board .players")
    assert other.locator("#mute").get_attribute("aria-pressed") == "false"
    ctx2.close()
    ctx.close()
