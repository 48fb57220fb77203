"""Make the shipped Pepper puzzles: ``python -m tools.pepper_puzzles`` (from the repository's root)
plays hands of the computer's levels against each other (2, 3 and 4 players, the default rules),
keeps the decisions with a clear answer (:mod:`pfeffer.pepper.puzzle_gen`) and writes
``src/pfeffer/pepper/data/puzzles.json.gz``; it prints how many candidates each filter kept per
kind and how many puzzles a minute of CPU time made (docs/trainer.md quotes them). Then it
appends the "forced bid" puzzles, made on purpose (:func:`~pfeffer.pepper.puzzle_gen.forced_bids`:
the levels seldom all pass); ``--only-forced`` appends them to the set already written, keeping
its puzzles and their order.
``tests/pepper/test_puzzles.py`` re-solves every shipped open puzzle by double dummy and a sample
of the others with another seed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections import Counter
from pathlib import Path

from pfeffer.pepper.puzzle_gen import WORLDS, Counts, forced_bids, generate
from pfeffer.pepper.puzzle_set import SHIPPED, dumps, loads
from pfeffer.pepper.puzzles import KINDS, MARGIN, PepperPuzzle

#: Puzzles of each kind in the shipped set.
PER_KIND = {"card": 1200, "bid": 500, "trump": 300, "open": 1200}

#: "Forced bid" puzzles appended to the set (bid puzzles beyond ``PER_KIND``).
FORCED = 100


def _forced(
    found: list[PepperPuzzle], about: dict[str, object], seed: int, worlds: int
) -> tuple[list[PepperPuzzle], dict[str, object], Counts]:
    start = time.process_time()
    extra, counts = forced_bids(count=FORCED, seed=seed + 7, worlds=worlds)
    took = time.process_time() - start
    ids = {p.id for p in found}
    new = [p for p in extra if p.id not in ids]
    print(
        f"forced bid    {counts.hands} deals, {counts.candidates['bid']} candidates, "
        f"{counts.clear['bid']} clear, {counts.stable['bid']} stable, {len(new)} added; "
        f"CPU time {took:.1f} s"
    )
    return found + new, {**about, "forced_bid": FORCED, "forced_deals": counts.hands}, counts


def main(argv: list[str] | None = None) -> None:
    """Generate the set and write it (``--out`` elsewhere, ``--hands`` at most)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1500, help="hands to play at most")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--worlds", type=int, default=WORLDS, help="worlds per sample")
    parser.add_argument("--out", default=str(SHIPPED))
    parser.add_argument(
        "--only-forced", action="store_true", help="append the forced bids to --out only"
    )
    args = parser.parse_args(argv)
    if args.only_forced:
        blob = Path(args.out).read_bytes()
        old = loads(blob)
        kept: dict[str, object] = json.loads(gzip.decompress(blob))["about"]
        if any("forced bid" in p.themes for p in old):
            print("the set has its forced bids already")
            return
        found, kept, _ = _forced(list(old), kept, args.seed, args.worlds)
        blob = dumps(found, **kept)
        Path(args.out).write_bytes(blob)
        print(f"written       {args.out} ({len(blob)} bytes, {len(found)} puzzles)")
        return
    # compile the kernels before the clock starts
    generate(hands=1, seed=10**9, per_kind=dict.fromkeys(KINDS, 1), worlds=4, players=(4,))
    start = time.process_time()
    found, counts = generate(
        hands=args.hands, seed=args.seed, per_kind=PER_KIND, worlds=args.worlds
    )
    took = time.process_time() - start
    order = {k: i for i, k in enumerate(KINDS)}
    found.sort(key=lambda p: (order[p.kind], p.difficulty, p.id))
    about: dict[str, object] = {
        "hands": counts.hands, "seed": args.seed, "worlds": args.worlds, "per_kind": PER_KIND,
        "margin": dict(MARGIN),
    }  # fmt: skip
    found, about, _ = _forced(found, about, args.seed, args.worlds)
    blob = dumps(found, **about)
    with open(args.out, "wb") as f:
        f.write(blob)
    print(f"hands played  {counts.hands}")
    print(f"{'kind':8}{'candidates':>12}{'clear':>8}{'stable':>8}{'kept':>8}")
    for k in KINDS:
        print(
            f"{k:8}{counts.candidates[k]:>12}{counts.clear[k]:>8}{counts.stable[k]:>8}"
            f"{counts.kept[k]:>8}"
        )
    themes = Counter(t for p in found for t in p.themes)
    print(f"themes        {dict(themes.most_common())}")
    players = Counter(p.players for p in found)
    print(f"players       {dict(sorted(players.items()))}")
    print(f"CPU time      {took:.1f} s, {len(found) / took * 60:.0f} puzzles a minute")
    print(f"written       {args.out} ({len(blob)} bytes)")


if __name__ == "__main__":
    main()
