"""The facts a table draws come with the seat's view (issue 19 §3): the ladder's terms, the
contract's, whether the player to act must bid (P6), the hand as held (P8) and the bowers
this seat sees. Front ends (web, terminal) read them here and compute none of them."""

from __future__ import annotations

from pfeffer.pepper import PepperGame, PepperRules
from pfeffer.pepper.cards import bower
from pfeffer.pepper.rules import bid_ladder, bid_terms


def test_the_auction_shows_the_ladder_and_the_last_player_must_bid() -> None:
    g = PepperGame(["A", "B", "C", "D"], seed=4)
    g.apply("deal", seat=g.dealer)
    v = g.view(g.current_player)
    assert v.phase == "auction" and not v.must_bid
    assert list(v.bid_terms) == list(bid_ladder(4))
    assert v.bid_terms["4"] == bid_terms(g.rules, 4, "4")
    assert v.contract_terms is None
    for _ in range(3):
        g.apply("pass", seat=g.current_player)
    last = g.view(g.current_player)
    assert last.must_bid and "pass" not in g.legal_actions()
    assert all(g.view(s).must_bid for s in (0, 1, 2, 3, None))  # a fact of the table, for all
    # Under the house rule that deals again instead, nobody must bid.
    r = PepperGame(["A", "B", "C", "D"], seed=4, rules=PepperRules(all_pass="redeal"))
    r.apply("deal", seat=r.dealer)
    for _ in range(3):
        r.apply("pass", seat=r.current_player)
    assert not r.view(r.current_player).must_bid and "pass" in r.legal_actions()


def test_the_contract_the_hand_as_held_and_the_bowers() -> None:
    g = PepperGame(["A", "B", "C"], seed=11)
    g.apply("deal", seat=g.dealer)
    while g.phase == "auction":
        seat = g.current_player
        assert seat is not None
        g.apply("pass" if "pass" in g.legal_actions() and seat != g.dealer else "3", seat=seat)
    assert g.phase == "declare"
    bidder = g.current_player
    assert bidder is not None
    v = g.view(bidder)
    assert v.bid_terms == {} and v.contract_terms == bid_terms(g.rules, 3, v.high_bid or "")
    assert v.bowers == {}  # no trump yet
    g.apply("H", seat=bidder)
    v = g.view(bidder)
    assert sorted(v.hand_order) == sorted(v.hand)
    assert v.bowers == {c: r for c in v.hand if (r := bower(c, "H")) is not None}
    if "JH" in v.hand:
        assert v.hand_order[0] == "JH" and v.bowers["JH"] == "right"
