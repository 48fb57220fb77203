"""Research interfaces (optional extra ``pfeffer[rl]``): fixed integer action spaces, observation
tensors built from a seat's view, OpenSpiel games and PettingZoo environments. See docs/rl.md.

The submodules :mod:`.spaces` and :mod:`.observations` need only numpy;
:mod:`.openspiel` needs ``open-spiel`` and :mod:`.pettingzoo` needs ``pettingzoo``.

>>> from pfeffer.rl.spaces import DiceActionSpace, PepperActionSpace
>>> DiceActionSpace().size, PepperActionSpace(4).size, PepperActionSpace(3).size
(927, 38, 40)
"""
