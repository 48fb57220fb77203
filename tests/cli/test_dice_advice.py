"""``pfeffer dice advise`` / ``review``, the hint key of ``dice play`` and the sheet's advice,
against one small-target solve (target 1000) shared by the session."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pfeffer.cli.common import Seat, record_text
from pfeffer.cli.dice_advice import decisions, turn_path
from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.solver import DiceStrategy, advise
from pfeffer.dice.solver import cache as solver_cache
from pfeffer.dice.solver.solve import solve_small
from tests.cli.helpers import Run, lines

SMALL = ("--rule", "target=1000")
RULES = DiceRules(target=1000)


@pytest.fixture(scope="session")
def small_table(tmp_path_factory: pytest.TempPathFactory) -> tuple[DiceStrategy, Path]:
    """The target-1000 strategy, solved once, and its cache file."""
    strategy = solve_small()
    path = tmp_path_factory.mktemp("solved") / f"{solver_cache.rules_key(RULES)}.npz"
    return strategy, solver_cache.write(strategy, path)


@pytest.fixture
def solved(run: Run, tmp_path: Path, small_table: tuple[DiceStrategy, Path]) -> Run:
    """``run`` with the target-1000 table in the test's data folder (the cache)."""
    folder = tmp_path / "data" / "solver"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(small_table[1], folder / small_table[1].name)
    return run


def listed(output: str) -> list[tuple[str, float]]:
    """The (notation, win %) rows of advice tables in ``output``, in order."""
    pattern = r"(keep \d+|roll|bank|pfeffer)\s+(\d+\.\d\d)\s+(?:best|−)"
    return [(a, float(p)) for a, p in re.findall(pattern, output)]


def test_advise_lists_exactly_the_legal_set_asides_best_first(
    solved: Run, small_table: tuple[DiceStrategy, Path]
) -> None:
    result = solved("dice", "advise", *SMALL, "--score", "300", "--other", "500", "115234")
    assert result.exit_code == 0, result.output
    rows = listed(result.output)
    game = DiceGame(2, RULES, scores=[300, 500])
    game.roll([1, 1, 5, 2, 3, 4])
    assert sorted(a for a, _ in rows) == sorted(game.legal_actions())
    expected = advise(small_table[0], game)
    assert [a for a, _ in rows] == [t.action for t in expected]
    for (_, shown), tip in zip(rows, expected, strict=True):
        assert shown == pytest.approx(100 * tip.win_probability, abs=0.006)
    assert "best" in result.output and "set aside 1 1 5 (+250 → 250, 3 dice left)" in result.output


def test_advise_bank_or_roll_on_pfeffer_and_auto_pfeffer(solved: Run) -> None:
    decide = solved("dice", "advise", *SMALL, "--score", "300", "--total", "350", "--dice", "2")
    assert decide.exit_code == 0, decide.output
    assert sorted(a for a, _ in listed(decide.output)) == ["bank", "roll"]
    start = solved("dice", "advise", *SMALL, "--other", "500", "--last", "400")
    assert sorted(a for a, _ in listed(start.output)) == ["pfeffer", "roll"]
    assert "bank at least 450" in start.output
    auto = solved("dice", "advise", *SMALL, "--last", "bust", "--total", "100", "--dice", "5")
    assert "Auto-Pfeffer" in auto.output and [a for a, _ in listed(auto.output)] == ["roll"]
    final = solved("dice", "advise", *SMALL, "--other", "1100", "--last", "400",
                   "--total", "600", "--dice", "3")  # fmt: skip
    assert "last turn" in final.output
    assert dict(listed(final.output))["bank"] == 0.0


def test_advise_refuses_impossible_states_with_the_engine_message(solved: Run) -> None:
    assert (
        "No turn reaches a turn total of 100 with 1 die"
        in solved("dice", "advise", *SMALL, "--total", "100", "--dice", "1").output
    )
    over = solved("dice", "advise", *SMALL, "--score", "1000")
    assert over.exit_code == 1 and "game is over" in over.output
    bust = solved("dice", "advise", *SMALL, "--total", "300", "--dice", "3", "223")
    assert "Bust!" in bust.output


def test_turn_path_reaches_the_state_through_the_engine() -> None:
    for total, dice in ((350, 2), (300, 3), (1500, 6), (2000, 1)):
        game = DiceGame(2, RULES)
        for faces, action in turn_path(RULES, total, dice):
            game.apply("roll " + faces)
            game.apply(action)
        assert (game.turn_total, game.dice_to_roll) == (total, dice)


def test_unsolved_rules_ask_before_solving_and_say_so(run: Run) -> None:
    result = run("dice", "advise", "--rule", "target=1500", "115234", input="n\n")
    assert result.exit_code == 1
    assert "not solved on this computer yet" in result.output and "Solve now?" in result.output
    assert "No advice without the solved table" in result.output


def test_hint_key_in_play(solved: Run, tmp_path: Path) -> None:
    args = ("dice", "play", *SMALL, "--seed", "2", "--bot-delay", "0", "--save")
    result = solved(*args, str(tmp_path / "g.json"), input=lines("a", "", "hint", "q"))
    assert result.exit_code == 0, result.output
    assert "before the first throw" in result.output
    assert listed(result.output)[0][0] == "roll"
    assert "thrown" in result.output and "keep " in result.output
    off = solved(*args, str(tmp_path / "h.json"), "--no-hints", input=lines("a", "q"))
    assert "Hints are off at this table" in off.output
    assert not listed(off.output)


def test_hint_of_three_players_is_the_approximation_and_says_so(
    solved: Run, small_table: tuple[DiceStrategy, Path], tmp_path: Path
) -> None:
    from pfeffer.dice.solver import ApproxStrategy

    args = ("dice", "play", "You", "bot", "bot", *SMALL, "--seed", "2", "--bot-delay", "0")
    result = solved(*args, "--save", str(tmp_path / "g.json"), input=lines("a", "q"))
    assert result.exit_code == 0, result.output
    assert "two-player games so far" not in result.output
    assert "approximation for 3 players" in " ".join(result.output.split())
    game = DiceGame(["You", "bot", "bot"], RULES, seed=2)
    expected = advise(ApproxStrategy(small_table[0]), game)
    assert [a for a, _ in listed(result.output)] == [t.action for t in expected]
    german = solved(
        *args, "--lang", "de", "--save", str(tmp_path / "h.json"), input=lines("a", "q")
    )
    assert "Näherung für 3 Spieler" in " ".join(german.output.split())


def test_sheet_advice_for_dice_thrown_by_hand(solved: Run, tmp_path: Path) -> None:
    typed = lines("400", "a", "a 115234", "a 300/3", "a 300 223", "a 9", "q")
    result = solved("dice", "sheet", "Ann", "Bob", *SMALL, "--save", str(tmp_path / "s.json"),
                    input=typed)  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = [a for a, _ in listed(result.output)]
    assert rows.count("pfeffer") == 1  # Bob may call Pfeffer against Ann's 400
    assert "keep 115" in rows and "Bob 0 against 400" in result.output
    assert "Bust! No die scores" in result.output
    assert "✗" in result.output  # a 9 is not a die


def _game_with_mistakes(strategy: DiceStrategy) -> DiceGame:
    """Seat 0 takes the worst option at every choice, seat 1 the best, until the game ends."""
    game = DiceGame(["Ann", "Hal"], RULES, seed=5)
    while not game.is_over:
        tips = advise(strategy, game)
        pick = tips[-1] if game.current_player == 0 else tips[0]
        game.apply(pick.action)
    return game


def test_review_ranks_the_humans_mistakes(
    solved: Run, small_table: tuple[DiceStrategy, Path], tmp_path: Path
) -> None:
    strategy = small_table[0]
    game = _game_with_mistakes(strategy)
    found = decisions(strategy, game, {0})
    costs = sorted((d.cost for d in found), reverse=True)
    assert costs[0] > 0.001 and all(d.seat == 0 for d in found)
    path = tmp_path / "game.json"
    path.write_text(record_text(game.to_record(), [Seat("Ann"), Seat("Hal", "heuristic")]))
    result = solved("dice", "review", str(path), "--top", "3")
    assert result.exit_code == 0, result.output
    shown = [float(c) for c in re.findall(r"−(\d+\.\d\d)\s*$", result.output, re.M)]
    assert shown == pytest.approx([100 * c for c in costs[:3]], abs=0.006)
    assert f"Ann: {len(found)} decisions" in result.output and "Hal:" not in result.output
    everyone = solved("dice", "review", str(path), "--all")
    assert "Hal: " in everyone.output


def test_review_is_offered_at_the_end_of_play(solved: Run, tmp_path: Path) -> None:
    args = ("dice", "play", *SMALL, "--seed", "3", "--bot-delay", "0", "--save")
    first = solved(*args, str(tmp_path / "a.json"), input="\n" * 400)
    assert "Review your decisions" in first.output and "Game review" not in first.output
    prompts = first.output.count("▸")  # Enter at every prompt of the game, then yes
    result = solved(*args, str(tmp_path / "b.json"), input="\n" * prompts + "y\n")
    assert result.exit_code == 0, result.output
    assert "Game review" in result.output and "You: " in result.output


def test_review_of_three_players_is_the_approximation_and_says_so(
    solved: Run, small_table: tuple[DiceStrategy, Path], tmp_path: Path
) -> None:
    from pfeffer.dice.solver import ApproxStrategy

    approx = ApproxStrategy(small_table[0])
    game = DiceGame(["Ann", "Bo", "Hal"], RULES, seed=5)
    while not game.is_over:  # Ann takes the worst option, the others the best
        tips = advise(approx, game)
        game.apply((tips[-1] if game.current_player == 0 else tips[0]).action)
    found = decisions(approx, game, {0})
    costs = sorted((d.cost for d in found), reverse=True)
    assert costs[0] > 0.001
    path = tmp_path / "game.json"
    seats = [Seat("Ann"), Seat("Bo", "heuristic"), Seat("Hal", "heuristic")]
    path.write_text(record_text(game.to_record(), seats))
    result = solved("dice", "review", str(path), "--top", "3")
    assert result.exit_code == 0, result.output
    assert "approximation for 3 players" in " ".join(result.output.split())
    shown = [float(c) for c in re.findall(r"−(\d+\.\d\d)\s*$", result.output, re.M)]
    assert shown == pytest.approx([100 * c for c in costs[:3]], abs=0.006)
    assert f"Ann: {len(found)} decisions" in result.output
    german = solved("dice", "review", str(path), "--lang", "de")
    assert "Näherung für 3 Spieler" in " ".join(german.output.split())
