"""Auction rules (DESIGN §3 "Auction"): canonical rounds, confirmation round, overbids,
buy-right, payment, tie priority, and the fast and legacy modes."""

from __future__ import annotations

from enginekit import auction_position, bids, config, passes, run, start, state_of

from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.rules import pending
from engine.chance import chance
from events.cattle import game as ev
from projections.cattle.observation import observe

START = (50, 10, 10, 10, 10, 0, 0)


def canonical(**kw):
    """Seat 0 auctions a cat to seats 1 and 2 (priority 1, 2); the deck holds a dog after it;
    seats 0 and 1 each hold a cow, so seat 1 has a trade target on its next turn."""
    kw.setdefault("animals", {0: ("cow",), 1: ("cow",)})
    cfg = kw.pop("cfg", None) or config()
    return state_of(auction_position(cfg, animal="cat", deck=("dog",), **kw))


def bid(seat: int, amount: int) -> act.PlaceBid:
    return act.PlaceBid(seat=seat, amount=amount)


def pass_(seat: int) -> act.Pass:
    return act.Pass(seat=seat)


# ----------------------------------------------------------------------------- canonical


def test_round_zero_is_asked_to_every_bidder_but_not_the_auctioneer() -> None:
    s = canonical()
    d = pending(s)
    assert d == dec.BidDecision(
        seats=(1, 2),
        auction=1,
        animal="cat",
        auctioneer=0,
        mode="canonical",
        round=0,
        price=0,
        leader=None,
    )
    assert d.min_bid == 10


def test_empty_round_zero_opens_one_confirmation_round_then_the_card_is_free() -> None:
    s = canonical()
    s, out = run(s, passes(s))
    assert out == [
        ev.BidPassed(auction=1, round=0, seat=1),
        ev.BidPassed(auction=1, round=0, seat=2),
        ev.BidRoundClosed(auction=1, round=0, leader=None, price=0),
        ev.BidRoundOpened(
            auction=1, round=1, price=0, leader=None, bidders=(1, 2), confirmation=True
        ),
    ]
    assert pending(s).confirmation is True
    s, out = run(s, passes(s))
    assert out == [
        ev.BidPassed(auction=1, round=1, seat=1),
        ev.BidPassed(auction=1, round=1, seat=2),
        ev.BidRoundClosed(auction=1, round=1, leader=None, price=0),
        ev.AuctionNoBid(auction=1, auctioneer=0),
        ev.AnimalMoved(animal="cat", count=1, giver=None, receiver=0),
        ev.TurnStarted(turn=2, seat=1, deck_left=1),
    ]
    assert s.count(0, "cat") == 1
    assert s.money[0] == START  # nothing was paid for the free card


def test_a_bid_in_the_confirmation_round_continues_the_auction() -> None:
    s = canonical()
    s, _ = run(s, passes(s))
    s, out = run(s, bids(pass_(1), bid(2, 10)))
    assert out == [
        ev.BidPassed(auction=1, round=1, seat=1),
        ev.BidPlaced(auction=1, round=1, seat=2, amount=10),
        ev.BidRoundClosed(auction=1, round=1, leader=2, price=10),
        ev.BidRoundOpened(
            auction=1, round=2, price=10, leader=2, bidders=(1, 2), confirmation=False
        ),
    ]
    s, out = run(s, passes(s))
    assert out == [
        ev.BidPassed(auction=1, round=2, seat=1),
        ev.BidPassed(auction=1, round=2, seat=2),
        ev.BidRoundClosed(auction=1, round=2, leader=2, price=10),
        ev.AuctionWon(auction=1, winner=2, price=10),
    ]
    assert pending(s) == dec.SaleDecision(seats=(0,), auction=1, animal="cat", winner=2, price=10)


def test_no_confirmation_round_once_a_bid_stands() -> None:
    s = canonical()
    s, _ = run(s, bids(bid(1, 10), pass_(2)))
    s, out = run(s, passes(s))
    assert [type(e) for e in out] == [
        ev.BidPassed,
        ev.BidPassed,
        ev.BidRoundClosed,
        ev.AuctionWon,
    ]
    assert out[-1] == ev.AuctionWon(auction=1, winner=1, price=10)


def test_highest_bid_of_a_round_stands_and_the_leader_may_raise_itself() -> None:
    s = canonical()
    s, out = run(s, bids(bid(1, 30), bid(2, 20)))
    assert out[-2:] == [
        ev.BidRoundClosed(auction=1, round=0, leader=1, price=30),
        ev.BidRoundOpened(
            auction=1, round=1, price=30, leader=1, bidders=(1, 2), confirmation=False
        ),
    ]
    # self-bidding: the standing bidder raises its own bid
    s, out = run(s, bids(bid(1, 40), pass_(2)))
    assert out[-2] == ev.BidRoundClosed(auction=1, round=1, leader=1, price=40)
    s, out = run(s, passes(s))
    assert out[-1] == ev.AuctionWon(auction=1, winner=1, price=40)


def test_equal_bids_go_by_the_auctions_priority_order() -> None:
    cfg = config(players=4)
    for priority, winner in (((3, 1, 2), 1), ((2, 3, 1), 2), ((1, 2, 3), 1)):
        s = state_of(auction_position(cfg, animal="cat", priority=priority))
        s, out = run(s, bids(bid(1, 30), bid(2, 30), bid(3, 20)))
        assert out[-2] == ev.BidRoundClosed(auction=1, round=0, leader=winner, price=30)
    # a higher bid wins whatever the priority
    s = state_of(auction_position(cfg, animal="cat", priority=(3, 1, 2)))
    s, out = run(s, bids(bid(1, 30), bid(2, 40), bid(3, 40)))
    assert out[-2] == ev.BidRoundClosed(auction=1, round=0, leader=3, price=40)


def test_priority_order_is_drawn_from_the_seed_per_auction() -> None:
    cfg = config(players=4, max_turns=1)
    _, out = start(cfg, seed=99)
    opened = [e for e in out if isinstance(e, ev.AuctionOpened)]
    assert len(opened) == 1  # seat 0 holds no animal: its first turn is a forced auction
    expected = [1, 2, 3]
    chance(99, "auction", 1).shuffle(expected)
    assert opened[0].priority == tuple(expected)
    assert sorted(opened[0].priority) == [1, 2, 3]


# ----------------------------------------------------------------------------- overbids


def overbid_position(players: int = 3):
    """Seat 1 holds only a 10 and bids 50; the auction ends with it unable to pay."""
    cfg = config(players=players)
    s = state_of(
        auction_position(cfg, animal="cat", money={1: (10,)}, animals={0: ("cow",), 1: ("cow",)})
    )
    if players == 2:
        s, _ = run(s, bid(1, 50))
        s, out = run(s, pass_(1))
    else:
        s, _ = run(s, bids(bid(1, 50), pass_(2)))
        s, out = run(s, passes(s))
    return s, out


def test_overbid_reveals_money_and_restarts_with_a_cap() -> None:
    s, out = overbid_position()
    assert out == [
        ev.BidPassed(auction=1, round=1, seat=1),
        ev.BidPassed(auction=1, round=1, seat=2),
        ev.BidRoundClosed(auction=1, round=1, leader=1, price=50),
        ev.OverbidRevealed(auction=1, seat=1, bid=50, money=(10,)),
        ev.AuctionRestarted(auction=1, attempt=1, caps=((1, 10),)),
        ev.BidRoundOpened(
            auction=1, round=2, price=0, leader=None, bidders=(1, 2), confirmation=False
        ),
    ]
    d = pending(s)
    assert d.caps == ((1, 10),) and d.cap(1) == 10 and d.cap(2) is None
    assert ev.OverbidRevealed(auction=1, seat=1, bid=50, money=(10,)).audience() is None


def test_capped_seat_bidding_above_its_money_is_removed_at_once() -> None:
    s, _ = overbid_position()
    raw = act.action_json(act.PlaceBid(seat=1, amount=20))
    s, out = run(s, bids(bid(1, 20), pass_(2)))
    assert out == [
        ev.ActionRejected(
            seat=1,
            decision="bid",
            reason="bid 20 exceeds the revealed money 10: second failure to pay",
            raw=raw,
            retry=False,
        ),
        ev.BidderRemoved(auction=1, seat=1, reason="second overbid"),
        ev.BidPassed(auction=1, round=2, seat=2),
        ev.BidRoundClosed(auction=1, round=2, leader=None, price=0),
        # the restarted attempt gets its own confirmation round, now without seat 1
        ev.BidRoundOpened(
            auction=1, round=3, price=0, leader=None, bidders=(2,), confirmation=True
        ),
    ]
    s, out = run(s, pass_(2))
    assert out[:5] == [
        ev.BidPassed(auction=1, round=3, seat=2),
        ev.BidRoundClosed(auction=1, round=3, leader=None, price=0),
        ev.AuctionNoBid(auction=1, auctioneer=0),
        ev.AnimalMoved(animal="cat", count=1, giver=None, receiver=0),
        ev.TurnStarted(turn=2, seat=1, deck_left=0),
    ]


def test_capped_seat_may_bid_up_to_its_money_and_win() -> None:
    s, _ = overbid_position()
    s, out = run(s, bids(bid(1, 10), pass_(2)))
    assert out[0] == ev.BidPlaced(auction=1, round=2, seat=1, amount=10)
    s, out = run(s, passes(s))
    assert out[-1] == ev.AuctionWon(auction=1, winner=1, price=10)
    s, out = run(s, act.ChooseSale(seat=0, decision="sell"))
    assert out[:4] == [
        ev.AuctioneerDecided(auction=1, seat=0, decision="sell"),
        ev.PaymentMade(payer=1, payee=0, amount=10, n_cards=1, reason="sale"),
        ev.PaymentCards(payer=1, payee=0, cards=(10,)),
        ev.AnimalMoved(animal="cat", count=1, giver=None, receiver=1),
    ]
    assert s.money[1] == ()


def test_second_failure_with_no_bidder_left_gives_the_card_to_the_auctioneer() -> None:
    s, out = overbid_position(players=2)
    assert out[-2] == ev.AuctionRestarted(auction=1, attempt=1, caps=((1, 10),))
    s, out = run(s, bid(1, 60))
    assert [type(e) for e in out[:5]] == [
        ev.ActionRejected,
        ev.BidderRemoved,
        ev.BidRoundClosed,
        ev.AuctionNoBid,
        ev.AnimalMoved,
    ]
    assert out[3] == ev.AuctionNoBid(auction=1, auctioneer=0)


def test_restarted_auction_with_no_bid_has_a_confirmation_round_then_is_free() -> None:
    s, _ = overbid_position()
    s, out = run(s, passes(s))
    assert out[-1] == ev.BidRoundOpened(
        auction=1, round=3, price=0, leader=None, bidders=(1, 2), confirmation=True
    )
    s, out = run(s, passes(s))
    assert ev.AuctionNoBid(auction=1, auctioneer=0) in out


# ----------------------------------------------------------------------------- sale, payment


def won_at(price: int, *, auctioneer_money=None, winner_money=None, start=START):
    money = {}
    if auctioneer_money is not None:
        money[0] = auctioneer_money
    if winner_money is not None:
        money[1] = winner_money
    s = canonical(money=money, start=start)
    s, _ = run(s, bids(bid(1, price), pass_(2)))
    return run(s, passes(s))


def test_buy_right_is_not_offered_to_an_auctioneer_who_cannot_pay() -> None:
    s, out = won_at(50, auctioneer_money=(10,))
    assert out[3:] == [
        ev.AuctionWon(auction=1, winner=1, price=50),
        ev.AuctioneerDecided(auction=1, seat=0, decision="sell", offered=False),
        ev.PaymentMade(payer=1, payee=0, amount=50, n_cards=1, reason="sale"),
        ev.PaymentCards(payer=1, payee=0, cards=(50,)),
        ev.AnimalMoved(animal="cat", count=1, giver=None, receiver=1),
        ev.TurnStarted(turn=2, seat=1, deck_left=1),
    ]
    assert s.money[0] == (50, 10)


def test_buy_right_is_offered_when_the_auctioneer_has_exactly_the_price() -> None:
    s, out = won_at(50, auctioneer_money=(50, 0))
    assert out[-1] == ev.AuctionWon(auction=1, winner=1, price=50)
    assert pending(s) == dec.SaleDecision(seats=(0,), auction=1, animal="cat", winner=1, price=50)
    s, out = run(s, act.ChooseSale(seat=0, decision="buy_right"))
    assert out[:5] == [
        ev.AuctioneerDecided(auction=1, seat=0, decision="buy_right", offered=True),
        ev.PaymentMade(payer=0, payee=1, amount=50, n_cards=1, reason="buy_right"),
        ev.PaymentCards(payer=0, payee=1, cards=(50,)),
        ev.AnimalMoved(animal="cat", count=1, giver=None, receiver=0),
        ev.TurnStarted(turn=2, seat=1, deck_left=1),
    ]
    assert s.money[0] == (0,)
    assert s.count(0, "cat") == 1 and s.count(1, "cat") == 0


def test_sell_moves_the_card_to_the_winner_against_payment() -> None:
    s, _ = won_at(30)
    s, out = run(s, act.ChooseSale(seat=0, decision="sell"))
    assert out[:4] == [
        ev.AuctioneerDecided(auction=1, seat=0, decision="sell", offered=True),
        ev.PaymentMade(payer=1, payee=0, amount=30, n_cards=3, reason="sale"),
        ev.PaymentCards(payer=1, payee=0, cards=(10, 10, 10)),
        ev.AnimalMoved(animal="cat", count=1, giver=None, receiver=1),
    ]
    assert ev.PaymentCards(payer=1, payee=0, cards=(10,)).audience() == (1, 0)


def test_payment_of_60_from_100_50_10_10_0_0_uses_50_and_10() -> None:
    s, _ = won_at(60, start=(100, 50, 10, 10, 0, 0))
    s, out = run(s, act.ChooseSale(seat=0, decision="sell"))
    assert out[1:3] == [
        ev.PaymentMade(payer=1, payee=0, amount=60, n_cards=2, reason="sale"),
        ev.PaymentCards(payer=1, payee=0, cards=(50, 10)),
    ]
    assert s.money[1] == (100, 10, 0, 0)


def test_no_change_is_given_when_paying_more_than_the_price() -> None:
    s, _ = won_at(40, winner_money=(100, 50, 0), start=(100, 50, 10, 0))
    s, out = run(s, act.ChooseSale(seat=0, decision="sell"))
    assert out[2] == ev.PaymentCards(payer=1, payee=0, cards=(50,))
    assert out[1].amount == 40  # the price, while the cards are worth 50


# ----------------------------------------------------------------------------- fast mode


def fast(**kw):
    return canonical(cfg=config(auction_mode="fast"), **kw)


def test_fast_mode_is_one_sealed_round_and_clamps_to_money() -> None:
    s = fast()
    s, out = run(s, bids(bid(1, 200), bid(2, 50)))
    assert out == [
        ev.ActionRejected(
            seat=1,
            decision="bid",
            reason="above the bidder's money: lowered to 90",
            raw=act.action_json(act.PlaceBid(seat=1, amount=200)),
            retry=False,
        ),
        ev.FallbackApplied(
            seat=1,
            decision="bid",
            action=act.action_json(act.PlaceBid(seat=1, amount=90)),
            reason="bid corrected",
        ),
        ev.BidPlaced(auction=1, round=0, seat=1, amount=90),
        ev.BidPlaced(auction=1, round=0, seat=2, amount=50),
        ev.BidRoundClosed(auction=1, round=0, leader=1, price=90),
        ev.AuctionWon(auction=1, winner=1, price=90),
    ]


def test_fast_mode_without_bids_gives_a_free_card_without_confirmation() -> None:
    s = fast()
    s, out = run(s, passes(s))
    assert out[:5] == [
        ev.BidPassed(auction=1, round=0, seat=1),
        ev.BidPassed(auction=1, round=0, seat=2),
        ev.BidRoundClosed(auction=1, round=0, leader=None, price=0),
        ev.AuctionNoBid(auction=1, auctioneer=0),
        ev.AnimalMoved(animal="cat", count=1, giver=None, receiver=0),
    ]


def test_fast_mode_bid_that_cannot_reach_the_minimum_becomes_a_pass() -> None:
    s = fast(money={1: (0, 0)})
    s, out = run(s, bids(bid(1, 30), bid(2, 30)))
    assert out[:4] == [
        ev.ActionRejected(
            seat=1,
            decision="bid",
            reason="above the bidder's money: lowered to 0; cannot reach the minimum bid",
            raw=act.action_json(act.PlaceBid(seat=1, amount=30)),
            retry=False,
        ),
        ev.FallbackApplied(
            seat=1,
            decision="bid",
            action=act.action_json(act.Pass(seat=1)),
            reason="bid cannot be paid: pass",
        ),
        ev.BidPassed(auction=1, round=0, seat=1),
        ev.BidPlaced(auction=1, round=0, seat=2, amount=30),
    ]
    assert out[-1] == ev.AuctionWon(auction=1, winner=2, price=30)


def test_fast_mode_ties_go_by_priority() -> None:
    cfg = config(auction_mode="fast")
    s = state_of(auction_position(cfg, animal="cat", priority=(2, 1)))
    s, out = run(s, bids(bid(1, 40), bid(2, 40)))
    assert out[-1] == ev.AuctionWon(auction=1, winner=2, price=40)


# ----------------------------------------------------------------------------- legacy mode


def legacy(**kw):
    """Four players, seat 1 auctions: bidding order from its left is 2, 3, 0."""
    cfg = config(players=4, auction_mode="legacy")
    return state_of(auction_position(cfg, animal="cat", active=1, **kw))


def opened(round_: int, price: int, leader, seat: int) -> ev.BidRoundOpened:
    return ev.BidRoundOpened(
        auction=1, round=round_, price=price, leader=leader, bidders=(seat,), confirmation=False
    )


def test_legacy_raises_and_passes_in_turn_from_the_auctioneers_left() -> None:
    s = legacy()
    assert pending(s).seats == (2,)
    s, out = run(s, bid(2, 10))
    assert out == [
        ev.BidPlaced(auction=1, round=0, seat=2, amount=10),
        ev.BidRoundClosed(auction=1, round=0, leader=2, price=10),
        opened(1, 10, 2, 3),
    ]
    s, out = run(s, pass_(3))
    assert out == [
        ev.BidPassed(auction=1, round=1, seat=3),
        ev.BidRoundClosed(auction=1, round=1, leader=2, price=10),
        opened(2, 10, 2, 0),
    ]
    s, out = run(s, bid(0, 20))
    assert out[-1] == opened(3, 20, 0, 2)  # the leader is skipped; a raise reopens to all
    s, out = run(s, pass_(2))
    assert out[-1] == opened(4, 20, 0, 3)  # seat 3 passed before the raise: asked again
    s, out = run(s, pass_(3))
    assert out == [
        ev.BidPassed(auction=1, round=4, seat=3),
        ev.BidRoundClosed(auction=1, round=4, leader=0, price=20),
        ev.AuctionWon(auction=1, winner=0, price=20),
    ]
    assert pending(s) == dec.SaleDecision(seats=(1,), auction=1, animal="cat", winner=0, price=20)


def test_legacy_all_pass_gives_a_free_card() -> None:
    s = legacy()
    seen = []
    for _ in range(3):
        seen.append(pending(s).seats[0])
        s, out = run(s, passes(s))
    assert seen == [2, 3, 0]
    assert out[2:4] == [
        ev.AuctionNoBid(auction=1, auctioneer=1),
        ev.AnimalMoved(animal="cat", count=1, giver=None, receiver=1),
    ]


def test_legacy_overbid_is_handled_as_in_canonical() -> None:
    s = legacy(money={2: (10,)})
    s, _ = run(s, bid(2, 50), pass_(3))
    s, out = run(s, pass_(0))
    assert out[2:] == [
        ev.OverbidRevealed(auction=1, seat=2, bid=50, money=(10,)),
        ev.AuctionRestarted(auction=1, attempt=1, caps=((2, 10),)),
        opened(3, 0, None, 2),
    ]
    s, out = run(s, bid(2, 30))
    assert [type(e) for e in out[:2]] == [ev.ActionRejected, ev.BidderRemoved]
    assert out[2] == ev.BidRoundClosed(auction=1, round=3, leader=None, price=0)
    assert out[3] == opened(4, 0, None, 3)


def test_every_seat_sees_the_revealed_money_and_caps_accumulate() -> None:
    cfg = config(players=4)
    events = auction_position(
        cfg, animal="cat", money={1: (10,), 2: (50, 0)}, animals={0: ("cow",), 1: ("cow",)}
    )
    s = state_of(events)
    log = list(events)
    for command in (
        bids(bid(1, 50), pass_(2), pass_(3)),
        bids(pass_(1), pass_(2), pass_(3)),  # seat 1 cannot pay 50: restart, cap 10
        bids(pass_(1), bid(2, 100), pass_(3)),
        bids(pass_(1), pass_(2), pass_(3)),  # seat 2 cannot pay 100: restart, caps 10 and 50
    ):
        s, out = run(s, command)
        log += out
    assert out[-3:-1] == [
        ev.OverbidRevealed(auction=1, seat=2, bid=100, money=(50, 0)),
        ev.AuctionRestarted(auction=1, attempt=2, caps=((1, 10), (2, 50))),
    ]
    assert pending(s).caps == ((1, 10), (2, 50))
    for seat in range(4):
        players = observe(log, seat).players
        assert players[1].revealed_money == (10,)
        assert players[2].revealed_money == (50, 0)
        assert players[3].revealed_money is None
