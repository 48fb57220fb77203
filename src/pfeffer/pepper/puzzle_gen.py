"""Pepper puzzles from games of the computer's levels, valued by the expert and by double dummy
(issue 23). Needs the extra 'ai' (the compiled double-dummy kernels).

The levels (easy, medium, hard) play hands against each other, with 2, 3 and 4 players, and the
decisions they meet are the candidates:

- ``card``, ``bid``, ``trump`` (the seat's view only): every option is valued by the expert
  (:class:`~pfeffer.pepper.expert.ExpertBot`, points of the hand, no win model) over
  ``worlds`` sampled worlds. A candidate is **clear** where the best option is ahead of the next
  (equal cards counting as one) by the kind's margin (:data:`~pfeffer.pepper.puzzles.MARGIN`:
  half a point for a card, a point for a bid or a trump), and **stable** where an independent
  sample (another seed) finds the same best option, ahead by the margin too. The puzzle keeps
  the mean of the two samples. Equal cards (:func:`~pfeffer.pepper.expert.equivalent_groups`)
  are valued once and share it.
- ``open`` (every hand shown): every legal card is solved exactly by double dummy; a candidate
  is **clear** where some card takes fewer tricks than the best, and **stable** (a real
  choice) where fewer cards take the target than fall short of it (counting equal cards as
  one). Its difficulty grows with the cards left to play.

Then a puzzle is kept if it is new and its kind still has room (``per_kind``).
:func:`generate` counts the candidates each filter kept (:class:`Counts`); :func:`resolve`
values a puzzle again (the tests do: every shipped open puzzle, a sample of the others with
another seed).

>>> found, counts = generate(hands=2, seed=3, per_kind={"card": 2, "bid": 1, "trump": 1,
...                          "open": 2}, worlds=16, players=(3,))
>>> counts.hands, all(counts.candidates[k] >= counts.kept[k] for k in counts.kept)
(2, True)
>>> all(resolve(p)[0] == p.answer for p in found if p.kind == "open")
True
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pfeffer.core.bots import Bot
from pfeffer.pepper.bots import EasyBot, ExpertBot, HeuristicBot
from pfeffer.pepper.expert import ExpertBot as Expert
from pfeffer.pepper.expert import equivalent_groups
from pfeffer.pepper.game import PepperGame, PepperView
from pfeffer.pepper.puzzles import KINDS, MARGIN, PepperPuzzle, themes_of
from pfeffer.pepper.rules import PepperRules, side_of
from pfeffer.pepper.solver import double_dummy_from

#: The levels that play the hands (``hard``: the expert with 12 worlds a decision).
LEVELS = ("easy", "medium", "hard")
#: Worlds per sample of a view puzzle (two independent samples per puzzle).
WORLDS = 80
#: The share of card decisions that become candidates (each kind of question at most one per
#: seat and hand is enough; the rest would be near copies).
CARD_SHARE = {"card": 0.4, "open": 0.5}


@dataclasses.dataclass
class Counts:
    """How many hands were played, and per kind how many candidates there were, how many were
    clear (margin), stable (a second sample, or one answer), and kept."""

    hands: int = 0
    candidates: Counter[str] = dataclasses.field(default_factory=Counter)
    clear: Counter[str] = dataclasses.field(default_factory=Counter)
    stable: Counter[str] = dataclasses.field(default_factory=Counter)
    kept: Counter[str] = dataclasses.field(default_factory=Counter)


def _bot(level: str, seed: int) -> Bot[PepperView]:
    if level == "easy":
        return EasyBot(seed)
    if level == "medium":
        return HeuristicBot()
    return ExpertBot(12, seed=seed)


def _expert(worlds: int, seed: int) -> Expert:
    return Expert(worlds=worlds, seed=seed, outlook=False, race=False)


def view_values(
    view: PepperView, legal: Sequence[str], kind: str, worlds: int, seed: int
) -> dict[str, float]:
    """The expert's value of every legal option of a view puzzle (points of the hand, own side's
    less the others'), over ``worlds`` worlds drawn with ``seed``; equal cards share one."""
    bot = _expert(worlds, seed)
    if kind == "card":
        groups = equivalent_groups(view, legal)
        reps = [g[-1] for g in groups]
        card = bot.card_values(view, reps, worlds)
        return {c: v for g, v in zip(groups, card, strict=True) for c in g}
    if kind == "bid":
        return bot.contract_values(view, legal, worlds)
    values = bot.trump_values(view, worlds, view.high_bid or "1")
    return {t: values[t] for t in legal}


def open_values(game: PepperGame) -> dict[str, float]:
    """Every legal card's tricks for the mover's side of the tricks still to play (this one
    included), double dummy."""
    me = game.current_player
    assert me is not None
    n = len(game.players)
    side = side_of(n, me)
    out: dict[str, float] = {}
    for card in game.legal_actions():
        g = game.clone()
        before = g.tricks_won[side]
        g.apply(card)
        got = g.tricks_won[side] - before
        if g.phase == "play":
            got += double_dummy_from(g, seat=me)
        out[card] = float(got)
    return out


def _margin(values: Mapping[str, float]) -> tuple[str, float]:
    """The best option and its lead over the next lower value (ties at the top allowed)."""
    ranked = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))
    best, top = ranked[0]
    rest = [v for _, v in ranked if v < top - 1e-9]
    return best, (top - rest[0]) if rest else 0.0


def _lead(values: Mapping[str, float], groups: Sequence[Sequence[str]]) -> tuple[str, float]:
    """The best option and its lead over the second best, counting equal cards (``groups``)
    as one: a tie at the top leads by 0."""
    ranked = sorted(groups, key=lambda g: (-values[g[0]], g[0]))
    if len(ranked) < 2:
        return ranked[0][0], 0.0
    return ranked[0][0], values[ranked[0][0]] - values[ranked[1][0]]


def _groups(view: PepperView, legal: Sequence[str], kind: str) -> list[list[str]]:
    return equivalent_groups(view, legal) if kind == "card" else [[a] for a in legal]


def resolve(puzzle: PepperPuzzle, seed: int = 7, worlds: int | None = None) -> tuple[str, float]:
    """The puzzle valued again: the best option and its lead over the next. ``open``: exactly
    (double dummy); the others over ``worlds`` (default: the puzzle's) worlds drawn with
    ``seed``."""
    g = puzzle.game()
    if puzzle.kind == "open":
        return _margin(open_values(g))
    view = g.view(puzzle.seat)
    legal = g.legal_actions()
    values = view_values(view, legal, puzzle.kind, worlds or puzzle.worlds, seed)
    best, lead = _lead(values, _groups(view, legal, puzzle.kind))
    # equal cards share their value: the answer is any of them
    return (puzzle.answer if best in puzzle.answers else best), lead


def _real_choice(view: PepperView, legal: Sequence[str], values: Mapping[str, float]) -> bool:
    """Fewer groups of equal cards take the target than fall short of it."""
    top = max(values.values())
    groups = equivalent_groups(view, legal)
    winners = sum(values[g[0]] >= top - 1e-9 for g in groups)
    return 2 * winners <= len(groups)


class _Maker:
    def __init__(self, per_kind: Mapping[str, int], worlds: int, seed: int) -> None:
        self.per_kind = per_kind
        self.worlds = worlds
        self.rng = random.Random(seed)
        self.counts = Counts()
        self.found: dict[str, PepperPuzzle] = {}

    def room(self, kind: str) -> bool:
        return self.counts.kept[kind] < self.per_kind.get(kind, 0)

    def full(self) -> bool:
        return not any(self.room(k) for k in KINDS)

    def consider(self, game: PepperGame, position: dict[str, Any]) -> None:
        """Every kind of puzzle the decision at ``game`` can be."""
        me = game.current_player
        assert me is not None
        view = game.view(me)
        legal = game.legal_actions()
        if len(legal) < 2:
            return
        if view.phase == "auction":
            self.view_puzzle("bid", view, legal, position)
        elif view.phase == "declare":
            self.view_puzzle("trump", view, legal, position)
        elif view.phase == "play" and len(equivalent_groups(view, legal)) > 1:
            if self.room("card") and self.rng.random() < CARD_SHARE["card"]:
                self.view_puzzle("card", view, legal, position)
            if self.room("open") and self.rng.random() < CARD_SHARE["open"]:
                self.open_puzzle(game, view, legal, position)

    def view_puzzle(
        self, kind: str, view: PepperView, legal: list[str], position: dict[str, Any]
    ) -> None:
        if not self.room(kind):
            return
        c = self.counts
        c.candidates[kind] += 1
        groups = _groups(view, legal, kind)
        first = view_values(view, legal, kind, self.worlds, self.rng.randrange(2**31))
        best, lead = _lead(first, groups)
        if lead < MARGIN[kind]:
            return
        c.clear[kind] += 1
        second = view_values(view, legal, kind, self.worlds, self.rng.randrange(2**31))
        best2, lead2 = _lead(second, groups)
        if best2 != best or lead2 < MARGIN[kind]:
            return
        c.stable[kind] += 1
        values = {a: (first[a] + second[a]) / 2 for a in legal}
        self.keep(kind, view, position, values, worlds=self.worlds)

    def open_puzzle(
        self, game: PepperGame, view: PepperView, legal: list[str], position: dict[str, Any]
    ) -> None:
        c = self.counts
        c.candidates["open"] += 1
        values = open_values(game)
        _, lead = _margin(values)
        if lead < MARGIN["open"]:
            return
        c.clear["open"] += 1
        if not _real_choice(view, legal, values):
            return
        c.stable["open"] += 1
        self.keep("open", view, position, values, worlds=0)

    def keep(
        self,
        kind: str,
        view: PepperView,
        position: dict[str, Any],
        values: Mapping[str, float],
        *,
        worlds: int,
    ) -> None:
        best, _ = _margin(values)
        themes = themes_of(view, kind, best)
        p = PepperPuzzle.make(position, kind, values.items(), themes=themes, worlds=worlds)
        if p.id in self.found or not self.room(kind):
            return
        self.found[p.id] = p
        self.counts.kept[kind] += 1


def _deal_action(game: PepperGame) -> str:
    hands = [game.hand(s) for s in range(len(game.players))]
    if len(game.players) == 2:
        hands.append(game.dead_hand())
    return "deal " + " / ".join(" ".join(h) for h in hands)


def generate(
    *,
    hands: int,
    seed: int,
    per_kind: Mapping[str, int],
    worlds: int = WORLDS,
    players: Sequence[int] = (2, 3, 4),
    rules: PepperRules | None = None,
) -> tuple[list[PepperPuzzle], Counts]:
    """Play up to ``hands`` hands (player counts in turn, each seat a level of :data:`LEVELS`
    at random, games to the end) and keep the puzzles of their decisions (see the module's
    text) until every kind has ``per_kind`` of them. Under house ``rules`` the games are
    played by them and each puzzle's position names them."""
    named = {} if rules is None or rules == PepperRules() else {"rules": rules.to_dict()}
    maker = _Maker(per_kind, worlds, seed)
    rng = random.Random(seed + 1)
    game_no = 0
    while maker.counts.hands < hands and not maker.full():
        n = players[game_no % len(players)]
        game_no += 1
        g = PepperGame(players=n, rules=rules, seed=rng.randrange(2**31))
        bots = [_bot(rng.choice(LEVELS), rng.randrange(2**31)) for _ in range(n)]
        actions: list[str] = []
        dealer = g.dealer
        while not g.is_over and maker.counts.hands < hands and not maker.full():
            if g.phase == "deal":
                g.apply("deal")
                dealer = g.dealer
                actions = [_deal_action(g)]
                maker.counts.hands += 1
                continue
            position = {"players": n, "dealer": dealer, "actions": list(actions), **named}
            maker.consider(g, position)
            me = g.current_player
            assert me is not None
            legal = g.legal_actions()
            action = bots[me].choose(g.view(me), legal)
            g.apply(action)
            actions.append(action)
    return list(maker.found.values()), maker.counts


def forced_bids(
    *, count: int, seed: int, worlds: int = WORLDS, players: Sequence[int] = (2, 3, 4)
) -> tuple[list[PepperPuzzle], Counts]:
    """Up to ``count`` ``bid`` puzzles of the theme "forced bid", made on purpose: the levels
    seldom all pass, so a fresh deal (player counts in turn) is bid by everyone before the last
    seat as a pass, and the last seat, which must bid under the default rules
    (``all_pass="last_must_bid"``), is the candidate, clear and stable as any bid puzzle (at
    most ``40 * count`` deals)."""
    maker = _Maker({"bid": count}, worlds, seed)
    rng = random.Random(seed + 1)
    deals = 0
    while maker.room("bid") and deals < 40 * count:
        n = players[deals % len(players)]
        deals += 1
        g = PepperGame(players=n, seed=rng.randrange(2**31))
        g.apply("deal")
        dealer = g.dealer
        actions = [_deal_action(g)]
        maker.counts.hands += 1
        while not g.view(g.current_player or 0).must_bid:
            g.apply("pass")
            actions.append("pass")
        maker.consider(g, {"players": n, "dealer": dealer, "actions": actions})
    return list(maker.found.values()), maker.counts


__all__ = [
    "LEVELS",
    "WORLDS",
    "Counts",
    "forced_bids",
    "generate",
    "open_values",
    "resolve",
    "view_values",
]
