"""pfeffer: the dice game Würfel-Pfeffer and the card game Karten-Pfeffer (Pepper).

The rules live in pure engine modules (:mod:`pfeffer.dice`, :mod:`pfeffer.pepper`); computer
players, the terminal, the score sheets and the web server are clients of their one API.
"""

__version__ = "0.1.0"
