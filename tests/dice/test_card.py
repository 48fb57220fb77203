"""Strategy cards: the numbers, the text a player reads, the bot, the registry's levels, and the
simulator playing exactly the bot's games."""

from __future__ import annotations

import dataclasses

import pytest

from pfeffer.dice import DiceGame, DiceRules
from pfeffer.dice.bots import DICE_BOTS, LEVELS, OptimalBot, make_optimal_bot
from pfeffer.dice.card import CARDS, NEVER, PARAMS, Card, CardBot
from pfeffer.dice.sim import simulate
from pfeffer.dice.sim.policies import CardPolicy, HeuristicPolicy, resolve_policy
from tests.dice.test_simulate import VARIANTS, cross_check, events

HARD = CARDS["hard"]


def test_card_numbers_round_trip_and_are_checked() -> None:
    for card in CARDS.values():
        assert len(card.params()) == PARAMS
        assert Card.from_params(card.name, card.params()) == card
    with pytest.raises(ValueError, match="each of 1-6 dice"):
        dataclasses.replace(HARD, bank=(300,) * 5)
    with pytest.raises(ValueError, match="whole numbers"):
        dataclasses.replace(HARD, behind=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not negative"):
        dataclasses.replace(HARD, bank=(-50, 300, 400, 1000, 2500, NEVER))


def test_threshold_moves_with_the_score_as_the_card_says() -> None:
    card = dataclasses.replace(HARD, behind=10, ahead=5, chase_from=2000, chase=20)
    base = card.bank[0]
    assert card.threshold(own=0, leader=0, target=10000, dice=1, auto=False) == base
    # 2,999 behind: two full thousands.
    assert card.threshold(own=0, leader=2999, target=10000, dice=1, auto=False) == base * 120 // 100
    assert card.threshold(own=4000, leader=0, target=10000, dice=1, auto=False) == base * 80 // 100
    # Leader at 9,000: 2 full 500s above 8,000, and 9 full thousands ahead.
    expected = base * (100 + 90 + 40) // 100
    assert card.threshold(own=0, leader=9000, target=10000, dice=1, auto=False) == expected
    assert card.threshold(own=0, leader=0, target=10000, dice=4, auto=True) == card.auto_bank[3]

    # Last turn: bank once ahead; reaching the target with the lead: bank.
    def banks(own: int, leader: int, total: int, late: bool) -> bool:
        return card.wants_bank(
            own=own, leader=leader, target=10000, total=total, dice=5, auto=False, late=late
        )

    assert banks(9000, 10200, 1250, late=True) and not banks(9000, 10200, 1200, late=True)
    assert banks(9600, 5000, 400, late=False) and not banks(9600, 9900, 400, late=False)


def test_card_text_has_the_numbers_a_player_needs() -> None:
    text = HARD.text(DiceRules())
    for number in (*HARD.bank[:5], *HARD.auto_bank[:5], *HARD.worth, HARD.finish_lead):
        assert str(number) in text
    assert "Never call Pfeffer" in text and "hot" in text
    plain = HARD.text(DiceRules(auto_pfeffer=False, pfeffer=False, hot_dice_must_roll=False))
    assert "after a bust" not in plain and "Pfeffer" not in plain.split("\n", 1)[1]
    assert "never" in plain  # six dice: the card never banks them
    stake = dataclasses.replace(HARD, pfeffer_up_to=300).text(DiceRules(pfeffer_reward="stake"))
    assert "Call Pfeffer when the stake is 300 or less" in stake


def test_cardbot_keeps_by_the_count_and_banks_by_the_card() -> None:
    bot = CardBot(HARD)
    g = DiceGame(2, DiceRules(), seed=1)
    g.roll([1, 5, 2, 3, 4, 4])
    # keep 1: 100 + worth of 5 dice; keep 15: 150 + worth of 4 dice (a tie: more points).
    keep1 = 100 + HARD.worth[4]
    keep15 = 150 + HARD.worth[3]
    want = "keep 1" if keep1 > keep15 else "keep 15"
    assert bot.choose(g.view(0), g.legal_actions()) == want
    g.apply(want)
    assert bot.choose(g.view(0), g.legal_actions()) == "roll"  # 100 or 150: below the minimum


def test_registry_levels() -> None:
    assert LEVELS == ("perfect", "hard", "medium", "easy")
    assert DICE_BOTS.kind("optimal").levels == LEVELS
    assert isinstance(make_optimal_bot(name="P", seed=1, level="perfect"), OptimalBot)
    for level in ("hard", "medium", "easy"):
        bot = DICE_BOTS.create("optimal", name="C", level=level)
        assert isinstance(bot, CardBot) and bot.card is CARDS[level]
    # A card plays any rules and any number of players, without a solved table.
    g = DiceGame(4, DiceRules(target=3000, tie="playoff"), seed=2)
    bots = [DICE_BOTS.create("optimal", level=lv) for lv in ("hard", "medium", "easy", "hard")]
    while (s := g.current_player) is not None:
        g.apply(bots[s].choose(g.view(s), g.legal_actions()), seat=s)
    assert g.winners


@pytest.mark.parametrize("rules", VARIANTS, ids=range(len(VARIANTS)))
def test_kernel_plays_the_cards_games(rules: DiceRules) -> None:
    cards = [CardPolicy(c) for c in CARDS.values()]
    stake = CardPolicy(dataclasses.replace(HARD, name="stake", pfeffer_up_to=400))
    sims = cross_check(rules, [cards[2], cards[1]], 150, seed=1)
    sims += cross_check(rules, [stake, cards[0], HeuristicPolicy()], 80, seed=2)
    if rules.pfeffer_reward == "stake":
        assert events(rules, sims)["pfeffer"] > 0


def test_levels_by_name_in_the_simulator() -> None:
    assert resolve_policy("hard") == CardPolicy(HARD)
    r = simulate(DiceRules(target=3000), ["easy", "medium", "hard"], games=300, seed=4)
    assert r.policies == ("easy", "medium", "hard") and sum(r.wins) == pytest.approx(300)
    cross_check(DiceRules(), [CardPolicy(HARD)] * 2, 40, seed=5)
