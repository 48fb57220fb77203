"""The simulator's kernel as one loop: a copy of ``pfeffer.dice.sim.kernel`` before
``run_games`` was split into steps (issue 19 §4, commit a4da885), kept to compare the two.

``benchmarks/bench_kernel_ab.py`` times both side by side and checks that they give the same
arrays; ``tests/dice/test_kernel_steps.py`` does the latter over many batches. Called through
:mod:`pfeffer.dice.sim.api` with ``kernel.run_games`` swapped for :func:`run_games` of this
module (it takes the kernel's own bundles; its helpers are copies too, so nothing it runs
changes with the kernel).

Not to be changed: it is the reference the stepped kernel must equal bit for bit.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from pfeffer.core.compiled import jit
from pfeffer.dice.sim import optimal
from pfeffer.dice.sim.optimal import O_LOWER, O_STEP, TurnCache
from pfeffer.dice.sim.policies import KIND_CARD, KIND_HEURISTIC, KIND_OPTIMAL, KIND_THRESHOLD
from pfeffer.dice.sim.tables import (
    R_AUTO,
    R_AUTO_PENALTY,
    R_FACTOR,
    R_FINAL_ROUND,
    R_HOT_MUST_ROLL,
    R_MARGIN,
    R_MIN_BANK,
    R_OPENING_ONLY,
    R_PFEFFER,
    R_REWARD_STAKE,
    R_SHORT_ALLOWED,
    R_TARGET,
    R_TIE_PLAYOFF,
)
from pfeffer.dice.solver.two_advice import TIE

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL2 = np.uint64(0x94D049BB133111EB)
_POW6 = np.array([1, 6, 36, 216, 1296, 7776, 46656], dtype=np.uint64)

#: Pfeffer modes of a turn, as in :class:`~pfeffer.dice.PfefferMode`.
MODE_NONE, MODE_CALLED, MODE_AUTO = 0, 1, 2

#: Action codes in the record: a throw of ``n`` dice, number ``i`` in the stream's order, is
#: ``n * ROLL_CODE + i``; a keep is its option's index in the keep tables (below ROLL_CODE).
ACT_PFEFFER, ACT_BANK, ROLL_CODE = -1, -2, 1_000_000

#: Columns of a turn row in the record.
TURN_GAME, TURN_SEAT, TURN_POINTS, TURN_BUSTED, TURN_MODE = 0, 1, 2, 3, 4
TURN_STAKE, TURN_PENALTY, TURN_BONUS, TURN_TOTAL, TURN_COLUMNS = 5, 6, 7, 8, 9

#: Columns of the per-seat counts.
STAT_TURNS, STAT_BUSTS, STAT_CALLS, STAT_COLUMNS = 0, 1, 2, 3

#: What :func:`run_games` returns first: all games played, a record buffer ran full, a game
#: ran past ``max_turns``, or a turn total ran past the end of a perfect player's tables.
#: ``STATUS_CACHE_ROWS``: the perfect players' cache has too few rows for a turn (run_games then
#: returns the rows needed in place of the games finished).
STATUS_OK, STATUS_LOG_FULL, STATUS_TOO_LONG, STATUS_TABLE_END, STATUS_CACHE_ROWS = 0, 1, 2, 3, 4


@jit
def mix64(x: Any) -> Any:
    """SplitMix64's finaliser on a ``uint64`` (:func:`pfeffer.core.rng._mix64`)."""
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * _MUL1
    x = (x ^ (x >> np.uint64(27))) * _MUL2
    return x ^ (x >> np.uint64(31))


@jit
def game_key(seed_lo: Any, seed_hi: Any, g: int) -> Any:
    """The stream key of game seed ``seed_hi * 2**64 + (seed_lo | g)``."""
    return mix64(mix64(seed_lo | np.uint64(g)) ^ seed_hi)


@jit
def draw(key: Any, k: Any) -> Any:
    """Draw ``k`` of the stream with ``key`` (:meth:`~pfeffer.core.rng.ChanceStream.bits`)."""
    return mix64(key ^ (np.uint64(k) * _GOLDEN))


@jit
def _wants_pfeffer(kind: int, ip: Any, fp: Any, rv: Any, pred: int) -> bool:
    """Whether the seat calls Pfeffer on a predecessor's result ``pred`` > 0."""
    if kind == KIND_HEURISTIC:
        if rv[R_REWARD_STAKE] == 0:
            return False
        stake = pred + rv[R_MARGIN]
        goal = max(stake, rv[R_MIN_BANK])
        j = -(-goal // ip[7])
        if j > ip[8]:
            return False
        p = fp[7 + j]
        return bool(p * stake > (1.0 - p) * rv[R_FACTOR] * stake)
    if kind == KIND_CARD:
        return bool(rv[R_REWARD_STAKE] != 0 and pred + rv[R_MARGIN] <= ip[C_PFEFFER])
    return False


@jit
def _choose_keep(  # noqa: PLR0917 (numba: positional arguments only)
    kind: int, ip: Any, fp: Any, points: Any, dice: Any, o0: int, o1: int, total: int, now: int
) -> int:
    """The option (``o0 <= o < o1``) the seat sets aside from a throw of ``now`` dice."""
    best = o0
    if kind == KIND_HEURISTIC:
        best_value = -1.0
        for o in range(o0, o1):
            left = now - dice[o]
            if left == 0:
                left = 6
            t = total + points[o]
            value = float(t)
            if t < ip[left] or left == 6:
                value += fp[left]
            if value > best_value:
                best_value = value
                best = o
    # KIND_THRESHOLD: the first option scores the most.
    return best


@jit
def _wants_bank(  # noqa: PLR0917 (numba: positional arguments only)
    kind: int,
    ip: Any,
    fp: Any,
    rv: Any,
    scores: Any,
    me: int,
    total: int,
    left: int,
    mode: int,
    need: int,
    late: bool,
) -> bool:
    """Whether the seat banks ``total`` (it may) with ``left`` dice to throw next; ``late``:
    the final round or a playoff runs."""
    if kind == KIND_HEURISTIC:
        mine = scores[me]
        goal = need
        if late:
            leader = -(2**62)
            for i in range(scores.shape[0]):
                if i != me and scores[i] > leader:
                    leader = scores[i]
            goal = max(goal, leader - mine + 1)
        if total < goal:
            return False
        if late:
            return True
        if mine + total >= rv[R_TARGET]:
            return True
        threshold = ip[left]
        if mode == MODE_AUTO and left < 6:
            threshold = min(threshold, 400)
        leader = scores.max()
        if leader - mine > 3000 and leader > rv[R_TARGET] * 0.7:
            threshold = int(threshold * 1.5)
        return bool(total >= threshold)
    if kind == KIND_THRESHOLD:
        return bool(total >= ip[left])
    if kind == KIND_CARD:
        leader = _leader(scores, me)
        return card_wants_bank(
            ip, scores[me], leader, rv[R_TARGET], total, left, mode == MODE_AUTO, late
        )
    return True


# Positions of a card's numbers (``Card.params``) in its ints.
C_BANK, C_AUTO, C_WORTH, C_BEHIND, C_AHEAD, C_CHASE_FROM, C_CHASE, C_FINISH = (
    0, 6, 12, 18, 19, 20, 21, 22
)  # fmt: skip
C_PFEFFER, C_BANK_BONUS, C_AUTO_BANK_BONUS = 23, 24, 25


@jit
def card_percent(ip: Any, own: int, leader: int, target: int) -> int:
    """``Card.percent``: the card's score adjustment of its bank numbers, in percent."""
    pct = 100
    if leader > own:
        pct += ip[C_BEHIND] * ((leader - own) // 1000)
    else:
        pct -= ip[C_AHEAD] * ((own - leader) // 1000)
    start = target - ip[C_CHASE_FROM]
    if ip[C_CHASE] != 0 and leader > start:
        pct += ip[C_CHASE] * ((leader - start) // 500)
    return int(max(pct, 0))


@jit
def card_wants_bank(  # noqa: PLR0917 (numba: positional arguments only)
    ip: Any, own: int, leader: int, target: int, total: int, dice: int, auto: bool, late: bool
) -> bool:
    """``Card.wants_bank`` (banking is allowed)."""
    if late:
        return own + total > leader
    if own + total >= target and own + total - leader >= ip[C_FINISH]:
        return True
    base = ip[C_AUTO + dice - 1] if auto else ip[C_BANK + dice - 1]
    return bool(total >= base * card_percent(ip, own, leader, target) // 100)


@jit
def card_keep(  # noqa: PLR0917 (numba: positional arguments only)
    ip: Any, points: Any, dice: Any, o0: int, o1: int, total: int, now: int, own: int,
    leader: int, target: int, need: int, must_roll: bool, auto: bool, late: bool,
) -> int:  # fmt: skip
    """``CardBot._keep``: the first option with the highest count."""
    best = o0
    best_count = -(2**62)
    for o in range(o0, o1):
        left = now - dice[o]
        t = total + points[o]
        n = left if left > 0 else 6
        count = t + ip[C_WORTH + n - 1]
        may_bank = t >= need and t > 0 and not (left == 0 and must_roll)
        if may_bank and card_wants_bank(ip, own, leader, target, t, n, auto, late):
            count = t + (ip[C_AUTO_BANK_BONUS] if auto else ip[C_BANK_BONUS])
        if count > best_count:
            best_count = count
            best = o
    return best


@jit
def _leader(scores: Any, me: int) -> int:
    leader = -(2**62)
    for i in range(scores.shape[0]):
        if i != me and scores[i] > leader:
            leader = scores[i]
    return int(leader)


@jit
def _up(points: int, step: int) -> int:
    return -(-points // step)


@jit
def _optimal_pfeffer(  # noqa: PLR0917 (numba: positional arguments only)
    ip: Any, fp: Any, sid: int, rv: Any, own: int, other: int, need: int, pred: int,
    cache: TurnCache,
) -> int:  # fmt: skip
    """Whether perfect play calls Pfeffer (1; better than rolling by more than :data:`TIE`: the
    advice lists a tied call after the plain roll) or not (0); ``own``/``other`` in steps,
    ``need`` in points (the plain turn's minimum). ``-rows`` if the cache is too small (see
    :func:`optimal.lookup`)."""
    step = ip[O_STEP]
    stake = pred + rv[R_MARGIN]
    call_need = need if rv[R_SHORT_ALLOWED] != 0 else max(need, stake)
    n0, n1 = _up(need, step), _up(call_need, step)
    p1 = _up(rv[R_FACTOR] * stake, step)
    if optimal.pfeffer_dominated(ip, fp, own, other, n0, 0, n1, p1):
        return 0
    slot = optimal.lookup(ip, fp, sid, own, other, n0, 0, 0, cache)
    if slot < 0:
        return slot
    roll = cache.H[slot, 0]
    # (the advice values the call with the stake in its situation: it only lengthens the arrays)
    slot = optimal.lookup(ip, fp, sid, own, other, n1, p1, stake // step, cache)
    if slot < 0:
        return slot
    return 1 if cache.H[slot, 0] > roll + TIE else 0


class Keeps(NamedTuple):
    """The keep tables of :func:`~pfeffer.dice.sim.tables.keep_tables`: a throw of ``n`` dice,
    number ``i`` in the stream's order, has class ``throw_class[throw_base[n] + i]``, whose
    options are ``first[c]`` to ``first[c + 1] - 1``, each with its ``points`` and ``dice``."""

    throw_base: Any
    throw_class: Any
    first: Any
    points: Any
    dice: Any


class Seats(NamedTuple):
    """The seats' policies: seat ``s`` of ``n`` plays by the code of ``kinds[s]`` and reads
    ``ints[iofs[s]:iofs[n + s]]`` and ``floats[fofs[s]:fofs[n + s]]`` (a perfect player's float
    block start names its strategy in the turn cache)."""

    kinds: Any
    ints: Any
    iofs: Any
    floats: Any
    fofs: Any


class Results(NamedTuple):
    """What :func:`run_games` writes (games × seats): the final totals ``scores``, the
    ``winners``, each game's ``turns``, and per seat ``stats`` (turns, busts, Pfeffer calls,
    added up)."""

    scores: Any
    winners: Any
    turns: Any
    stats: Any


class Log(NamedTuple):
    """The record (with ``record``): every action in ``acts``, every finished turn in ``turns``
    (rows of ``TURN_COLUMNS``); ``act_end[i]`` and ``turn_end[i]`` are where game ``i``'s
    entries end."""

    record: bool
    acts: Any
    act_end: Any
    turns: Any
    turn_end: Any


@jit
def run_games(  # noqa: PLR0917 (numba: positional arguments only)
    rv: Any,
    keeps: Keeps,
    seats: Seats,
    seed_lo: Any,
    seed_hi: Any,
    g0: int,
    res: Results,
    log: Log,
    max_turns: int,
    cache: TurnCache,
) -> tuple[int, int]:
    """Play ``res.scores.shape[0]`` games from game ``g0`` on; ``(status, games finished)``, or
    ``(STATUS_CACHE_ROWS, rows)`` when a turn needs more rows than the perfect players' turn
    ``cache`` has (:func:`~pfeffer.dice.sim.optimal.lookup`). ``res.scores`` and
    ``res.winners`` (games × seats) get the final totals and the winners, ``res.turns`` the
    turns of each game, ``res.stats`` (seats × 3) adds turns, busts and Pfeffer calls.

    One loop, its arrays taken out of their bundles once here: in steps (a function per turn,
    per throw, for the turn order) the kernel ran three to five times slower (numba counts the
    references of arrays read from a tuple, and the steps read them once a turn or a throw)."""
    throw_base, throw_class, first, opt_points, opt_dice = keeps
    kinds, ints, iofs, floats, fofs = seats
    out_scores, out_winners, out_turns, stats = res
    record, act_log, act_end, turn_log, turn_end = log
    cD, cH, cR, cB = cache.D, cache.H, cache.R, cache.B
    keys = cache.keys
    games, n = out_scores.shape
    scores = np.zeros(n, np.int64)
    has_banked = np.zeros(n, np.bool_)
    final_q = np.zeros(n, np.int64)
    playoff = np.zeros(n, np.int64)
    leaders = np.zeros(n, np.int64)
    na = 0
    nt = 0
    for gi in range(games):
        key = game_key(seed_lo, seed_hi, g0 + gi)
        scores[:] = 0
        has_banked[:] = False
        k = np.uint64(0)
        cur = 0
        pred = -1  # no predecessor yet (D9)
        final = False
        n_final = 0
        n_playoff = 0
        pos = 0  # next place in the final round's or the playoff's order
        turns = 0
        while True:
            kind = kinds[cur]
            ip = ints[iofs[cur] : iofs[n + cur]]
            fp = floats[fofs[cur] : fofs[n + cur]]
            mode = MODE_AUTO if pred == 0 and rv[R_AUTO] != 0 else MODE_NONE
            stake = 0
            need = rv[R_MIN_BANK]
            if rv[R_OPENING_ONLY] != 0 and has_banked[cur]:
                need = 0
            sid = fofs[cur]
            own_u = other_u = 0
            if kind == KIND_OPTIMAL:
                step = ip[O_STEP]
                # As the advice: in the main game a total below the bound counts as the bound;
                # a last turn counts the true lead.
                own_u = scores[cur] // step
                if not final:
                    own_u = max(own_u, -ip[O_LOWER])
                other_u = scores[1 - cur] // step
            calls = False
            if rv[R_PFEFFER] != 0 and mode == MODE_NONE and pred > 0:
                if kind == KIND_OPTIMAL:
                    c = _optimal_pfeffer(ip, fp, sid, rv, own_u, other_u, need, pred, cache)
                    if c < 0:
                        return STATUS_CACHE_ROWS, -c
                    calls = c == 1
                else:
                    calls = _wants_pfeffer(kind, ip, fp, rv, pred)
            if calls:
                mode = MODE_CALLED
                stake = pred + rv[R_MARGIN]
                stats[cur, STAT_CALLS] += 1
                if record:
                    if na >= act_log.shape[0]:
                        return STATUS_LOG_FULL, gi
                    act_log[na] = ACT_PFEFFER
                    na += 1
            if mode == MODE_CALLED and rv[R_SHORT_ALLOWED] == 0:
                need = max(need, stake)
            late = final or n_playoff > 0
            slot = size = 0
            if kind == KIND_OPTIMAL:
                step = ip[O_STEP]
                penalty = 0
                if mode == MODE_CALLED:
                    penalty = rv[R_FACTOR] * stake
                elif mode == MODE_AUTO:
                    penalty = rv[R_AUTO_PENALTY]
                slot = optimal.lookup(
                    ip, fp, sid, own_u, other_u, _up(need, step), _up(penalty, step), 0, cache
                )
                if slot < 0:
                    return STATUS_CACHE_ROWS, -slot
                size = keys[slot, 7]  # the rows solved (past them: a turn of chance < 1e-12)
            total = 0
            left = 6
            busted = False
            while True:
                idx = draw(key, k) % _POW6[left]
                k += np.uint64(1)
                c = throw_class[throw_base[left] + np.int64(idx)]
                o0 = first[c]
                o1 = first[c + 1]
                if record:
                    if na + 1 >= act_log.shape[0]:
                        return STATUS_LOG_FULL, gi
                    act_log[na] = left * ROLL_CODE + np.int64(idx)
                    na += 1
                if o0 == o1:
                    busted = True
                    break
                if kind == KIND_OPTIMAL:
                    step = ip[O_STEP]
                    t_u = total // step
                    # the first option in the game's order within TIE of the best (the advice)
                    best_value = -2.0
                    for oi in range(o0, o1):
                        after = t_u + opt_points[oi] // step
                        if after >= size:
                            return STATUS_TABLE_END, gi
                        v = optimal.keep_value(cD[slot], cH[slot], after, left - opt_dice[oi])
                        best_value = max(best_value, v)
                    o = o0
                    for oi in range(o0, o1):
                        after = t_u + opt_points[oi] // step
                        v = optimal.keep_value(cD[slot], cH[slot], after, left - opt_dice[oi])
                        if v >= best_value - TIE:
                            o = oi
                            break
                elif kind == KIND_CARD:
                    o = card_keep(
                        ip, opt_points, opt_dice, o0, o1, total, left, scores[cur],
                        _leader(scores, cur), rv[R_TARGET], need, rv[R_HOT_MUST_ROLL] != 0,
                        mode == MODE_AUTO, late,
                    )  # fmt: skip
                else:
                    o = _choose_keep(kind, ip, fp, opt_points, opt_dice, o0, o1, total, left)
                if record:
                    act_log[na] = o
                    na += 1
                total += opt_points[o]
                left -= opt_dice[o]
                hot = left == 0
                if hot:
                    left = 6
                if (hot and rv[R_HOT_MUST_ROLL] != 0) or total < need or total <= 0:
                    continue
                if kind == KIND_OPTIMAL:
                    t_u = total // ip[O_STEP]
                    wants = cB[slot, t_u] >= cR[slot, t_u, left] - TIE  # plainer first
                else:
                    wants = _wants_bank(
                        kind, ip, fp, rv, scores, cur, total, left, mode, need, late
                    )
                if wants:
                    if record:
                        if na >= act_log.shape[0]:
                            return STATUS_LOG_FULL, gi
                        act_log[na] = ACT_BANK
                        na += 1
                    break
            # End of the turn (D6, D10, D11).
            penalty = 0
            bonus = 0
            points = 0
            if busted:
                stats[cur, STAT_BUSTS] += 1
                if mode == MODE_CALLED:
                    penalty = rv[R_FACTOR] * stake
                elif mode == MODE_AUTO:
                    penalty = rv[R_AUTO_PENALTY]
            else:
                points = total
                has_banked[cur] = True
                if mode == MODE_CALLED and rv[R_REWARD_STAKE] != 0 and points >= stake:
                    bonus = stake
            scores[cur] += points + bonus - penalty
            stats[cur, STAT_TURNS] += 1
            turns += 1
            if record:
                if nt >= turn_log.shape[0]:
                    return STATUS_LOG_FULL, gi
                row = turn_log[nt]
                row[TURN_GAME] = gi
                row[TURN_SEAT] = cur
                row[TURN_POINTS] = points
                row[TURN_BUSTED] = busted
                row[TURN_MODE] = mode
                row[TURN_STAKE] = stake
                row[TURN_PENALTY] = penalty
                row[TURN_BONUS] = bonus
                row[TURN_TOTAL] = scores[cur]
                nt += 1
            if turns > max_turns:
                return STATUS_TOO_LONG, gi
            pred = points
            seat = cur
            # Who is next, or the end (D14, house rules final_round and tie).
            contenders = 0  # > 0: the game is decided among these seats (in ``leaders``)
            if n_playoff > 0:
                if pos < n_playoff:
                    cur = playoff[pos]
                    pos += 1
                    continue
                for i in range(n_playoff):
                    leaders[i] = playoff[i]
                contenders = n_playoff
            elif final:
                if pos < n_final:
                    cur = final_q[pos]
                    pos += 1
                    continue
                for i in range(n):
                    leaders[i] = i
                contenders = n
            elif scores[seat] >= rv[R_TARGET]:
                if rv[R_FINAL_ROUND] == 0:
                    out_winners[gi, :] = False
                    out_winners[gi, seat] = True
                    break
                final = True
                n_final = n - 1
                for i in range(1, n):
                    final_q[i - 1] = (seat + i) % n
                cur = final_q[0]
                pos = 1
                continue
            else:
                cur = (seat + 1) % n
                continue
            n_playoff = _decide(scores, leaders, contenders, seat, rv, out_winners, gi, playoff)
            if n_playoff > 0:
                cur = playoff[0]
                pos = 1
                continue
            break
        out_scores[gi, :] = scores
        out_turns[gi] = turns
        if record:
            act_end[gi] = na
            turn_end[gi] = nt
    return STATUS_OK, games


@jit
def _decide(  # noqa: PLR0917 (numba: positional arguments only)
    scores: Any,
    leaders: Any,
    contenders: int,
    seat: int,
    rv: Any,
    winners: Any,
    gi: int,
    playoff: Any,
) -> int:
    """The end of game ``gi`` among the seats ``leaders[:contenders]`` (D14): the highest totals
    win (``winners[gi]``); tied winners play off under the house rule (their seats in
    ``playoff``, in seat order after ``seat``, the last to play). Returns how many play off (0:
    the game is over)."""
    n = scores.shape[0]
    best = scores[leaders[0]]
    for i in range(1, contenders):
        best = max(best, scores[leaders[i]])
    winners[gi, :] = False
    count = 0
    for i in range(contenders):
        if scores[leaders[i]] == best:
            winners[gi, leaders[i]] = True
            count += 1
    if count <= 1 or rv[R_TIE_PLAYOFF] == 0:
        return 0
    m = 0
    for d in range(n):
        s = (seat + 1 + d) % n
        if winners[gi, s]:
            playoff[m] = s
            m += 1
    return m
