"""Würfel-Pfeffer in short: a sentence or two per rule of docs/rules.md (D1-D14), see
:mod:`pfeffer.core.rules_text`."""

from __future__ import annotations

from pfeffer.core.rules_text import Rule

RULES: tuple[Rule, ...] = (
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
)
"""The rules in the order of docs/rules.md."""

INTRO = (
    "Throw six dice, set scoring dice aside, and either bank or push your luck with the "
    "rest; a throw without a scoring die loses the whole turn. Before a turn you may bet "
    "Pfeffer that you will beat the player before you."
)
"""What the game is about, in two sentences."""
