"""Observation tensors and strings, built only from ``game.view(seat)`` (nothing hidden can leak).

Each encoding is a :class:`Layout`: named pieces of one flat float32 vector, fixed per game and
player count (``n`` players, ``L`` bids in the ladder, ``T`` tricks a hand, ``S`` scoring sides).
Scores and points are divided by the rules' target, so they are near [-1, 1] in a normal game.

**Dice** (:func:`dice_layout`, ``5n + 31`` floats; the same for observation and information state,
since the dice game hides nothing but the future): ``seat`` n (the viewer, one-hot), ``current`` n,
``phase`` 4 (start keep decide over), ``scores`` n (/target), ``turn_total`` 1 (/target), ``dice``
7 (dice to roll now, 0–6, one-hot), ``throw`` 6 (count of each face 1–6 on the table), ``pfeffer``
3 (none called auto), ``amounts`` 4 (stake, minimum to bank, bust penalty, stake a Pfeffer call
would set; /target), ``flags`` 5 (can bank, can call Pfeffer, hot dice, final round, has a
predecessor), ``predecessor`` 1 (/target), ``final_round_left`` n (seats still to play the final
round), ``playoff`` n (seats in a tie playoff).

**Pepper observation** (:func:`pepper_layout` with ``recall=False``): ``seat`` n, ``dealer`` n,
``current`` n, ``phase`` 5 (deal auction declare play over), ``hand`` 24 (the viewer's unplayed
cards, deck order), ``high_bid`` L, ``bidder`` n, ``passed`` n, ``bids`` n×L (each seat's highest
bid), ``trump`` 5 (C D H S NT), ``played`` n×24 (cards each seat played this hand), ``trick`` n×24
(the trick in progress, by seat), ``hand_sizes`` n (/T), ``tricks_won`` S (/T), ``scores`` S
(/target).

**Pepper information state** (``recall=True``, perfect recall within the hand): ``seat``,
``dealer``, ``current``, ``phase``, ``hand`` as above, ``auction`` (L+n)×(n+L+1) (every call in
order: who, then pass or which bid), ``trump`` 5, ``tricks`` T×n×24 (slot t, position i: the
i-th card played to trick t, the trick in progress included), ``leaders`` T×n, ``hand_sizes``,
``tricks_won``, ``scores``. Earlier hands are summed up by the scores (the game is Markov
between hands).

>>> from pfeffer.dice import DiceGame
>>> g = DiceGame(2, seed=1)
>>> v = dice_observation(g.view(0), 2)
>>> v.shape, v[dice_layout(2).slice("dice")].tolist()
((41,), [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0])
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from pfeffer.dice import DiceView
from pfeffer.pepper import PepperView, bid_ladder, cards_per_hand, side_of, sides
from pfeffer.pepper.cards import CARD_INDEX

FloatArray = npt.NDArray[np.float32]

DICE_PHASES = ("start", "keep", "decide", "over")
PEPPER_PHASES = ("deal", "auction", "declare", "play", "over")
PFEFFER_MODES = ("none", "called", "auto")
TRUMPS = ("C", "D", "H", "S", "NT")


def text(value: object) -> str:
    """The plain string of a phase or mode (an Enum's value, a StrEnum or a str alike).

    >>> from pfeffer.dice import Phase
    >>> text(Phase.KEEP), text("play")
    ('keep', 'play')
    """
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


class Layout:
    """Named pieces of a flat float32 vector: ``pieces`` maps each name to its shape.

    >>> lay = Layout({"a": (2,), "b": (2, 3)})
    >>> lay.size, lay.slice("b"), lay.views(lay.zeros())["b"].shape
    (8, slice(2, 8, None), (2, 3))
    """

    __slots__ = ("offsets", "pieces", "size")

    def __init__(self, pieces: Mapping[str, tuple[int, ...]]) -> None:
        self.pieces = dict(pieces)
        self.offsets: dict[str, tuple[int, int]] = {}
        at = 0
        for name, shape in self.pieces.items():
            size = int(np.prod(shape))
            self.offsets[name] = (at, at + size)
            at += size
        self.size = at

    def slice(self, name: str) -> slice:
        """Where piece ``name`` lies in the flat vector."""
        lo, hi = self.offsets[name]
        return slice(lo, hi)

    def zeros(self) -> FloatArray:
        """A fresh zero vector of this layout."""
        return np.zeros(self.size, dtype=np.float32)

    def views(self, flat: FloatArray) -> dict[str, FloatArray]:
        """Named, reshaped views into ``flat`` (no copies: writing to them writes to ``flat``)."""
        return {n: flat[self.slice(n)].reshape(s) for n, s in self.pieces.items()}


# --------------------------------------------------------------------------------------- dice


def dice_layout(players: int) -> Layout:
    """The dice encoding for ``players`` (see the module docstring)."""
    n = players
    return Layout(
        {
            "seat": (n,),
            "current": (n,),
            "phase": (4,),
            "scores": (n,),
            "turn_total": (1,),
            "dice": (7,),
            "throw": (6,),
            "pfeffer": (3,),
            "amounts": (4,),
            "flags": (5,),
            "predecessor": (1,),
            "final_round_left": (n,),
            "playoff": (n,),
        }
    )


def fill_dice(view: DiceView, out: dict[str, FloatArray]) -> None:
    """Write the encoding of ``view`` into the (zeroed) pieces ``out`` of a :func:`dice_layout`."""
    scale = 1.0 / view.rules.target
    if view.seat is not None:
        out["seat"][view.seat] = 1
    over = view.is_over
    if not over:
        out["current"][view.current_player] = 1
    out["phase"][DICE_PHASES.index(text(view.phase))] = 1
    out["scores"][:] = [s * scale for s in view.scores]
    out["turn_total"][0] = view.turn_total * scale
    out["dice"][view.dice_to_roll] = 1
    if view.roll:
        for face in view.roll:
            out["throw"][face - 1] += 1
    out["pfeffer"][PFEFFER_MODES.index(text(view.pfeffer))] = 1
    out["amounts"][:] = [
        view.stake * scale,
        view.min_to_bank * scale,
        view.bust_penalty * scale,
        (view.pfeffer_stake or 0) * scale,
    ]
    out["flags"][:] = [
        view.can_bank,
        view.can_call_pfeffer,
        view.hot_dice,
        view.final_round,
        view.predecessor_result is not None,
    ]
    out["predecessor"][0] = (view.predecessor_result or 0) * scale
    for s in view.turns_left_in_final_round:
        out["final_round_left"][s] = 1
    for s in view.playoff:
        out["playoff"][s] = 1


def dice_observation(view: DiceView, players: int) -> FloatArray:
    """The dice encoding of ``view`` as a new vector."""
    layout = dice_layout(players)
    flat = layout.zeros()
    fill_dice(view, layout.views(flat))
    return flat


def dice_string(view: DiceView) -> str:
    """A compact, complete text of the dice view (the observation string).

    >>> from pfeffer.dice import DiceGame
    >>> dice_string(DiceGame(2, seed=1).view(1))
    'p1 to 0 start scores 0,0 total 0 dice 6 throw - pfeffer none stake 0 need 350 pred -'
    """
    parts = [
        f"p{view.seat}",
        "over" if view.is_over else f"to {view.current_player}",
        text(view.phase),
        "scores " + ",".join(map(str, view.scores)),
        f"total {view.turn_total}",
        f"dice {view.dice_to_roll}",
        "throw " + ("".join(map(str, view.roll)) if view.roll else "-"),
        f"pfeffer {text(view.pfeffer)}",
        f"stake {view.stake}",
        f"need {view.min_to_bank}",
        "pred " + ("-" if view.predecessor_result is None else str(view.predecessor_result)),
    ]
    if view.hot_dice:
        parts.append("hot")
    if view.final_round:
        parts.append("final " + ",".join(map(str, view.turns_left_in_final_round)))
    if view.playoff:
        parts.append("playoff " + ",".join(map(str, view.playoff)))
    return " ".join(parts)


# ------------------------------------------------------------------------------------- pepper


def pepper_layout(players: int, recall: bool) -> Layout:
    """The Pepper observation (``recall=False``) or information-state (``recall=True``) layout."""
    n, ladder, t, s = players, len(bid_ladder(players)), cards_per_hand(players), sides(players)
    head: dict[str, tuple[int, ...]] = {
        "seat": (n,),
        "dealer": (n,),
        "current": (n,),
        "phase": (5,),
        "hand": (24,),
    }
    if recall:
        body: dict[str, tuple[int, ...]] = {
            "auction": (ladder + n, n + ladder + 1),
            "trump": (5,),
            "tricks": (t, n, 24),
            "leaders": (t, n),
        }
    else:
        body = {
            "high_bid": (ladder,),
            "bidder": (n,),
            "passed": (n,),
            "bids": (n, ladder),
            "trump": (5,),
            "played": (n, 24),
            "trick": (n, 24),
        }
    tail = {"hand_sizes": (n,), "tricks_won": (s,), "scores": (s,)}
    return Layout({**head, **body, **tail})


def _bid_level(players: int) -> dict[str, int]:
    return {"pass": 0, **{b: i + 1 for i, b in enumerate(bid_ladder(players))}}


_LEVELS = {n: _bid_level(n) for n in (2, 3, 4)}


def fill_pepper(view: PepperView, players: int, recall: bool, out: dict[str, FloatArray]) -> None:
    """Write the encoding of ``view`` into the zeroed pieces ``out`` of a :func:`pepper_layout`."""
    n = players
    levels = _LEVELS[n]
    per_hand = cards_per_hand(n)
    if view.seat is not None:
        out["seat"][view.seat] = 1
    out["dealer"][view.dealer] = 1
    if view.current_player is not None:
        out["current"][view.current_player] = 1
    out["phase"][PEPPER_PHASES.index(text(view.phase))] = 1
    for c in view.hand:
        out["hand"][CARD_INDEX[c]] = 1
    if view.trump is not None:
        out["trump"][TRUMPS.index(view.trump)] = 1
    if recall:
        for i, (seat, call) in enumerate(view.auction):
            out["auction"][i, seat] = 1
            out["auction"][i, n + levels[call]] = 1
        rows = [(tr.leader, tr.cards) for tr in view.tricks]
        if view.current_trick:
            rows.append((view.current_trick[0][0], tuple(c for _, c in view.current_trick)))
        for k, (leader, cards) in enumerate(rows):
            out["leaders"][k, leader] = 1
            for i, c in enumerate(cards):
                out["tricks"][k, i, CARD_INDEX[c]] = 1
    else:
        if view.high_bid is not None:
            out["high_bid"][levels[view.high_bid] - 1] = 1
        if view.bidder is not None:
            out["bidder"][view.bidder] = 1
        for seat, call in view.auction:
            if call == "pass":
                out["passed"][seat] = 1
            else:
                out["bids"][seat, :] = 0
                out["bids"][seat, levels[call] - 1] = 1
        for tr in view.tricks:
            for i, c in enumerate(tr.cards):
                out["played"][(tr.leader + i) % n, CARD_INDEX[c]] = 1
        for seat, c in view.current_trick:
            out["played"][seat, CARD_INDEX[c]] = 1
            out["trick"][seat, CARD_INDEX[c]] = 1
    out["hand_sizes"][:] = [h / per_hand for h in view.hand_sizes]
    out["tricks_won"][:] = [w / per_hand for w in view.tricks_won]
    out["scores"][:] = [s / view.rules.target for s in view.scores]


def pepper_observation(view: PepperView, players: int, recall: bool = False) -> FloatArray:
    """The Pepper encoding of ``view`` as a new vector.

    >>> from pfeffer.pepper import PepperGame
    >>> g = PepperGame(players=4, seed=3, dealer=0); g.apply("deal")
    >>> obs = pepper_observation(g.view(1), 4)
    >>> obs.shape, int(obs[pepper_layout(4, False).slice("hand")].sum())
    ((289,), 6)
    """
    layout = pepper_layout(players, recall)
    flat = layout.zeros()
    fill_pepper(view, players, recall, layout.views(flat))
    return flat


def _cards(cards: Sequence[str]) -> str:
    return "".join(cards) or "-"


def pepper_string(view: PepperView, players: int, recall: bool) -> str:
    """A text of the view: with ``recall`` every call and card of the hand in order (the
    information-state string), else the summary the observation tensor holds.

    >>> from pfeffer.pepper import PepperGame
    >>> g = PepperGame(players=3, seed=3, dealer=0)
    >>> pepper_string(g.view(2), 3, recall=True)
    'p2 hand#0 dealer 0 deal to 0 scores 0,0,0 hand -'
    """
    parts = [
        f"p{view.seat}",
        f"hand#{view.hand_number}",
        f"dealer {view.dealer}",
        text(view.phase),
        "over" if view.current_player is None else f"to {view.current_player}",
        "scores " + ",".join(map(str, view.scores)),
        "hand " + _cards(view.hand),
    ]
    if view.auction:
        parts.append("auction " + ",".join(f"{s}:{c}" for s, c in view.auction))
    if view.trump is not None:
        parts.append(f"trump {view.trump}")
    if recall:
        for tr in view.tricks:
            parts.append(f"t{tr.leader}:{''.join(tr.cards)}")
        if view.current_trick:
            lead = view.current_trick[0][0]
            parts.append(f"t{lead}:{''.join(c for _, c in view.current_trick)}")
    else:
        played: list[list[str]] = [[] for _ in range(players)]
        for tr in view.tricks:
            for i, c in enumerate(tr.cards):
                played[(tr.leader + i) % players].append(c)
        parts.append("played " + "/".join(_cards(p) for p in played))
        if view.current_trick:
            parts.append("trick " + ",".join(f"{s}:{c}" for s, c in view.current_trick))
        parts.append("won " + ",".join(map(str, view.tricks_won)))
    return " ".join(parts)


def side_returns(scores: Sequence[int], players: int, teams: bool = False) -> list[float]:
    """Zero-sum returns per seat from final scores: the sides with the highest score share +1,
    the other sides share −1, and each seat gets its side's share (all sides equal: all 0).
    With ``teams`` (Pepper) ``scores`` are per side (:func:`~pfeffer.pepper.side_of`: the two
    teams of the 4-player game), else per seat (dice).

    >>> side_returns([31, 20], 4, teams=True), side_returns([500, 900, 900], 3)
    ([1.0, -1.0, 1.0, -1.0], [-1.0, 0.5, 0.5])
    """
    best = max(scores)
    winning = sum(1 for s in scores if s == best)
    losing = len(scores) - winning
    if not losing:
        return [0.0] * players
    out = []
    for p in range(players):
        score = scores[side_of(players, p) if teams else p]
        out.append(1.0 / winning if score == best else -1.0 / losing)
    return out
