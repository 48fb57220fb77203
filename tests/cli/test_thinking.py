"""The terminal's "thinking…" line: shown while a hint is computed, keys typed meanwhile dropped."""

from __future__ import annotations

import io
import os
import select
import sys

import pytest
from rich.console import Console

from pfeffer.cli import common

pty = pytest.importorskip("pty", reason="a pseudo-terminal (POSIX only)")


def test_keys_typed_while_thinking_are_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first hint after an install took 8-15 s; keys typed meanwhile echoed and then
    # answered the next prompt.
    leader, follower = pty.openpty()
    with os.fdopen(follower, "r", closefd=True) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        out = io.StringIO()
        console = Console(file=out, force_terminal=True)
        with common.thinking(console, "thinking…"):
            os.write(leader, b"1\n")  # typed blind while the hint is computed
            ready, _, _ = select.select([stdin], [], [], 1.0)
            assert ready  # the keys are waiting on the terminal's input
        assert "thinking…" in out.getvalue()
        ready, _, _ = select.select([stdin], [], [], 0.2)
        assert not ready  # and were dropped when the hint was done
    os.close(leader)


def test_no_terminal_no_spinner() -> None:
    out = io.StringIO()
    with common.thinking(Console(file=out), "thinking…"):
        pass
    assert out.getvalue() == ""


def test_pepper_hints_warm_up_with_a_line_before_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("numba", reason="hints need the 'ai' extra")
    from pfeffer.cli import pepper
    from pfeffer.cli.pepper_advice import hint_line as real

    calls: list[int | None] = []

    def spy(game: object, lang: str, draw: object, worlds: int | None = None) -> str:
        calls.append(worlds)
        return real(game, lang, draw, worlds)  # type: ignore[arg-type]

    monkeypatch.setattr(pepper, "hint_line", spy)
    out = io.StringIO()
    pepper.warm_up_hints(Console(file=out, force_terminal=True))
    assert calls == [1] and "getting the hints ready" in out.getvalue()
