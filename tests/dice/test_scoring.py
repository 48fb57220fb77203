"""D3 and D4: what may be set aside from a throw and what it scores, under every scoring rule.

The engine's tables are checked against an independent reference that tries every way to split a
group into combinations (recursively removing one combination at a time).
"""

from __future__ import annotations

import functools
import itertools

import pytest

from pfeffer.dice import DiceRules, IllegalAction, keep_options, score
from pfeffer.dice.scoring import counts_of


def reference_best(group: tuple[int, ...], rules: DiceRules) -> int | None:
    """Best points of exactly these dice as a set of combinations of one throw, by brute force."""

    @functools.cache
    def best(counts: tuple[int, ...]) -> int | None:
        if sum(counts) == 0:
            return 0
        results: list[int] = []

        def take(removed: dict[int, int], points: int) -> None:
            rest = list(counts)
            for face, k in removed.items():
                if rest[face - 1] < k:
                    return
                rest[face - 1] -= k
            sub = best(tuple(rest))
            if sub is not None:
                results.append(points + sub)

        take({1: 1}, rules.single_one)
        take({5: 1}, rules.single_five)
        for face in range(1, 7):
            triple = rules.triples[face]
            for n in range(3, 7):
                if rules.extra_dice == "double":
                    value = triple * 2 ** (n - 3)
                elif rules.extra_dice == "add":
                    value = triple * (n - 2)
                else:
                    value = {
                        3: triple,
                        4: rules.fixed_four,
                        5: rules.fixed_five,
                        6: rules.fixed_six,
                    }[n]
                take({face: n}, value)
        if sum(counts) == 6:
            if all(c == 1 for c in counts):
                results.append(rules.straight)
            shape = sorted(c for c in counts if c)
            if shape == [2, 2, 2]:
                results.append(rules.three_pairs)
            if rules.four_and_pair_is_three_pairs and shape in ([2, 4], [6]):
                results.append(rules.three_pairs)
        return max(results) if results else None

    return best(counts_of(group))


def reference_options(throw: tuple[int, ...], rules: DiceRules) -> dict[tuple[int, ...], int]:
    out: dict[tuple[int, ...], int] = {}
    for r in range(1, len(throw) + 1):
        for idx in itertools.combinations(range(len(throw)), r):
            group = tuple(sorted(throw[i] for i in idx))
            points = reference_best(group, rules)
            if points is not None:
                out[group] = points
    return out


def as_dict(throw: tuple[int, ...], rules: DiceRules) -> dict[tuple[int, ...], int]:
    options = keep_options(throw, rules)
    result = {o.dice: o.points for o in options}
    assert len(result) == len(options), "each distinct group must be listed once"
    return result


def test_all_46656_six_dice_outcomes_match_the_reference() -> None:
    rules = DiceRules()
    cache: dict[tuple[int, ...], dict[tuple[int, ...], int]] = {}
    busts = 0
    for throw in itertools.product(range(1, 7), repeat=6):
        key = tuple(sorted(throw))
        if key not in cache:
            cache[key] = reference_options(key, rules)
        got = as_dict(throw, rules)
        assert got == cache[key], throw
        busts += not got
    # The known Farkle figure: six dice bust in 1080 of 46656 throws (2.3%).
    assert busts == 1080


@pytest.mark.parametrize(
    "rules",
    [
        DiceRules(extra_dice="add"),
        DiceRules(extra_dice="fixed"),
        DiceRules(extra_dice="fixed", fixed_four=500, fixed_five=700, fixed_six=900),
        DiceRules(three_pairs=750, straight=1000),
        DiceRules(four_and_pair_is_three_pairs=False),
        DiceRules(single_one=150, single_five=75, triples={1: 300, 6: 1000}),
        DiceRules(extra_dice="add", three_pairs=2000, four_and_pair_is_three_pairs=True),
    ],
    ids=["add", "fixed", "fixed-low", "pairs750", "no-4+2", "singles", "add-3p2000"],
)
def test_every_throw_of_1_to_6_dice_matches_the_reference_under_house_rules(
    rules: DiceRules,
) -> None:
    for n in range(1, 7):
        for throw in itertools.combinations_with_replacement(range(1, 7), n):
            assert as_dict(throw, rules) == reference_options(throw, rules), throw


class TestD4DefaultValues:
    @pytest.mark.parametrize(
        ("group", "points"),
        [
            ((1,), 100),
            ((5,), 50),
            ((1, 1, 1), 1000),
            ((2, 2, 2), 200),
            ((3, 3, 3), 300),
            ((4, 4, 4), 400),
            ((5, 5, 5), 500),
            ((6, 6, 6), 600),
            ((6, 6, 6, 6), 1200),
            ((6, 6, 6, 6, 6), 2400),
            ((6, 6, 6, 6, 6, 6), 4800),
            ((1, 1, 1, 1), 2000),
            ((1, 1, 1, 1, 1), 4000),
            ((1, 1, 1, 1, 1, 1), 8000),
            ((1, 2, 3, 4, 5, 6), 1500),
            ((2, 2, 4, 4, 6, 6), 1500),
            ((1, 1, 5, 5, 3, 3), 1500),
            ((1, 1), 200),
            ((1, 5), 150),
            ((5, 5, 5, 5), 1000),
        ],
    )
    def test_combination_points(self, group: tuple[int, ...], points: int) -> None:
        assert score(group) == points

    def test_four_and_a_pair_reads_as_three_pairs_when_better(self) -> None:
        assert score((2, 2, 2, 2, 3, 3)) == 1500  # four 2s (400) and 3 3 (nothing) vs three pairs
        assert score((2, 2, 2, 2, 5, 5)) == 1500
        assert score((1, 1, 1, 1, 5, 5)) == 2100  # four 1s + two 5s beats three pairs

    def test_four_and_pair_house_rule_off(self) -> None:
        rules = DiceRules(four_and_pair_is_three_pairs=False)
        assert score((2, 2, 2, 2, 3, 3), rules) is None
        assert score((2, 2, 2, 2, 5, 5), rules) == 500

    def test_six_of_a_kind_may_read_as_three_pairs(self) -> None:
        add = DiceRules(extra_dice="add")  # six 2s "add" = 800 < 1500
        assert score((2,) * 6, add) == 1500
        assert score((2,) * 6, add.replace(four_and_pair_is_three_pairs=False)) == 800

    def test_two_triples_of_one_throw(self) -> None:
        assert score((2, 2, 2, 3, 3, 3)) == 500
        assert score((1, 1, 1, 5, 5, 5)) == 1500


class TestD3SetAside:
    def test_any_subset_that_splits_fully(self) -> None:
        options = {o.dice: o.points for o in keep_options([5, 5, 5, 2, 3, 4])}
        assert options == {(5, 5, 5): 500, (5, 5): 100, (5,): 50}

    def test_non_scoring_dice_cannot_be_set_aside(self) -> None:
        options = {o.dice for o in keep_options([1, 2, 3, 4, 6, 6])}
        assert options == {(1,)}
        assert score((1, 2)) is None
        assert score((6, 6)) is None

    def test_best_points_first(self) -> None:
        points = [o.points for o in keep_options([1, 1, 1, 5, 2, 2])]
        assert points == sorted(points, reverse=True)
        assert points[0] == 1050

    def test_bust_is_empty(self) -> None:
        assert keep_options([2, 3, 4, 6, 6, 2]) == []
        assert keep_options([6]) == []

    def test_order_of_dice_does_not_matter(self) -> None:
        assert keep_options([3, 1, 5]) == keep_options([5, 3, 1])

    @pytest.mark.parametrize("bad", [[0], [7], [1, 2, 3, 4, 5, 6, 1], [], ["1"]])
    def test_malformed_throws_raise(self, bad: list[object]) -> None:
        with pytest.raises(IllegalAction):
            keep_options(bad)  # type: ignore[arg-type]


class TestScoringHouseRules:
    def test_single_values(self) -> None:
        rules = DiceRules(single_one=150, single_five=75)
        assert score((1,), rules) == 150
        assert score((5, 5), rules) == 150

    def test_triples(self) -> None:
        rules = DiceRules(triples={1: 300, 2: 250})
        assert score((1, 1, 1), rules) == 300
        assert score((2, 2, 2), rules) == 250
        assert score((3, 3, 3), rules) == 300  # unchanged faces keep the default

    def test_extra_dice_add(self) -> None:
        rules = DiceRules(extra_dice="add")
        assert score((6, 6, 6, 6), rules) == 1200
        assert score((6, 6, 6, 6, 6), rules) == 1800
        assert score((3, 3, 3, 3, 3), rules) == 900

    def test_extra_dice_fixed(self) -> None:
        rules = DiceRules(extra_dice="fixed")
        assert score((2, 2, 2, 2), rules) == 1000
        assert score((2, 2, 2, 2, 2), rules) == 2000
        assert score((6, 6, 6, 6, 6, 6), rules) == 3000
        assert score((1, 1, 1, 1, 1, 1), rules) == 3000

    def test_straight_and_three_pairs_values(self) -> None:
        rules = DiceRules(straight=1000, three_pairs=750)
        assert score((1, 2, 3, 4, 5, 6), rules) == 1000
        assert score((2, 2, 3, 3, 4, 4), rules) == 750
