"""Cross-site WebSockets, forwarded headers and the server's own addresses (issue 20, 1.10):
a WebSocket from another site's page is refused before it is accepted and logged; programs
(no ``Origin``) still connect; ``pfeffer serve`` believes ``X-Forwarded-*`` only from
``--forwarded-allow-ips`` and checks ``--public-url`` and ``--allowed-origin``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from pfeffer.cli import app as cli_app
from pfeffer.web.server import create_app
from pfeffer.web.site import Site, origin_of
from tests.web.conftest import ServerProcess, free_port

SEATS = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}]


def table(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "dice", "seats": SEATS})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def opens(client: TestClient, path: str, origin: str | None) -> bool:
    """Whether a WebSocket to ``path`` with this ``Origin`` is accepted (a state frame comes);
    False if it is refused before it is accepted (4403)."""
    headers = {"origin": origin} if origin is not None else {}
    url = str(client.base_url).replace("http", "ws", 1).rstrip("/") + path  # Host: the client's
    try:
        with client.websocket_connect(url, headers=headers) as ws:
            return bool(ws.receive_json()["type"] == "state")
    except WebSocketDisconnect as exc:
        assert exc.code == 4403
        return False


def test_a_websocket_from_another_sites_page_is_refused_and_logged(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The fault: any page could open a seat's or a spectator's WebSocket through its visitors."""
    site = Site.for_server("0.0.0.0", 8000, ["192.168.1.5"])
    with TestClient(
        create_app(db_url, bot_delay=0, site=site), base_url="http://192.168.1.5:8000"
    ) as c:
        t = table(c)
        seat = f"/ws/{t['id']}?token={t['seats'][0]['token']}"
        with caplog.at_level(logging.WARNING, logger="pfeffer.web.origin"):
            assert not opens(c, seat, "https://evil.example")
            assert not opens(c, f"/ws/{t['id']}", "http://192.168.1.5.evil.example:8000")
            assert not opens(c, seat, "null")  # a sandboxed frame or a file
        refused = [r for r in caplog.records if r.name == "pfeffer.web.origin"]
        assert [r.origin for r in refused] == [  # type: ignore[attr-defined]
            "https://evil.example",
            "http://192.168.1.5.evil.example:8000",
            "null",
        ]
        assert all(t["seats"][0]["token"] not in r.getMessage() + r.path for r in refused)  # type: ignore[attr-defined]
        assert opens(c, seat, "http://192.168.1.5:8000")  # the server's own page
        assert opens(c, seat, None)  # a program: no Origin


def test_a_host_the_server_is_not_served_under_is_no_origin_of_its_own(db_url: str) -> None:
    site = Site.for_server("0.0.0.0", 8000, ["192.168.1.5"])
    app = create_app(db_url, bot_delay=0, site=site)
    with TestClient(app, base_url="http://rebound.example:8000") as c:
        t = table(c)
        # Origin and Host agree, but the server is not served there (a name that was made to
        # point at it, say): refused.
        assert not opens(c, f"/ws/{t['id']}", "http://rebound.example:8000")


def test_listed_origins_and_the_public_url_may_open_websockets(db_url: str) -> None:
    site = Site.for_server(
        "0.0.0.0",
        8000,
        ["10.0.0.2"],
        public_url="https://pfeffer.example",
        origins=["https://club.example:8443"],
    )
    # Behind a proxy: the Host the proxy passes on is the public name, not an address here.
    with TestClient(
        create_app(db_url, bot_delay=0, site=site), base_url="https://pfeffer.example"
    ) as c:
        t = table(c)
        assert opens(c, f"/ws/{t['id']}", "https://pfeffer.example")
        assert opens(c, f"/ws/{t['id']}", "https://CLUB.example:8443")
        assert not opens(c, f"/ws/{t['id']}", "https://club.example")  # another port: another site
        assert not opens(c, f"/ws/{t['id']}", "http://pfeffer.example")  # another scheme


def test_an_app_that_does_not_know_its_address_takes_only_same_origin_pages(
    client: TestClient,
) -> None:
    t = table(client)
    assert opens(client, f"/ws/{t['id']}", "http://testserver")
    assert not opens(client, f"/ws/{t['id']}", "http://elsewhere.example")


def test_origins_are_checked_and_written_one_way() -> None:
    assert origin_of("HTTPS://Pfeffer.Example:443/") == "https://pfeffer.example"
    assert origin_of("http://[::1]:8000") == "http://[::1]:8000"
    for bad in (
        "pfeffer.example",
        "ftp://x",
        "https://x/path",
        "https://x?q",
        "https://u@x",
        "https://x:99999",
    ):
        with pytest.raises(ValueError):
            origin_of(bad)
    site = Site.for_server("127.0.0.1", 80, [])
    assert site.hosts is not None and {"localhost", "localhost:80", "127.0.0.1"} <= set(site.hosts)
    assert site.origin_allowed("http://localhost", "localhost")
    assert not site.origin_allowed("http://localhost", "127.0.0.1")  # not the page's own host


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What ``pfeffer serve`` would hand uvicorn (uvicorn.run replaced: nothing listens)."""
    import uvicorn

    seen: dict[str, Any] = {}

    def run(app: Any, **options: Any) -> None:
        seen.update(options, app=app)

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    monkeypatch.delenv("PFEFFER_PUBLIC_URL", raising=False)
    return seen


def test_forwarded_headers_are_believed_only_from_the_listed_proxies(
    served: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'serve.db'}"]
    result = CliRunner().invoke(cli_app, ["serve", *db])
    assert result.exit_code == 0, result.output
    assert served["forwarded_allow_ips"] == "127.0.0.1"  # not from anyone
    result = CliRunner().invoke(cli_app, ["serve", *db, "--forwarded-allow-ips", "172.30.80.10"])
    assert result.exit_code == 0, result.output
    assert served["forwarded_allow_ips"] == "172.30.80.10"
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.1.1.1")  # uvicorn's own variable still works
    assert CliRunner().invoke(cli_app, ["serve", *db]).exit_code == 0
    assert served["forwarded_allow_ips"] == "10.1.1.1"


def test_serve_takes_a_public_url_and_allowed_origins(
    served: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'serve.db'}"]
    args = [
        "serve",
        *db,
        "--public-url",
        "https://Club.example/",
        "--allowed-origin",
        "https://a.example",
    ]
    result = CliRunner().invoke(cli_app, args)
    assert result.exit_code == 0, result.output
    assert "https://club.example/" in result.output
    site = served["app"].state.settings.site
    assert site.public_url == "https://club.example"
    assert site.origins == {"https://club.example", "https://a.example"}
    for bad in (["--public-url", "club.example"], ["--allowed-origin", "https://a.example/x"]):
        result = CliRunner().invoke(cli_app, ["serve", *db, *bad])
        assert result.exit_code == 2 and "without a path" in result.output
    monkeypatch.setenv("PFEFFER_PUBLIC_URL", "http://192.168.1.20:8000")  # docker run -e ...
    assert CliRunner().invoke(cli_app, ["serve", *db, "--host", "0.0.0.0"]).exit_code == 0
    site = served["app"].state.settings.site
    assert site.public_url == "http://192.168.1.20:8000"
    assert "localhost:8000" in site.hosts


def test_a_real_server_answers_another_sites_websocket_with_403(tmp_path: Path) -> None:
    """Through uvicorn: refused before the handshake completes (HTTP 403), while the
    server's own page and a program still connect."""
    import asyncio
    import json
    import urllib.request

    import websockets

    srv = ServerProcess(f"sqlite:///{tmp_path / 'o.db'}", free_port())
    srv.start()
    try:
        body = json.dumps({"game": "dice", "seats": SEATS}).encode()
        req = urllib.request.Request(
            srv.base + "/api/tables", body, {"content-type": "application/json"}
        )
        t = json.loads(urllib.request.urlopen(req, timeout=10).read())
        url = f"{srv.ws_base}/ws/{t['id']}"

        async def connect(origin: str | None) -> int | str:
            try:
                async with websockets.connect(url, origin=origin) as ws:  # type: ignore[arg-type]
                    return str(json.loads(await ws.recv())["type"])
            except websockets.InvalidStatus as exc:
                return int(exc.response.status_code)

        assert asyncio.run(connect("https://evil.example")) == 403
        assert asyncio.run(connect(srv.base)) == "state"
        assert asyncio.run(connect(None)) == "state"
    finally:
        srv.stop()


def test_worker_processes_get_the_site_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pfeffer serve --workers N``: each process builds its app from ``PFEFFER_SERVE_*``."""
    from pfeffer.web.app import ENV_PREFIX, app_from_env

    monkeypatch.setattr("pfeffer.web.app.settle_heap", lambda: None)
    for key, value in {
        "DB": f"sqlite:///{tmp_path / 'w.db'}",
        "HOSTS": "192.168.1.5:8000\nlocalhost:8000",
        "PUBLIC_URL": "https://club.example",
        "ALLOWED_ORIGINS": "https://a.example\nhttps://club.example",
        "LAN_URL": "http://192.168.1.5:8000",
    }.items():
        monkeypatch.setenv(ENV_PREFIX + key, value)
    site = app_from_env().state.settings.site
    assert site.hosts == ("192.168.1.5:8000", "localhost:8000")
    assert site.public_url == "https://club.example"
    assert site.origins == {"https://a.example", "https://club.example"}
    assert site.link_base("http", "evil.example") == "https://club.example"
