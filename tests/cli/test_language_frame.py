"""Click's and Typer's frame in German and Czech (issue 22 §3): ``pfeffer serve``'s help and
refusals, the type labels and usage words of ``--help``, Click's rarer errors, and ``--lang``
given after ``--help``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import Result

from tests.cli.test_language import run

#: English words of Click's frame and of ``pfeffer serve`` (whole words, case-sensitive).
FRAME_ENGLISH = [
    "Usage", "OPTIONS", "COMMAND", "ARGS", "Options", "Arguments", "Error", "int", "str",
    "bool", "float", "path", "file", "list", "KEY", "VALUE", "integer", "Input", "should",
    "requires", "Possible", "Did you mean", "does not exist", "is a directory",
    "not one of", "Address", "listen", "Database", "Seconds", "processes", "Several", "needs",
    "unknown", "limit", "without", "rate", "default", "env var", "seats", "throw", "players",
    "Show", "Language", "HTTPS needs", "or json", "bad port", "got",
]  # fmt: skip


def frame_english(text: str) -> list[str]:
    """The words of :data:`FRAME_ENGLISH` in ``text`` (paths, URLs, options' names, quoted
    values and the documentation's section name left out)."""
    text = re.sub(r"(\S*/\S*|--[\w-]+|'[^']*'|pfeffer \w+|\w+=\S+)", " ", text)
    return [w for w in FRAME_ENGLISH if re.search(rf"(?<![\w-]){w}(?![\w-])", text)]


def said(result: Result) -> str:
    return " ".join(result.output.replace("│", " ").split())


SERVE_REFUSALS = [
    ["--port", "abc"],
    ["--workers", "0"],
    ["--workers", "2"],
    ["--log-format", "xml"],
    ["--ssl-keyfile", "{tmp}/none.pem"],
    ["--ssl-certfile", "{tmp}"],
    ["--ssl-keyfile", "{key}"],
    ["--limit", "foo=1"],
    ["--limit", "http=0"],
    ["--public-url", "ftp://x"],
    ["--public-url", "http://x:99999"],
    ["--bot-delay", "soon"],
]


def refused_in(tmp_path: Path, lang: str, commands: list[list[str]]) -> str:
    """What each command line says when refused in ``lang`` (each must exit with 2 and show no
    English frame word), joined."""
    outputs = []
    for args in commands:
        result = run(tmp_path, ["--lang", lang, *args])
        assert result.exit_code == 2, (args, result.output)
        assert not frame_english(result.output), result.output
        outputs.append(said(result))
    return " ".join(outputs)


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_serve_help_and_refusals(tmp_path: Path, lang: str) -> None:
    key = tmp_path / "key.pem"
    key.write_text("")
    page = run(tmp_path, ["serve", "--lang", lang, "--help"])
    assert page.exit_code == 0 and not frame_english(page.output), page.output
    assert ("Den Webserver starten" if lang == "de" else "Spustit webový server") in page.output
    refusals = [["serve", *(a.format(tmp=tmp_path, key=key) for a in r)] for r in SERVE_REFUSALS]
    out = refused_in(tmp_path, lang, refusals)
    if lang == "de":
        assert "'abc' ist keine ganze Zahl" in out and "mindestens 1 sein" in out
        assert "unbekanntes Limit 'foo=1'" in out and "ist ein Ordner" in out
    else:
        assert "'abc' není celé číslo" in out and "aspoň 1" in out
        assert "neznámé omezení 'foo=1'" in out and "je složka" in out


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_type_labels_and_usage_words(tmp_path: Path, lang: str) -> None:
    for command in (["dice", "play"], ["dice", "score"], ["dice", "advise"], ["pepper", "sheet"],
                    ["dice", "plot"], [], ["dice"]):  # fmt: skip
        out = run(tmp_path, ["--lang", lang, *command, "--help"]).output
        assert not frame_english(out), (command, out)
    out = run(tmp_path, ["--lang", lang, "dice", "play", "--help"]).output
    if lang == "de":
        assert "[OPTIONEN] [Plätze]..." in out and "<Ganzzahl>" in out
        assert "SCHLÜSSEL=WERT" in out and "<Pfad>" in out
    else:
        assert "[VOLBY] [místa]..." in out and "<celé číslo>" in out
        assert "KLÍČ=HODNOTA" in out and "<cesta>" in out
    # The Arguments panel keeps the "..." of several values after the translated name.
    panel = "│   Plätze...  " if lang == "de" else "│   místa...  "
    assert panel in out, out
    groups = run(tmp_path, ["--lang", lang, "--help"]).output
    assert ("BEFEHL [ARGUMENTE]..." if lang == "de" else "PŘÍKAZ [ARGUMENTY]...") in groups


CLICK_ERRORS = [
    ["dice", "play", "--seed", "x"],
    ["dice", "play", "--seeed"],
    ["dic"],
    ["dice", "play", "--seed"],
    ["dice", "rules", "extra1", "extra2"],
    ["dice", "score"],
    ["dice", "replay"],
    ["pepper", "play", "--players", "x"],
    ["dice", "advise", "--dice", "9"],
]


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_rarer_click_errors(tmp_path: Path, lang: str) -> None:
    out = refused_in(tmp_path, lang, CLICK_ERRORS)
    if lang == "de":
        assert "'x' ist keine ganze Zahl" in out and "(mögliche Optionen: --save, --seed)" in out
        assert "Meintest du 'dice'?" in out and "Die Option '--seed' braucht einen Wert" in out
        assert "Fehlendes Argument 'Würfel'" in out and "höchstens 6 sein" in out
    else:
        assert "'x' není celé číslo" in out and "(možné volby: --save, --seed)" in out
        assert "Nemáš na mysli 'dice'?" in out and "Volba '--seed' potřebuje hodnotu" in out
        assert "Chybí argument 'kostky'" in out and "nejvýš 6" in out


def test_english_frame_stays_english(tmp_path: Path) -> None:
    out = said(run(tmp_path, ["--lang", "en", "dice", "play", "--seed", "x"]))
    assert "Input should be a valid integer" in out
    out = run(tmp_path, ["--lang", "en", "dice", "play", "--help"]).output
    assert "[OPTIONS] [seats]..." in out and "<int>" in out and "KEY=VALUE" in out


@pytest.mark.parametrize(
    "args",
    [["--help", "--lang", "de"], ["dice", "play", "--help", "--lang", "de"],
     ["--lang", "cs", "dice", "rules", "--help", "--lang", "de"]],
)  # fmt: skip
def test_lang_after_help(tmp_path: Path, args: list[str]) -> None:
    out = run(tmp_path, args, LANG="cs_CZ.UTF-8").output
    assert "Aufruf:" in out and "Optionen" in out and "Použití" not in out, out


#: English words of ``pfeffer serve``'s start-up lines and of the missing-extra message.
START_ENGLISH = [
    "running", "open", "machine", "Phones", "network", "scan", "camera", "Over",
    "Invite", "links", "use", "Database", "fan-out", "process", "processes", "Stop", "Note",
    "work", "needs", "optional", "part", "missing",
]  # fmt: skip


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_serve_start_up_lines(tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``pfeffer serve`` says when it starts (where phones open it, the QR code's line,
    the database, several processes) is in the terminal's language (uvicorn.run replaced:
    nothing listens)."""
    import os

    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    monkeypatch.setattr("pfeffer.web.invite.lan_addresses", lambda: ["192.168.1.5"])
    monkeypatch.setattr(os, "environ", os.environ.copy())  # the processes' settings go there
    db = ["--db", f"sqlite:///{tmp_path / 'serve.db'}"]
    outputs = [
        run(tmp_path, ["--lang", lang, "serve", *db, *more])
        for more in (
            ["--host", "0.0.0.0", "--public-url", "https://pfeffer.example"],
            [],
            ["--workers", "2", "--redis", "redis://127.0.0.1:6379/0"],
        )
    ]
    for result in outputs:
        assert result.exit_code == 0, result.output
        text = re.sub(r"\S*://\S*|--[\w-]+|Ctrl\+C", " ", result.output)
        found = [w for w in START_ENGLISH if re.search(rf"(?<![\w-]){w}(?![\w-])", text)]
        assert not found, (found, result.output)
    out = " ".join(r.output for r in outputs)
    if lang == "de":
        assert "Pfeffer läuft" in out and "Handykamera" in out and "2 Prozesse" in out
    else:
        assert "Pfeffer běží" in out and "fotoaparátem telefonu" in out and "2 procesy" in out


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_a_missing_extra_is_named_in_the_language(
    tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command whose optional part is not installed says so, with the install command, in
    the terminal's language; every feature that can need one has its name in the catalogue."""
    from pfeffer.core import extras
    from pfeffer.core.extras import MissingExtra
    from pfeffer.core.i18n import translate_error
    from pfeffer.pepper.bots import LEVEL_NEEDS

    monkeypatch.setattr(extras, "_installed", lambda module: module != "fastapi")
    result = run(tmp_path, ["--lang", lang, "serve"])
    assert result.exit_code == 1 and "pip install 'pfeffer[web]'" in result.output
    assert ("Dazu fehlt der optionale Teil" if lang == "de" else "chybí volitelná část") in (
        result.output
    )
    src = Path(extras.__file__).parents[1]
    needs = re.compile(r'require\(\s*"\w+",\s*"([^"]+)"')
    named = {m for p in src.rglob("*.py") for m in needs.findall(p.read_text(encoding="utf-8"))}
    assert len(named) >= 6, named
    for what in [*named - {"pfeffer serve"}, *LEVEL_NEEDS.values()]:
        said = translate_error(MissingExtra("ai", what, ["numba"]), lang)
        assert "needs the optional part" not in said and not said.startswith(what), said
