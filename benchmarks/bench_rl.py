"""Speed of the research adapters (pfeffer.rl) against the raw engines and OpenSpiel's own euchre.

    python benchmarks/bench_rl.py [--seconds N] [--repeats R]

Every loop plays uniformly random moves from Python, one core, in this one process (open-spiel is
part of the extra ``pfeffer[rl]``, so no separate virtualenv is needed):

- Pepper, 4 players: the raw engine (``legal_actions``/``apply``, the seeded ``deal``); the
  OpenSpiel game ``pfeffer_pepper`` through the pyspiel API (``is_chance_node``, ``chance_outcomes``
  sampled by hand, ``legal_actions``, ``apply_action``; the deal is 24 chance steps); the PettingZoo
  environment ``pepper_env`` (``last``/``step`` with a random legal id from the mask); and
  OpenSpiel's C++ ``euchre`` through the same pyspiel loop (one euchre game is one hand).
- Dice, 2 players: the raw engine (the seeded ``roll``), ``pfeffer_dice`` through pyspiel (every
  throw a chance node), and ``dice_env``.

A step is one applied action (chance outcomes included, for the pyspiel loops); hands/s and
turns/s compare whole units of play across loops that count steps differently. Figures are
medians of R runs of N seconds each, interleaved so all loops see the same machine load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from anchor_env import pin_one_core

Rate = tuple[float, float]  # steps/s, units/s (hands or turns)


def _timed(seconds: float, batch: Callable[[], tuple[int, int]]) -> Rate:
    steps = units = 0
    start = time.perf_counter()
    while True:
        s, u = batch()
        steps += s
        units += u
        now = time.perf_counter()
        if now - start >= seconds:
            return steps / (now - start), units / (now - start)


def pepper_raw(seconds: float, seed: int) -> Rate:
    """The engine alone: random hands (4 players)."""
    from pfeffer.pepper import PepperGame

    rng = random.Random(seed)
    game = PepperGame(players=4, seed=seed)

    def batch() -> tuple[int, int]:
        nonlocal game
        steps = 0
        for _ in range(20):
            if game.is_over:
                game = PepperGame(players=4, seed=rng.getrandbits(48))
            game.apply("deal")
            steps += 1
            while game.phase not in ("deal", "over"):
                game.apply(rng.choice(game.legal_actions()))
                steps += 1
        return steps, 20

    return _timed(seconds, batch)


def pyspiel_loop(seconds: float, seed: int, name: str, unit: Callable[[Any], int]) -> Rate:
    """Random play of ``pyspiel.load_game(name)`` through the pyspiel API; ``unit(state)`` counts
    the hands or turns of a finished game."""
    import pyspiel

    from pfeffer.rl.openspiel import register

    register()
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    choice, rand = rng.choice, rng.random

    def batch() -> tuple[int, int]:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                r = rand()
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]
                for a, p in outcomes:
                    r -= p
                    if r < 0:
                        action = a
                        break
                state.apply_action(action)
            else:
                state.apply_action(choice(state.legal_actions()))
            steps += 1
        return steps, unit(state)

    return _timed(seconds, batch)


def pettingzoo_loop(seconds: float, seed: int, env: Any, unit: Callable[[Any], int]) -> Rate:
    """Random play of a PettingZoo AEC environment (a random legal id from the mask)."""
    rng = random.Random(seed)
    games = 0

    def batch() -> tuple[int, int]:
        nonlocal games
        env.reset(seed=seed + games)
        games += 1
        steps = 0
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
            del agent
        return steps, unit(env)

    return _timed(seconds, batch)


def dice_raw(seconds: float, seed: int, max_turns: int) -> Rate:
    """The engine alone: random 2-player games cut at ``max_turns`` turns each, like the
    adapters."""
    from pfeffer.dice import DiceGame
    from pfeffer.rl.observations import text

    rng = random.Random(seed)

    def batch() -> tuple[int, int]:
        game = DiceGame(2, seed=rng.getrandbits(48))
        steps = turns = 0
        while not game.is_over and turns < 2 * max_turns:
            action = rng.choice([a for a in game.legal_actions() if a != "void"])
            game.apply(action)
            steps += 1
            if action == "bank" or (action == "roll" and text(game.phase) == "start"):
                turns += 1  # banked, or the throw busted
        return steps, turns

    return _timed(seconds, batch)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: prints a table of medians and the ratios."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one run (default 2)")
    ap.add_argument("--repeats", type=int, default=5, help="runs per loop; the median counts")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    pin_one_core()
    from pfeffer.rl.pettingzoo import dice_env, pepper_env

    max_turns = 100
    penv, denv = pepper_env(players=4), dice_env(players=2, max_turns=max_turns)
    loops: dict[str, Callable[[int], Rate]] = {
        "pepper engine (raw)": lambda s: pepper_raw(args.seconds, s),
        "pfeffer_pepper via pyspiel": lambda s: pyspiel_loop(
            args.seconds, s, "pfeffer_pepper(players=4)", lambda st: st.engine.hand_number
        ),
        "pepper_env (PettingZoo)": lambda s: pettingzoo_loop(
            args.seconds, s, penv, lambda e: e.game.hand_number
        ),
        "OpenSpiel euchre via pyspiel": lambda s: pyspiel_loop(
            args.seconds, s, "euchre", lambda st: 1
        ),
        "dice engine (raw)": lambda s: dice_raw(args.seconds, s, max_turns),
        "pfeffer_dice via pyspiel": lambda s: pyspiel_loop(
            args.seconds,
            s,
            f"pfeffer_dice(players=2,max_turns={max_turns})",
            lambda st: len(st.engine.history),
        ),
        "dice_env (PettingZoo)": lambda s: pettingzoo_loop(
            args.seconds, s, denv, lambda e: len(e.game.history)
        ),
    }
    runs: dict[str, list[Rate]] = {name: [] for name in loops}
    for i in range(args.repeats):
        for name, loop in loops.items():
            runs[name].append(loop(args.seed + i))
    med = {
        name: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs))
        for name, rs in runs.items()
    }
    print(f"random play, one core, median of {args.repeats} x {args.seconds:g} s")
    print(f"{'loop':32} {'steps/s':>10} {'units/s':>10}")
    for name, (steps, units) in med.items():
        unit = "hands" if "dice" not in name else "turns"
        print(f"{name:32} {steps:10,.0f} {units:10,.0f} {unit}")
    raw_p, os_p = med["pepper engine (raw)"], med["pfeffer_pepper via pyspiel"]
    pz_p, eu = med["pepper_env (PettingZoo)"], med["OpenSpiel euchre via pyspiel"]
    raw_d, os_d, pz_d = (
        med["dice engine (raw)"],
        med["pfeffer_dice via pyspiel"],
        med["dice_env (PettingZoo)"],
    )
    print("ratios (units/s, so each loop's own step count does not matter):")
    print(f"  pepper: pyspiel adapter / raw engine {os_p[1] / raw_p[1]:.2f}, "
          f"PettingZoo / raw {pz_p[1] / raw_p[1]:.2f}, "
          f"pyspiel adapter / euchre {os_p[1] / eu[1]:.2f}, raw engine / euchre "
          f"{raw_p[1] / eu[1]:.2f}")  # fmt: skip
    print(f"  dice: pyspiel adapter / raw engine {os_d[1] / raw_d[1]:.2f}, "
          f"PettingZoo / raw {pz_d[1] / raw_d[1]:.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
