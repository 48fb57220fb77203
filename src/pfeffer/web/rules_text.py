"""The rules pages (``/rules/dice``, ``/rules/pepper``): one short text per rule id of
docs/rules.md (D1-D14, P1-P11) and a summary of each game, as msgids (English) that the
gettext catalogues translate. The house rules under each rule come from the games' RuleSpecs.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class Rule:
    """One rule of docs/rules.md: its id, a title and a sentence or two (msgids)."""

    id: str
    title: str
    text: str


RULES: dict[str, tuple[Rule, ...]] = {
    "dice": (
        Rule(
            "D1",
            "Players and dice",
            "Two to eight players share six ordinary dice. Turns go round the table clockwise.",
        ),
        Rule(
            "D2",
            "Turn",
            "A turn starts by throwing all six dice.",
        ),
        Rule(
            "D3",
            "Setting dice aside",
            (
                "After each throw you must set aside at least one scoring die. Only combinations "
                "within the throw just made count, and any group made up entirely of combinations "
                "may be set aside."
            ),
        ),
        Rule(
            "D4",
            "Scoring combinations",
            (
                "A single 1 scores 100, a single 5 scores 50, three 1s 1000, three of a kind from "
                "2 to 6 a hundred times the face. Each die past the third doubles the triple; a "
                "straight 1-6 and three pairs score 1500 each."
            ),
        ),
        Rule(
            "D5",
            "Bank or throw on",
            (
                "Once dice are set aside you either bank the turn total, if the minimum allows it,"
                " or throw the remaining dice."
            ),
        ),
        Rule(
            "D6",
            "Bust",
            (
                "A throw without a single scoring die ends the turn at once: the turn scores "
                "nothing, and only Pfeffer penalties can still change your total."
            ),
        ),
        Rule(
            "D7",
            "All six scored: prove it",
            (
                "When all six dice are set aside, you must prove it: throw all six again and keep "
                "adding to the same turn total. By default you may not bank right after that."
            ),
        ),
        Rule(
            "D8",
            "Minimum to bank",
            (
                "A turn can be banked only with at least 350 points; by default this holds for "
                "every turn, not just a player's first."
            ),
        ),
        Rule(
            "D9",
            "Predecessor",
            (
                "Your predecessor is whoever had the turn just before you; their result is what "
                "they banked, or 0 after a bust. The first turn of the game has no predecessor."
            ),
        ),
        Rule(
            "D10",
            "Pfeffer",
            (
                "Before your first throw you may call Pfeffer if your predecessor banked R > 0: "
                "the stake is R + 50. You may then bank only with at least the stake, and a bust "
                "costs twice the stake."
            ),
        ),
        Rule(
            "D11",
            "Auto-Pfeffer",
            (
                "If your predecessor's result was 0, your turn is under Pfeffer without a call; a "
                "bust then costs 1000."
            ),
        ),
        Rule(
            "D12",
            "Brandenburg",
            (
                "A throw in which a die lands on or leans against another die, or falls off the "
                "table, is void and thrown again. Only dice thrown by hand can do that."
            ),
        ),
        Rule(
            "D13",
            "Negative totals",
            "Penalties may take a total below zero; it stays there until points bring it back.",
        ),
        Rule(
            "D14",
            "End of the game",
            (
                "When a player ends a turn with at least 10,000, the final round begins: every "
                "other player has exactly one more turn. Then the highest total wins; players tied"
                " for it all win."
            ),
        ),
    ),
    "pepper": (
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
    ),
}
"""The rules of each game in the order of docs/rules.md."""

RULES_INTRO: dict[str, str] = {
    "dice": (
        "Throw six dice, set scoring dice aside, and either bank or push your luck with the "
        "rest; a throw without a scoring die loses the whole turn. Before a turn you may bet "
        "Pfeffer that you will beat the player before you."
    ),
    "pepper": (
        "24 cards, both jacks of the trump colour on top, an auction for the right to name "
        "trump up to Small and Big Pepper, and the first side to 30 points wins."
    ),
}
"""What each game is about, in two sentences."""
