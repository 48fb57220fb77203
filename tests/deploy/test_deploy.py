"""The deployment files (issue 9 §5), checked without Docker: ``compose.yaml`` against the
Compose Specification's JSON schema and for the topology (two app processes, a proxy that
passes WebSockets, PostgreSQL, Redis, health checks); the Dockerfile runs as a user without
privileges; the nginx configuration passes the upgrade headers."""

from __future__ import annotations

import ipaddress
import json
import re
import shlex
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import typer
import yaml

from pfeffer.cli import app as cli_app

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
APPS = ("app1", "app2")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return data


def test_compose_follows_the_compose_specification(compose: dict[str, Any]) -> None:
    schema = json.loads((HERE / "compose-spec.json").read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.Draft7Validator(schema).validate(compose)
    broken = {**compose, "services": {"app1": {**compose["services"]["app1"], "ports": 80}}}
    with pytest.raises(jsonschema.ValidationError):  # the schema does refuse a broken file
        jsonschema.Draft7Validator(schema).validate(broken)


def serve_options() -> set[str]:
    """The options ``pfeffer serve`` takes."""
    group: Any = typer.main.get_command(cli_app)
    serve = group.commands["serve"]
    return {opt for p in serve.params for opt in p.opts if opt.startswith("--")}


def test_two_app_processes_on_postgres_and_redis(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {*APPS, "proxy", "postgres", "redis"} <= services.keys()
    commands = [services[a]["command"] for a in APPS]
    assert commands[0] == commands[1]  # the same program twice
    for name in APPS:
        app = services[name]
        assert app["build"] == "." and "ports" not in app  # reached only through the proxy
        cmd = app["command"]
        assert cmd[:2] == ["pfeffer", "serve"]
        args = dict(zip(cmd[2::2], cmd[3::2], strict=True))
        assert args["--host"] == "0.0.0.0" and args["--port"] == "8000"
        assert re.fullmatch(
            r"postgresql\+psycopg://pfeffer:\$\{POSTGRES_PASSWORD.*\}@postgres:5432/pfeffer",
            args["--db"],
        )
        assert args["--redis"].startswith("redis://redis:6379")
        assert args["--log-format"] == "json"
        unknown = set(args) - serve_options()
        # --redis comes with the scale-out work (issue 9 §1); every other option must exist.
        assert unknown <= {"--redis"}, unknown
        assert "readyz" in " ".join(app["healthcheck"]["test"])
        for dep in ("postgres", "redis"):
            assert app["depends_on"][dep]["condition"] == "service_healthy"
        # Issue 20 (1.10): X-Forwarded-For is believed from the proxy alone (it was "*", any
        # address), and links use the address players open, not a Host header.
        proxy_ip = services["proxy"]["networks"]["default"]["ipv4_address"]
        assert args["--forwarded-allow-ips"] == proxy_ip
        subnet = compose["networks"]["default"]["ipam"]["config"][0]["subnet"]
        assert ipaddress.ip_address(proxy_ip) in ipaddress.ip_network(subnet)
        assert "*" not in json.dumps(app) and "FORWARDED_ALLOW_IPS" not in app.get(
            "environment", {}
        )
        assert args["--public-url"].startswith("${PFEFFER_PUBLIC_URL:?")
    # The second process starts once the first has migrated the database.
    assert services["app2"]["depends_on"]["app1"]["condition"] == "service_healthy"
    for name in ("postgres", "redis", "proxy"):
        assert services[name]["healthcheck"]["test"], name
    assert services["postgres"]["volumes"] and "pgdata" in compose["volumes"]
    # Only the proxy is published.
    published = {n for n, s in services.items() if s.get("ports")}
    assert published == {"proxy"}


def test_the_proxy_passes_websockets_to_both_processes(compose: dict[str, Any]) -> None:
    proxy = compose["services"]["proxy"]
    assert proxy["image"].startswith("nginx")
    mounted = {v.split(":")[0]: v.split(":")[1] for v in proxy["volumes"]}
    conf_path = ROOT / mounted["./deploy/nginx.conf"].replace(
        "/etc/nginx/conf.d/default.conf", "deploy/nginx.conf"
    )
    conf = re.sub(r"#.*", "", conf_path.read_text(encoding="utf-8"))
    upstream = re.search(r"upstream\s+(\w+)\s*\{([^}]*)\}", conf)
    assert upstream is not None
    servers = re.findall(r"server\s+([\w.-]+):(\d+)", upstream[2])
    assert servers == [(a, "8000") for a in APPS]
    ws = re.search(r"location\s+/ws/\s*\{([^}]*)\}", conf)
    assert ws is not None
    block = " ".join(ws[1].split())
    assert f"proxy_pass http://{upstream[1]};" in block
    assert "proxy_http_version 1.1;" in block
    assert "proxy_set_header Upgrade $http_upgrade;" in block
    assert "proxy_set_header Connection $connection_upgrade;" in block
    mapping = re.search(r"map\s+\$http_upgrade\s+\$connection_upgrade\s*\{([^}]*)\}", conf)
    assert mapping is not None and "default upgrade;" in " ".join(mapping[1].split())
    timeout = re.search(r"proxy_read_timeout\s+(\d+)h;", block)
    assert timeout is not None and int(timeout[1]) >= 1  # a quiet table stays connected
    for location in re.findall(r"location\s+[^{]*\{([^}]*)\}", conf):
        if "proxy_pass" in location:
            # The peer's address, not a list a client could start with an address of its own.
            assert "proxy_set_header X-Forwarded-For $remote_addr;" in location
    assert re.search(r"location\s*=\s*/metrics\s*\{\s*return\s+404;", conf)


def dockerfile_stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile's stages, each a list of (instruction, arguments)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    stages: list[list[tuple[str, str]]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word.upper() == "FROM":
            stages.append([])
        stages[-1].append((word.upper(), rest.strip()))
    return stages


def test_both_processes_share_the_solver_cache_and_its_lock(compose: dict[str, Any]) -> None:
    """Issue 21 §1: a table's rules are solved in the background once, one solve at a time,
    and both processes read the table (one volume for the cache, the lock inside it)."""
    cache = "/home/pfeffer/.local/share/pfeffer/solver"
    for name in APPS:
        app = compose["services"][name]
        assert f"solver:{cache}" in app["volumes"]
        assert app["environment"]["PFEFFER_SOLVE_LOCK"].startswith(cache + "/")
    assert "solver" in compose["volumes"]
    runs = " ".join(args for word, args in dockerfile_stages()[-1] if word == "RUN")
    assert f"mkdir -p {cache}" in runs  # the volume then belongs to the user


def test_the_image_is_slim_and_runs_without_root() -> None:
    stages = dockerfile_stages()
    final = stages[-1]
    assert "slim" in final[0][1] or "alpine" in final[0][1]
    users = [args for word, args in final if word == "USER"]
    assert users, "the image must not run as root"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0")
    # The program starts after the last USER: nothing after it switches back.
    words = [word for word, _ in final]
    assert words.index("CMD") > max(i for i, w in enumerate(words) if w == "USER")
    cmd = json.loads(dict(final)["CMD"])
    assert cmd[:2] == ["pfeffer", "serve"] and "0.0.0.0" in cmd
    assert "readyz" in dict(final)["HEALTHCHECK"]
    runs = " ".join(args for word, args in final if word == "RUN")
    assert "useradd" in runs and "rm -rf /wheels" in runs
    assert all("http" not in args for word, args in final if word == "ADD")
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8")
    assert "*" in ignored.splitlines()  # only what the image needs is sent to the build


def test_the_guide_names_the_steps() -> None:
    guide = (ROOT / "docs/deploy.md").read_text(encoding="utf-8")
    for step in ("POSTGRES_PASSWORD", "docker compose up", "/readyz", "/metrics", "backup"):
        assert step in guide, step
    for shown in re.findall(r"^\s*(pfeffer serve .*)$", guide, flags=re.M):
        options = {w for w in shlex.split(shown) if w.startswith("--")}
        assert options - {"--redis", "--workers"} <= serve_options(), shown
