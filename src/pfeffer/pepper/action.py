"""A Pepper action as a value: it parses and prints its notation exactly (P4-P9).

Like python-chess's ``Move.from_uci`` and the dice game's :class:`~pfeffer.dice.game.DiceAction`,
:meth:`PepperAction.parse` reads what a player types and ``str()`` prints the canonical form that
:meth:`~pfeffer.pepper.game.PepperGame.legal_actions` lists and records store. Parsing checks the
notation only; whether the action is allowed now is the engine's question
(:class:`~pfeffer.core.errors.IllegalAction`), not the parser's
(:class:`~pfeffer.core.errors.InvalidAction`).

>>> [str(PepperAction.parse(t)) for t in ("10♥", " small pepper ", "PASS", "♠", "no trump", "3")]
['TH', 'small', 'pass', 'S', 'NT', '3']
>>> PepperAction.parse("jd")
PepperAction(kind='card', value='JD', hands=())
>>> str(PepperAction.parse("deal 9C TC JC QC KC AC 9D TD / JD QD KD AD 9H TH JH QH / "
...                        "KH AH 9S TS JS QS KS AS"))[:22]
'deal 9C TC JC QC KC AC'
>>> PepperAction.parse("jump")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pfeffer.core.errors.InvalidAction: 'jump' is not a Pepper action: play a card (JD), bid (1-7, ...
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Literal

from pfeffer.core.errors import InvalidAction
from pfeffer.pepper.cards import CARD_INDEX, CARD_STR, TRUMP_STR, parse_card, parse_trump

Kind = Literal["deal", "bid", "pass", "trump", "card"]

#: Every bid word of any player count (the ladder of 2 and 3 players, which holds the 4 players'),
#: lower case; whether a bid exists at this table is the engine's question.
BID_WORDS = ("1", "2", "3", "4", "5", "6", "7", "small", "big")
_TRUMP_WORDS = frozenset({"C", "D", "H", "S", "NT", "N", "NO TRUMP", "NOTRUMP", "NONE"})


@dataclasses.dataclass(frozen=True, slots=True)
class PepperAction:
    """One action: ``kind`` and its ``value`` in canonical notation.

    - ``deal``: deal from the game's shuffle (``deal``) or the ``hands`` given, one tuple of
      cards per seat and, with 2 players, the dead hand last (``deal 9C TC … / … / …``);
    - ``bid``: ``value`` is ``"1"``…``"7"``, ``"small"`` or ``"big"`` (Small / Big Pepper);
    - ``pass``: pass in the auction;
    - ``trump``: ``value`` is ``"C"``, ``"D"``, ``"H"``, ``"S"`` or ``"NT"``;
    - ``card``: ``value`` is a card such as ``"JD"`` (ranks ``9 T J Q K A``).
    """

    kind: Kind
    value: str = ""
    hands: tuple[tuple[str, ...], ...] = ()

    @classmethod
    def parse(cls, text: str) -> PepperAction:
        """Read an action in notation (case, spaces, ``10`` and suit symbols are forgiven);
        :class:`InvalidAction` if ``text`` is no Pepper action at all."""
        if not isinstance(text, str):
            raise InvalidAction.format(
                "An action is a string, not {action} (for example {examples}).",
                examples="'JD', '2', 'pass', 'H'",
                action=repr(text),
            )
        return _parse(text)

    def __str__(self) -> str:
        if self.hands:
            return "deal " + " / ".join(" ".join(hand) for hand in self.hands)
        return self.value or self.kind


@functools.lru_cache(maxsize=1024)
def _parse(text: str) -> PepperAction:
    """Memoised parse of a string (actions are immutable; front ends repeat the same few)."""
    if text in CARD_INDEX:  # the commonest case, written as listed
        return PepperAction("card", text)
    low = text.strip().lower()
    if low == "deal":
        return PepperAction("deal")
    if low.startswith("deal "):
        return PepperAction("deal", hands=_parse_hands(text.strip()[5:]))
    if low == "pass":
        return PepperAction("pass")
    word = low.removesuffix(" pepper")
    if word in BID_WORDS:
        return PepperAction("bid", word)
    upper = text.strip().replace("\ufe0f", "").upper()
    if upper in _TRUMP_WORDS or len(upper) == 1:
        try:
            return PepperAction("trump", TRUMP_STR[parse_trump(text)])
        except InvalidAction:
            pass
    try:
        return PepperAction("card", CARD_STR[parse_card(text)])
    except InvalidAction:
        pass
    raise InvalidAction.format(
        "{action} is not a Pepper action: play a card (JD), bid (1-7, small, big), pass, "
        "name trump (C, D, H, S, NT) or deal.",
        action=repr(text),
    )


def _parse_hands(text: str) -> tuple[tuple[str, ...], ...]:
    """The hands of a deal written out: cards by seat, hands split by ``/``. Only the notation
    is checked here (every card a card); how many hands and cards, each card once, is the
    engine's check, which knows the number of players."""
    return tuple(tuple(CARD_STR[parse_card(t)] for t in part.split()) for part in text.split("/"))
