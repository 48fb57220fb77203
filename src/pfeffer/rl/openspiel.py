"""OpenSpiel games for both engines (needs the extra ``pfeffer[rl]``, i.e. ``open-spiel``).

:func:`register` registers the Python games ``pfeffer_dice`` (:mod:`.openspiel_dice`) and
``pfeffer_pepper`` (:mod:`.openspiel_pepper`) with ``pyspiel.register_game``; then
``pyspiel.load_game("pfeffer_pepper(players=4)")`` works like for any OpenSpiel game. Use
OpenSpiel's Python search bots (``open_spiel.python.algorithms.mcts.MCTSBot``,
``open_spiel.python.algorithms.ismcts.ISMCTSBot``) on them: the C++ ``pyspiel.MCTSBot`` and
``pyspiel.ISMCTSBot`` crash on Python games in open-spiel 2.0.2.

>>> import pyspiel
>>> register()
>>> game = pyspiel.load_game("pfeffer_pepper(players=3,max_hands=5)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 40, 24)
>>> pyspiel.load_game("pfeffer_dice(players=5)").num_distinct_actions()
927
"""

from __future__ import annotations

import pyspiel

from pfeffer.rl.openspiel_dice import GAME_TYPE as DICE_TYPE
from pfeffer.rl.openspiel_dice import DiceOpenSpielGame, DiceOpenSpielState
from pfeffer.rl.openspiel_pepper import GAME_TYPE as PEPPER_TYPE
from pfeffer.rl.openspiel_pepper import PepperOpenSpielGame, PepperOpenSpielState

__all__ = [
    "DiceOpenSpielGame",
    "DiceOpenSpielState",
    "PepperOpenSpielGame",
    "PepperOpenSpielState",
    "register",
]

_registered = False


def register() -> None:
    """Register ``pfeffer_dice`` and ``pfeffer_pepper`` with OpenSpiel (once; repeated calls do
    nothing)."""
    global _registered  # noqa: PLW0603
    if _registered:
        return
    known = set(pyspiel.registered_names())
    if DICE_TYPE.short_name not in known:
        pyspiel.register_game(DICE_TYPE, DiceOpenSpielGame)
    if PEPPER_TYPE.short_name not in known:
        pyspiel.register_game(PEPPER_TYPE, PepperOpenSpielGame)
    _registered = True
