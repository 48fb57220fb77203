"""The score-sheet app's icons, drawn here (no image library, no download): the favicon's red
die with three pips as PNG files of any size, made with numpy and written with zlib.

A build tool, not part of the server package: ``python -m tools.icons`` (from the repository's
root) writes ``src/pfeffer/web/static/icons/`` (192 and 512 px, and a 512 px "maskable" icon whose
red fills the whole square, so that a phone may cut it to its own shape);
``tests/web/test_pwa.py`` checks that the files there are what this module draws.

>>> png = icon_png(48)
>>> png[:8] == PNG_SIGNATURE and png[16:24] == (48).to_bytes(4, "big") * 2
True
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

import pfeffer.web
from pfeffer.web.routes.pwa import ICONS, RED

__all__ = ["FOLDER", "ICONS", "RED", "icon_pixels", "icon_png", "png", "write_icons"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WHITE = (0xFF, 0xFF, 0xFF)
# The favicon's geometry (static/favicon.svg, viewBox 0 0 64 64): a rounded square and three pips.
BOX, BOX_END, CORNER = 4.0, 60.0, 12.0
PIPS = ((20.0, 20.0), (32.0, 32.0), (44.0, 44.0))
PIP_RADIUS = 6.0
SAMPLES = 4  # samples per pixel and axis (smooth edges)
FOLDER = Path(pfeffer.web.__file__).resolve().parent / "static" / "icons"


def _inside_box(x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Points of the rounded square."""
    lo, hi = BOX + CORNER, BOX_END - CORNER
    dx = np.maximum(np.maximum(lo - x, x - hi), 0.0)
    dy = np.maximum(np.maximum(lo - y, y - hi), 0.0)
    within = (x >= BOX) & (x <= BOX_END) & (y >= BOX) & (y <= BOX_END)
    inside: NDArray[np.bool_] = within & (dx * dx + dy * dy <= CORNER * CORNER)
    return inside


def icon_pixels(size: int, maskable: bool = False) -> NDArray[np.uint8]:
    """The icon as ``size`` x ``size`` RGBA pixels. A maskable icon is red to its edges (the
    pips lie well inside the safe circle of 40 % of the size around the centre)."""
    axis = (np.arange(size * SAMPLES, dtype=np.float64) + 0.5) * (64.0 / (size * SAMPLES))
    x, y = axis[np.newaxis, :], axis[:, np.newaxis]  # broadcast to the grid of samples
    pip = np.zeros((axis.size, axis.size), dtype=bool)
    for cx, cy in PIPS:
        pip |= (x - cx) ** 2 + (y - cy) ** 2 <= PIP_RADIUS**2
    shape = np.ones_like(pip) if maskable else _inside_box(x, y)

    def coverage(samples: NDArray[np.bool_]) -> NDArray[np.float64]:
        blocks = samples.reshape(size, SAMPLES, size, SAMPLES)
        share: NDArray[np.float64] = blocks.mean(axis=(1, 3), dtype=np.float64)
        return share

    alpha, white = coverage(shape), coverage(pip & shape)
    out = np.empty((size, size, 4))
    seen = np.maximum(alpha, 1e-12)
    for c in range(3):  # the colour of the covered part: red and white mixed by their shares
        out[..., c] = (RED[c] * (alpha - white) + WHITE[c] * white) / seen
    out[..., 3] = alpha * 255.0
    return np.asarray(np.rint(np.clip(out, 0.0, 255.0)), dtype=np.uint8)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(pixels: NDArray[np.uint8]) -> bytes:
    """RGBA pixels (height x width x 4) as a PNG file (8 bits a channel, no filter)."""
    height, width = pixels.shape[:2]
    rows = b"".join(b"\x00" + pixels[r].tobytes() for r in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows, 9))
        + _chunk(b"IEND", b"")
    )


def icon_png(size: int, maskable: bool = False) -> bytes:
    """The icon as a PNG file."""
    return png(icon_pixels(size, maskable))


def write_icons(folder: Path = FOLDER) -> list[Path]:
    """Write every icon of :data:`ICONS` into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (size, maskable) in ICONS.items():
        path = folder / name
        path.write_bytes(icon_png(size, maskable))
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - the command that made static/icons/
    for p in write_icons():
        print(p)
