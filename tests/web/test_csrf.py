"""CSRF protection of the HTML forms (issue 9 §4): a form post needs the token of the page it
came from; the JSON API, which uses no cookies, stays callable by scripts without one."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from pfeffer.web.middleware.csrf import COOKIE, FIELD, MAX_FORM
from pfeffer.web.server import create_app
from tests.web.conftest import form_data

FORM = {"players": "2", "seat0_kind": "human", "seat1_kind": "heuristic"}
HIDDEN = re.compile(r'<input type="hidden" name="csrf_token" value="([^"]*)">')


def tables(client: TestClient) -> int:
    count: int = client.app.state.store.count_tables()  # type: ignore[attr-defined]
    return count


def test_every_form_carries_the_cookies_token(client: TestClient) -> None:
    page = client.get("/")
    cookie = page.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    for attribute in ("HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="):
        assert attribute in cookie
    assert "Secure" not in cookie  # plain HTTP: a phone on the home network
    token = client.cookies[COOKIE]
    assert len(token) >= 43  # 256 bits
    made = client.post("/api/tables", json={"game": "dice", "seats": [{}, {"kind": "bot"}]})
    host = made.json()["host_url"]
    for path in ("/", "/new/dice", "/new/pepper", "/sheets", host):
        html = client.get(path).text
        posts = html.count('method="post"')
        assert posts >= 1, path
        assert HIDDEN.findall(html) == [token] * posts, path
    # The token stays: a page does not set a new cookie while the browser has a good one.
    assert "set-cookie" not in client.get("/new/dice").headers


def test_a_form_post_without_the_token_is_refused(client: TestClient) -> None:
    client.get("/new/dice")  # the browser has the cookie, as any visitor does
    before = tables(client)
    for data in (FORM, {**FORM, FIELD: ""}, {**FORM, FIELD: "x" * 43}):
        r = client.post("/new/dice?lang=de", data=data, follow_redirects=False)
        assert r.status_code == 403
        assert r.headers["content-type"].startswith("text/html")
        assert "Formular ist abgelaufen" in r.text  # a page in the user's language
        assert r.headers["Content-Security-Policy"]
    r = client.post("/play-now/dice", follow_redirects=False)
    assert r.status_code == 403
    assert tables(client) == before  # nothing was created
    ok = client.post("/new/dice", data=form_data(client, FORM), follow_redirects=False)
    assert ok.status_code == 303 and tables(client) == before + 1


def test_a_cross_site_post_without_the_cookie_is_refused(db_url: str) -> None:
    """Another site's page makes the browser post: the browser sends no cookie along
    (SameSite=Lax), and the forger cannot know the token of this browser."""
    with TestClient(create_app(db_url, bot_delay=0)) as victim:
        token = form_data(victim)[FIELD]
        with TestClient(victim.app) as forger:  # no cookie: a cross-site request
            for data in (FORM, {**FORM, FIELD: token}):
                r = forger.post("/new/dice", data=data, follow_redirects=False)
                assert r.status_code == 403
            assert tables(victim) == 0
            # A forged cookie with a matching field does not help a forger that cannot
            # set cookies here; the check is cookie == field, both in constant time.


def test_the_header_may_carry_the_token(client: TestClient) -> None:
    token = form_data(client)[FIELD]
    r = client.post("/play-now/pepper", headers={"X-CSRF-Token": token}, follow_redirects=False)
    assert r.status_code == 303
    wrong = client.post("/play-now/pepper", headers={"X-CSRF-Token": token[::-1]})
    assert wrong.status_code == 403


def test_the_hosts_forms_are_protected(client: TestClient) -> None:
    made = client.post(
        "/api/tables", json={"game": "dice", "seats": [{"name": "Ann"}, {"kind": "bot"}]}
    ).json()
    host = made["host_url"]
    client.get(host)
    refused = client.post(f"{host}/seat/0/public", follow_redirects=False)
    assert refused.status_code == 403
    assert client.get(f"/api/tables/{made['id']}").json()["seats"][0]["free"] is False
    done = client.post(f"{host}/seat/0/public", data=form_data(client), follow_redirects=False)
    assert done.status_code == 303
    assert client.get(f"/api/tables/{made['id']}").json()["seats"][0]["free"] is True


def test_the_json_api_needs_no_cookie_and_sets_none(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as script:
        r = script.post("/api/tables", json={"game": "dice", "seats": [{}, {"kind": "bot"}]})
        assert r.status_code == 201 and "set-cookie" not in r.headers
        t = r.json()
        sheet = script.post("/api/sheets", json={"game": "dice", "players": ["A", "B"]})
        assert sheet.status_code == 201
        entry = script.post(f"/api/sheets/{sheet.json()['id']}/entries", json={"points": 350})
        assert entry.status_code == 200
        public = script.post(
            f"/api/tables/{t['id']}/seats/0/public",
            json={"host_token": t["host_token"], "public": True},
        )
        assert public.status_code == 200
        assert script.post(f"/api/tables/{t['id']}/claim/0").status_code == 200
        assert not script.cookies  # the API never set one


def test_a_huge_form_is_refused_before_it_is_read(client: TestClient) -> None:
    data = form_data(client, {"title": "x" * (MAX_FORM + 10)})
    r = client.post("/sheets", data=data)
    assert r.status_code == 413


def test_over_https_the_cookie_is_secure(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'tls.db'}", bot_delay=0)
    with TestClient(app, base_url="https://pfeffer.example") as c:
        cookie = c.get("/sheets").headers["set-cookie"]
        assert "; Secure" in cookie
