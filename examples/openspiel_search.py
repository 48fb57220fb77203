"""OpenSpiel's Python search bots on the pfeffer games: MCTS plays Würfel-Pfeffer, ISMCTS plays
Pepper, each against uniformly random players, through :mod:`pfeffer.rl.openspiel`.

    python examples/openspiel_search.py [--simulations N] [--games G] [--seed S]

Dice: ``open_spiel.python.algorithms.mcts.MCTSBot`` in seat 0 of a 2-player game to
``--dice-target`` (default 2000, capped at ``--dice-turns`` turns each). Pepper: ``ISMCTSBot``
(worlds from the adapter's void-respecting ``resample_from_infostate``) for the team of seats 0
and 2 of a 4-player game to ``--pepper-target`` (default 10, at most ``--pepper-hands`` hands).
Both use random roll-outs. Prints each game's returns and the search side's mean. (The C++
``pyspiel.MCTSBot`` and ``pyspiel.ISMCTSBot`` crash on Python games in open-spiel 2.0.2: only the
Python ones are used.)
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from pfeffer.rl.openspiel import register


def play(game: Any, bots: dict[int, Any], rng: np.random.RandomState) -> list[float]:
    """One game: seats in ``bots`` ask their bot, the others play uniformly at random; chance
    outcomes are drawn with their probabilities."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        player = state.current_player()
        bot = bots.get(player)
        action = bot.step(state) if bot is not None else rng.choice(state.legal_actions())
        state.apply_action(int(action))
    return [float(r) for r in state.returns()]


def dice_match(simulations: int, games: int, seed: int, target: int, turns: int) -> list[float]:
    """MCTS (seat 0) against a random player: the search side's return of each game."""
    game = pyspiel.load_game(f"pfeffer_dice(players=2,target={target},max_turns={turns})")
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng, solve=False)
    return [play(game, {0: bot}, rng)[0] for _ in range(games)]


def pepper_match(simulations: int, games: int, seed: int, target: int, hands: int) -> list[float]:
    """ISMCTS (seats 0 and 2, one bot each) against random players: the team's return per game."""
    game = pyspiel.load_game(f"pfeffer_pepper(players=4,target={target},max_hands={hands})")
    rng = np.random.RandomState(seed)
    bots = {}
    for seat in (0, 2):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bots[seat] = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)
    return [play(game, bots, rng)[0] for _ in range(games)]


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--simulations", type=int, default=200, help="simulations per decision")
    ap.add_argument("--games", type=int, default=4, help="games per match")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dice-target", type=int, default=2000)
    ap.add_argument("--dice-turns", type=int, default=30)
    ap.add_argument("--pepper-target", type=int, default=10)
    ap.add_argument("--pepper-hands", type=int, default=6)
    args = ap.parse_args(argv)
    register()
    for name, match, target, cap in (
        ("dice: MCTS vs random", dice_match, args.dice_target, args.dice_turns),
        ("pepper: ISMCTS team vs random team", pepper_match, args.pepper_target, args.pepper_hands),
    ):
        start = time.perf_counter()
        results = match(args.simulations, args.games, args.seed, target, cap)
        took = time.perf_counter() - start
        mean = sum(results) / len(results)
        print(
            f"{name}: returns {results} mean {mean:+.2f} "
            f"({args.games} games, {args.simulations} simulations/decision, {took:.1f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
