"""The server's side of the browser's finish (issue 22 §2), without a browser (the pages in a
browser: test_browser_finish.py): "Play now" seats the name given; the one-device page shows a
pass screen only where the game hides something and has the log and the chat; each rules page
offers both games; the sheets' manifest link names the page's language; the hand review says
what best play means."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import form_data
from tests.web.test_hand_review import ask, first_played_hand, new_table


def seat_names(client: TestClient, location: str) -> list[str]:
    table_id = location.split("/")[2]
    return [s["name"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]]


@pytest.mark.parametrize("game", ["dice", "pepper"])
def test_play_now_seats_the_name_given(client: TestClient, game: str) -> None:
    home = client.get("/?lang=cs").text
    assert 'name="name"' in home and "Tvoje jméno" in home
    r = client.post(
        f"/play-now/{game}", data=form_data(client, {"name": "  Zuzana  "}), follow_redirects=False
    )
    assert r.status_code == 303
    assert seat_names(client, r.headers["location"])[0] == "Zuzana"
    # No name (or an empty one): the default name, in the page's language.
    for data in ({}, {"name": ""}):
        r = client.post(
            f"/play-now/{game}?lang=de", data=form_data(client, data), follow_redirects=False
        )
        assert seat_names(client, r.headers["location"])[0] == "Spieler 1"


def test_play_now_refuses_a_name_that_is_no_text(client: TestClient) -> None:
    r = client.post("/play-now/dice", data=form_data(client, {"name": "Anna\x00"}))
    assert r.status_code == 400


@pytest.mark.parametrize(("game", "hides"), [("dice", "no"), ("pepper", "yes")])
def test_one_device_hides_only_what_the_game_hides_and_has_the_log_and_chat(
    client: TestClient, game: str, hides: str
) -> None:
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    t = client.post("/api/tables", json={"game": game, "seats": seats}).json()
    page = client.get(f"/device/{t['id']}/{t['host_token']}").text
    assert f'data-hides="{hides}"' in page
    assert 'id="log"' in page and 'id="chat-form"' in page and 'id="chat-text"' in page
    assert ("in between, the table is hidden" in page) == (hides == "yes")


@pytest.mark.parametrize("kind", ["dice", "pepper"])
def test_each_rules_page_offers_both_games(client: TestClient, kind: str) -> None:
    page = client.get(f"/rules/{kind}?lang=de").text
    nav = re.search(r'<nav class="rule-games">(.*?)</nav>', page, re.S)
    assert nav is not None
    links = re.findall(r'<a href="(/rules/\w+)"[^>]*>', nav.group(1))
    assert links == ["/rules/dice", "/rules/pepper"]
    current = re.findall(r'<a href="(/rules/\w+)"[^>]*aria-current="page"', nav.group(1))
    assert current == [f"/rules/{kind}"]


@pytest.mark.parametrize("lang", ["de", "cs", "en"])
def test_the_manifest_link_names_the_pages_language(client: TestClient, lang: str) -> None:
    page = client.get(f"/sheets?lang={lang}").text
    href = re.search(r'<link rel="manifest" href="([^"]+)"', page)
    assert href is not None and href.group(1) == f"/sheets.webmanifest?lang={lang}"
    # Fetched as a browser fetches a manifest: no cookie, another Accept-Language.
    client.cookies.clear()
    m = client.get(href.group(1), headers={"accept-language": "fr"}).json()
    assert m["lang"] == lang and m["start_url"] == f"/sheets?lang={lang}"


NOTE = {
    "en": "with all cards open and every player playing perfectly (double dummy)",
    "de": "alle Karten offen, und jeder spielt fehlerfrei (Double Dummy)",
    "cs": "všechny karty odkryté a každý hraje bezchybně (double dummy)",
}


@pytest.mark.parametrize("lang", ["en", "de", "cs"])
def test_the_hand_review_says_what_best_play_means(client: TestClient, lang: str) -> None:
    """ "With best play you could have taken 1 trick; you took 2" read as a contradiction: the
    review now says what best play means, for a player and for a spectator alike."""
    t = new_table(client, 2)
    _, hand = first_played_hand(client, t["id"], seed=3)
    for token in (t["seats"][0]["token"], None):
        answer = ask(client, t["id"], token, hand, lang=lang)
        assert NOTE[lang] in answer["note"]
