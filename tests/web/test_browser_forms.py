"""Browser tests of web-forms (Playwright, Debian's Chromium): "Play now" with one tap on a phone,
the new-table form at 390 px with its presets, and the table chat between two players and a
spectator. Screenshots go to tests/web/screenshots/ (``forms-*.png``, ``chat-*.png``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pfeffer.dice.presets import DICE_PRESETS
from pfeffer.pepper.presets import PEPPER_PRESETS
from tests.web.conftest import CHROMIUM, SHOTS, ServerProcess, free_port

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"
)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
WIDTH = "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module; computer players wait a moment, as at a real table."""
    path: Path = tmp_path_factory.mktemp("forms") / "forms.db"
    s = ServerProcess(f"sqlite:///{path}", free_port(), bot_delay=0.2)
    s.start()
    yield s
    s.stop()


@pytest.mark.parametrize(("game", "lang"), [("dice", "de-DE"), ("pepper", "cs-CZ")])
def test_play_now_is_one_tap_to_a_running_game_on_a_phone(
    browser: Any, srv: ServerProcess, game: str, lang: str
) -> None:
    SHOTS.mkdir(exist_ok=True)
    ctx = browser.new_context(**PHONE, locale=lang)
    page = ctx.new_page()
    page.goto(srv.base + "/")
    assert page.evaluate(WIDTH) <= 390
    page.tap(f"[data-play-now={game}]")
    page.wait_for_url("**/play/**")
    page.wait_for_function("() => document.getElementById('app').dataset.version !== undefined")
    seats = page.locator(".players .player, .ptable .pseat")  # the card table seats its players
    assert seats.count() == (2 if game == "dice" else 4)
    assert page.locator(".players .player.me, .ptable .pseat.me").count() == 1
    # The game runs: either it is my turn with my choices on the table, or a computer's.
    page.wait_for_function(
        "() => document.querySelectorAll('#actions button, #board button').length > 0"
        " || document.getElementById('status').className.indexOf('mine') < 0"
    )
    assert page.locator("#status").inner_text().strip()
    assert page.evaluate(WIDTH) <= 390
    page.screenshot(path=str(SHOTS / f"forms-play-now-{game}-390.png"), full_page=True)
    ctx.close()


PRESETS = [("dice", p.key) for p in DICE_PRESETS] + [("pepper", p.key) for p in PEPPER_PRESETS]


@pytest.mark.parametrize("lang", ["en-GB", "de-DE", "cs-CZ"])
def test_the_form_fits_a_phone_with_every_preset(
    browser: Any, srv: ServerProcess, lang: str
) -> None:
    ctx = browser.new_context(**PHONE, locale=lang)
    page = ctx.new_page()
    for game, key in PRESETS:
        page.goto(srv.base + f"/new/{game}?preset={key}")
        page.click("details.more > summary")
        players = int(page.input_value("#players"))
        assert page.locator("ol.seats li:visible").count() == players, key
        assert page.evaluate(WIDTH) <= 390, (game, key)
        # Every control of the form inside the viewport (nothing cut off on the right).
        right = page.evaluate(
            "Math.max(...[...document.querySelectorAll('form.newtable input:not([type=hidden]),"
            " form.newtable select, form.newtable button, a.preset')]"
            ".filter(e => e.offsetParent).map(e => e.getBoundingClientRect().right))"
        )
        assert right <= 390, (game, key, right)
        if (game, key) in (("dice", "farkle"), ("pepper", "three")) and lang != "en-GB":
            page.screenshot(
                path=str(SHOTS / f"forms-new-{game}-{key}-{lang[:2]}-390.png"), full_page=True
            )
    page.goto(srv.base + "/new/pepper?preset=three")
    assert page.locator("[data-for-players='4']").is_hidden()  # teams only with four
    page.select_option("#players", "4")
    assert page.locator("[data-for-players='4']").is_visible()
    page.goto(srv.base + "/new/dice")
    page.select_option("#players", "8")
    assert page.locator("ol.seats li:visible").count() == 8
    assert page.evaluate(WIDTH) <= 390
    ctx.close()


def test_a_preset_link_then_create_makes_that_table(browser: Any, srv: ServerProcess) -> None:
    ctx = browser.new_context(**PHONE, locale="de-DE")
    page = ctx.new_page()
    page.goto(srv.base + "/new/dice")
    page.tap("a.preset[data-preset=farkle]")
    page.wait_for_url("**preset=farkle")
    assert page.locator("a.preset.on").get_attribute("data-preset") == "farkle"
    page.tap("button.create")
    page.wait_for_url("**/table/**")
    table_id = page.url.split("/table/")[1].split("/")[0]
    rules = srv.get(f"/api/tables/{table_id}/state")["view"]["rules"]
    assert rules["pfeffer"] is False and rules["min_bank"] == 500
    ctx.close()


# ------------------------------------------------------------------ the table chat


def test_chat_between_two_players_and_a_spectator(browser: Any, srv: ServerProcess) -> None:
    SHOTS.mkdir(exist_ok=True)
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    t = srv.post("/api/tables", {"game": "dice", "seats": seats})
    anna_ctx = browser.new_context(**PHONE, locale="cs-CZ")
    ben_ctx = browser.new_context(viewport={"width": 1024, "height": 800}, locale="de-DE")
    watch_ctx = browser.new_context(**PHONE, locale="en-GB")
    anna, ben, watcher = anna_ctx.new_page(), ben_ctx.new_page(), watch_ctx.new_page()
    anna.goto(srv.base + t["seats"][0]["url"])
    ben.goto(srv.base + t["seats"][1]["url"])
    watcher.goto(srv.base + t["spectator_url"])
    for p in (anna, ben, watcher):
        p.wait_for_function("() => document.getElementById('app').dataset.version !== undefined")
    # A reaction: Anna taps "well played"; Ben reads it in German, the spectator in English.
    anna.tap("[data-reaction=well_played]")
    ben.wait_for_selector("#chat-log .chat-line.reaction")
    assert ben.locator("#chat-log .chat-line").last.inner_text() == "Anna: Gut gespielt!"
    watcher.wait_for_selector("#chat-log .chat-line.reaction")
    assert watcher.locator("#chat-log .chat-line").last.inner_text() == "Anna: Well played!"
    assert anna.locator("#chat-log .chat-line.mine").count() == 1  # her own, marked
    # A text that is HTML stays text on every page.
    nasty = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
    ben.fill("#chat-text", nasty)
    ben.click("#chat-form button[type=submit]")
    anna.wait_for_function("() => document.querySelectorAll('#chat-log .chat-line').length === 2")
    line = anna.locator("#chat-log .chat-line .chat-text").last
    assert line.inner_text() == nasty
    assert anna.locator("#chat-log script, #chat-log img").count() == 0
    assert anna.evaluate("window.pwned") is None and ben.evaluate("window.pwned") is None
    ben.wait_for_function(
        "() => document.getElementById('chat-text').value === ''"
    )  # sent: cleared
    # The spectator reads but has no field to write in, and the page says why.
    watcher.wait_for_function(
        "() => document.querySelectorAll('#chat-log .chat-line').length === 2"
    )
    assert watcher.locator("#chat-form").count() == 0
    assert "only players write" in watcher.locator("#chat").inner_text()
    # Too fast: more than five messages in ten seconds (the reaction counts) get the server's
    # refusal, in Czech. Sent one after the other until refused: on a slow machine the first
    # ones may leave the window before the sixth is sent, so a few more may be taken.
    lines = "document.querySelectorAll('#chat-log .chat-line').length"
    refused = "!document.getElementById('chat-error').hidden"
    for i in range(12):
        before = anna.evaluate(lines)
        anna.fill("#chat-text", f"zpráva {i}")
        anna.tap("#chat-form button[type=submit]")
        anna.wait_for_function(f"() => {lines} > {before} || ({refused})")
        if anna.is_visible("#chat-error"):
            break
    assert i >= 4, "refused before the sixth message in ten seconds"
    anna.wait_for_selector("#chat-error:visible")
    assert "Ne tak rychle" in anna.inner_text("#chat-error")
    assert anna.input_value("#chat-text") == f"zpráva {i}"  # kept, to send again later
    assert anna.locator("#error").is_hidden()  # the game's error box is not the chat's
    assert anna.evaluate(WIDTH) <= 390
    anna.locator("#chat").scroll_into_view_if_needed()
    anna.screenshot(path=str(SHOTS / "chat-anna-cs-390.png"), full_page=True)
    watcher.screenshot(path=str(SHOTS / "chat-watcher-en-390.png"), full_page=True)
    # A reload gets the last messages again.
    ben.reload()
    ben.wait_for_function(f"() => {lines} === 6")
    for c in (anna_ctx, ben_ctx, watch_ctx):
        c.close()


#: What ``PF.t`` makes of the counted messages for 1, 2 and 5 (the review's sides, the keys line).
COUNTED = """() => [1, 2, 5].map(n => PF.t("review_side", {side: "A", n: n, taken: 0}))
    .concat([PF.t("keys_hint", {n: 1}),
             PF.t("review_player", {name: "A", n: 1, best: 1, lost: "x"})])"""


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("cs-CZ", ["1 štych,", "2 štychy,", "5 štychů,", "Klávesa 1 zahraje", "1 rozhodnutí,"]),
        ("de-DE", ["1 Stich,", "2 Stiche,", "5 Stiche,", "Die Taste 1 spielt", "1 Entscheidung,"]),
        ("en-GB", ["1 trick,", "2 tricks,", "5 tricks,", "Key 1 plays", "1 decision,"]),
    ],
)
def test_a_count_meets_its_noun_in_the_page_s_language(
    browser: Any, srv: ServerProcess, lang: str, said: list[str]
) -> None:
    """The pages' scripts take a message's plural form by the language's own rule for any
    count (``key@one/few/other``): "1 Entscheidungen", "2 štychů" and "Keys 1 to 1" are gone."""
    ctx = browser.new_context(locale=lang)
    page = ctx.new_page()
    page.goto(srv.base + "/strategy/dice")
    texts = page.evaluate(COUNTED)
    ctx.close()
    assert all(s in text for s, text in zip(said, texts, strict=True)), texts
