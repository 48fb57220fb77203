"""``simulate``: many whole games of Würfel-Pfeffer in a compiled loop (see docs/simulate.md).

Game ``g`` of ``simulate(..., seed=s)`` is the game ``DiceGame(players, rules,
seed=game_seed(s, g))`` played by the policies' bots (:meth:`SimPolicy.bot`), seat 0 first:
the same throws, the same decisions, the same result. :func:`simulate_records` gives each game's
actions and turns, for comparing with such a game.

>>> r = simulate(DiceRules(target=2000), ["heuristic", "heuristic"], games=200, seed=1)
>>> r.games, len(r.wins), sum(r.wins)
(200, 2, 200.0)
>>> r.scores.shape, int(r.game_turns.sum()) == sum(r.turns)
((200, 2), True)
>>> game_seed(1, 5) == 2**32 + 5
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from pfeffer.dice.rules import DiceRules
from pfeffer.dice.sim.policies import CompiledPolicy, PolicyLike, SimPolicy, resolve_policy

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from pfeffer.dice.sim.optimal import TurnCache

#: Game ``g`` of a run with seed ``s`` uses the game seed ``s * GAME_STRIDE + g``.
GAME_STRIDE = 2**32
#: A game longer than this many turns stops the run with an error (no real game comes near).
MAX_TURNS = 1_000_000
_MAX_SEED = 2**96
#: Memory for the perfect players' turn tables kept between turns (see ``sim.optimal``).
CACHE_BYTES = 64 * 2**20


def game_seed(seed: int, game: int) -> int:
    """The :class:`~pfeffer.dice.DiceGame` seed of game number ``game`` of a run with ``seed``:
    ``seed * 2**32 + game``. Different runs' seeds never share a game (below 2**32 games)."""
    return seed * GAME_STRIDE + game


@dataclasses.dataclass(frozen=True, eq=False)
class SimResult:
    """What :func:`simulate` counted; every tuple has one entry per seat."""

    games: int
    seed: int
    policies: tuple[str, ...]
    #: Games won; a win shared by ``k`` tied players counts ``1 / k`` for each (one half for two).
    wins: tuple[float, ...]
    #: Turns played, turns that busted, Pfeffer calls made.
    turns: tuple[int, ...]
    busts: tuple[int, ...]
    pfeffer_calls: tuple[int, ...]
    #: Per game: final totals (games × seats), winners (games × seats, several on a shared
    #: win) and the number of turns.
    scores: npt.NDArray[np.int64]
    winners: npt.NDArray[np.bool_]
    game_turns: npt.NDArray[np.int64]

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.wins)

    def win_rate(self, seat: int) -> float:
        """The share of games ``seat`` won (shared wins counted in part)."""
        return self.wins[seat] / self.games

    def stderr(self, seat: int) -> float:
        """The standard error of :meth:`win_rate` (from the per-game shares)."""
        shares = self.winners[:, seat] / self.winners.sum(axis=1)
        return float(shares.std(ddof=1) / math.sqrt(self.games)) if self.games > 1 else math.nan


class SimTurn(NamedTuple):
    """A finished turn as the kernel recorded it (the fields of :class:`~pfeffer.dice.Turn`
    without the throws; ``pfeffer`` is the :class:`~pfeffer.dice.PfefferMode` value)."""

    seat: int
    points: int
    busted: bool
    pfeffer: str
    stake: int
    penalty: int
    bonus: int
    total_after: int


class SimGame(NamedTuple):
    """One simulated game written out: its seed, actions (the notation of
    :attr:`~pfeffer.dice.DiceGame.actions`), turns, final totals and winners."""

    seed: int
    actions: list[str]
    turns: list[SimTurn]
    scores: list[int]
    winners: list[int]


def _check(
    rules: DiceRules, policies: Sequence[PolicyLike], games: int, seed: int
) -> list[SimPolicy]:
    if not isinstance(rules, DiceRules):
        raise TypeError("rules must be a DiceRules")
    if isinstance(policies, str) or not 2 <= len(policies) <= 8:
        raise ValueError("give one policy per seat, for 2 to 8 seats")
    if isinstance(games, bool) or not isinstance(games, int) or not 0 <= games <= GAME_STRIDE:
        raise ValueError(f"games must be a whole number from 0 to 2**32, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < _MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to below 2**96, not {seed!r}")
    return [resolve_policy(p) for p in policies]


class _Batch(NamedTuple):
    status: int
    done: int
    scores: npt.NDArray[np.int64]
    winners: npt.NDArray[np.bool_]
    turns: npt.NDArray[np.int64]
    stats: npt.NDArray[np.int64]
    act_log: npt.NDArray[np.int64]
    act_end: npt.NDArray[np.int64]
    turn_log: npt.NDArray[np.int64]
    turn_end: npt.NDArray[np.int64]


def _run(
    rules: DiceRules,
    policies: list[SimPolicy],
    *,
    g0: int,
    games: int,
    seed: int,
    record: tuple[int, int] | None = None,
    cache_bytes: int = CACHE_BYTES,
) -> _Batch:
    from pfeffer.dice.sim import kernel, optimal
    from pfeffer.dice.sim.policies import KIND_OPTIMAL

    compiled = [p.compile(rules, len(policies)) for p in policies]
    # Seats with the very same compiled arrays share one block (and a perfect player's cache):
    # seat s reads ints[iofs[s]:iend[s]] and floats[fofs[s]:fend[s]].
    unique: list[CompiledPolicy] = []
    for c in compiled:
        if all(c is not u for u in unique):
            unique.append(c)
    rows = 1
    for c in unique:
        if c.kind == KIND_OPTIMAL:  # a last turn from far behind (grown below if need be)
            low, top = -2 * int(c.ints[optimal.O_LOWER]), int(c.ints[optimal.O_TARGET])
            need = 2 * int(c.ints[optimal.O_MIN_BANK])
            rows = max(rows, int(optimal.table_size(c.ints, low, top + low // 2, need, need)))
    while True:
        status, done, batch = _run_once(rules, policies, compiled, unique, g0, games, seed, record,
                                        rows, cache_bytes)  # fmt: skip
        if status != kernel.STATUS_CACHE_ROWS:
            return batch
        rows = max(done, rows + rows // 4)  # a turn needs more rows: the run again (the same games)


def _run_once(  # noqa: PLR0917 (one run of _run: its pieces)
    rules: DiceRules,
    policies: Sequence[SimPolicy],
    compiled: list[CompiledPolicy],
    unique: list[CompiledPolicy],
    g0: int,
    games: int,
    seed: int,
    record: tuple[int, int] | None,
    rows: int,
    cache_bytes: int,
) -> tuple[int, int, _Batch]:
    import numpy as np

    from pfeffer.dice.sim import kernel
    from pfeffer.dice.sim.tables import keep_tables, rules_vector

    n = len(policies)
    t = keep_tables(rules)
    kinds = np.array([c.kind for c in compiled], dtype=np.int64)
    blocks = {id(c): i for i, c in enumerate(unique)}
    istart = np.cumsum([0] + [len(c.ints) for c in unique])
    fstart = np.cumsum([0] + [len(c.floats) for c in unique])
    which = [blocks[id(c)] for c in compiled]
    ints = np.concatenate([c.ints for c in unique]).astype(np.int64)
    floats = np.concatenate([c.floats for c in unique]).astype(np.float64)
    iofs = np.array([istart[b] for b in which] + [istart[b + 1] for b in which], dtype=np.int64)
    fofs = np.array([fstart[b] for b in which] + [fstart[b + 1] for b in which], dtype=np.int64)
    cache = _turn_cache(rows, cache_bytes)
    scores = np.zeros((games, n), dtype=np.int64)
    winners = np.zeros((games, n), dtype=np.bool_)
    turns = np.zeros(games, dtype=np.int64)
    stats = np.zeros((n, kernel.STAT_COLUMNS), dtype=np.int64)
    acts, log_rows = record or (0, 0)
    act_log = np.zeros(acts, dtype=np.int64)
    act_end = np.zeros(games if record else 0, dtype=np.int64)
    turn_log = np.zeros((log_rows, kernel.TURN_COLUMNS), dtype=np.int64)
    turn_end = np.zeros(games if record else 0, dtype=np.int64)
    mask = (1 << 64) - 1
    status, done = kernel.run_games(
        rules_vector(rules),
        kernel.Keeps(t.throw_base, t.throw_class, t.first, t.points, t.dice),
        kernel.Seats(kinds, ints, iofs, floats, fofs),
        np.uint64((seed * GAME_STRIDE) & mask), np.uint64((seed * GAME_STRIDE) >> 64 & mask),
        g0,
        kernel.Results(scores, winners, turns, stats),
        kernel.Log(record is not None, act_log, act_end, turn_log, turn_end),
        MAX_TURNS,
        cache,
    )  # fmt: skip
    if status == kernel.STATUS_TOO_LONG:
        raise RuntimeError(f"game {g0 + done} ran past {MAX_TURNS} turns")
    if status == kernel.STATUS_TABLE_END:
        raise RuntimeError(f"game {g0 + done}: a turn total ran past the solved table's end")
    out = _Batch(status, done, scores, winners, turns, stats, act_log, act_end, turn_log, turn_end)
    return status, done, out


def _turn_cache(rows: int, cache_bytes: int) -> TurnCache:
    """The perfect players' cache of recent turns: keys and the ``D`` (rows × 5), ``H``, ``R``
    (rows × 7) and bank tables of ``context.solve_turn`` (one tiny unused slot when no seat plays
    perfectly: ``rows`` 1)."""
    import numpy as np

    from pfeffer.dice.sim import optimal

    per_slot = 14 * rows * 8
    slots = max(16, cache_bytes // per_slot) if rows > 1 else 1
    keys = np.zeros((slots, optimal.KEY_COLUMNS), dtype=np.int64)
    c_d = np.zeros((slots, rows, 5))
    c_h = np.zeros((slots, rows))
    c_r = np.zeros((slots, rows, 7))
    c_b = np.zeros((slots, rows))
    return optimal.TurnCache(keys, c_d, c_h, c_r, c_b)


def simulate(
    rules: DiceRules | None,
    policies: Sequence[PolicyLike],
    *,
    games: int,
    seed: int,
    first_game: int = 0,
) -> SimResult:
    """Play ``games`` whole games under ``rules`` (None: the defaults) with one policy per seat
    (2–8 seats; a name such as ``"heuristic"``, a level, a :class:`SimPolicy` or a solved
    ``DiceStrategy``), seat 0 starting.

    Game ``g`` is :class:`~pfeffer.dice.DiceGame` with seed :func:`game_seed` (``seed``, ``g``);
    ``first_game`` starts later in the run (so a long run can be played in parts).
    """
    rules = DiceRules() if rules is None else rules
    resolved = _check(rules, policies, games, seed)
    if isinstance(first_game, bool) or not isinstance(first_game, int):
        raise ValueError(f"first_game must be a whole number, not {first_game!r}")
    if not 0 <= first_game <= GAME_STRIDE - games:
        raise ValueError("the games of a run are numbered from 0 to below 2**32")
    b = _run(rules, resolved, g0=first_game, games=games, seed=seed)
    shares = b.winners / b.winners.sum(axis=1, keepdims=True) if games else b.winners
    return SimResult(
        games=games,
        seed=seed,
        policies=tuple(p.name for p in resolved),
        wins=tuple(float(w) for w in shares.sum(axis=0)),
        turns=tuple(int(x) for x in b.stats[:, 0]),
        busts=tuple(int(x) for x in b.stats[:, 1]),
        pfeffer_calls=tuple(int(x) for x in b.stats[:, 2]),
        scores=b.scores,
        winners=b.winners,
        game_turns=b.turns,
    )


def simulate_records(
    rules: DiceRules | None,
    policies: Sequence[PolicyLike],
    *,
    games: int,
    seed: int,
    first_game: int = 0,
) -> list[SimGame]:
    """Games ``first_game`` … ``first_game + games - 1`` of :func:`simulate` written out
    (slower: for tests and for looking at single games).

    >>> g = simulate_records(None, ["heuristic"] * 2, games=1, seed=3)[0]
    >>> g.actions[:1], g.turns[0].seat, g.seed == game_seed(3, 0)
    (['roll ...'], 0, True)
    """
    from pfeffer.dice.scoring import ordered_throws
    from pfeffer.dice.sim import kernel
    from pfeffer.dice.sim.tables import keep_tables

    rules = DiceRules() if rules is None else rules
    resolved = _check(rules, policies, games, seed)
    actions = keep_tables(rules).actions
    modes = ("none", "called", "auto")
    out: list[SimGame] = []
    size = 4096
    g = first_game
    end = first_game + games
    while g < end:
        count = min(end - g, 64)
        b = _run(rules, resolved, g0=g, games=count, seed=seed, record=(size, size))
        if b.done == 0 and b.status == kernel.STATUS_LOG_FULL:
            size *= 4
            continue
        a0 = t0 = 0
        for i in range(b.done):
            acts: list[str] = []
            for code in b.act_log[a0 : b.act_end[i]].tolist():
                if code == kernel.ACT_PFEFFER:
                    acts.append("pfeffer")
                elif code == kernel.ACT_BANK:
                    acts.append("bank")
                elif code >= kernel.ROLL_CODE:
                    n, index = divmod(code, kernel.ROLL_CODE)
                    acts.append(ordered_throws(n)[index][2])
                else:
                    acts.append(actions[code])
            turns = [
                SimTurn(r[1], r[2], bool(r[3]), modes[r[4]], r[5], r[6], r[7], r[8])
                for r in b.turn_log[t0 : b.turn_end[i]].tolist()
            ]
            a0, t0 = b.act_end[i], b.turn_end[i]
            out.append(
                SimGame(
                    game_seed(seed, g + i),
                    acts,
                    turns,
                    b.scores[i].tolist(),
                    [s for s in range(len(resolved)) if b.winners[i, s]],
                )
            )
        g += b.done
    return out
