"""Make the shipped dice puzzles: ``python -m tools.dice_puzzles`` (from the repository's root)
plays games of the computer's levels against each other under the default rules, keeps the
decisions that matter (:mod:`pfeffer.dice.solver.puzzles`) and writes
``src/pfeffer/dice/data/puzzles-default.json.gz``; it prints how many candidates each filter kept
and how many puzzles a minute of CPU time made (docs/trainer.md quotes them).
``tests/dice/test_puzzles.py`` checks every shipped puzzle against the solver.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from pfeffer.dice.puzzle_set import SHIPPED, dumps
from pfeffer.dice.solver import solve
from pfeffer.dice.solver.puzzles import generate

#: Puzzles of each kind in the shipped set. Under the default rules a made Pfeffer call pays
#: nothing, so the right answer to "Call Pfeffer?" is always no: a few of those are enough.
PER_KIND = {"keep": 1500, "bank": 1500, "pfeffer": 300}


def main(argv: list[str] | None = None) -> None:
    """Generate the set and write it (``--out`` elsewhere, ``--games`` at most)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games to play at most")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=str(SHIPPED))
    args = parser.parse_args(argv)
    strategy = solve()
    generate(strategy, games=1, seed=10**9)  # compile the kernels before the clock starts
    start = time.process_time()
    found, counts = generate(strategy, games=args.games, seed=args.seed, per_kind=PER_KIND)
    took = time.process_time() - start
    blob = dumps(found, games=counts.games, seed=args.seed, per_kind=PER_KIND)
    with open(args.out, "wb") as f:
        f.write(blob)
    print(f"games played          {counts.games}")
    print(f"decisions with choice {counts.decisions}")
    print(f"  the choice matters  {counts.mattered}")
    print(f"  standing on its own {counts.standalone}")
    print(f"  new                 {counts.new}")
    print(f"  kept (kind quota)   {counts.kept}  {dict(counts.by_kind)}")
    themes = Counter(t for p in found for t in p.themes)
    print(f"themes                {dict(themes.most_common())}")
    print(f"CPU time              {took:.1f} s, {counts.kept / took * 60:.0f} puzzles a minute")
    print(f"written               {args.out} ({len(blob)} bytes)")


if __name__ == "__main__":
    main()
