"""What a two-player solve of a rule set will cost here, before it starts: the time and the
memory, from the table's size (``n`` totals a side: target and lower bound in the solver's
steps) and costs per state measured on this machine. The terminal refuses a solve that would not
fit the machine's memory or an hour, and asks before one of more than a few minutes.

>>> from pfeffer.dice.rules import DiceRules
>>> e = estimate(DiceRules(), threads=2)
>>> e.path, e.steps, round(e.seconds / 60, 1)
('fast', 400, 4.3)
>>> e.refusal(memory=16 * 2**30) is None
True
>>> print(estimate(DiceRules(target=30_000), threads=2).refusal(memory=16 * 2**30))
it would take about 68 minutes here, and the limit is one hour (800 totals a side; 3.7 GB ...)
>>> print(estimate(DiceRules(target=100_000), threads=2).refusal(memory=16 * 2**30))
it would need about 71.6 GB of memory, and this machine has 16.0 GB free (2,200 totals ...)
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver.solve import LOWER_STEPS, available_cores
from pfeffer.dice.solver.tables import build_tables

# Costs measured on this machine (2 cores, shared; CPU seconds, one thread, numba's cache warm),
# by a script that timed solve_tables(rules, lower=..., threads=1) with time.process_time() and
# read resource.getrusage(RUSAGE_SELF).ru_maxrss, on 2026-12-04 (issue 21's helper session):
#   fast path, target 2000, lower 200 (n = 240): 62.0 s CPU, 8 sweeps, 273 MB peak;
#   the defaults, n = 400, on 2026-12-03 (docs/strategy.md): 502 s CPU on two threads, 659 MB.
# The fast path's work grows about as n^4 (n^2 states, turns of about n totals, and the deep
# states' turns get longer too): 62.0 / 240^4 = 1.87e-8 and 502 / 400^4 = 1.96e-8; target 5000
# (n = 300, the "short" preset) 107.4 s CPU, 370 MB: 1.33e-8, so the estimate errs long there.
FAST_CPU_PER_N4 = 1.9e-8
# Below n = 240 the n^4 law errs short: a small target's table is mostly the lower bound's
# totals, and the solve costs about as much as target 2000's whatever the target (measured
# 2026-12-06 by issue 21's i21-rest helper as above: time.process_time() around
# solve_tables(DiceRules(target=T), lower=200, threads=1) after a warm-up solve; load 7-10):
#   target 400 (n = 208): 52.9 s; 500 (n = 210): 58.7 s, 7 sweeps; 1000 (n = 220): 60.6 s;
#   2000 (n = 240): 62.0 s (above). The n^4 law said 36, 37, 45 and 62 s. So the fast path costs
# at least FAST_FLOOR_CPU at the normal lower bound; with another bound the floor is scaled as
# the table, by (lower / LOWER_STEPS)^4 (a guess: only the normal bound was measured).
FAST_FLOOR_CPU = 60.0
# General path (plain value iteration, one turn per state per sweep), CPU seconds per start
# state and total a side, every sweep counted (same script and day):
#   opening-only minimum, target 1000, lower 20 (n = 40; 2 x 2 flags x 2 kinds x n^2 states,
#   19 sweeps): 33.4 s CPU (37.6 s with numba compiling first) -> 33.4 / (12,800 x 40);
#   stake reward, target 500, lower 20 (n = 30; n^3 states of a call, 91 sweeps; lower 10:
#   60 sweeps): 264.2 s CPU -> 264.2 / (28,800 x 30). Sweeps grow with the size, so larger
#   tables take longer than this says.
GENERAL_CPU = 6.5e-5
CALLS_CPU = 3.1e-4
#: The process before the tables (Python, numpy, the compiled kernels), bytes.
BASE_MEMORY = 230 * 2**20
#: The fast path's band pools per thread and kind, bytes per n^3 (resident; from the two peaks
#: above: (273 - 220) MB / (2 x 240^3) and (659 - 220) MB / (2 threads x 2 x 400^3)).
FAST_BYTES_PER_N3 = 1.8
#: A solve that asks first (``pfeffer dice solve``, without ``--yes``), and one that is refused.
ASK_SECONDS = 180.0
LIMIT_SECONDS = 3600.0
#: The share of the available memory a solve may plan to take.
MEMORY_SHARE = 0.8


@dataclasses.dataclass(frozen=True, slots=True)
class Refusal:
    """Why a solve should not start here: ``kind`` ``"memory"`` (it would need more than
    :data:`MEMORY_SHARE` of the ``free`` bytes) or ``"time"`` (more than the limit, an hour)."""

    kind: str
    free: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SolveEstimate:
    """The expected cost of solving ``rules``: the path it takes (``"fast"`` or ``"general"``),
    ``steps`` totals a side, ``states`` start-of-turn states, wall ``seconds`` on ``threads``
    threads and peak ``memory`` in bytes."""

    rules: DiceRules
    path: str
    steps: int
    states: int
    threads: int
    seconds: float
    memory: int

    def refused(self, memory: int | None = None, limit: float = LIMIT_SECONDS) -> Refusal | None:
        """Why this solve should not start here (None: it fits): more than :data:`MEMORY_SHARE`
        of ``memory`` (default: what is available now), or more than ``limit`` seconds."""
        have = available_memory() if memory is None else memory
        if have is not None and self.memory > MEMORY_SHARE * have:
            return Refusal("memory", have)
        if self.seconds > limit:
            return Refusal("time")
        return None

    def refusal(self, memory: int | None = None, limit: float = LIMIT_SECONDS) -> str | None:
        """:meth:`refused` in English words (None: it fits)."""
        why = self.refused(memory, limit)
        size = f"{self.steps:,} totals a side"
        if why is None:
            return None
        if why.kind == "memory":
            return (
                f"it would need about {gigabytes(self.memory)} of memory, and this machine has "
                f"{gigabytes(why.free or 0)} free ({size}; about {duration(self.seconds)})"
            )
        return (
            f"it would take about {duration(self.seconds)} here, and the limit is one hour "
            f"({size}; {gigabytes(self.memory)} of memory)"
        )

    def text(self) -> str:
        """The estimate in words: ``about 4 minutes, 0.7 GB``."""
        return f"about {duration(self.seconds)}, {gigabytes(self.memory)} of memory"


def estimate(
    rules: DiceRules, *, threads: int | None = None, lower: int = LOWER_STEPS
) -> SolveEstimate:
    """The cost of a two-player solve of ``rules`` here on ``threads`` threads (None: the cores
    this process may use, as :func:`pfeffer.dice.solve` does). Rules with Pfeffer and no reward
    are estimated for the fast path; if its check finds that a call pays, the solve continues on
    the general path with every call valued, which this does not foresee (not met so far)."""
    t = build_tables(rules)
    n = t.target + lower
    cores = max(1, threads if threads is not None else available_cores())
    general = rules.min_bank_opening_only or (rules.pfeffer and rules.pfeffer_reward == "stake")
    if general:
        flags = 2 if rules.min_bank_opening_only else 1
        plain = flags * flags * 2 * n * n
        calls = flags * flags * n**3 if rules.pfeffer and rules.pfeffer_reward == "stake" else 0
        cpu = (GENERAL_CPU * plain + CALLS_CPU * calls) * n
        memory = BASE_MEMORY + 8 * (plain + calls)
        return SolveEstimate(rules, "general", n, plain + calls, 1, cpu, memory)
    kinds = 2
    speedup = 1 + 0.9 * (min(cores, 2) - 1)  # two threads: about 1.9 cores' work (docs)
    memory = BASE_MEMORY + int(min(cores, 2) * kinds * FAST_BYTES_PER_N3 * n**3)
    cpu = max(FAST_CPU_PER_N4 * n**4, FAST_FLOOR_CPU * (lower / LOWER_STEPS) ** 4)
    return SolveEstimate(rules, "fast", n, kinds * n * n, cores, cpu / speedup, memory)


def available_memory() -> int | None:
    """The memory available to a new solve now (``MemAvailable``), bytes; None if unknown."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def duration(seconds: float) -> str:
    """``40 seconds``, ``4 minutes``, ``3 hours``.

    >>> duration(42), duration(255), duration(3 * 3600 + 5)
    ('42 seconds', '4 minutes', '3 hours')
    """
    if seconds < 90:
        return f"{max(1, round(seconds))} seconds"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} minutes"
    return f"{round(seconds / 3600):,} hours"


def gigabytes(size: int) -> str:
    """``0.7 GB``."""
    return f"{size / 2**30:,.1f} GB"
