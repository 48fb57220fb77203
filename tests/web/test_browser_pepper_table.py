"""The Pepper card table in a browser (issue 8 §2): whole hands by tapping cards on a 390 px
phone and by clicking at 1280 px, by keyboard only, without motion for those who ask for none,
card names in German and Czech, and one device for the whole table with its pass screen (the
dice, which hide nothing, go without one: test_browser_finish.py). Playwright drives Debian's
Chromium; screenshots go to tests/web/screenshots/
(``pepper-table-*.png``, ``device-*.png``).

Each whole-hand test plays one hand (target 1) against computer players that move at once, so a
test takes a few seconds: the browser draws every frame."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess, free_port
from tests.web.test_browser_faults import CSP_LISTENER

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"
)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
ACTIONS = "#actions [data-action]:enabled, .phand [data-action]:enabled"
CARD = re.compile(r"^[9TJQKA][CDHS]$")


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module (computer players move at once)."""
    path: Path = tmp_path_factory.mktemp("pepper-table") / "pt.db"
    s = ServerProcess(f"sqlite:///{path}", free_port())
    s.start()
    yield s
    s.stop()


def table(srv: ServerProcess, seats: list[tuple[str, str]], game: str = "pepper") -> Any:
    rules = {"target": 1} if game == "pepper" else {"target": 3000}
    body = {"game": game, "rules": rules, "seats": [{"name": n, "kind": k} for n, k in seats]}
    return srv.post("/api/tables", body)


def four(srv: ServerProcess, me: str = "Anna") -> Any:
    return table(srv, [(me, "human"), ("Bartholomäus", "bot"), ("Cyril", "bot"), ("Dana", "bot")])


def check_layout(page: Any, width: int) -> None:
    """No page wider than its viewport; the site header across the full width."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    header = page.eval_on_selector("header.top", "h => h.getBoundingClientRect().width")
    assert header == page.evaluate("document.documentElement.clientWidth")


def offered(page: Any) -> list[str]:
    buttons = page.locator(ACTIONS)
    return [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]


def moved(page: Any, before: str | None, root: str = "#app") -> None:
    page.wait_for_function(
        f"() => document.querySelector('{root}').dataset.version !== '{before}'", timeout=10_000
    )


def play_hand(
    page: Any,
    press: Callable[[Any], None],
    bid: Callable[[list[str]], str],
    shots: str,
    width: int,
) -> dict[str, Any]:
    """Play until the game is over: ``press`` a button (tap or click), bid with ``bid``, play
    the first playable card; check the table on the way. Returns what was seen."""
    seen: dict[str, Any] = {"phases": set(), "collect": 0, "dimmed": 0, "cards": 0}
    for _ in range(200):
        if page.locator(".result").count():
            break
        actions = offered(page)
        if not actions:
            if page.locator(".pcollect").count():
                seen["collect"] += 1
                check_collect(page)
            page.wait_for_timeout(30)
            continue
        before = page.locator("#app").get_attribute("data-version")
        if "deal" in actions:
            choice, phase = "deal", "deal"
        elif "pass" in actions or "1" in actions:
            choice, phase = bid(actions), "bid"
            check_bids(page, actions)
        elif "H" in actions:
            choice, phase = "H", "trump"
        else:
            assert all(CARD.match(a or "") for a in actions), actions
            choice, phase = actions[0], "play"
            seen["cards"] += 1
            seen["dimmed"] += check_hand(page, actions, press)
        if phase not in seen["phases"]:
            page.wait_for_timeout(350)  # the bubbles pop, the cards slide in
            check_layout(page, width)
            page.screenshot(path=str(SHOTS / f"pepper-table-{shots}-{phase}.png"), full_page=True)
            seen["phases"].add(phase)
        selector = (
            f'.phand [data-action="{choice}"]'
            if phase == "play"
            else f'#actions [data-action="{choice}"]'
        )
        press(page.locator(selector))
        moved(page, before)
        if page.locator(".pcollect").count():  # the trick just finished slides to its winner
            seen["collect"] += 1
            check_collect(page)
    assert page.locator(".result").count() == 1
    check_layout(page, width)
    page.screenshot(path=str(SHOTS / f"pepper-table-{shots}-result.png"), full_page=True)
    return seen


def check_bids(page: Any, actions: list[str]) -> None:
    """Every bid button says what it means: the tricks it needs and what it scores."""
    for a in actions:
        text = page.locator(f'#actions [data-action="{a}"]').inner_text()
        if a.isdigit():
            assert f"at least {a} of 6 tricks with your partner" in text, text
            assert f"+{a} to +6" in text and "−6" in text, text
        elif a == "big":
            assert "all 6 tricks" in text and "+12" in text and "−12" in text, text


def check_hand(page: Any, legal: list[str], press: Callable[[Any], None]) -> int:
    """The legal cards are buttons; the others are dimmed, no buttons, and do nothing. Each
    card on the felt lies in front of the player who played it."""
    hand = page.locator(".phand .card")
    codes = [hand.nth(i).get_attribute("data-card") for i in range(hand.count())]
    buttons = [c for c in codes if page.locator(f'.phand button[data-card="{c}"]').count()]
    assert sorted(buttons) == sorted(legal)
    dimmed = page.locator(".phand .card.dim")
    for i in range(dimmed.count()):
        card = dimmed.nth(i)
        assert card.evaluate("e => e.tagName") == "SPAN"
        assert card.get_attribute("aria-disabled") == "true"
        assert card.get_attribute("data-card") not in legal
        assert "cannot be played now" in (card.get_attribute("aria-label") or "")
        assert float(card.evaluate("e => getComputedStyle(e).opacity")) < 0.6
    if dimmed.count():
        before = page.locator("#app").get_attribute("data-version")
        press(dimmed.first)  # nothing happens
        page.wait_for_timeout(250)
        assert page.locator("#app").get_attribute("data-version") == before
        assert page.locator("#error").is_hidden()
    for card in page.locator(".ptrick > .card").all():
        pos = next(
            c[3:] for c in (card.get_attribute("class") or "").split() if c.startswith("at-")
        )
        name = page.locator(f".pseat.at-{pos} .pname").inner_text()
        assert (card.get_attribute("aria-label") or "").startswith(name + ": ")
    return int(dimmed.count())


COLLECT = """() => {
  const layer = document.querySelector(".pcollect");
  const taker = document.querySelector(".pcorner.last .taker");
  if (!layer || !taker) return null;
  const to = [...layer.classList].find((c) => c.startsWith("to-"));
  const seat = document.querySelector(".pseat.at-" + to.slice(3) + " .pname");
  return [seat.textContent, taker.textContent, layer.querySelectorAll(".card.won").length];
}"""


def check_collect(page: Any) -> None:
    """A finished trick slides to the seat of the player who took it (read in one go: the
    next frame may come any moment)."""
    found = page.evaluate(COLLECT)
    if found is not None:
        seat, taker, won = found
        assert seat == taker and won == 1, found


def test_a_whole_hand_by_tapping_cards_on_a_phone(browser: Any, srv: ServerProcess) -> None:
    SHOTS.mkdir(exist_ok=True)
    t = four(srv)
    ctx = browser.new_context(**PHONE, locale="en-GB")
    page = ctx.new_page()
    page.goto(srv.base + t["seats"][0]["url"])
    page.wait_for_selector(".ptable")
    # Big Pepper ends the auction at once: this player names trump and leads every trick.
    seen = play_hand(page, lambda b: b.tap(), lambda a: "big" if "big" in a else a[-1], "390", 390)
    assert "play" in seen["phases"]
    assert seen["cards"] == 6  # every trick was led by tapping a card
    assert page.locator(".pcorner.tricks .count").count() == 2  # tricks per side
    ctx.close()


def test_a_whole_hand_by_clicking_at_1280(browser: Any, srv: ServerProcess) -> None:
    SHOTS.mkdir(exist_ok=True)
    t = four(srv)
    ctx = browser.new_context(**DESKTOP, locale="en-GB")
    ctx.add_init_script(CSP_LISTENER)  # the server's strict CSP holds while cards slide
    page = ctx.new_page()
    page.goto(srv.base + t["seats"][0]["url"])
    page.wait_for_selector(".pseat.current .plate")
    glow = page.locator(".pseat.current .plate").evaluate("e => getComputedStyle(e).animationName")
    assert glow == "pt-glow"  # whose turn it is glows
    seen = play_hand(
        page, lambda b: b.click(), lambda a: "pass" if "pass" in a else a[0], "1280", 1280
    )
    assert "play" in seen["phases"] and seen["cards"] == 6
    assert seen["collect"] >= 1  # a finished trick was seen sliding to its winner
    # The seats sit around the felt: the viewer at the bottom, the partner at the top.
    assert page.locator(".pseat.at-bottom .pname").inner_text() == "Anna"
    assert page.locator(".pseat.at-top .pname").inner_text() == "Cyril"
    assert page.locator(".pseat.at-left .pname").inner_text() == "Bartholomäus"
    box = page.locator(".ptable").bounding_box()
    assert box["width"] > 700  # the table uses the wide screen
    assert page.evaluate("window.__csp") == []
    ctx.close()


def tab_to(page: Any, wanted: Collection[str]) -> str:
    """Press Tab until a button with one of the actions ``wanted`` has the focus; its action."""
    for _ in range(60):
        action = page.evaluate("document.activeElement && document.activeElement.dataset.action")
        if action in wanted:
            return str(action)
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the button")


def test_bidding_and_card_play_by_keyboard_only(browser: Any, srv: ServerProcess) -> None:
    t = four(srv)
    page = browser.new_page(**DESKTOP, locale="en-GB")
    page.goto(srv.base + t["seats"][0]["url"])
    page.wait_for_selector(".ptable")
    ways: dict[str, int] = {"enter": 0, "space": 0, "digit": 0, "bid": 0, "kept": 0}
    plays = 0  # the card plays so far: the three ways take turns, a digit first
    for _ in range(200):
        if page.locator(".result").count():
            break
        actions = offered(page)
        if not actions:
            page.wait_for_timeout(30)
            continue
        before = page.locator("#app").get_attribute("data-version")
        if not all(CARD.match(a or "") for a in actions):
            if "deal" in actions or "H" in actions:
                want = "deal" if "deal" in actions else "H"
            elif "1" in actions and not ways["bid"]:
                want = "1"  # the first bid: maybe this player names trump, by keyboard too
            else:
                want = "pass" if "pass" in actions else actions[0]
            tab_to(page, {want})
            page.keyboard.press("Enter")
            ways["bid"] += want not in ("deal", "H")
        else:
            active = page.evaluate(
                "document.activeElement && document.activeElement.dataset.action"
            )
            ways["kept"] += active in actions  # the focus stayed with the hand
            way = plays % 3
            plays += 1
            if way == 0:
                page.keyboard.press("2" if len(actions) > 1 else "1")  # the n-th playable card
                ways["digit"] += 1
            else:
                tab_to(page, set(actions))
                key = "Enter" if way == 1 else "Space"
                page.keyboard.press(key)
                ways[key.lower()] += 1
        moved(page, before)
    assert page.locator(".result").count() == 1
    assert ways["bid"] >= 1 and ways["digit"] >= 1 and ways["enter"] + ways["space"] >= 2
    assert ways["kept"] >= 1
    assert page.locator(".keyhint").count() == 0 or page.locator(".keyhint").is_visible()
    page.close()


def test_no_sliding_for_those_who_ask_for_less_motion(browser: Any, srv: ServerProcess) -> None:
    t = four(srv)
    ctx = browser.new_context(**DESKTOP, reduced_motion="reduce")
    page = ctx.new_page()
    page.goto(srv.base + t["seats"][0]["url"])
    page.wait_for_selector(".pseat.current .plate")
    glow = page.locator(".pseat.current .plate").evaluate("e => getComputedStyle(e).animationName")
    assert glow == "none"
    seen = play_hand(
        page, lambda b: b.click(), lambda a: "pass" if "pass" in a else a[0], "still", 1280
    )
    assert seen["collect"] == 0 and seen["cards"] == 6
    ctx.close()


@pytest.mark.parametrize(
    "case",
    [
        ("de", r"(Kreuz|Pik|Herz|Karo)-(Neun|Zehn|Bube|Dame|König|Ass)", "Stiche", "9 10 B D K A"),
        ("cs", r"(křížov|pikov|srdcov|károv)[áýé] (devítka|desítka|kluk|dáma|král|eso)", "štych",
         "9 10 J Q K A"),
    ],
)  # fmt: skip
def test_card_names_are_translated(
    browser: Any, srv: ServerProcess, case: tuple[str, str, str, str]
) -> None:
    lang, name, words, ranks = case
    t = four(srv, me="Jana")
    ctx = browser.new_context(**PHONE, locale={"de": "de-DE", "cs": "cs-CZ"}[lang])
    page = ctx.new_page()
    page.goto(srv.base + t["seats"][0]["url"])
    page.wait_for_selector(".ptable")
    for _ in range(300):  # deal if the human deals
        if page.locator(".phand .card").count() == 6:
            break
        if "deal" in offered(page):
            before = page.locator("#app").get_attribute("data-version")
            page.locator('#actions [data-action="deal"]').tap()
            moved(page, before)
        page.wait_for_timeout(30)
    cards = page.locator(".phand .card")
    assert cards.count() == 6
    for i in range(cards.count()):
        label = cards.nth(i).get_attribute("aria-label") or ""
        assert re.fullmatch(name, label), label
        assert cards.nth(i).locator(".rank").inner_text() in ranks.split()
    # The accessible names are what assistive technology reads.
    first = cards.first.get_attribute("aria-label")
    assert (
        page.get_by_role("img", name=first).count() + page.get_by_role("button", name=first).count()
        == 1
    )
    page.wait_for_selector("#actions .bidbtn, .bubble.contract")
    if page.locator("#actions .bidbtn").count():  # the bids' meanings in the page's language
        assert words in page.locator("#actions").inner_text()
    page.screenshot(path=str(SHOTS / f"pepper-table-{lang}.png"), full_page=True)
    ctx.close()


# ---------------------------------------------------------------------- one device


def cards_in_dom(page: Any) -> set[str]:
    found = page.evaluate("[...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)")
    return set(found)


def test_one_device_hides_each_hand_between_two_players(browser: Any, srv: ServerProcess) -> None:
    SHOTS.mkdir(exist_ok=True)
    t = table(
        srv, [("Anna", "human"), ("Bartholomäus", "bot"), ("Cyril", "human"), ("Dana", "bot")]
    )
    tokens = {s["name"]: s["token"] for s in t["seats"] if s["kind"] == "human"}
    ctx = browser.new_context(**PHONE, locale="en-GB")
    ctx.add_init_script(CSP_LISTENER)
    page = ctx.new_page()
    page.goto(srv.base + t["host_url"])
    page.tap("text=Play all human seats on this device")
    passes: list[str] = []
    for _ in range(300):
        if page.locator(".result").count():
            break
        if page.locator("#pass:not([hidden])").count():
            who = page.locator("#passname").inner_text().removeprefix("Pass the device to ")
            # The hidden hands are not in the page at all: no card, no table.
            hands = {
                n: set(srv.get(f"/api/tables/{t['id']}/state?token={tok}")["view"]["hand"])
                for n, tok in tokens.items()
            }
            assert not cards_in_dom(page)
            assert page.locator("#board *").count() == 0 and page.locator("#actions *").count() == 0
            html = page.content()
            assert not any(f'data-card="{c}"' in html for h in hands.values() for c in h)
            if not passes:
                page.screenshot(path=str(SHOTS / "device-pass-390.png"))
            passes.append(who)
            page.locator("#iam").tap()
            page.wait_for_selector("#pass", state="hidden")
            # Now the player's own hand, and nobody else's.
            page.wait_for_selector("#board .ptable")
            if hands[who]:
                page.wait_for_selector(".phand .card")
            assert cards_in_dom(page) & set().union(*hands.values()) <= hands[who]
            assert {
                c for c in cards_in_dom(page) if page.locator(f'.phand [data-card="{c}"]').count()
            } == hands[who]
            continue
        actions = offered(page)
        if not actions:
            page.wait_for_timeout(30)
            continue
        before = page.locator("#device").get_attribute("data-version")
        choice = "pass" if "pass" in actions else actions[0]
        page.locator(f'[data-action="{choice}"]').first.tap()
        page.wait_for_function(
            f"() => document.getElementById('device').dataset.version !== '{before}'"
            " || !document.getElementById('pass').hidden",
            timeout=10_000,
        )
    assert page.locator(".result").count() == 1
    check_layout(page, 390)
    page.screenshot(path=str(SHOTS / "device-result-390.png"), full_page=True)
    # The device went from one person to the other, and only between different people.
    assert {"Anna", "Cyril"} <= set(passes)
    assert all(a != b for a, b in itertools.pairwise(passes))
    assert page.evaluate("window.__csp") == []
    ctx.close()


# The dice on one device: no pass screen, as nothing is hidden (test_browser_finish.py).
