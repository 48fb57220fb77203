"""A table needs a human seat (issue 20 §1.7): computer players alone played at full speed for
nobody (110 expert Pepper tables in two minutes took both cores). The API and the new-table
form refuse such a table with a translated message; every preset and "Play now" has a person."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pfeffer.dice.presets import DICE_PRESETS
from pfeffer.pepper.presets import PEPPER_PRESETS
from pfeffer.web.server import create_app
from pfeffer.web.services.newtable import play_now
from tests.web.conftest import form_data

REFUSED = {
    "en": "At least one seat must be played by a human.",
    "de": "Mindestens ein Platz muss von einem Menschen gespielt werden.",
    "cs": "Alespoň na jednom místě musí hrát člověk.",
}


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[TestClient]:
    """The app as ``pfeffer serve`` makes it (no test setting)."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", bot_delay=0)) as c:
        yield c


@pytest.mark.parametrize("game, n", [("dice", 2), ("dice", 8), ("pepper", 4)])
def test_the_api_refuses_a_table_of_computer_players_only(
    plain: TestClient, game: str, n: int
) -> None:
    for lang, text in REFUSED.items():
        seats = [{"kind": "bot", "bot": "random"}] * n
        r = plain.post(f"/api/tables?lang={lang}", json={"game": game, "seats": seats})
        assert r.status_code == 400 and r.json() == {"detail": text}
    r = plain.post(
        "/api/tables", json={"game": game, "preset": None, "seats": [{"kind": "bot"}] * n}
    )
    assert r.status_code == 400
    assert plain.app.state.store.count_tables() == 0  # type: ignore[attr-defined]
    seats = [{"kind": "bot"}] * (n - 1) + [{"kind": "human"}]  # one person is enough
    assert plain.post("/api/tables", json={"game": game, "seats": seats}).status_code == 201


def test_the_new_table_form_cannot_make_one(plain: TestClient) -> None:
    fields = {"players": "4", **{f"seat{i}_kind": "expert" for i in range(4)}}
    fields.update({f"seat{i}_name": f"R{i}" for i in range(4)})
    r = plain.post("/new/pepper?lang=de", data=form_data(plain, fields), follow_redirects=False)
    assert r.status_code == 400 and REFUSED["de"] in r.text
    assert plain.app.state.store.count_tables() == 0  # type: ignore[attr-defined]
    fields["seat2_kind"] = "human"
    r = plain.post("/new/pepper", data=form_data(plain, fields), follow_redirects=False)
    assert r.status_code == 303


def test_every_preset_and_play_now_seat_a_person() -> None:
    for preset in (*DICE_PRESETS, *PEPPER_PRESETS):
        assert "human" in preset.seats, preset.key
    for game in ("dice", "pepper"):
        assert any(s["kind"] == "human" for s in play_now(game)[1])
