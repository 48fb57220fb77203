"""The Pepper rules engine: one :class:`PepperGame` runs a whole game, hand after hand (P1-P11).

The state is compact (cards are ints 0..23, hands are 24-bit masks, see :mod:`.cards`) so that
``legal_actions``/``apply``/``clone`` are cheap enough for random play-outs and search. Strings
appear only at the API edge. A game is driven either through the named methods (``deal``, ``bid``,
``pass_bid``, ``declare``, ``play``) or through action strings (``legal_actions``/``apply``):

>>> g = PepperGame(players=4, seed=1, dealer=0)
>>> g.phase, g.legal_actions()
('deal', ['deal'])
>>> g.deal([["9C", "TC", "JC", "QC", "KC", "AC"], ["9D", "TD", "JD", "QD", "KD", "AD"],
...         ["9H", "TH", "JH", "QH", "KH", "AH"], ["9S", "TS", "JS", "QS", "KS", "AS"]])
>>> g.current_player, g.legal_actions()
(1, ['pass', '1', '2', '3', '4', '5', 'small', 'big'])
>>> g.bid("small"); g.pass_bid(); g.pass_bid(); g.pass_bid()
>>> g.phase, g.current_player, g.bidder
('declare', 1, 1)
>>> g.declare("D"); g.play("JD"); g.legal_cards()   # JH is a trump (a diamond) now
['JH']
>>> g.play("JH"); g.play("9S"); g.play("9C"); g.current_player
1
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pfeffer.core import records
from pfeffer.core.errors import (
    ActionError,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    RecordError,
    RulesError,
    SetupError,
)
from pfeffer.core.records import dumps, envelope
from pfeffer.core.rng import ChanceStream, new_seed
from pfeffer.pepper.action import PepperAction
from pfeffer.pepper.cards import (
    _HI,
    _LO,
    CARD_INDEX,
    CARD_STR,
    DECK_SIZE,
    EFFECTIVE_SUIT,
    NO_TRUMP,
    SUIT_MASK,
    TRICK_VALUE,
    TRUMP_STR,
    bower,
    display_order,
    mask_strs,
    parse_card,
    parse_trump,
)
from pfeffer.pepper.rules import (
    BidTerms,
    PepperRules,
    bid_ladder,
    bid_terms,
    cards_per_hand,
    hand_points,
    side_names,
    side_of,
    sides,
    winners_of,
)

DEAL, AUCTION, DECLARE, PLAY, OVER = range(5)


class Phase(enum.StrEnum):
    """What kind of action comes next (equal to its string: ``Phase.PLAY == "play"``)."""

    DEAL = "deal"
    AUCTION = "auction"
    DECLARE = "declare"
    PLAY = "play"
    OVER = "over"

    def __repr__(self) -> str:
        # Shown like the plain string it equals, so views and doctests read naturally.
        return repr(self.value)


PHASES = tuple(Phase)
#: The draw of the game's chance stream used to pick the first dealer when none is given (P3).
#: Deal k shuffles with block k (draws k * 2**16 + 1 … + 23), far below this number.
DEALER_DRAW = 1 << 40

_BIT = tuple(1 << c for c in range(DECK_SIZE))


class Trick(NamedTuple):
    """A finished trick: who led, the cards in the order played, who won it, and the seat that
    played each card (play goes round the table from the leader)."""

    leader: int
    cards: tuple[str, ...]
    winner: int
    seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of one deal. After an all-pass redeal ``bidder`` is None and nothing scores."""

    hand_number: int
    dealer: int
    bidder: int | None
    bid: str | None
    trump: str | None
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    made: bool | None
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PepperView:
    """What one seat may know (``seat`` None: a spectator, who sees no hand at all).

    Never holds another seat's unplayed cards, the dead hand of the 2-player game or the seed.
    Sides are teams 0 (seats 0+2) and 1 (seats 1+3) with 4 players, else one side per seat.
    """

    seat: int | None
    players: tuple[str, ...]
    rules: PepperRules
    phase: Phase
    dealer: int
    current_player: int | None
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    auction: tuple[tuple[int, str], ...]
    high_bid: str | None
    bidder: int | None
    trump: str | None
    tricks: tuple[Trick, ...]
    current_trick: tuple[tuple[int, str], ...]
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    hand_number: int
    last_hand: HandResult | None
    winners: tuple[int, ...]
    is_over: bool
    side_names: tuple[str, ...]
    tricks_needed: int | None
    tricks_in_hand: int
    must_bid: bool = False
    """The player to act in the auction may not pass (P6: everybody before them passed)."""

    @property
    def bid_terms(self) -> dict[str, BidTerms]:
        """During the auction, each bid of the ladder (P5) with the tricks it needs and the
        points it scores made and set (P10); empty in every other phase."""
        if self.phase != Phase.AUCTION:
            return {}
        n = len(self.players)
        return {b: bid_terms(self.rules, n, b) for b in bid_ladder(n)}

    @property
    def contract_terms(self) -> BidTerms | None:
        """The winning bid's terms once the auction is won (trump naming and play)."""
        if self.high_bid is None or self.phase not in (Phase.DECLARE, Phase.PLAY):
            return None
        return bid_terms(self.rules, len(self.players), self.high_bid)

    @property
    def hand_order(self) -> list[str]:
        """This seat's hand as it is held: trumps first, colours alternating (P8)."""
        return display_order(self.hand, self.trump)

    @property
    def bowers(self) -> dict[str, str]:
        """The right and left bower among the cards this seat sees (its hand, the tricks):
        card -> ``"right"`` or ``"left"``; empty before trump is named."""
        if self.trump is None:
            return {}
        seen = [*self.hand, *(c for _, c in self.current_trick)]
        seen += [c for t in self.tricks for c in t.cards]
        roles = {c: bower(c, self.trump) for c in seen}
        return {c: r for c, r in roles.items() if r is not None}

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names by seat (the same as ``players``)."""
        return self.players

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for."""
        return side_of(len(self.players), seat)

    @property
    def led_suit(self) -> str | None:
        """The suit that must be followed in the current trick (the left bower counts as trump)."""
        if not self.current_trick:
            return None
        t = parse_trump(self.trump)
        return "CDHS"[EFFECTIVE_SUIT[t][CARD_INDEX[self.current_trick[0][1]]]]


class PepperGame:
    """A game of Pepper for 2, 3 or 4 players, from the first deal to the winner (P1-P11).

    ``players`` is the list of names, or just their number (names "Seat 0", "Seat 1", …; or
    ``names``). ``seed`` drives the shuffles (deal number k is :meth:`ChanceStream.shuffle` block
    k, a portable Fisher-Yates) and, when ``dealer`` is None, the choice of the first dealer.
    """

    __slots__ = (
        "_active",
        "_best_seat",
        "_best_v",
        "_bid_code",
        "_bidder",
        "_bids",
        "_cur",
        "_dead",
        "_deal_log",
        "_dealer",
        "_deals",
        "_first_dealer",
        "_follow",
        "_hands",
        "_high",
        "_history",
        "_leader",
        "_n",
        "_names",
        "_passed",
        "_phase",
        "_results",
        "_rules",
        "_scores",
        "_seed",
        "_side_names",
        "_stream",
        "_trick",
        "_tricks",
        "_trump",
        "_vrow",
        "_winners",
        "_won",
    )

    def __init__(
        self,
        players: int | Sequence[str] = 4,
        rules: PepperRules | None = None,
        seed: int | None = None,
        dealer: int | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        if not isinstance(players, int) and isinstance(players, Sequence):
            if isinstance(players, str):
                raise SetupError.format(
                    "players must be a list of names or a number, not {players}.",
                    players=repr(players),
                )
            if names is not None and list(names) != list(players):
                raise SetupError("Give the names once: as players or as names.")
            names, players = list(players), len(players)
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise SetupError.format(
                "Pepper is played by 2, 3 or 4 players, not {players}.", players=repr(players)
            )
        rules = PepperRules() if rules is None else rules
        if not isinstance(rules, PepperRules):
            raise RulesError("rules must be a PepperRules.")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise SetupError.format("seed must be a whole number, not {seed}.", seed=repr(seed))
        seed = new_seed() if seed is None else seed
        stream = ChanceStream(seed)
        if dealer is None:
            dealer = stream.below(DEALER_DRAW, players)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise SetupError.format(
                "The dealer must be a seat from 0 to {last}, not {dealer}.",
                last=players - 1,
                dealer=repr(dealer),
            )
        if names is None:
            names = [f"Seat {i}" for i in range(players)]
        if (
            isinstance(names, str)
            or len(names) != players
            or not all(isinstance(x, str) for x in names)
        ):
            raise SetupError.format("names must be {players} strings.", players=players)
        self._n = players
        self._names = tuple(names)
        self._side_names = tuple(side_names(self._names))
        self._rules = rules
        self._seed = seed
        self._stream = stream
        self._bid_code = _BID_CODES[players]
        self._first_dealer = dealer
        self._dealer = dealer
        self._deals = 0
        self._scores = [0] * sides(players)
        self._winners: list[int] = []
        self._history: list[str] = []
        self._deal_log: list[tuple[int, ...]] = []
        self._results: list[HandResult] = []
        self._reset_hand()
        self._phase = DEAL
        self._cur = dealer

    def _reset_hand(self) -> None:
        n = self._n
        self._hands = [0] * n
        self._dead = 0
        self._high = 0
        self._bidder = -1
        self._passed = 0
        self._active = n
        self._bids: list[tuple[int, int]] = []
        self._trump = -1
        self._leader = -1
        self._trick: list[int] = []
        self._follow = 0
        self._vrow: tuple[int, ...] = ()
        self._best_v = 0
        self._best_seat = -1
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._won = [0] * len(self._scores)

    # ----------------------------------------------------------------------------------- queries

    @property
    def players(self) -> tuple[str, ...]:
        """Player names by seat (as stored in the record); ``len(players)`` is 2, 3 or 4."""
        return self._names

    @property
    def names(self) -> tuple[str, ...]:
        """Player names by seat (the same as :attr:`players`)."""
        return self._names

    @property
    def rules(self) -> PepperRules:
        """The house rules of this game."""
        return self._rules

    @property
    def seed(self) -> int:
        """The seed of the chance stream (secret from players; stored in the record)."""
        return self._seed

    @property
    def phase(self) -> Phase:
        """:class:`Phase`: "deal", "auction", "declare", "play" or "over"."""
        return PHASES[self._phase]

    @property
    def current_player(self) -> int | None:
        """The seat to act (the dealer in the deal phase); None once the game is over."""
        return None if self._phase == OVER else self._cur

    @property
    def dealer(self) -> int:
        """The seat that deals (dealt) the current hand (P3)."""
        return self._dealer

    @property
    def first_player(self) -> int:
        """The seat that acted first: the first dealer (P3), who deals the first hand."""
        return self._first_dealer

    @property
    def scores(self) -> list[int]:
        """Total score per side: [team 0+2, team 1+3] with 4 players, else one per player."""
        return list(self._scores)

    @property
    def is_over(self) -> bool:
        """True once a hand ended with some side at or above the target (P11)."""
        return self._phase == OVER

    @property
    def winners(self) -> list[int]:
        """The winning sides (several if tied for highest); empty while the game goes on."""
        return list(self._winners)

    @property
    def bidder(self) -> int | None:
        """The seat holding the highest bid of this hand so far (the declarer after the auction)."""
        return None if self._bidder < 0 else self._bidder

    @property
    def contract(self) -> str | None:
        """The highest bid of this hand so far ("1".."7", "small", "big") or None."""
        return _LADDERS[self._n][self._high - 1] if self._high else None

    @property
    def trump(self) -> str | None:
        """ "C", "D", "H", "S", "NT" once declared, else None."""
        return TRUMP_STR[self._trump] if self._trump >= 0 else None

    @property
    def tricks_won(self) -> list[int]:
        """Tricks won per side in the current hand."""
        return list(self._won)

    @property
    def current_trick(self) -> list[tuple[int, str]]:
        """(seat, card) pairs played to the trick in progress."""
        n, lead = self._n, self._leader
        return [((lead + i) % n, CARD_STR[c]) for i, c in enumerate(self._trick)]

    @property
    def tricks(self) -> list[Trick]:
        """Finished tricks of the current hand."""
        n = self._n
        return [
            Trick(
                ld, tuple(CARD_STR[c] for c in cs), w, tuple((ld + i) % n for i in range(len(cs)))
            )
            for ld, cs, w in self._tricks
        ]

    @property
    def hand_number(self) -> int:
        """How many deals have been made so far (redeals included); the current deal's number."""
        return self._deals

    @property
    def results(self) -> list[HandResult]:
        """One :class:`HandResult` per finished deal, oldest first."""
        return list(self._results)

    @property
    def last_hand(self) -> HandResult | None:
        """The result of the most recently finished deal, if any."""
        return self._results[-1] if self._results else None

    @property
    def actions(self) -> list[str]:
        """Every action so far in record notation (deals written out)."""
        return self._record_actions()

    @property
    def history(self) -> list[HandResult]:
        """The finished hands, oldest first (the same as :attr:`results`)."""
        return list(self._results)

    def tricks_needed(self) -> int | None:
        """The tricks the contract of this hand needs (all of them for either Pepper), once the
        auction is won; else None."""
        if not self._high or self._phase in (DEAL, AUCTION):
            return None
        ladder = _LADDERS[self._n]
        bid = ladder[self._high - 1]
        return cards_per_hand(self._n) if bid in ("small", "big") else int(bid)

    def side_of(self, seat: int) -> int:
        """The side a seat scores for: seat % 2 with 4 players, else the seat itself."""
        return side_of(self._n, seat)

    def hand(self, seat: int) -> list[str]:
        """The unplayed cards of ``seat`` in deck order (clubs, diamonds, hearts, spades; 9..A)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise SetupError.format("There is no seat {seat}.", seat=repr(seat))
        return mask_strs(self._hands[seat])

    def dead_hand(self) -> list[str]:
        """The face-down third hand of the 2-player game (empty otherwise). Not for players."""
        return mask_strs(self._dead)

    def legal_cards(self) -> list[str]:
        """Cards the current player may play now (empty outside the play phase) (P9)."""
        if self._phase != PLAY:
            return []
        hand = self._hands[self._cur]
        if self._trick:
            f = hand & self._follow
            if f:
                hand = f
        return mask_strs(hand)

    def legal_actions(self) -> list[str]:
        """Every action string that :meth:`apply` accepts now, in a stable order."""
        ph = self._phase
        if ph == PLAY:
            hand = self._hands[self._cur]
            if self._trick:
                f = hand & self._follow
                if f:
                    hand = f
            return [*_LO[hand & 4095], *_HI[hand >> 12]]  # == mask_strs(hand), inlined
        if ph == AUCTION:
            return list(_AUCTION_ACTIONS[self._n][self._high][self._must_bid()])
        if ph == DECLARE:
            return list(self._rules.trumps)
        if ph == DEAL:
            return ["deal"]
        return []

    def _must_bid(self) -> bool:
        return self._active == 1 and self._rules.all_pass == "last_must_bid"

    # ----------------------------------------------------------------------------------- actions

    def apply(self, action: str | PepperAction, seat: int | None = None) -> None:
        """Apply one action (see :meth:`legal_actions` and :class:`PepperAction`);
        ``"deal 9C TC … / …"`` deals the hands given.

        ``seat``, if given, must be the seat to act (a front end passes the sender's seat).
        Raises :class:`InvalidAction` (not a Pepper action at all), :class:`NotYourTurn` or
        :class:`IllegalAction` (not allowed now), and changes nothing.
        """
        if type(action) is not str:
            # A PepperAction is applied as its notation; the parser refuses anything else.
            action = str(action if isinstance(action, PepperAction) else PepperAction.parse(action))
        if seat is not None and (seat != self._cur or type(seat) is not int or self._phase == OVER):
            self._check_seat(seat)
        ph = self._phase
        if ph == PLAY:  # the hot path of play-outs, kept inline
            c = CARD_INDEX.get(action)
            if c is None:
                c = CARD_INDEX[self._read(action, "card").value]
            cur = self._cur
            hand = self._hands[cur]
            bit = _BIT[c]
            if not hand & bit:
                raise IllegalAction.format(
                    "You do not hold {card}.", player=self._who(), card=CARD_STR[c]
                )
            trick = self._trick
            if trick:
                f = hand & self._follow
                if f and not f & bit:
                    raise IllegalAction.format(
                        "You must follow suit ({suit}): {card} does not; playable: {playable}.",
                        player=self._who(),
                        suit="CDHS"[self._led()],
                        card=CARD_STR[c],
                        playable=" ".join(mask_strs(f)),
                    )
                v = self._vrow[c]
                if v > self._best_v:
                    self._best_v = v
                    self._best_seat = cur
            else:
                led = EFFECTIVE_SUIT[self._trump][c]
                self._follow = SUIT_MASK[self._trump][led]
                self._vrow = row = TRICK_VALUE[self._trump][led]
                self._best_v = row[c]
                self._best_seat = cur
            self._hands[cur] = hand ^ bit
            trick.append(c)
            self._history.append(CARD_STR[c])
            if len(trick) < self._n:
                self._cur = (cur + 1) % self._n
                return
            win = self._best_seat
            self._won[win % 2 if self._n == 4 else win] += 1
            self._tricks.append((self._leader, tuple(trick), win))
            self._trick = []
            self._leader = self._cur = win
            if not self._hands[win]:
                self._end_hand()
            return
        if ph == AUCTION:
            lvl = self._bid_code.get(action)
            self._bid(self._level(action) if lvl is None else lvl)
        elif ph == DECLARE:
            self._declare(parse_trump(self._read(action, "trump").value))
        elif ph == DEAL:
            if action == "deal":
                self._do_deal(self._shuffle())
            else:
                act = self._read(action, "deal")
                self._do_deal(self._shuffle() if not act.hands else self._check_deal(act.hands))
        else:
            PepperAction.parse(action)  # what is no action at all is InvalidAction, as in play
            raise self._over_error()

    def deal(
        self, hands: Sequence[Sequence[str]] | None = None, *, seat: int | None = None
    ) -> None:
        """Deal the next hand (P4): from the seeded shuffle, or the given hands (a real deck).

        ``hands`` has one list per seat (6 cards each with 4 players, 8 with 2 or 3) and, with 2
        players, a third list: the dead hand. Together they must be the 24 cards, each once.
        """
        self._check_method(seat, DEAL, "deal")
        self._do_deal(self._shuffle() if hands is None else self._check_deal(hands))

    def bid(self, bid: int | str, *, seat: int | None = None) -> None:
        """Bid a number of tricks, "small" or "big" (Small / Big Pepper) (P5, P6)."""
        self._check_method(seat, AUCTION, "bid")
        if isinstance(bid, int) and not isinstance(bid, bool):
            bid = str(bid)
        lvl = self._level(bid)
        if lvl == 0:
            raise IllegalAction("Use pass_bid() to pass.")
        self._bid(lvl)

    def pass_bid(self, *, seat: int | None = None) -> None:
        """Pass in the auction; a pass is final for this hand (P6)."""
        self._check_method(seat, AUCTION, "pass")
        self._bid(0)

    def declare(self, trump: str | None, *, seat: int | None = None) -> None:
        """Name the trump suit "C", "D", "H", "S", or None / "NT" for no trump (P7)."""
        self._check_method(seat, DECLARE, "name trump")
        self._declare(parse_trump(trump))

    def play(self, card: str, *, seat: int | None = None) -> None:
        """Play a card from the current player's hand (P9)."""
        self._check_method(seat, PLAY, "play a card")
        self.apply(CARD_STR[parse_card(card)])

    # ------------------------------------------------------------------------------- internals

    def _who(self) -> str:
        return self._names[self._cur]

    def _check_method(self, seat: int | None, phase: int, what: str) -> None:
        """The checks of a named method: ``seat`` (if given) acts now, and the game is in
        ``phase``, where ``what`` ("bid", "name trump", …) is done."""
        if seat is not None and (seat != self._cur or type(seat) is not int or self._phase == OVER):
            self._check_seat(seat)
        if self._phase != phase:
            raise self._phase_error(what)

    def _check_seat(self, seat: object) -> None:
        """Raise for an action sent by ``seat`` when it is not that seat's turn (the same
        checks, in the same order and words, as the dice game's)."""
        if self._phase == OVER:
            raise self._over_error()
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise InvalidAction.format("There is no seat {seat}.", seat=repr(seat))
        if not 0 <= seat < self._n:
            raise NotYourTurn.format("There is no seat {seat}.", seat=seat)
        if seat != self._cur:
            raise NotYourTurn.format(
                "It is {player}'s turn, not {seat_player}'s.",
                player=self._who(),
                seat_player=self._names[seat],
            )

    def _read(self, action: object, kind: str) -> PepperAction:
        """``action`` parsed, when it is of ``kind`` ("card", "bid", "trump", "deal"; a bid
        takes "pass" too); else InvalidAction (no action at all) or IllegalAction (an action of
        another phase), both saying what is expected now."""
        try:
            act: PepperAction | None = PepperAction.parse(action)  # type: ignore[arg-type]
        except InvalidAction:
            act = None
        if act is not None and (act.kind == kind or (kind == "bid" and act.kind == "pass")):
            return act
        refusal = InvalidAction if act is None else IllegalAction
        raise refusal.format(
            {
                "card": "{action} is not a card: play one of your cards.",
                "bid": "{action} is not a bid: bid ({bids}) or pass.",
                "trump": "{action} is not a trump: name trump (C, D, H, S or NT).",
                "deal": "{player} must deal now ('deal'), not {action}.",
            }[kind],
            action=repr(action),
            player=self._who(),
            bids=", ".join(_LADDERS[self._n]),
        )

    def _level(self, action: object) -> int:
        """The auction level of a bid or pass in any notation (0: pass)."""
        act = self._read(action, "bid")
        lvl = self._bid_code.get(act.kind if act.kind == "pass" else act.value)
        if lvl is None:  # a bid of another number of players ("6" with four)
            raise IllegalAction.format(
                "{action} is not a bid: bid ({bids}) or pass.",
                action=repr(action),
                bids=", ".join(_LADDERS[self._n]),
            )
        return lvl

    def _declare(self, t: int) -> None:
        if t == NO_TRUMP and not self._rules.no_trump:
            raise IllegalAction("Under these rules no trump is not allowed: name C, D, H or S.")
        self._trump = t
        self._history.append(TRUMP_STR[t])
        self._phase = PLAY
        self._leader = self._cur = self._bidder

    def _over_error(self) -> IllegalAction:
        return IllegalAction("The game is over.")

    def _phase_error(self, what: str) -> IllegalAction:
        """``what`` ("deal", "bid", "pass", "name trump", "play a card") is not possible now."""
        ph = self._phase
        if ph == OVER:
            return self._over_error()
        return IllegalAction.format(
            {
                DEAL: "You cannot {what} now: it is {player}'s turn to deal the next hand.",
                AUCTION: "You cannot {what} now: it is {player}'s turn to bid or pass.",
                DECLARE: "You cannot {what} now: it is {player}'s turn to name trump.",
                PLAY: "You cannot {what} now: it is {player}'s turn to play a card.",
            }[ph],
            what=what,
            player=self._who(),
        )

    def _shuffle(self) -> tuple[int, ...]:
        deck = self._stream.shuffle(self._deals, list(range(DECK_SIZE)))
        n = self._n
        hands = [0] * (n + 1)
        for c, p in zip(deck, _DEAL_ORDER[n][self._dealer], strict=True):
            hands[p] |= _BIT[c]
        return tuple(hands) if n == 2 else tuple(hands[:n])

    def _check_deal(self, hands: Sequence[Sequence[str]]) -> tuple[int, ...]:
        n = self._n
        want = n + 1 if n == 2 else n
        size = cards_per_hand(n)
        if isinstance(hands, str) or not isinstance(hands, Sequence):
            raise InvalidAction.format(
                "A deal is a list of hands, each a list of cards, not {hands}.", hands=repr(hands)
            )
        if len(hands) != want:
            raise IllegalAction.format(
                "A deal for {n} players needs {want} hands (the last one is the dead hand)."
                if n == 2
                else "A deal for {n} players needs {want} hands.",
                n=n,
                want=want,
            )
        masks = []
        seen = 0
        for i, given in enumerate(hands):
            h = given.split() if isinstance(given, str) else given
            if not isinstance(h, Sequence):
                raise InvalidAction.format(
                    "A deal is a list of hands, each a list of cards, not {hands}.",
                    hands=repr(hands),
                )
            if len(h) != size:
                if i == n:
                    raise IllegalAction.format(
                        "The dead hand must get {size} cards, not {got}.", size=size, got=len(h)
                    )
                raise IllegalAction.format(
                    "{player} must get {size} cards, not {got}.",
                    player=self._names[i],
                    size=size,
                    got=len(h),
                )
            m = 0
            for t in h:
                c = parse_card(t)
                if (m | seen) >> c & 1:
                    raise IllegalAction.format("The card {card} is dealt twice.", card=CARD_STR[c])
                m |= 1 << c
            seen |= m
            masks.append(m)
        return tuple(masks)

    def _do_deal(self, masks: tuple[int, ...]) -> None:
        n = self._n
        self._reset_hand()
        self._hands = list(masks[:n])
        if n == 2:
            self._dead = masks[2]
        self._deal_log.append(masks)
        self._history.append("deal")
        self._deals += 1
        self._phase = AUCTION
        self._cur = (self._dealer + 1) % n

    def _bid(self, lvl: int) -> None:
        cur = self._cur
        if lvl == 0:
            if self._must_bid():
                raise IllegalAction.format(
                    "Everybody else passed: you must bid (at least 1) and cannot pass.",
                    player=self._who(),
                )
        elif lvl <= self._high:
            raise IllegalAction.format(
                "A bid must be higher than {high}: {bid} is not.",
                high=repr(_LADDERS[self._n][self._high - 1]),
                bid=repr(_LADDERS[self._n][lvl - 1]),
            )
        n = self._n
        self._bids.append((cur, lvl))
        self._history.append(_LADDERS_P[n][lvl])
        if lvl == 0:
            self._passed |= 1 << cur
            self._active -= 1
            if self._active == 0:
                self._redeal()
                return
            if self._active == 1 and self._high:
                self._end_auction()
                return
        else:
            self._high = lvl
            self._bidder = cur
            if lvl == len(_LADDERS[n]) or self._active == 1:
                self._end_auction()
                return
        passed = self._passed
        nxt = (cur + 1) % n
        while passed >> nxt & 1:
            nxt = (nxt + 1) % n
        self._cur = nxt

    def _end_auction(self) -> None:
        self._phase = DECLARE
        self._cur = self._bidder

    def _redeal(self) -> None:
        zeros = (0,) * len(self._scores)
        self._results.append(
            HandResult(
                self._deals, self._dealer, None, None, None, zeros, zeros, None, tuple(self._scores)
            )
        )
        self._reset_hand()
        self._dealer = (self._dealer + 1) % self._n
        self._phase = DEAL
        self._cur = self._dealer

    def _led(self) -> int:
        return EFFECTIVE_SUIT[self._trump][self._trick[0]]

    def _end_hand(self) -> None:
        n = self._n
        won = self._won
        bidder = self._bidder
        bs = bidder % 2 if n == 4 else bidder
        high = self._high
        points, made = hand_points(self._rules, n, bs, _LADDERS[n][high - 1], won)
        scores = self._scores
        for i, p in enumerate(points):
            scores[i] += p
        self._results.append(
            HandResult(
                self._deals,
                self._dealer,
                bidder,
                _LADDERS[n][high - 1],
                TRUMP_STR[self._trump],
                tuple(won),
                tuple(points),
                made,
                tuple(scores),
            )
        )
        winners = winners_of(scores, self._rules.target)
        if winners:
            self._winners = winners
            self._phase = OVER
            self._cur = -1
        else:
            self._dealer = (self._dealer + 1) % n
            self._phase = DEAL
            self._cur = self._dealer

    # ------------------------------------------------------------------------- view and copies

    def view(self, seat: int | None = None) -> PepperView:
        """What ``seat`` may know now; ``seat=None`` gives the spectator's (public) view."""
        n = self._n
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
        ):
            raise SetupError.format("There is no seat {seat}.", seat=repr(seat))
        ladder = _LADDERS_P[n]
        return PepperView(
            seat=seat,
            players=self._names,
            rules=self._rules,
            phase=PHASES[self._phase],
            dealer=self._dealer,
            current_player=self.current_player,
            hand=tuple(mask_strs(self._hands[seat])) if seat is not None else (),
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            auction=tuple((s, ladder[lvl]) for s, lvl in self._bids),
            high_bid=self.contract,
            bidder=self.bidder,
            trump=self.trump,
            tricks=tuple(self.tricks),
            current_trick=tuple(self.current_trick),
            tricks_won=tuple(self._won),
            scores=tuple(self._scores),
            hand_number=self._deals,
            last_hand=self.last_hand,
            winners=tuple(self._winners),
            is_over=self._phase == OVER,
            side_names=self._side_names,
            tricks_needed=self.tricks_needed(),
            tricks_in_hand=cards_per_hand(n),
            must_bid=self._phase == AUCTION and self._must_bid(),
        )

    def clone(self) -> PepperGame:
        """An independent copy (cheap: a few small lists are copied, the rest is shared)."""
        g = object.__new__(PepperGame)
        g._n = self._n
        g._names = self._names
        g._side_names = self._side_names
        g._rules = self._rules
        g._seed = self._seed
        g._stream = self._stream
        g._bid_code = self._bid_code
        g._first_dealer = self._first_dealer
        g._dealer = self._dealer
        g._deals = self._deals
        g._scores = self._scores[:]
        g._winners = self._winners[:]
        g._history = self._history[:]
        g._deal_log = self._deal_log[:]
        g._results = self._results[:]
        g._hands = self._hands[:]
        g._dead = self._dead
        g._high = self._high
        g._bidder = self._bidder
        g._passed = self._passed
        g._active = self._active
        g._bids = self._bids[:]
        g._trump = self._trump
        g._leader = self._leader
        g._trick = self._trick[:]
        g._follow = self._follow
        g._vrow = self._vrow
        g._best_v = self._best_v
        g._best_seat = self._best_seat
        g._tricks = self._tricks[:]
        g._won = self._won[:]
        g._phase = self._phase
        g._cur = self._cur
        return g

    def state_key(self) -> tuple[Any, ...]:
        """Everything that makes up the state, as a hashable tuple (for tests and caches)."""
        return tuple(
            tuple(v) if isinstance(v, list) else v
            for v in (getattr(self, s) for s in self.__slots__ if s != "_stream")
        )

    # ---------------------------------------------------------------------------------- records

    def _record_actions(self) -> list[str]:
        out = []
        deals = iter(self._deal_log)
        for a in self._history:
            if a == "deal":
                masks = next(deals)
                out.append("deal " + " / ".join(" ".join(mask_strs(m)) for m in masks))
            else:
                out.append(a)
        return out

    def to_record(self) -> dict[str, Any]:
        """The game as a versioned JSON-ready record (see docs/pepper.md); replays without the RNG.

        >>> g = PepperGame(players=3, seed=5, dealer=2)
        >>> g.apply("deal"); g.apply("pass")
        >>> r = g.to_record()
        >>> r["game"], r["actions"][1], PepperGame.from_record(r).state_key() == g.state_key()
        ('pepper', 'pass', True)
        """
        actions = self._record_actions()
        return envelope(
            "pepper",
            rules=self._rules.to_dict(),
            seed=self._seed,
            players=list(self._names),
            first_player=self._first_dealer,
            # The fields of records before the shared shape, kept for their readers.
            dealer=self._first_dealer,
            actions=actions,
            scores=list(self._scores),
            winners=list(self._winners),
            result=records.result(
                self._scores, self._winners, over=self._phase == OVER, actions=len(actions)
            ),
        )

    def to_json(self) -> str:
        """The record as canonical JSON text."""
        return dumps(self.to_record())

    @classmethod
    def from_record(cls, record: dict[str, Any] | str | bytes) -> PepperGame:
        """Rebuild a game by replaying a record; :class:`RecordError` if it does not replay, or
        if its written result (or, in older records, its scores) is not what its actions give."""
        obj = records.load(record, "pepper")
        names = obj["players"]
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise RecordError("The record's 'players' must be a list of player names.")
        try:
            rules = PepperRules.from_dict(obj["rules"])
            game = cls(
                players=len(names),
                rules=rules,
                seed=obj.get("seed"),
                # Records before the shared shape name the first dealer "dealer" only.
                dealer=records.first_player(obj, old="dealer", default=None),
                names=names,
            )
        except ValueError as exc:
            raise RecordError(f"The record's set-up is invalid: {exc}") from exc
        for i, action in enumerate(obj["actions"]):
            try:
                game.apply(action)
            except ActionError as exc:
                raise RecordError(f"Action {i + 1} ({action!r}) does not replay: {exc}") from exc
        over = game._phase == OVER
        records.check_result(obj, scores=game._scores, winners=game._winners, over=over)
        # The field of records before the shared shape, checked as it always was.
        if "scores" in obj and obj["scores"] != game._scores:
            raise RecordError(
                f"The record says the scores are {obj['scores']!r}; its replay gives "
                f"{game._scores!r}."
            )
        return game


def deal_order(n: int, dealer: int) -> tuple[int, ...]:
    """Who gets each card of the shuffled deck (P4): one at a time clockwise from left of the
    dealer. With 2 players the dead hand (index 2) takes its turn after the dealer.

    >>> deal_order(2, 0)[:6], deal_order(4, 3)[:5]
    ((1, 0, 2, 1, 0, 2), (0, 1, 2, 3, 0))
    """
    order = [(dealer + 1 + j) % n for j in range(n)]
    if n == 2:
        order.append(2)
    return tuple(order[i % len(order)] for i in range(DECK_SIZE))


_DEAL_ORDER = {n: tuple(deal_order(n, d) for d in range(n)) for n in (2, 3, 4)}
_LADDERS = {n: bid_ladder(n) for n in (2, 3, 4)}
_LADDERS_P = {n: ("pass", *_LADDERS[n]) for n in (2, 3, 4)}
_BID_CODES = {n: {b: i for i, b in enumerate(_LADDERS_P[n])} for n in (2, 3, 4)}
#: _AUCTION_ACTIONS[n][high][must_bid]: legal auction actions.
_AUCTION_ACTIONS = {
    n: tuple((("pass", *_LADDERS[n][h:]), _LADDERS[n][h:]) for h in range(len(_LADDERS[n]) + 1))
    for n in (2, 3, 4)
}
