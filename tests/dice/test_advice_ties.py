"""Ties in the advice (issue 21): an option that is best only by a tie is never listed first;
tied options go plainest first (bank, roll, set-asides in the game's order, a Pfeffer call
last), in the advice itself, so the terminal, the web hints and the reviews all follow."""

from __future__ import annotations

from pathlib import Path

import pytest

from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.solver import advise
from pfeffer.dice.solver.approx import ApproxStrategy
from pfeffer.dice.solver.cache import DATA_DIR_ENV, load
from pfeffer.dice.solver.review import decisions
from pfeffer.dice.solver.strategy import DiceStrategy
from pfeffer.dice.solver.two_advice import TIE, rank


@pytest.fixture(scope="module")
def shipped() -> DiceStrategy:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(DATA_DIR_ENV, str(Path("/nonexistent-pfeffer-cache")))
        found = load(DiceRules())
    assert found is not None
    return found


def last_turn(own: int, other: int, last: int) -> DiceGame:
    """The final round: "You" at ``own`` on the last turn after the opponent banked ``last``
    to reach ``other`` (past the target): a Pfeffer call on ``last`` changes nothing, since
    beating ``other`` needs more than the stake anyway."""
    game = DiceGame(["You", "Opponent"], DiceRules(), seed=0, first_player=1, sheet=True,
                    scores=[own, other - last])  # fmt: skip
    game.apply(f"turn {last}")
    assert game.final_round and game.view().can_call_pfeffer
    return game


def test_a_pointless_pfeffer_call_is_not_listed_first(shipped: DiceStrategy) -> None:
    game = last_turn(9000, 10050, 400)
    tips = advise(shipped, game)
    values = {t.action: t.win_probability for t in tips}
    assert abs(values["pfeffer"] - values["roll"]) <= TIE  # the tie this test is about
    assert [t.action for t in tips] == ["roll", "pfeffer"]  # the game lists pfeffer first


def test_the_review_and_the_approximation_follow(shipped: DiceStrategy) -> None:
    game = last_turn(9000, 10050, 400)
    game.apply("roll 222346")  # a bust ends the game after the roll
    found = decisions(shipped, game, {0})
    assert [(d.played, d.best, d.is_best) for d in found] == [("roll", "roll", True)]
    four = DiceGame(4, DiceRules(), seed=0, first_player=3, sheet=True,
                    scores=[9000, 9000, 9000, 9650])  # fmt: skip
    four.apply("turn 400")  # seat 3 ends at 10050: the final round, seat 0 next
    assert four.final_round and four.current_player == 0
    tips = advise(ApproxStrategy(shipped), four)
    assert abs(tips[0].win_probability - tips[1].win_probability) <= TIE
    assert [t.action for t in tips] == ["roll", "pfeffer"]


def test_ties_go_plainest_first() -> None:
    half = 0.5
    assert [a.action for a in rank({"roll": half, "bank": half}, ["roll", "bank"])] == [
        "bank",
        "roll",
    ]
    keeps = ["keep 15", "keep 1", "keep 5"]  # the game's order: most points, fewest dice
    same = dict.fromkeys(keeps, half)
    assert [a.action for a in rank(same, keeps)] == keeps
    # Within the tolerance of the best: still a tie; beyond it: the better option first.
    close = {"pfeffer": half + TIE / 2, "roll": half}
    assert [a.action for a in rank(close, ["pfeffer", "roll"])] == ["roll", "pfeffer"]
    apart = {"pfeffer": half + 3 * TIE, "roll": half}
    assert [a.action for a in rank(apart, ["pfeffer", "roll"])] == ["pfeffer", "roll"]
    # Only legal actions, and the values kept as they are.
    tips = rank({"roll": 0.25, "bank": 0.75, "void": 0.9}, ["roll", "bank"])
    assert [(a.action, a.win_probability) for a in tips] == [("bank", 0.75), ("roll", 0.25)]
