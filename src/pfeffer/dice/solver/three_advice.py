"""Advice at a three-player table from the exact three-player strategy (docs/strategy.md, "More
players"): the turn of the player to act solved with vector values against the stored table (the
main game), against the last player's turn (second to last in the final round) or against the
final totals (the last turn), read only from the game's :class:`~pfeffer.dice.game.DiceView`.

>>> from pfeffer.dice import DiceGame, DiceRules
>>> from pfeffer.dice.solver.three import solve_three
>>> s = solve_three(DiceRules(target=300, min_bank=150), lower=2, final_steps=80)
>>> g = DiceGame(3, DiceRules(target=300, min_bank=150), seed=1)
>>> [a.action for a in advise_three(s, g)]
['roll']
"""

from __future__ import annotations

import numpy as np

from pfeffer.dice.game import DiceGame, DiceView, Phase
from pfeffer.dice.solver import three_kernels as tk
from pfeffer.dice.solver.general import dice_consts
from pfeffer.dice.solver.tables import F64, kernel_dice, solve_vector
from pfeffer.dice.solver.three import ThreeStrategy
from pfeffer.dice.solver.two_advice import Advice, legal_decisions, rank

#: Solved turns kept per strategy (a turn's decisions share one solve).
CACHE_TURNS = 256


def _up(points: int, step: int) -> int:
    return -(-points // step)


def _outcome(totals: list[int]) -> list[float]:
    """Each player's share of the win when the game ends with ``totals``."""
    best = max(totals)
    k = sum(1 for x in totals if x == best)
    return [1.0 / k if x == best else 0.0 for x in totals]


def solve_turn(
    s: ThreeStrategy, view: DiceView, *, call: bool = False
) -> tuple[F64, F64, F64, F64]:
    """``(b, beta, D, H)`` of the turn of the player to act in ``view`` (``call``: as if Pfeffer
    were called now), entries ``[mover, mover, next, after]`` (see :func:`three_kernels.vturn`);
    totals in steps from the turn's start."""
    t = s.tables
    r = s.rules
    step = t.step
    seat = view.current_player
    assert seat is not None
    n = len(view.players)
    units = [x // step for x in view.scores]
    own, o1, o2 = units[seat], units[(seat + 1) % n], units[(seat + 2) % n]
    if call:
        assert view.pfeffer_need is not None and view.pfeffer_bust_penalty is not None
        need, pen = _up(view.pfeffer_need, step), _up(view.pfeffer_bust_penalty, step)
    else:
        need, pen = _up(view.min_to_bank, step), _up(view.bust_penalty, step)
    need = max(need, 1)
    cur = view.turn_total // step
    left = view.turns_left_in_final_round
    key = (view.final_round, left, own, o1, o2, need, pen, cur // 64)
    found = s._turns.get(key)
    if found is not None:
        return found
    consts = dice_consts(t)
    maxp = int(consts[0])
    tmin = 64 * (cur // 64 + 1)
    beta = np.zeros(tk.K)
    if not view.final_round:
        lower = s.lower
        own, o1, o2 = (max(x, -lower) for x in (own, o1, o2))
        length = s.W.shape[1] + s.FR.shape[0] + tmin + 3 * maxp + 8
        b = np.zeros((length, tk.K))
        v = s.W[1 if r.auto_pfeffer else 0, o1 + lower, o2 + lower, max(own - pen, -lower) + lower]
        beta[:] = (v[2], v[2], v[0], v[1])
        top = tk.three_bank(b, own, o1, o2, need, s.W, solve_vector(t, lower), s.FR, s.reach,
                            beta[0], float(t.bust[6]), maxp, tmin)  # fmt: skip
    else:
        # The seats after the mover, in the order of the arrays' entries.
        others = [(seat + 1) % n, (seat + 2) % n]
        if len(left) == 1:
            # Second to last: the last player then plays against the higher of the two totals.
            last = left[0]
            x = next(o for o in others if o != last)
            two, three = s.last_turns
            dl = two.shape[0] - 1
            e = min(units[x] - units[last], dl)
            vec = np.zeros(tk.K)

            def bank_vec(u: int) -> list[float]:
                tk._second_bank(u, e, two, three, dl, vec)
                # vec: [mover, x, mover, last]
                chance = {seat: vec[2], x: vec[1], last: vec[3]}
                return [chance[seat], chance[seat], chance[others[0]], chance[others[1]]]

            beta[:] = bank_vec(-1)
            top = max(need, units[x] - own + dl - e + 1, tmin, 1)
            length = top + 3 * maxp + 8
            b = np.zeros((length, tk.K))
            for i in range(top + 2 * maxp + 1):
                b[i] = bank_vec(own + i - units[x]) if i >= need else (-1.0, 0.0, 0.0, 0.0)
        else:
            # The last turn: the final totals decide.
            def end_vec(mine: int) -> list[float]:
                totals = list(units)
                totals[seat] = mine
                w = _outcome(totals)
                return [w[seat], w[seat], w[others[0]], w[others[1]]]

            beta[:] = end_vec(own - pen)
            best = max(units[o] for o in others)
            top = max(need, best - own + 1, tmin, 1)
            length = top + 3 * maxp + 8
            b = np.zeros((length, tk.K))
            for i in range(top + 2 * maxp + 1):
                b[i] = end_vec(own + i) if i >= need else (-1.0, 0.0, 0.0, 0.0)
    D = np.zeros((length, 5, tk.K))
    H = np.zeros((length, tk.K))
    tk.vturn(b, beta, r.hot_dice_must_roll, top, kernel_dice(t), consts, D, H)
    if len(s._turns) >= CACHE_TURNS:
        s._turns.clear()
    s._turns[key] = (b, beta, D, H)
    return b, beta, D, H


def advise_three(s: ThreeStrategy, game_or_view: DiceGame | DiceView) -> list[Advice]:
    """Every legal decision of the player to act in a three-player game, best first (ties
    plainest first: :func:`~pfeffer.dice.solver.two_advice.rank`), each with the mover's chance
    to win after it (then everyone playing optimally): see
    :func:`pfeffer.dice.solver.advice.advise`."""
    if isinstance(game_or_view, DiceGame):
        view = game_or_view.view(game_or_view.current_player)
        legal = game_or_view.legal_actions()
    else:
        view = game_or_view
        legal = legal_decisions(view)
    if view.current_player is None or view.is_over:
        return []
    if len(view.players) != 3:
        raise ValueError("the three-player strategy advises three-player games only")
    if view.rules != s.rules:
        raise ValueError("the strategy was solved for other rules than the game's")
    t = s.tables
    step = t.step
    cur = view.turn_total // step
    b, beta, D, H = solve_turn(s, view)
    values: dict[str, float] = {}
    if view.phase is Phase.START:
        values["roll"] = float(H[0, 1])
        if view.can_call_pfeffer:
            _, _, _, Hp = solve_turn(s, view, call=True)
            values["pfeffer"] = float(Hp[0, 1])
    elif view.phase is Phase.KEEP:
        for option in view.keep_options:
            after = cur + option.points // step
            rest = view.dice_to_roll - len(option.dice)
            values[option.action] = float(H[after, 1] if rest == 0 else D[after, rest - 1, 1])
    elif view.phase is Phase.DECIDE:
        out = np.zeros(tk.K)
        tk._expect_vec(cur, view.dice_to_roll, beta, D, H, out, kernel_dice(t))
        values["roll"] = float(out[1])
        if view.can_bank:
            values["bank"] = float(b[cur, 1])
    return rank(values, legal)
