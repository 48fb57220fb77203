"""``pfeffer serve --ssl-keyfile/--ssl-certfile`` (issue 8 §5): the score sheets work offline
only in a secure context, so a server for phones on a home network can speak HTTPS. The options
reach uvicorn; a real server started with a certificate made here answers over HTTPS and the
certificate it shows is that one."""

from __future__ import annotations

import shutil
import ssl
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from pfeffer.cli import app
from tests.web.conftest import ServerProcess, free_port

OPENSSL = shutil.which("openssl")


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1 and its key (what mkcert makes,
    without a local CA)."""
    assert OPENSSL is not None
    key, cert = folder / "key.pem", folder / "cert.pem"
    command = [OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
    command += ["-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=pf"]
    command += ["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
    subprocess.run(
        command,
        check=True,
        capture_output=True,
    )
    return key, cert


def test_the_options_reach_uvicorn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    key.write_text("key")
    cert.write_text("cert")
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(kw))
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    args = ["serve", "--port", "8443", "--db", db, "--ssl-keyfile", str(key)]
    result = CliRunner().invoke(app, [*args, "--ssl-certfile", str(cert)])
    assert result.exit_code == 0, result.output
    assert seen["ssl_keyfile"] == str(key) and seen["ssl_certfile"] == str(cert)
    assert seen["port"] == 8443
    assert "open https://localhost:8443/" in result.output
    # Without them: plain HTTP, as before.
    seen.clear()
    result = CliRunner().invoke(app, ["serve", "--db", db])
    assert result.exit_code == 0 and seen["ssl_certfile"] is None and seen["ssl_keyfile"] is None
    assert "open http://localhost:8000/" in result.output


def test_one_of_the_two_is_not_enough(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cert = tmp_path / "cert.pem"
    cert.write_text("cert")
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: pytest.fail("must not start"))
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    result = CliRunner().invoke(app, ["serve", "--db", db, "--ssl-certfile", str(cert)])
    assert result.exit_code == 2 and "--ssl-keyfile and --ssl-certfile" in result.output
    missing = CliRunner().invoke(app, ["serve", "--db", db, "--ssl-keyfile", "nosuch.pem"])
    assert missing.exit_code == 2 and "nosuch.pem" in missing.output


def test_lan_urls_and_the_printed_text_follow_the_scheme() -> None:
    from pfeffer.web.invite import lan_url, serve_text

    assert lan_url("0.0.0.0", 8443, ["192.168.1.5"], "https") == "https://192.168.1.5:8443"
    text = serve_text("0.0.0.0", 8443, ["192.168.1.5"], "https")
    assert "  https://192.168.1.5:8443/\n" in text and "http://" not in text
    assert "do not work offline" not in text
    assert "do not work offline" in serve_text("0.0.0.0", 8000, ["192.168.1.5"])


@pytest.mark.skipif(OPENSSL is None, reason="needs the openssl command to make a certificate")
def test_a_server_with_a_certificate_speaks_https(tmp_path: Path) -> None:
    """A real ``pfeffer serve`` process (a few seconds: it starts and migrates a database)."""
    key, cert = make_certificate(tmp_path)
    trusted = ssl.create_default_context(cafile=str(cert))  # trusts exactly this certificate
    srv = ServerProcess(
        f"sqlite:///{tmp_path / 'tls.db'}",
        free_port(),
        extra_args=["--ssl-keyfile", str(key), "--ssl-certfile", str(cert)],
        ssl_context=trusted,
    )
    srv.start()
    try:
        assert srv.base.startswith("https://")
        assert srv.get("/sheets.webmanifest")["start_url"] == "/sheets?lang=en"
        sheet = srv.post("/api/sheets", {"game": "dice", "players": ["A", "B"]})
        assert srv.get(f"/api/sheets/{sheet['id']}")["players"] == ["A", "B"]
        # Plain HTTP on that port gets no page.
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(f"http://127.0.0.1:{srv.port}/sheets", timeout=5).read()
    finally:
        srv.stop()
