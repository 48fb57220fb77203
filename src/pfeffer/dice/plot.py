"""Strategy plots of a solved table with matplotlib (the optional extra ``pfeffer[plots]``):
when to bank, the chance to win, the value of calling Pfeffer and the first player's advantage
by target. The numbers come from :mod:`pfeffer.dice.strategy_data`; this module only draws.

Each ``plot_*`` function writes one file (PNG or SVG, by the file's suffix) and returns its path.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pfeffer.dice.strategy_data import BankMap, TargetRow

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = ("png", "svg")


class PlotsUnavailable(ValueError):
    """matplotlib is not installed."""


def _figure(width: float, height: float) -> Figure:
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotsUnavailable("the plots need matplotlib: pip install 'pfeffer[plots]'") from None
    return Figure(figsize=(width, height), layout="constrained")


def _save(fig: Figure, path: Path) -> Path:
    if path.suffix.lstrip(".") not in FORMATS:
        raise ValueError(f"a plot is written as {' or '.join(FORMATS)}, not {path.name!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    return path


def _extent(scores: Any) -> tuple[float, float, float, float]:
    step = float(scores[1] - scores[0]) if len(scores) > 1 else 1.0
    lo, hi = float(scores[0]) - step / 2, float(scores[-1]) + step / 2
    return (lo, hi, lo, hi)


def panel_limits(panel: Any) -> tuple[float, float]:
    """The colour scale of one map: from its lowest to its highest threshold (NaN, "never
    bank", left out), so that each number of dice shows where its own thresholds lie."""
    values = np.asarray(panel, dtype=float)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return (0.0, 1.0)
    lo, hi = float(values.min()), float(values.max())
    return (lo, hi) if hi > lo else (lo - 1.0, hi + 1.0)


def bank_figure(data: BankMap, *, title: str = "") -> Figure:
    """The figure of :func:`plot_bank_thresholds`: five maps, each with its own colour scale and
    colour bar (one scale for all made the 1-3 dice maps, whose thresholds lie far below those
    of 4 and 5 dice, uniformly dark)."""
    fig = _figure(18, 3.8)
    axes = fig.subplots(1, 5, sharey=True)
    for k, ax in enumerate(axes):
        lo, hi = panel_limits(data.thresholds[k])
        image = ax.imshow(
            data.thresholds[k], origin="lower", extent=_extent(data.scores), vmin=lo, vmax=hi,
            cmap="viridis", aspect="auto",
        )  # fmt: skip
        ax.set_title(f"{k + 1} {'die' if k == 0 else 'dice'} left")
        ax.set_xlabel("opponent's total")
        fig.colorbar(image, ax=ax, label="bank from this turn total" if k == 4 else None)
    axes[0].set_ylabel("own total")
    kind = "under Auto-Pfeffer" if data.auto else "normal turn"
    fig.suptitle(title or f"When to bank ({kind}; white: roll on)")
    return fig


def plot_bank_thresholds(data: BankMap, path: Path, *, title: str = "") -> Path:
    """Five maps (1-5 dice to throw next): the turn total from which to bank, by own total
    (up) and the opponent's (across), each on its own colour scale."""
    return _save(bank_figure(data, title=title), path)


def plot_win_map(scores: Any, w: Any, path: Path, *, title: str = "") -> Path:
    """The chance to win of the player about to start a turn, by own and opponent's total."""
    fig = _figure(6.5, 5.5)
    ax = fig.subplots()
    image = ax.imshow(
        w, origin="lower", extent=_extent(scores), vmin=0, vmax=1, cmap="RdBu", aspect="auto"
    )
    levels = [0.1, 0.25, 0.5, 0.75, 0.9]
    ax.contour(scores, scores, w, levels=levels, colors="k", linewidths=0.6)
    ax.set_xlabel("opponent's total")
    ax.set_ylabel("own total (about to start a turn)")
    fig.colorbar(image, ax=ax, label="chance to win")
    ax.set_title(title or "Chance to win (both playing perfectly)")
    return _save(fig, path)


def plot_pfeffer_value(
    situations: Sequence[tuple[int, int]],
    results: Sequence[int],
    values: Any,
    path: Path,
    *,
    title: str = "",
) -> Path:
    """What calling Pfeffer adds to the chance to win, by the predecessor's result, one line
    per score situation."""
    fig = _figure(7, 4.5)
    ax = fig.subplots()
    for (own, other), row in zip(situations, values, strict=True):
        ax.plot(results, 100 * np.asarray(row), label=f"own {own}, opponent {other}")
    ax.axhline(0, color="k", linewidth=0.6)
    ax.set_xlabel("the predecessor's result (the stake is this plus the margin)")
    ax.set_ylabel("calling Pfeffer instead of rolling (percentage points)")
    ax.legend(fontsize="small")
    ax.set_title(title or "The value of calling Pfeffer")
    return _save(fig, path)


def plot_first_player(rows: Sequence[TargetRow], path: Path, *, title: str = "") -> Path:
    """The first player's winning chance (and the fair head start for the second) by target."""
    fig = _figure(7, 4.5)
    ax = fig.subplots()
    targets = [r.target for r in rows]
    ax.plot(targets, [100 * r.first_player for r in rows], "o-", label="first player wins (%)")
    ax.axhline(50, color="k", linewidth=0.6)
    ax.set_xlabel("target")
    ax.set_ylabel("first player's chance to win (%)")
    right = ax.twinx()
    right.plot(targets, [r.compensation for r in rows], "s--", color="tab:orange",
               label="fair head start (points)")  # fmt: skip
    right.set_ylabel("fair head start for the second player (points)")
    lines = ax.get_legend_handles_labels()
    more = right.get_legend_handles_labels()
    ax.legend(lines[0] + more[0], lines[1] + more[1], fontsize="small")
    ax.set_title(title or "The first player's advantage by target")
    return _save(fig, path)
