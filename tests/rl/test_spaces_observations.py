"""Action spaces and view-built observations: numbering, masks, and no hidden information."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")

from pfeffer.dice import DiceGame  # noqa: E402
from pfeffer.pepper import PepperGame, bid_ladder  # noqa: E402
from pfeffer.rl.observations import (  # noqa: E402
    dice_observation,
    pepper_layout,
    pepper_observation,
    pepper_string,
)
from pfeffer.rl.spaces import (  # noqa: E402
    KEEP_MULTISETS,
    DiceActionSpace,
    PepperActionSpace,
    throw_id,
    throw_of,
)


def test_dice_space_has_every_keep_multiset_once() -> None:
    space = DiceActionSpace()
    assert len(KEEP_MULTISETS) == 923 == len(set(KEEP_MULTISETS))
    assert space.size == 927
    assert space.names[:4] == ("pfeffer", "roll", "bank", "void")
    for i in range(space.size):
        assert space.action_id(space.action_of(i)) == i
    for ms in KEEP_MULTISETS:
        assert throw_of(throw_id(reversed(ms))) == ms


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pepper_space_layout(players: int) -> None:
    space = PepperActionSpace(players)
    ladder = bid_ladder(players)
    assert space.names[:2] == ("deal", "pass")
    assert space.names[2 : 2 + len(ladder)] == ladder
    assert space.names[space.trump_offset : space.card_offset] == ("C", "D", "H", "S", "NT")
    assert len(space.names[space.card_offset :]) == 24
    assert space.size == 2 + len(ladder) + 5 + 24
    for i in range(space.size):
        assert space.action_id(space.action_of(i)) == i
    with pytest.raises(ValueError):
        space.action_id("8C")
    with pytest.raises(ValueError):
        space.action_of(space.size)


def test_every_engine_action_has_an_id_and_masks_match() -> None:
    rng = random.Random(3)
    dice, pepper = DiceActionSpace(), PepperActionSpace(4)
    d = DiceGame(3, seed=5)
    for _ in range(300):
        if d.is_over:
            break
        legal = d.legal_actions()
        mask = dice.legal_mask(legal)
        assert mask.dtype == np.bool_ and mask.sum() == len(legal)
        d.apply(rng.choice([a for a in legal if a != "void"]))
    p = PepperGame(players=4, seed=5, dealer=0)
    for _ in range(300):
        if p.is_over:
            break
        legal = p.legal_actions()
        assert [pepper.action_of(i) for i in pepper.legal_ids(legal)] == sorted(
            legal, key=pepper.action_id
        )
        p.apply(rng.choice(legal))


def _deal_and_twin(players: int, seat: int, rng: random.Random) -> tuple[list[list[str]], ...]:
    """A deal and a second one that differs only in the cards of the other hands (and the dead
    hand): those are shuffled among themselves."""
    cards = [r + s for s in "CDHS" for r in "9TJQKA"]
    rng.shuffle(cards)
    size = 6 if players == 4 else 8
    hands = [cards[i * size : (i + 1) * size] for i in range(3 if players == 2 else players)]
    others = [c for i, h in enumerate(hands) if i != seat for c in h]
    rng.shuffle(others)
    twin = []
    for i, h in enumerate(hands):
        if i == seat:
            twin.append(h)
        else:
            twin.append(others[:size])
            others = others[size:]
    return hands, twin


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pepper_observation_hides_other_hands_dead_hand_and_seed(players: int) -> None:
    """Two games that differ only in the other seats' cards (and seed): as long as both accept
    the same actions, the seat's observations are identical at every step."""
    rng = random.Random(players)
    seat, total = 1, 0
    for trial in range(5):
        deal, twin = _deal_and_twin(players, seat, rng)
        a = PepperGame(players=players, seed=trial, dealer=0)
        b = PepperGame(players=players, seed=trial + 1000, dealer=0)
        a.deal(deal)
        b.deal(twin)
        steps = 0
        while not a.is_over and a.phase != "deal":
            for recall in (False, True):
                va, vb = a.view(seat), b.view(seat)
                assert np.array_equal(
                    pepper_observation(va, players, recall), pepper_observation(vb, players, recall)
                )
                assert pepper_string(va, players, recall) == pepper_string(vb, players, recall)
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not common:
                break
            action = rng.choice(common)
            a.apply(action)
            b.apply(action)
            steps += 1
        total += steps
    assert total >= 5 * players  # auctions and some play were compared


def test_dice_observation_ignores_seed() -> None:
    a, b = DiceGame(2, seed=1), DiceGame(2, seed=2)
    for action in ("roll 115234", "keep 11", "roll 5552", "keep 555", "bank", "roll 234466"):
        a.apply(action)
        b.apply(action)
        for seat in (0, 1):
            assert np.array_equal(
                dice_observation(a.view(seat), 2), dice_observation(b.view(seat), 2)
            )


def test_pepper_observation_pieces() -> None:
    g = PepperGame(players=4, seed=1, dealer=0)
    g.deal([[r + s for r in "9TJQKA"] for s in "CDHS"])
    for action in ("2", "pass", "pass", "pass", "D", "JD", "JH", "9S"):
        g.apply(action)
    lay = pepper_layout(4, recall=False)
    obs = lay.views(pepper_observation(g.view(3), 4))
    assert obs["hand"].sum() == 5 and obs["played"][3].sum() == 1 and obs["played"][1].sum() == 1
    assert obs["trick"][1, 8] == 1 and obs["trick"][2, 14] == 1  # JD by seat 1, JH by seat 2
    rec = pepper_layout(4, recall=True).views(pepper_observation(g.view(3), 4, recall=True))
    assert rec["auction"][0, 1] == 1 and rec["tricks"][0, 0, 8] == 1 and rec["leaders"][0, 1] == 1
