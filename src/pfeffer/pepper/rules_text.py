"""Karten-Pfeffer in short: a sentence or two per rule of docs/rules.md (P1-P11), see
:mod:`pfeffer.core.rules_text`."""

from __future__ import annotations

from pfeffer.core.rules_text import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        "P1",
        "Deck",
        "24 cards: 9, 10, jack, queen, king and ace of each of the four suits.",
    ),
    Rule(
        "P2",
        "Players and sides",
        (
            "Two, three or four players. Four play as two teams with partners sitting opposite"
            " each other; two or three play each for themselves. Points and tricks belong to "
            "sides."
        ),
    ),
    Rule(
        "P3",
        "Dealer",
        (
            "The first dealer is chosen at random; then the deal moves one seat clockwise "
            "every hand."
        ),
    ),
    Rule(
        "P4",
        "Dealing",
        (
            "The cards are dealt one at a time, starting left of the dealer: 6 each with four "
            "players, 8 each with three. With two, a third hand of 8 stays face down and is "
            "not used."
        ),
    ),
    Rule(
        "P5",
        "Bids",
        (
            "A number bid promises that many tricks for your side; Small and Big Pepper both "
            "promise every trick. With four players the bids are 1 to 5, Small Pepper and Big "
            "Pepper; with two or three, 1 to 7, Small Pepper and Big Pepper."
        ),
    ),
    Rule(
        "P6",
        "Auction",
        (
            "The player left of the dealer speaks first. Each player passes or bids higher "
            "than the highest bid so far, and whoever passes is out. The auction ends at Big "
            "Pepper or when one player is left, who must bid if nobody has."
        ),
    ),
    Rule(
        "P7",
        "Trump",
        "The winner of the auction names a trump suit, or no trump.",
    ),
    Rule(
        "P8",
        "Card ranking",
        (
            "Trumps rank from the top: the jack of trumps, the other jack of the same colour, "
            "ace, king, queen, 10, 9; that second jack is a trump in every respect. Other "
            "suits rank ace, king, queen, jack, 10, 9."
        ),
    ),
    Rule(
        "P9",
        "Playing the tricks",
        (
            "The winner of the auction leads to the first trick. Follow suit if you can, "
            "otherwise play any card. The highest trump takes the trick, or else the highest "
            "card of the suit led; whoever takes it leads next."
        ),
    ),
    Rule(
        "P10",
        "Scoring a hand",
        (
            "If the bidder's side took at least the tricks it bid, it scores one point per "
            "trick; if not, it loses 6 with four players or 8 with two or three. Big Pepper "
            "wins or loses 12, or 16. The other sides score one point per trick they took."
        ),
    ),
    Rule(
        "P11",
        "End of the game",
        (
            "Points add up from hand to hand and may go below zero. Once a side has 30 or more"
            " after a hand, the highest score wins; sides tied for it all win."
        ),
    ),
)
"""The rules in the order of docs/rules.md."""

INTRO = (
    "24 cards, both jacks of the trump colour on top, an auction for the right to name "
    "trump up to Small and Big Pepper, and the first side to 30 points wins."
)
"""What the game is about, in two sentences."""
