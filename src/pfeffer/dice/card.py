"""A strategy card for Würfel-Pfeffer: a rule of thumb a person can learn and play from memory.

A :class:`Card` is a handful of whole numbers: when to bank by the dice left (one row for a
normal turn, one under Auto-Pfeffer), how that number moves with the score (per thousand points
behind or ahead, and when the leader nears the target), when to bank on reaching the target,
and what a die left to throw is worth when choosing which dice to set aside. Everything is
mental arithmetic on the table's numbers: a percentage of a number from the card, sums of
points. :meth:`Card.text` prints it as a player reads it (``pfeffer dice card``).

:data:`CARDS` holds the cards of the computer players' levels (``hard`` fitted against the
solved table with ``benchmarks/fit_dice_card.py``; see docs/strategy.md for their strength
against perfect play). :class:`CardBot` plays a card in :class:`~pfeffer.dice.DiceGame`, and the
simulator plays the very same decisions (kind ``KIND_CARD`` in :mod:`pfeffer.dice.sim`).

>>> card = CARDS["hard"]
>>> card.threshold(own=0, leader=0, target=10000, dice=1, auto=False) == card.bank[0]
True
>>> print(CARDS["easy"].text(DiceRules()).splitlines()[0])
Würfel-Pfeffer strategy card (easy), target 10000
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from pfeffer.dice.game import DiceView, PfefferMode, Phase
from pfeffer.dice.rules import DiceRules

#: The number of whole-number parameters of a card, in :meth:`Card.params` order.
PARAMS = 26
#: A bank number from this on means "never" (a card prints it so).
NEVER = 10**6


@dataclasses.dataclass(frozen=True)
class Card:
    """A learnable strategy: every field is a whole number (points unless said otherwise).

    ``bank`` / ``auto_bank``: bank once the turn total reaches this, by the dice you would throw
    next (1–6; six only counts where hot dice may be banked), in a normal turn / under
    Auto-Pfeffer. These move with the score, in percent: ``+behind`` for every full 1000 points
    the leader is ahead of you, ``-ahead`` for every full 1000 you lead, and ``+chase`` for every
    full 500 points the leader has beyond ``target - chase_from``. ``finish_lead``: bank as soon
    as banking reaches the target with a lead of at least this (whatever the dice). In a last
    turn (the final round, a playoff) bank as soon as you are ahead. ``worth``: when choosing
    which dice to set aside, each choice counts its turn total plus ``worth`` of the dice left to
    throw (1–6; six is hot dice), or plus ``bank_bonus`` (under Auto-Pfeffer ``auto_bank_bonus``)
    if you would bank right after it; the highest count wins (on a tie: more points, then fewer
    dice). ``pfeffer_up_to``: call Pfeffer when the stake is
    at most this, where a made call pays the stake (0: never).
    """

    name: str
    bank: tuple[int, ...]
    auto_bank: tuple[int, ...]
    worth: tuple[int, ...]
    behind: int = 0
    ahead: int = 0
    chase_from: int = 0
    chase: int = 0
    finish_lead: int = 0
    pfeffer_up_to: int = 0
    bank_bonus: int = 0
    auto_bank_bonus: int = 0

    def __post_init__(self) -> None:
        for field, values in (("bank", self.bank), ("auto_bank", self.auto_bank)):
            if len(values) != 6:
                raise ValueError(f"a card's {field} gives one number for each of 1-6 dice")
        if len(self.worth) != 6:
            raise ValueError("a card's worth gives one number for each of 1-6 dice left")
        if not all(type(v) is int for v in self.params()):
            raise ValueError("a card holds whole numbers")
        if min(*self.bank, *self.auto_bank, self.chase_from) < 0:
            raise ValueError("a card's bank numbers are not negative")

    def params(self) -> tuple[int, ...]:
        """The card's numbers in a fixed order (:data:`PARAMS` of them)."""
        return (
            *self.bank,
            *self.auto_bank,
            *self.worth,
            self.behind,
            self.ahead,
            self.chase_from,
            self.chase,
            self.finish_lead,
            self.pfeffer_up_to,
            self.bank_bonus,
            self.auto_bank_bonus,
        )

    @classmethod
    def from_params(cls, name: str, params: Sequence[int]) -> Card:
        """The card with ``params`` in :meth:`params` order.

        >>> c = CARDS["hard"]
        >>> Card.from_params("hard", c.params()) == c
        True
        """
        p = [int(x) for x in params]
        if len(p) != PARAMS:
            raise ValueError(f"a card has {PARAMS} numbers")
        return cls(name, tuple(p[0:6]), tuple(p[6:12]), tuple(p[12:18]), *p[18:26])

    def percent(self, own: int, leader: int, target: int) -> int:
        """The card's score adjustment: the bank numbers are multiplied by this / 100."""
        pct = 100
        if leader > own:
            pct += self.behind * ((leader - own) // 1000)
        else:
            pct -= self.ahead * ((own - leader) // 1000)
        start = target - self.chase_from
        if self.chase and leader > start:
            pct += self.chase * ((leader - start) // 500)
        return max(pct, 0)

    def threshold(self, *, own: int, leader: int, target: int, dice: int, auto: bool) -> int:
        """The turn total from which the card banks with ``dice`` to throw next."""
        row = self.auto_bank if auto else self.bank
        return row[dice - 1] * self.percent(own, leader, target) // 100

    def wants_bank(
        self, *, own: int, leader: int, target: int, total: int, dice: int, auto: bool, late: bool
    ) -> bool:
        """Whether the card banks ``total`` (banking is allowed) with ``dice`` to throw next;
        ``late``: a last turn (the final round or a playoff)."""
        if late:
            return own + total > leader
        if own + total >= target and own + total - leader >= self.finish_lead:
            return True
        return total >= self.threshold(own=own, leader=leader, target=target, dice=dice, auto=auto)

    def text(
        self, rules: DiceRules | None = None, gettext: Callable[[str], str] | None = None
    ) -> str:
        """The card as a player reads it, for ``rules`` (None: the defaults); ``gettext``
        translates its lines (the terminal's catalogue; None: English)."""
        rules = DiceRules() if rules is None else rules
        dice = 6 if not rules.hot_dice_must_roll else 5
        t = gettext or (lambda text: text)
        never, hot = t("never"), t("hot")

        def row(label: str, values: Sequence[int | str]) -> str:
            cells = "".join(f"{v if not isinstance(v, int) or v < NEVER else never:>7}"
                            for v in values)  # fmt: skip
            return f"   {label:<26}{cells}"

        lines = [
            t("Würfel-Pfeffer strategy card (%(card)s), target %(target)s")
            % {"card": t(self.name), "target": rules.target},
            "",
            t("1. Bank once the turn total reaches the number for the dice you"),
            t("   would throw next (never below the minimum of %(min)s):")
            % {"min": rules.min_bank},
            row(t("dice left"), list(range(1, dice + 1))),
            row(t("normal turn"), self.bank[:dice]),
        ]
        if rules.auto_pfeffer:
            lines.append(row(t("after a bust before you"), self.auto_bank[:dice]))
        lines.append(t("2. Move those numbers with the score:"))
        if self.behind:
            lines.append(
                t("   +%(pct)s%% for every full 1000 points the best opponent is ahead of you")
                % {"pct": self.behind}
            )
        if self.ahead:
            lines.append(
                t("   -%(pct)s%% for every full 1000 points you lead") % {"pct": self.ahead}
            )
        if self.chase:
            start = rules.target - self.chase_from
            lines.append(
                t("   +%(pct)s%% for every full 500 points the best opponent has above %(start)s")
                % {"pct": self.chase, "start": start}
            )
        if not (self.behind or self.ahead or self.chase):
            lines.append(t("   (they stay as they are)"))
        lines += [
            t("3. Reaching %(target)s: bank at once if you then lead by %(lead)s or more.")
            % {"target": rules.target, "lead": self.finish_lead},
            t("   In your last turn (someone reached the target) bank as soon as you"),
            t("   are ahead."),
            t("4. Choosing dice: count the turn total after setting them aside and add"),
            t("   for the dice left to throw if you go on:"),
            row(t("dice left"), [*range(1, 6), hot]),
            row(t("add"), self.worth),
        ]
        if rules.auto_pfeffer:
            lines += [
                t("   or add %(bonus)s if you bank right after it (%(auto)s after a bust")
                % {"bonus": self.bank_bonus, "auto": self.auto_bank_bonus},
                t("   before you)."),
            ]
        else:
            lines.append(
                t("   or add %(bonus)s if you bank right after it.") % {"bonus": self.bank_bonus}
            )
        lines.append(t("   Take the highest count; on a tie the most points, then fewer dice."))
        if rules.pfeffer:
            if rules.pfeffer_reward == "stake" and self.pfeffer_up_to:
                lines.append(
                    t("5. Call Pfeffer when the stake is %(stake)s or less.")
                    % {"stake": self.pfeffer_up_to}
                )
            else:
                lines.append(t("5. Never call Pfeffer."))
        return "\n".join(lines)


#: The cards of the computer players' levels (docs/strategy.md has their strength).
CARDS: Mapping[str, Card] = MappingProxyType(
    {
        "easy": Card(
            "easy",
            bank=(350, 350, 350, 350, 350, NEVER),
            auto_bank=(350, 350, 350, 350, 350, NEVER),
            worth=(0, 0, 0, 0, 0, 0),
            finish_lead=0,
        ),
        "medium": Card(
            "medium",
            bank=(300, 300, 400, 1000, 2500, NEVER),
            auto_bank=(300, 300, 400, 1000, 2500, NEVER),
            worth=(0, 25, 75, 150, 250, 400),
            finish_lead=0,
        ),
        # Fitted by benchmarks/fit_dice_card.py (one round of the coordinate search from the
        # hand-made card, 4,000 sampled turns): an expected regret of 0.005 per game.
        "hard": Card(
            "hard",
            bank=(600, 550, 700, 1150, 2350, NEVER),
            auto_bank=(100, 100, 250, 550, 1700, NEVER),
            worth=(0, 0, 75, 200, 350, 575),
            behind=10,
            ahead=9,
            chase_from=1500,
            chase=35,
            finish_lead=1100,
            bank_bonus=100,
            auto_bank_bonus=200,
        ),
    }
)


class CardBot:
    """Plays a :class:`Card` in :class:`~pfeffer.dice.DiceGame` (any number of players; the
    leader is the best of the others)."""

    def __init__(self, card: Card, name: str | None = None) -> None:
        self.card = card
        self.name = name or f"Card ({card.name})"

    def choose(self, view: DiceView, legal_actions: Sequence[str]) -> str:
        """The card's action for ``view``; always one of ``legal_actions``."""
        phase = view.phase
        if phase is Phase.KEEP:
            action = self._keep(view)
        elif phase is Phase.DECIDE:
            action = "bank" if view.can_bank and self._wants_bank(view, view.turn_total) else "roll"
        elif "pfeffer" in legal_actions and self._wants_pfeffer(view):
            action = "pfeffer"
        else:
            action = "roll"
        return action if action in legal_actions else legal_actions[0]

    def _state(self, view: DiceView) -> tuple[int, int, bool, bool]:
        me = view.current_player
        assert me is not None  # bots are asked only while the game runs
        leader = max(s for i, s in enumerate(view.scores) if i != me)
        late = view.final_round or bool(view.playoff)
        return view.scores[me], leader, view.pfeffer is PfefferMode.AUTO, late

    def _wants_bank(self, view: DiceView, total: int, dice: int | None = None) -> bool:
        own, leader, auto, late = self._state(view)
        return self.card.wants_bank(
            own=own,
            leader=leader,
            target=view.rules.target,
            total=total,
            dice=view.dice_to_roll if dice is None else dice,
            auto=auto,
            late=late,
        )

    def _keep(self, view: DiceView) -> str:
        rules = view.rules
        best_action = view.keep_options[0].action
        best = None
        for option in view.keep_options:
            left = view.dice_to_roll - len(option.dice)
            total = view.turn_total + option.points
            count = total + self.card.worth[(left or 6) - 1]
            may_bank = total >= view.min_to_bank and total > 0
            if left == 0 and rules.hot_dice_must_roll:
                may_bank = False
            if may_bank and self._wants_bank(view, total, left or 6):
                auto = view.pfeffer is PfefferMode.AUTO
                count = total + (self.card.auto_bank_bonus if auto else self.card.bank_bonus)
            if best is None or count > best:
                best, best_action = count, option.action
        return best_action

    def _wants_pfeffer(self, view: DiceView) -> bool:
        if view.rules.pfeffer_reward != "stake" or view.pfeffer_stake is None:
            return False
        return view.pfeffer_stake <= self.card.pfeffer_up_to
