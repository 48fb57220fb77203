"""Computer players for Würfel-Pfeffer, on the shared :class:`pfeffer.core.bots.Bot` interface.

They see only a :class:`~pfeffer.dice.game.DiceView` and the legal actions.

>>> from pfeffer.dice import DiceGame
>>> g = DiceGame(["Anna", "Ben"], seed=3)
>>> bots = [HeuristicBot(), HeuristicBot()]
>>> while not g.is_over:
...     seat = g.current_player
...     g.apply(bots[seat].choose(g.view(seat), g.legal_actions()), seat=seat)
>>> max(g.scores) >= 10000 and g.winners != []
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from pfeffer.core.bots import BotKind, BotRegistry
from pfeffer.core.extras import require
from pfeffer.dice.card import CARDS, CardBot
from pfeffer.dice.game import DiceView, PfefferMode, Phase
from pfeffer.dice.probability import throw_distribution
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.scoring import score_table

if TYPE_CHECKING:
    from pfeffer.dice.solver.approx import ApproxStrategy
    from pfeffer.dice.solver.strategy import DiceStrategy
    from pfeffer.dice.solver.three import ThreeStrategy

# Bank once the turn total reaches this, by the number of dice that would be thrown next.
# (Hot dice give six, which must be thrown anyway.)
BANK_AT: Mapping[int, int] = MappingProxyType({1: 300, 2: 300, 3: 400, 4: 1000, 5: 2500, 6: 10**9})
# Rough worth of going on with n dice, used to prefer keeping fewer dice when not banking.
ROLL_ON_WORTH: Mapping[int, int] = MappingProxyType({1: 0, 2: 25, 3: 75, 4: 150, 5: 250, 6: 400})
# Self-play (benchmarks/dice_bot_selfplay.py, 2,000 games a variant, each seed from both seats):
# no single change of one threshold beats these by more than the noise (±0.011); halving or
# doubling the worths (0.438, 0.464) or banking two dice only from 400 (0.476) loses.


class RandomBot:
    """Picks uniformly among the legal actions (never declares a throw void: that is a table
    event, not a decision). Reproducible with a seed."""

    def __init__(self, seed: int | None = None, name: str = "Random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def choose(self, view: DiceView, legal_actions: Sequence[str]) -> str:
        """A uniformly random legal action other than ``void``."""
        choices = [a for a in legal_actions if a != "void"] or list(legal_actions)
        return self._rng.choice(choices)


class HeuristicBot:
    """A sensible player: keeps for value, banks by thresholds that depend on the dice left and on
    the score situation, and calls Pfeffer only when winning the bet is likely enough to pay."""

    def __init__(
        self,
        name: str = "Heuristic",
        bank_at: Mapping[int, int] = BANK_AT,
        roll_on_worth: Mapping[int, int] = ROLL_ON_WORTH,
    ) -> None:
        self.name = name
        self.bank_at = bank_at
        self.roll_on_worth = roll_on_worth

    def choose(self, view: DiceView, legal_actions: Sequence[str]) -> str:
        """The heuristic's action for ``view``; always one of ``legal_actions``."""
        phase = view.phase
        if phase is Phase.KEEP:
            action = self._keep(view)
        elif phase is Phase.DECIDE:
            action = "bank" if view.can_bank and self._wants_bank(view) else "roll"
        elif "pfeffer" in legal_actions and self._wants_pfeffer(view):
            action = "pfeffer"
        else:
            action = "roll"
        return action if action in legal_actions else legal_actions[0]

    def _goal(self, view: DiceView) -> int:
        """The turn total this turn must reach before banking is worth it regardless of dice."""
        me = view.current_player
        assert me is not None  # bots are asked only while the game runs
        mine = view.scores[me]
        need = view.min_to_bank
        if view.final_round or view.playoff:
            # Last chance: only a total that beats the leader is worth banking.
            leader = max(s for i, s in enumerate(view.scores) if i != me)
            need = max(need, leader - mine + 1)
        return need

    def _wants_bank(self, view: DiceView) -> bool:
        total = view.turn_total
        if total < self._goal(view):
            return False
        if view.final_round or view.playoff:
            return True
        me = view.current_player
        assert me is not None  # bots are asked only while the game runs
        mine = view.scores[me]
        if mine + total >= view.rules.target:
            return True  # reaching the target starts the final round with us in front
        threshold = self.bank_at[view.dice_to_roll]
        if view.pfeffer is PfefferMode.AUTO:
            threshold = min(threshold, 400) if view.dice_to_roll < 6 else threshold
        leader = max(view.scores)
        if leader - mine > 3000 and leader > view.rules.target * 0.7:
            threshold = int(threshold * 1.5)  # far behind late: take more risk
        return total >= threshold

    def _keep(self, view: DiceView) -> str:
        best_action = view.keep_options[0].action
        best_value = -1.0
        left_now = view.dice_to_roll
        for option in view.keep_options:
            left = left_now - len(option.dice) or 6
            total = view.turn_total + option.points
            value = float(total)
            if total < self.bank_at[left] or left == 6:
                value += self.roll_on_worth[left]
            if value > best_value:
                best_value, best_action = value, option.action
        return best_action

    def _wants_pfeffer(self, view: DiceView) -> bool:
        rules = view.rules
        if rules.pfeffer_reward != "stake" or view.predecessor_result is None:
            return False  # with no reward, the bet only adds risk
        stake = view.predecessor_result + rules.pfeffer_margin
        goal = max(stake, rules.min_bank)
        p = reach_probability(rules, goal)
        # Win the stake with probability p, lose factor × stake otherwise.
        return p * stake > (1 - p) * rules.pfeffer_penalty_factor * stake


@functools.lru_cache(maxsize=256)
def reach_probability(rules: DiceRules, goal: int) -> float:
    """Probability that a turn from scratch reaches a turn total of ``goal`` or more, playing only
    for that (bust otherwise).

    >>> 0.2 < reach_probability(DiceRules(), 350) < 0.9
    True
    >>> reach_probability(DiceRules(), 350) > reach_probability(DiceRules(), 1000)
    True
    """
    table = score_table(rules)
    step = table.step
    goal = -(-goal // step) * step

    @functools.cache
    def p(total: int, dice: int) -> float:
        if total >= goal:
            return 1.0
        result = 0.0
        for throw, prob in throw_distribution(dice):
            best = 0.0
            for option in table.options[throw]:
                left = dice - len(option.dice) or 6
                best = max(best, p(total + option.points, left))
                if best == 1.0:
                    break
            result += prob * best
        return result

    return p(0, 6)


class OptimalBot:
    """Plays the best advice of a solved strategy (:func:`pfeffer.dice.solve`): the action with the
    highest chance to win. Without a strategy it solves the rules of the first view it sees
    (cached on disk afterwards; a solve of the default rules takes minutes, but their table ships
    with the package).

    With ``solve_missing=False`` (the bot registry's players) it never starts a solve: for rules
    whose table is neither shipped nor cached it plays as :class:`HeuristicBot` and says so once
    (a :class:`UserWarning`; ``fallback`` is then true).

    Two players, or three with the exact three-player strategy (a
    :class:`~pfeffer.dice.solver.three.ThreeStrategy`, docs/strategy.md "More players")."""

    def __init__(
        self,
        strategy: DiceStrategy | ThreeStrategy | ApproxStrategy | None = None,
        name: str = "Optimal",
        *,
        solve_missing: bool = True,
    ) -> None:
        self.name = name
        self.strategy = strategy
        self.solve_missing = solve_missing
        self.fallback = False
        self._heuristic: HeuristicBot | None = None

    def _strategy(self, view: DiceView) -> DiceStrategy | ThreeStrategy | ApproxStrategy | None:
        rules = view.rules
        if self.strategy is not None and self.strategy.rules == rules:
            return self.strategy
        if self.solve_missing:
            from pfeffer.dice.solver import solve

            self.strategy = solve(rules, len(view.players))
            return self.strategy
        from pfeffer.dice.solver import cache

        found = cache.load(rules) if len(view.players) == 2 else None
        if found is None:
            self._fall_back(
                "the solved play is for two players"
                if len(view.players) != 2
                else "no solved table for these rules (the default rules' ships with the "
                "package; solve others with 'pfeffer dice solve --rule ...')"
            )
            return None
        self.strategy = found
        return found

    def _fall_back(self, reason: str) -> None:
        if not self.fallback:
            import warnings

            warnings.warn(f"{self.name}: {reason}: playing as the heuristic player", stacklevel=4)
        self.fallback = True

    def choose(self, view: DiceView, legal_actions: Sequence[str]) -> str:
        """The legal action with the highest chance to win."""
        from pfeffer.dice.solver.advice import advise

        if len(legal_actions) == 1:
            return legal_actions[0]
        strategy = self._strategy(view)
        if strategy is None:
            if self._heuristic is None:
                self._heuristic = HeuristicBot(name=self.name)
            return self._heuristic.choose(view, legal_actions)
        tips = advise(strategy, view)
        for tip in tips:
            if tip.action in legal_actions:
                return tip.action
        return legal_actions[0]


#: The computer players' levels, strongest first: perfect play of the solved table, then the
#: strategy cards of :mod:`pfeffer.dice.card` (docs/strategy.md: each level against perfect).
LEVELS: tuple[str, ...] = ("perfect", "hard", "medium", "easy")


def make_optimal_bot(
    *, name: str, seed: int | None, level: str, solve_missing: bool = False
) -> OptimalBot | CardBot:
    """The computer player at ``level`` (a registry factory). ``perfect`` is the optimal player;
    as the registry makes it, it never starts a solve: under rules without a shipped or cached
    table it plays as the heuristic player and warns once (see :class:`OptimalBot`). ``hard``,
    ``medium`` and ``easy`` play the strategy card of that name (any rules, any number of
    players)."""
    if level == "perfect":
        require("ai", "The perfect computer player")  # the solver's tables are numpy arrays
        return OptimalBot(name=name, solve_missing=solve_missing)
    if level not in CARDS:
        raise ValueError(f"no level {level!r} (choose from {', '.join(LEVELS)})")
    return CardBot(CARDS[level], name=name)


def _random_bot(*, name: str, seed: int | None, level: str) -> RandomBot:
    return RandomBot(seed, name=name)


def _heuristic_bot(*, name: str, seed: int | None, level: str) -> HeuristicBot:
    return HeuristicBot(name=name)


#: The dice game's computer players (the terminal, the web server and benchmarks make them here).
DICE_BOTS: BotRegistry[DiceView] = BotRegistry(
    "dice",
    [
        BotKind(
            "heuristic",
            "Heuristic",
            "keeps for value, banks by thresholds, plays to win the final round",
            ("normal",),
            _heuristic_bot,
        ),
        BotKind("random", "Random", "any legal action at random", ("random",), _random_bot),
        BotKind(
            "optimal",
            "Optimal",
            "perfect: exact optimal play from the solved table (default rules or a cached "
            "solve; otherwise plays as the heuristic player); hard, medium, easy: the strategy "
            "cards of 'pfeffer dice card'",
            LEVELS,
            make_optimal_bot,
        ),
    ],
)
