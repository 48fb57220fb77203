"""Value iteration for the chance to win a game of Pepper from a score (2 or 3 sides).

A game is modelled as a chain of independent hands, each changing the scores by one of a few
point vectors with given probabilities (:mod:`pfeffer.pepper.outlook` builds them); a hand that
leaves some side at or above the target ends the game, the highest score wins and equal highest
share. Scores below ``lo`` count as ``lo``. ``v[a, b(, c)]`` is side 0's expected share of the win
from the scores ``(lo + a, lo + b(, lo + c))``. States are swept from the highest scores down
(Gauss-Seidel), so most hands lead to states already updated in the same sweep.

>>> import numpy as np
>>> v = np.full((3, 3), 0.5)
>>> pts = np.array([[1, 0], [0, 1]], dtype=np.int64)
>>> iterate2(v, 0, 3, pts, np.array([0.5, 0.5]), 100, 1e-12)   # a race to 3 by coin flips
>>> round(float(v[2, 0]), 4), round(float(v[0, 0]), 4)
(0.875, 0.5)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pfeffer.core.compiled import jit
from pfeffer.pepper.fast.tables import Int64Array

FloatArray = npt.NDArray[np.float64]


@jit
def _share(scores: Int64Array, k: int) -> float:
    """Side 0's share of the win when the game ends with ``scores[:k]``."""
    best = scores[0]
    for i in range(1, k):
        best = max(best, scores[i])
    if scores[0] < best:
        return 0.0
    tied = 0
    for i in range(k):
        if scores[i] == best:
            tied += 1
    return 1.0 / tied


@jit
def iterate2(
    v: FloatArray, lo: int, target: int, pts: Int64Array, prob: FloatArray, sweeps: int, tol: float
) -> None:
    """Sweep ``v`` (two sides) until no value moves by more than ``tol`` (at most ``sweeps``)."""
    m = target - lo
    s = np.zeros(2, dtype=np.int64)
    for _ in range(sweeps):
        delta = 0.0
        for a in range(m - 1, -1, -1):
            for b in range(m - 1, -1, -1):
                total = 0.0
                for k in range(pts.shape[0]):
                    s[0] = lo + a + pts[k, 0]
                    s[1] = lo + b + pts[k, 1]
                    if s[0] >= target or s[1] >= target:
                        total += prob[k] * _share(s, 2)
                    else:
                        total += prob[k] * v[max(s[0] - lo, 0), max(s[1] - lo, 0)]
                delta = max(delta, abs(total - v[a, b]))
                v[a, b] = total
        if delta < tol:
            return


@jit
def iterate3(
    v: FloatArray, lo: int, target: int, pts: Int64Array, prob: FloatArray, sweeps: int, tol: float
) -> None:
    """:func:`iterate2` for three sides."""
    m = target - lo
    s = np.zeros(3, dtype=np.int64)
    for _ in range(sweeps):
        delta = 0.0
        for a in range(m - 1, -1, -1):
            for b in range(m - 1, -1, -1):
                for c in range(m - 1, -1, -1):
                    total = 0.0
                    for k in range(pts.shape[0]):
                        s[0] = lo + a + pts[k, 0]
                        s[1] = lo + b + pts[k, 1]
                        s[2] = lo + c + pts[k, 2]
                        if s[0] >= target or s[1] >= target or s[2] >= target:
                            total += prob[k] * _share(s, 3)
                        else:
                            total += (
                                prob[k] * v[max(s[0] - lo, 0), max(s[1] - lo, 0), max(s[2] - lo, 0)]
                            )
                    delta = max(delta, abs(total - v[a, b, c]))
                    v[a, b, c] = total
        if delta < tol:
            return


__all__ = ["iterate2", "iterate3"]
