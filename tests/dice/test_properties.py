"""Property tests: random legal games keep the invariants of docs/rules.md (D1–D14)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pfeffer.dice import ActionError, DiceGame, DiceRules, PfefferMode
from tests.dice.helpers import state_of

RULE_VARIANTS = [
    DiceRules(target=1500),
    DiceRules(target=2000, pfeffer_reward="stake", pfeffer_short_bank="allowed"),
    DiceRules(target=1500, min_bank_opening_only=True, tie="playoff", extra_dice="add"),
    DiceRules(target=1000, final_round=False, hot_dice_must_roll=False, auto_pfeffer=False),
    DiceRules(target=1500, extra_dice="fixed", pfeffer_penalty_factor=3, pfeffer_margin=100),
]
PROBES = [
    "roll",
    "bank",
    "pfeffer",
    "void",
    "keep 1",
    "keep 5",
    "keep 222",
    "turn 400",
    "turn 10000",
    "bust",
]


def check_invariants(g: DiceGame) -> None:
    r = g.rules
    history = g.history
    for seat in range(len(g.players)):
        assert g.scores[seat] == sum(t.change for t in history if t.seat == seat)
    for i, t in enumerate(history):
        if t.busted:
            assert t.points == 0 and t.bonus == 0
            expected = {
                PfefferMode.CALLED: r.pfeffer_penalty_factor * t.stake,
                PfefferMode.AUTO: r.auto_pfeffer_penalty,
                PfefferMode.NONE: 0,
            }[t.pfeffer]
            assert t.penalty == expected
        else:
            assert t.penalty == 0
            assert t.points == sum(th.points for th in t.throws)
            if not r.min_bank_opening_only:
                assert t.points >= r.min_bank
            if t.pfeffer is PfefferMode.CALLED and r.pfeffer_short_bank == "forbidden":
                assert t.points >= t.stake
        if i > 0:
            prev = history[i - 1]
            if t.pfeffer is PfefferMode.CALLED:
                assert t.stake == prev.points + r.pfeffer_margin and prev.points > 0
            if t.pfeffer is PfefferMode.AUTO:
                assert prev.points == 0
        else:
            assert t.pfeffer is PfefferMode.NONE
    assert g.turn_total == sum(th.points for th in g.turn_throws)
    if g.is_over:
        # Winners lead among the contenders: everyone, or the tied players of a playoff.
        contenders = g.view().playoff or tuple(range(len(g.players)))
        best = max(g.scores[s] for s in contenders)
        assert sorted(g.winners) == [s for s in sorted(contenders) if g.scores[s] == best]
        if r.tie == "playoff":
            assert len(g.winners) == 1
    else:
        assert not g.winners


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    players=st.integers(2, 5),
    rules=st.sampled_from(RULE_VARIANTS),
    seed=st.integers(0, 2**40),
)
def test_random_legal_games_keep_the_invariants(
    data: st.DataObject, players: int, rules: DiceRules, seed: int
) -> None:
    g = DiceGame(players, rules, seed=seed, hand_dice=data.draw(st.booleans(), label="hand"))
    for _ in range(500):
        if g.is_over:
            break
        legal = g.legal_actions()
        assert legal
        if "roll" in legal and data.draw(st.booleans(), label="by hand"):
            n = g.dice_to_roll
            faces = data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n), label="dice")
            action = "roll " + "".join(map(str, faces))
        else:
            action = data.draw(st.sampled_from(legal), label="action")
        # A game accepts only what legal_actions() lists (plus thrown faces where "roll" is):
        # anything else raises and changes nothing.
        probe = data.draw(st.sampled_from(PROBES), label="probe")
        if probe not in legal:
            before = state_of(g)
            try:
                g.apply(probe)
            except ActionError:
                assert state_of(g) == before
            else:
                raise AssertionError(f"{probe!r} was accepted but not listed in {legal}")
        g.apply(action)
        check_invariants(g)
    replay = DiceGame.from_record(g.to_json())
    assert state_of(replay) == state_of(g)
    clone = g.clone()
    assert state_of(clone) == state_of(g)
