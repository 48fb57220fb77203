"""The advisor at a web table: a hint for the seat to act, worked out from that seat's view only.

Dice: every decision with its chance to win (:func:`pfeffer.dice.solver.advise`) under the
solved table of the table's rules, read from the cache or the package and never solved here (a
solve takes minutes; rules without a table get "no hint for these rules yet"). Pepper: what the
expert player would do, and why in a few words (:func:`pepper_hint`, the one place to swap in
``pfeffer.pepper.analysis.hint`` once it is there).

Nothing here knows a connection or a language: :func:`hint` returns plain data whose texts are
msgids, which the WebSocket route translates. Computing takes up to a second (loading a table,
sampling worlds), so the route calls it in a worker thread.

>>> from pfeffer.dice import DiceGame
>>> g = DiceGame(2, seed=1)
>>> answer = hint("dice", g.view(0), g.legal_actions(), seed=0)
>>> [o["action"] for o in answer.options], answer.best
(['roll'], 'roll')
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from pfeffer.dice.game import DiceView
from pfeffer.dice.rules import DiceRules
from pfeffer.dice.solver import ApproxStrategy, DiceStrategy, advise
from pfeffer.dice.solver import cache as solver_cache
from pfeffer.pepper.game import PepperView

#: Worlds the expert samples for a hint (the ``expert`` level's number).
HINT_WORLDS = 100

# The reasons and refusals, as msgids (translated by the caller).
UNSOLVED = "No hint for these rules yet: their table is not solved on this server."
#: The hint of more than two players (the documented approximation, docs/strategy.md).
APPROX = (
    "An approximation for %(n)s players: the two-player strategy, read with your own total "
    "against the highest total of the others."
)
NOTHING = "Nothing to decide here."
ONLY_CHOICE = "The only choice there is."


@dataclasses.dataclass(frozen=True)
class HintAnswer:
    """What the advisor says: ``best`` (the action to highlight) and, for dice, every option
    with its chance to win (``options``, best first), for Pepper a ``reason`` (a msgid with its
    ``params``); or ``none`` (a code) and ``message`` (a msgid) when it has no hint."""

    game: str
    best: str | None = None
    options: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    reason: str | None = None
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    none: str | None = None
    message: str | None = None


# ------------------------------------------------------------------------------------ dice


#: Solved tables kept in memory, the last used last (only tables found: a miss is asked again,
#: so a table solved after the first question is seen at the next).
_found: OrderedDict[str, DiceStrategy] = OrderedDict()
_lock = threading.Lock()
KEEP = 4


def dice_strategy(rules: DiceRules) -> DiceStrategy | None:
    """The solved table of ``rules`` if this server has one (the package's for the defaults and
    the presets, the user cache's for rules solved with ``pfeffer dice solve`` or in the
    background, ``services/solves.py``); never solves. Kept in memory for the few rule sets
    played last; a miss is not kept."""
    key = json.dumps(rules.to_dict(), sort_keys=True)
    with _lock:
        found = _found.get(key)
        if found is not None:
            _found.move_to_end(key)
            return found
    loaded = solver_cache.load(rules)
    if loaded is None:
        return None
    with _lock:
        _found[key] = loaded
        while len(_found) > KEEP:
            _found.popitem(last=False)
    return loaded


def forget() -> None:
    """Drop the tables kept in memory (tests that change the cache folder)."""
    with _lock:
        _found.clear()


def dice_hint(view: DiceView) -> HintAnswer:
    """Every decision of the seat to act with its chance to win, best first, and what each
    option is (the dice and points of a set-aside, the dice a roll throws, the total a bank
    banks), from ``view``."""
    two = dice_strategy(view.rules)
    if two is None:
        return HintAnswer("dice", none="unsolved", message=UNSOLVED)
    # More than two players: the two-player table against the strongest opponent, said so.
    players = len(view.players)
    strategy = two if players == 2 else ApproxStrategy(two)
    tips = advise(strategy, view)
    if not tips:
        return HintAnswer("dice", none="nothing", message=NOTHING)
    keeps = {o.action: o for o in view.keep_options}
    options = []
    for tip in tips:
        option: dict[str, Any] = {"action": tip.action, "win": tip.win_probability}
        if tip.action in keeps:
            k = keeps[tip.action]
            option |= {"kind": "keep", "dice": list(k.dice), "points": k.points,
                       "total": view.turn_total + k.points}  # fmt: skip
        elif tip.action == "bank":
            option |= {"kind": "bank", "total": view.turn_total}
        elif tip.action == "pfeffer":
            option |= {"kind": "pfeffer", "stake": view.pfeffer_stake}
        else:
            option |= {"kind": "roll", "dice": view.dice_to_roll}
        options.append(option)
    if players == 2:
        return HintAnswer("dice", best=tips[0].action, options=options)
    return HintAnswer("dice", best=tips[0].action, options=options, reason=APPROX,
                      params={"n": players})  # fmt: skip


# ------------------------------------------------------------------------------------ Pepper


def pepper_hint(
    view: PepperView, legal: Sequence[str], seed: int
) -> tuple[str, str, dict[str, Any]]:
    """What the expert would do in ``view`` and why: ``(action, reason msgid, its params)``,
    from :func:`pfeffer.pepper.analysis.hint` (the expert on the seat's view, seeded, so the
    same question gets the same answer; its reasons are msgids such as "draws the last
    trumps")."""
    from pfeffer.pepper.analysis import hint as expert_hint

    answer = expert_hint(view, list(legal), worlds=HINT_WORLDS, seed=seed)
    return answer.action, answer.reason, {}


def pepper_answer(view: PepperView, legal: Sequence[str], seed: int) -> HintAnswer:
    """The Pepper hint for the seat to act: the action and the reason."""
    if not legal:
        return HintAnswer("pepper", none="nothing", message=NOTHING)
    if len(legal) == 1:
        return HintAnswer("pepper", best=legal[0], reason=ONLY_CHOICE)
    action, reason, params = pepper_hint(view, legal, seed)
    return HintAnswer("pepper", best=action, reason=reason, params=params)


# ------------------------------------------------------------------------------------ both


def hint(game: str, view: Any, legal: Sequence[str], seed: int) -> HintAnswer:
    """The hint for the seat whose engine ``view`` this is (``legal``: its actions now, which
    its view determines; ``seed``: the expert's sampling, so an answer can be asked again)."""
    if game == "dice":
        return dice_hint(view)
    return pepper_answer(view, legal, seed)
