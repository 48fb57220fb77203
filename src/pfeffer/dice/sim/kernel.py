"""The compiled game loop of the batch simulator (numba, ``cache=True``).

:func:`run_games` plays games ``g0 .. g0 + games - 1`` of one batch from start to end, exactly as
:class:`~pfeffer.dice.DiceGame` does (D1–D14 and every house rule, read from
:func:`~pfeffer.dice.sim.tables.rules_vector`), with the seats' decisions made by the code of
their policy kind (:mod:`pfeffer.dice.sim.policies`). Game ``g`` throws the dice of
``ChanceStream(seed * 2**32 + g)``: draw ``k`` is SplitMix64 in ``uint64`` arithmetic,
reduced modulo ``6**n`` into the order of :func:`~pfeffer.dice.scoring.ordered_throws`.

>>> from pfeffer.core.rng import ChanceStream
>>> key = game_key(np.uint64(0), np.uint64(0), 7)  # the game seed 7
>>> int(draw(key, 3)) == ChanceStream(7).bits(3)
True

numba's cache is keyed by this file: the ``KIND_*`` and ``R_*`` numbers it reads from
:mod:`~pfeffer.dice.sim.policies` and :mod:`~pfeffer.dice.sim.tables` are compiled in as
constants, so a change there needs a change here (or an emptied ``__pycache__``) to take effect.

With ``record`` set, the kernel also writes every action and every finished turn (the encoding
is in the constants below; :mod:`pfeffer.dice.sim.api` turns them into action strings and
:class:`~pfeffer.dice.Turn`-like rows).
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
def _choose_keep(
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
def _wants_bank(
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
def card_wants_bank(
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
def card_keep(
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
def _optimal_pfeffer(
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


# The steps of a turn: numbers in, numbers out (no arrays), inlined into run_games by numba.


@jit(inline=True)
def _turn_start(pred: int, banked: bool, auto: bool, opening_only: bool, min_bank: int) -> Any:
    """``(mode, need)`` at the start of a turn after a predecessor's result ``pred`` (-1: none
    yet): Auto-Pfeffer after a bust (D11), the minimum unless only the opening needs it (D6)."""
    mode = MODE_AUTO if pred == 0 and auto else MODE_NONE
    need = 0 if opening_only and banked else min_bank
    return mode, need


@jit(inline=True)
def _units(own: int, other: int, step: int, lower: int, final: bool) -> Any:
    """``(own, other)`` totals in a perfect player's steps. As the advice: in the main game a
    total below the bound counts as the bound; a last turn counts the true lead."""
    own_u = own // step
    if not final:
        own_u = max(own_u, -lower)
    return own_u, other // step


@jit(inline=True)
def _may_call(pfeffer: bool, mode: int, pred: int) -> bool:
    """Whether Pfeffer may be called (D10): the rule is on, no Auto-Pfeffer, and the predecessor
    banked."""
    return pfeffer and mode == MODE_NONE and pred > 0


@jit(inline=True)
def _called(pred: int, need: int, margin: int, short_allowed: bool) -> Any:
    """``(mode, stake, need)`` of a turn under a Pfeffer call: the stake beats ``pred`` by the
    margin and is the least to bank unless the house rule allows banking short."""
    stake = pred + margin
    return MODE_CALLED, stake, need if short_allowed else max(need, stake)


@jit(inline=True)
def _penalty(mode: int, stake: int, factor: int, auto_penalty: int) -> int:
    """What a bust costs in ``mode`` (D10, D11)."""
    if mode == MODE_CALLED:
        return factor * stake
    if mode == MODE_AUTO:
        return auto_penalty
    return 0


@jit(inline=True)
def _throw(key: Any, k: Any, left: int) -> Any:
    """The throw of ``left`` dice at draw ``k``: its index in the stream's order."""
    return np.int64(draw(key, k) % _POW6[left])


@jit(inline=True)
def _kept(total: int, left: int, points: int, dice: int) -> Any:
    """``(total, left, hot)`` after setting aside ``dice`` dice worth ``points``: all six
    scored (hot dice, D7) gives six again."""
    left -= dice
    return total + points, 6 if left == 0 else left, left == 0


@jit(inline=True)
def _may_bank(hot: bool, must_roll: bool, total: int, need: int) -> bool:
    """Whether ``total`` may be banked (D6, D7, D10)."""
    return not ((hot and must_roll) or total < need or total <= 0)


@jit(inline=True)
def _settle(
    busted: bool, total: int, mode: int, stake: int, factor: int, auto_penalty: int,
    reward_stake: bool,
) -> Any:  # fmt: skip
    """``(points, bonus, penalty)`` of a finished turn (D6, D10, D11)."""
    if busted:
        return 0, 0, _penalty(mode, stake, factor, auto_penalty)
    bonus = stake if mode == MODE_CALLED and reward_stake and total >= stake else 0
    return total, bonus, 0


#: What :func:`_next_seat` returns when nobody is next: the game is decided among all seats, or
#: the seat that played won at once (no final round).
NEXT_DECIDE, NEXT_WON = -1, -2


@jit(inline=True)
def _next_seat(seat: int, n: int, total: int, reached: int, target: int, final_round: bool) -> Any:
    """``(next seat, reached)`` after ``seat``'s turn outside a playoff (D14, the house rule
    ``final_round``): ``reached`` is the seat that reached the target first (-1: nobody yet);
    after it every other seat throws once more."""
    nxt = (seat + 1) % n
    if reached >= 0:
        return (NEXT_DECIDE if nxt == reached else nxt), reached
    if total < target:
        return nxt, reached
    return (nxt if final_round else NEXT_WON), seat


@jit
def _optimal_keep(
    D: Any, H: Any, points: Any, dice: Any, o0: int, o1: int, total: int, left: int, step: int,
    size: int,
) -> int:  # fmt: skip
    """Perfect play's keep: the first option in the game's order within ``TIE`` of the best (the
    advice), from the turn's tables ``D``, ``H`` (``size`` rows solved: -1 past them)."""
    t_u = total // step
    best_value = -2.0
    for o in range(o0, o1):
        after = t_u + points[o] // step
        if after >= size:
            return -1
        best_value = max(best_value, optimal.keep_value(D, H, after, left - dice[o]))
    for o in range(o0, o1):
        if optimal.keep_value(D, H, t_u + points[o] // step, left - dice[o]) >= best_value - TIE:
            return o
    return o0


@jit
def _log_turn(
    row: Any, gi: int, seat: int, points: int, busted: bool, mode: int, stake: int, penalty: int,
    bonus: int, total: int,
) -> None:  # fmt: skip
    """A finished turn's ``row`` of the record."""
    row[TURN_GAME] = gi
    row[TURN_SEAT] = seat
    row[TURN_POINTS] = points
    row[TURN_BUSTED] = busted
    row[TURN_MODE] = mode
    row[TURN_STAKE] = stake
    row[TURN_PENALTY] = penalty
    row[TURN_BONUS] = bonus
    row[TURN_TOTAL] = total


@jit
def run_games(
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

    The turn in steps (``_turn_start``, ``_called``, ``_throw``, ``_kept``, ``_may_bank``,
    ``_settle``, ``_next_seat``): each takes and returns numbers only and is inlined, so every
    array is read and written here, taken out of its bundle once (a compiled call with arrays
    costs more than a turn's work; docs/simulate.md). The seats decide in ``_wants_pfeffer``,
    ``_choose_keep``, ``card_keep``, ``_wants_bank`` and the perfect player's functions."""
    throw_base, throw_class, first, opt_points, opt_dice = keeps
    kinds, ints, iofs, floats, fofs = seats
    out_scores, out_winners, out_turns, stats = res
    record, act_log, act_end, turn_log, turn_end = log
    target, min_bank, margin = rv[R_TARGET], rv[R_MIN_BANK], rv[R_MARGIN]
    factor, auto_penalty = rv[R_FACTOR], rv[R_AUTO_PENALTY]
    opening_only, must_roll = rv[R_OPENING_ONLY] != 0, rv[R_HOT_MUST_ROLL] != 0
    pfeffer, short_allowed = rv[R_PFEFFER] != 0, rv[R_SHORT_ALLOWED] != 0
    reward_stake, auto = rv[R_REWARD_STAKE] != 0, rv[R_AUTO] != 0
    final_round = rv[R_FINAL_ROUND] != 0
    keys, cD, cH, cR, cB = cache
    games, n = out_scores.shape
    scores = np.zeros(n, np.int64)
    has_banked = np.zeros(n, np.bool_)
    playoff = np.zeros(n, np.int64)
    na = nt = 0
    for gi in range(games):
        key = game_key(seed_lo, seed_hi, g0 + gi)
        scores[:] = 0
        has_banked[:] = False
        k = np.uint64(0)
        cur, pred, turns = 0, -1, 0  # pred -1: no predecessor yet (D9)
        reached = -1  # the seat that reached the target first (the final round runs)
        n_playoff = pos = 0  # the seats playing off (``playoff``) and the next one's place
        while True:
            kind = kinds[cur]
            perfect = kind == KIND_OPTIMAL
            ip = ints[iofs[cur] : iofs[n + cur]]
            fp = floats[fofs[cur] : fofs[n + cur]]
            final = reached >= 0
            late = final or n_playoff > 0
            mode, need = _turn_start(pred, has_banked[cur], auto, opening_only, min_bank)
            stake = own_u = other_u = 0
            if perfect:
                own_u, other_u = _units(scores[cur], scores[1 - cur], ip[O_STEP], ip[O_LOWER],
                                        final)  # fmt: skip
            if _may_call(pfeffer, mode, pred):
                if perfect:
                    c = _optimal_pfeffer(ip, fp, fofs[cur], rv, own_u, other_u, need, pred, cache)
                    if c < 0:
                        return STATUS_CACHE_ROWS, -c
                    calls = c == 1
                else:
                    calls = _wants_pfeffer(kind, ip, fp, rv, pred)
                if calls:
                    mode, stake, need = _called(pred, need, margin, short_allowed)
                    stats[cur, STAT_CALLS] += 1
                    if record:
                        if na >= act_log.shape[0]:
                            return STATUS_LOG_FULL, gi
                        act_log[na] = ACT_PFEFFER
                        na += 1
            slot = size = 0
            if perfect:  # the turn's tables
                step = ip[O_STEP]
                slot = optimal.lookup(ip, fp, fofs[cur], own_u, other_u, _up(need, step),
                                      _up(_penalty(mode, stake, factor, auto_penalty), step), 0,
                                      cache)  # fmt: skip
                if slot < 0:
                    return STATUS_CACHE_ROWS, -slot
                size = keys[slot, 7]  # rows solved (past them: a turn of chance < 1e-12)
            total, left, busted = 0, 6, False
            while True:
                idx = _throw(key, k, left)
                k += np.uint64(1)
                c = throw_class[throw_base[left] + idx]
                o0, o1 = first[c], first[c + 1]
                if record:
                    if na + 1 >= act_log.shape[0]:
                        return STATUS_LOG_FULL, gi
                    act_log[na] = left * ROLL_CODE + idx
                    na += 1
                if o0 == o1:
                    busted = True
                    break
                if perfect:
                    o = _optimal_keep(cD[slot], cH[slot], opt_points, opt_dice, o0, o1, total,
                                      left, ip[O_STEP], size)  # fmt: skip
                    if o < 0:
                        return STATUS_TABLE_END, gi
                elif kind == KIND_CARD:
                    o = card_keep(ip, opt_points, opt_dice, o0, o1, total, left, scores[cur],
                                  _leader(scores, cur), target, need, must_roll,
                                  mode == MODE_AUTO, late)  # fmt: skip
                else:
                    o = _choose_keep(kind, ip, fp, opt_points, opt_dice, o0, o1, total, left)
                if record:
                    act_log[na] = o
                    na += 1
                total, left, hot = _kept(total, left, opt_points[o], opt_dice[o])
                if not _may_bank(hot, must_roll, total, need):
                    continue
                if perfect:  # bank unless a roll is better by more than TIE
                    t_u = total // ip[O_STEP]
                    wants = cB[slot, t_u] >= cR[slot, t_u, left] - TIE
                else:
                    wants = _wants_bank(kind, ip, fp, rv, scores, cur, total, left, mode, need,
                                        late)  # fmt: skip
                if wants:
                    if record:
                        if na >= act_log.shape[0]:
                            return STATUS_LOG_FULL, gi
                        act_log[na] = ACT_BANK
                        na += 1
                    break
            points, bonus, penalty = _settle(busted, total, mode, stake, factor, auto_penalty,
                                             reward_stake)  # fmt: skip
            scores[cur] += points + bonus - penalty
            stats[cur, STAT_TURNS] += 1
            if busted:
                stats[cur, STAT_BUSTS] += 1
            else:
                has_banked[cur] = True
            turns += 1
            if record:
                if nt >= turn_log.shape[0]:
                    return STATUS_LOG_FULL, gi
                _log_turn(turn_log[nt], gi, cur, points, busted, mode, stake, penalty, bonus,
                          scores[cur])  # fmt: skip
                nt += 1
            if turns > max_turns:
                return STATUS_TOO_LONG, gi
            pred = points
            seat = cur  # who is next, or the end (D14, house rules final_round and tie)
            if n_playoff > 0 and pos < n_playoff:
                cur = playoff[pos]
                pos += 1
                continue
            if n_playoff == 0:
                cur, reached = _next_seat(seat, n, scores[seat], reached, target, final_round)
                if cur >= 0:
                    continue
                if cur == NEXT_WON:
                    out_winners[gi, :] = False
                    out_winners[gi, seat] = True
                    break
            n_playoff = _decide(scores, playoff, n_playoff, seat, rv, out_winners[gi])
            if n_playoff == 0:
                break
            cur, pos = playoff[0], 1
        out_scores[gi, :] = scores
        out_turns[gi] = turns
        if record:
            act_end[gi] = na
            turn_end[gi] = nt
    return STATUS_OK, games


@jit
def _decide(scores: Any, playoff: Any, playing: int, seat: int, rv: Any, winners: Any) -> int:
    """The end of a game (D14) among the seats ``playoff[:playing]`` (``playing`` 0: all seats):
    the highest totals win (``winners``, the game's row); tied winners play off under the house
    rule (their seats written to ``playoff``, in seat order after ``seat``, the last to play).
    Returns how many play off (0: the game is over)."""
    n = scores.shape[0]
    m = playing if playing > 0 else n
    best = -(2**62)
    for i in range(m):
        best = max(best, scores[playoff[i] if playing > 0 else i])
    winners[:] = False
    count = 0
    for i in range(m):
        s = playoff[i] if playing > 0 else i
        if scores[s] == best:
            winners[s] = True
            count += 1
    if count <= 1 or rv[R_TIE_PLAYOFF] == 0:
        return 0
    m = 0
    for d in range(n):
        s = (seat + 1 + d) % n
        if winners[s]:
            playoff[m] = s
            m += 1
    return m
