"""The numbers behind the strategy plots agree with the advice at the table, and the plots are
written (matplotlib, the optional extra)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pfeffer.cli.dice_advice import play_turn, table_state
from pfeffer.core.errors import IllegalAction
from pfeffer.dice import DiceRules
from pfeffer.dice.solver import DiceStrategy, advise
from pfeffer.dice.solver.solve import solve_small, solve_tables
from pfeffer.dice.strategy_data import (
    bank_map,
    bank_threshold,
    first_player_by_target,
    pfeffer_value,
    pfeffer_values,
    win_map,
)


@pytest.fixture(scope="module")
def small() -> DiceStrategy:
    return solve_small()


def advised(  # noqa: PLR0917
    s: DiceStrategy, own: int, other: int, auto: bool, total: int, dice: int
) -> str | None:
    """The advice's best action with ``total`` and ``dice`` to throw next, in a game built by the
    engine (the first turn, or after the opponent went bust: Auto-Pfeffer); None if no turn
    gets there."""
    game = table_state(s.rules, own, other, None, last_bust=auto)
    try:
        play_turn(game, total=total, dice=dice)
    except IllegalAction:
        return None
    return advise(s, game)[0].action


@pytest.mark.parametrize(
    ("own", "other", "auto"), [(0, 0, False), (300, 700, False), (650, 200, False), (0, 0, True)]
)
def test_bank_threshold_is_where_the_advice_starts_to_bank(
    small: DiceStrategy, own: int, other: int, auto: bool
) -> None:
    step = small.step
    checked = 0
    for dice in range(1, 6):
        threshold = bank_threshold(small, own, other, dice=dice, auto=auto)
        assert threshold is not None
        for total in (threshold - step, threshold, threshold + step, threshold + 6 * step):
            if total < small.rules.min_bank:
                continue
            expected = "bank" if total >= threshold else "roll"
            got = advised(small, own, other, auto, total, dice)
            if got is not None:
                assert got == expected, (dice, total)
                checked += 1
    assert checked >= 12


def test_maps_are_the_tables_values(small: DiceStrategy) -> None:
    m = bank_map(small, step=250)
    assert m.thresholds.shape == (5, 4, 4) and not m.auto
    assert m.thresholds[2, 1, 3] == bank_threshold(small, 250, 750, dice=3)
    assert np.all(np.nanmin(m.thresholds) >= small.rules.min_bank)
    scores, w = win_map(small, step=100, auto=True)
    assert list(scores) == list(range(0, 1000, 100))
    assert w[3, 7] == small.win_probability(300, 700, auto_pfeffer=True)
    with pytest.raises(ValueError, match="multiple"):
        win_map(small, step=75)


def test_pfeffer_value_is_the_advice_of_calling_less_rolling(small: DiceStrategy) -> None:
    for own, other, last in [(0, 500, 500), (400, 800, 400), (700, 350, 350)]:
        game = table_state(small.rules, own, other, last)
        tips = {t.action: t.win_probability for t in advise(small, game)}
        value = pfeffer_value(small, own, other, last)
        assert value == pytest.approx(tips["pfeffer"] - tips["roll"], abs=1e-12)
        assert value < 0  # with no reward, a call only adds risk
    grid = pfeffer_values(small, [(0, 500), (400, 800)], [350, 400])
    assert grid.shape == (2, 2) and grid[0, 0] == pfeffer_value(small, 0, 500, 350)
    with pytest.raises(ValueError, match="banked points"):
        pfeffer_value(small, 0, 0, 0)


def test_first_player_by_target(small: DiceStrategy) -> None:
    def solver(rules: DiceRules) -> DiceStrategy:
        if rules == small.rules:
            return small
        return solve_tables(rules, lower=20, final_steps=300, tolerance=1e-10)

    rows = first_player_by_target([500, 1000], solver=solver)
    assert [r.target for r in rows] == [500, 1000]
    assert rows[1].first_player == small.win_probability(0, 0)
    assert rows[1].compensation == small.fair_compensation()
    assert rows[0].first_player > rows[1].first_player > 0.5  # shorter games favour the start


def test_plots_are_written(small: DiceStrategy, tmp_path: Path) -> None:
    plot = pytest.importorskip("pfeffer.dice.plot")
    pytest.importorskip("matplotlib")
    bank = plot.plot_bank_thresholds(bank_map(small, step=250), tmp_path / "bank.png")
    scores, w = win_map(small, step=100)
    win = plot.plot_win_map(scores, w, tmp_path / "win.svg")
    values = pfeffer_values(small, [(0, 0), (500, 500)], [350, 400, 450])
    pf = plot.plot_pfeffer_value([(0, 0), (500, 500)], [350, 400, 450], values, tmp_path / "p.png")
    rows = first_player_by_target([1000], solver=lambda r: small)
    first = plot.plot_first_player(rows, tmp_path / "first.svg")
    for path in (bank, win, pf, first):
        assert path.exists() and path.stat().st_size > 1000
    assert bank.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in win.read_text()
    with pytest.raises(ValueError, match="png or svg"):
        plot.plot_win_map(scores, w, tmp_path / "win.jpg")


def test_each_bank_map_has_its_own_colour_scale(small: DiceStrategy) -> None:
    """One scale for all five maps made the 1-3 dice maps uniformly dark (issue 21): each map
    now has its own colour bar, from its own lowest to its highest threshold."""
    plot = pytest.importorskip("pfeffer.dice.plot")
    pytest.importorskip("matplotlib")
    data = bank_map(small, step=250)
    fig = plot.bank_figure(data)
    panels = [ax for ax in fig.axes if ax.images]
    assert len(panels) == 5
    bars = [ax for ax in fig.axes if not ax.images]  # one colour bar's axes per map
    assert len(bars) == 5
    limits = []
    for k, ax in enumerate(panels):
        values = data.thresholds[k][np.isfinite(data.thresholds[k])]
        assert values.size and ax.images[0].get_clim() == (values.min(), values.max())
        limits.append(ax.images[0].get_clim())
        assert ax.images[0].colorbar is not None
    assert len({lim[1] for lim in limits}) > 1  # the scales differ from map to map
    assert plot.panel_limits(np.full((2, 2), np.nan)) == (0.0, 1.0)
    assert plot.panel_limits(np.array([[400.0, np.nan]])) == (399.0, 401.0)
