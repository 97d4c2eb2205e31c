"""Bad agent input (DESIGN §3 "Bad agent input"): every correction is an ActionRejected
followed by a FallbackApplied; commands that answer no pending decision raise IllegalAction."""

from __future__ import annotations

import pytest
from enginekit import auction_position, bids, config, position, run, start, state_of

from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.rules import IllegalAction, decide, pending, step
from events.cattle import game as ev

HAND = "[50, 10, 10, 10, 10, 0, 0]"


def rejected(seat, decision, reason, raw, retry=False):
    return ev.ActionRejected(
        seat=seat, decision=decision, reason=reason, raw=act.action_json(raw), retry=retry
    )


def fallback(seat, decision, action, reason):
    return ev.FallbackApplied(
        seat=seat, decision=decision, action=act.action_json(action), reason=reason
    )


def auction():
    return state_of(auction_position(config(), animal="cat", deck=("dog",)))


# ----------------------------------------------------------------------------- bids


def test_bid_not_a_multiple_of_ten_is_rounded_down() -> None:
    s = auction()
    raw = act.PlaceBid(seat=1, amount=25)
    s, out = run(s, bids(raw, act.Pass(seat=2)))
    assert out[:4] == [
        rejected(1, "bid", "not a multiple of 10: rounded down to 20", raw),
        fallback(1, "bid", act.PlaceBid(seat=1, amount=20), "bid corrected"),
        ev.BidPlaced(auction=1, round=0, seat=1, amount=20),
        ev.BidPassed(auction=1, round=0, seat=2),
    ]
    assert out[0].audience() == (1,) and out[1].audience() == (1,)


def test_bid_below_the_minimum_is_raised_to_it() -> None:
    s = auction()
    s, _ = run(s, bids(act.PlaceBid(seat=1, amount=30), act.Pass(seat=2)))
    raw = act.PlaceBid(seat=2, amount=10)
    s, out = run(s, bids(act.Pass(seat=1), raw))
    assert out[1:4] == [
        rejected(2, "bid", "below the minimum bid: raised to 40", raw),
        fallback(2, "bid", act.PlaceBid(seat=2, amount=40), "bid corrected"),
        ev.BidPlaced(auction=1, round=1, seat=2, amount=40),
    ]
    # both corrections at once: 35 rounds down to 30, then rises to the minimum 50
    raw = act.PlaceBid(seat=1, amount=35)
    s, out = run(s, bids(raw, act.Pass(seat=2)))
    assert out[:3] == [
        rejected(
            1,
            "bid",
            "not a multiple of 10: rounded down to 30; below the minimum bid: raised to 50",
            raw,
        ),
        fallback(1, "bid", act.PlaceBid(seat=1, amount=50), "bid corrected"),
        ev.BidPlaced(auction=1, round=2, seat=1, amount=50),
    ]


@pytest.mark.parametrize("amount", [0, -10, -7])
def test_non_positive_bid_is_a_pass(amount: int) -> None:
    s = auction()
    raw = act.PlaceBid(seat=1, amount=amount)
    s, out = run(s, bids(raw, act.Pass(seat=2)))
    assert out[:4] == [
        rejected(1, "bid", f"bid must be positive, got {amount}", raw),
        fallback(1, "bid", act.Pass(seat=1), "non-positive bid treated as a pass"),
        ev.BidPassed(auction=1, round=0, seat=1),
        ev.BidPassed(auction=1, round=0, seat=2),
    ]
    assert pending(s).confirmation is True


def test_a_valid_bid_is_recorded_without_rejection() -> None:
    s = auction()
    _, out = run(s, bids(act.PlaceBid(seat=1, amount=10), act.PlaceBid(seat=2, amount=500)))
    assert not any(isinstance(e, ev.ActionRejected | ev.FallbackApplied) for e in out)
    assert out[2] == ev.BidRoundClosed(auction=1, round=0, leader=2, price=500)  # an overbid


# ----------------------------------------------------------------------------- trades


def trade(**kw):
    animals = kw.pop("animals", {0: ("cat", "cow"), 1: ("cow",), 2: ("cat", "dog")})
    s = state_of(position(config(), animals=animals, deck=("dog",), **kw))
    s, _ = run(s, act.ChooseTurn(seat=0, choice="trade"))
    assert pending(s) == dec.TradeDecision(seats=(0,), targets=((1, "cow"), (2, "cat")))
    return s


def test_offer_cards_not_in_hand_get_one_retry_then_the_cards_held() -> None:
    s = trade()
    first = act.InitiateTrade(seat=0, target=1, animal="cow", cards=(100,))
    s, out = run(s, first)
    assert out == [
        rejected(0, "initiate_trade", f"cards [100] are not all in hand {HAND}", first, True)
    ]
    assert pending(s) == dec.TradeDecision(seats=(0,), targets=((1, "cow"), (2, "cat")))
    again = act.InitiateTrade(seat=0, target=1, animal="cow", cards=(100, 50, 10, 7))
    s, out = run(s, again)
    held = act.InitiateTrade(seat=0, target=1, animal="cow", cards=(50, 10))
    assert out == [
        rejected(0, "initiate_trade", f"cards [100, 50, 10, 7] are not all in hand {HAND}", again),
        fallback(0, "initiate_trade", held, "cards held"),
        ev.TradeInitiated(trade=1, initiator=0, target=1, animal="cow", n_cards=2),
        ev.OfferCards(trade=1, seat=0, cards=(50, 10), role="offer"),
    ]


def test_a_correct_retry_is_taken_as_is() -> None:
    s = trade()
    s, _ = run(s, act.InitiateTrade(seat=0, target=1, animal="cow", cards=(10, 10, 10, 10, 10)))
    s, out = run(s, act.InitiateTrade(seat=0, target=2, animal="cat", cards=(10, 0)))
    assert out == [
        ev.TradeInitiated(trade=1, initiator=0, target=2, animal="cat", n_cards=2),
        ev.OfferCards(trade=1, seat=0, cards=(10, 0), role="offer"),
    ]


def test_invalid_target_falls_back_to_the_first_valid_pair() -> None:
    s = trade()
    for target, animal in ((2, "cow"), (0, "cat"), (1, "horse"), (7, "cat")):
        raw = act.InitiateTrade(seat=0, target=target, animal=animal, cards=(10,))
        _, out = run(s, raw)
        fixed = act.InitiateTrade(seat=0, target=1, animal="cow", cards=(10,))
        assert out == [
            rejected(
                0, "initiate_trade", f"player {target} is not a valid target for {animal}", raw
            ),
            fallback(0, "initiate_trade", fixed, "first valid target"),
            ev.TradeInitiated(trade=1, initiator=0, target=1, animal="cow", n_cards=1),
            ev.OfferCards(trade=1, seat=0, cards=(10,), role="offer"),
        ]


def test_invalid_target_and_cards_not_in_hand_together() -> None:
    s = trade()
    raw = act.InitiateTrade(seat=0, target=2, animal="dog", cards=(200,))
    s, out = run(s, raw)
    reason = f"cards [200] are not all in hand {HAND}; player 2 is not a valid target for dog"
    assert out == [rejected(0, "initiate_trade", reason, raw, True)]
    s, out = run(s, raw)
    assert out[:2] == [
        rejected(0, "initiate_trade", reason, raw),
        fallback(
            0,
            "initiate_trade",
            act.InitiateTrade(seat=0, target=1, animal="cow", cards=()),
            "first valid target; cards held",
        ),
    ]
    assert out[2] == ev.TradeInitiated(trade=1, initiator=0, target=1, animal="cow", n_cards=0)


def test_counter_and_tie_offers_with_cards_not_in_hand() -> None:
    s = trade()
    s, _ = run(s, act.InitiateTrade(seat=0, target=1, animal="cow", cards=(10,)))
    bad = act.CounterTrade(seat=1, cards=(500, 10))
    s, out = run(s, bad)
    assert out == [
        rejected(1, "respond_trade", f"cards [500, 10] are not all in hand {HAND}", bad, True)
    ]
    assert pending(s).seats == (1,)
    s, out = run(s, bad)
    assert out[:4] == [
        rejected(1, "respond_trade", f"cards [500, 10] are not all in hand {HAND}", bad),
        fallback(1, "respond_trade", act.CounterTrade(seat=1, cards=(10,)), "cards held"),
        ev.TradeCountered(trade=1, target=1, n_cards=1),
        ev.OfferCards(trade=1, seat=1, cards=(10,), role="counter"),
    ]
    assert out[-1] == ev.TradeTied(trade=1, ties=1)
    bad = act.OfferAgain(seat=0, cards=(10, 10, 10, 10, 10))
    s, out = run(s, bad)
    reason = f"cards [10, 10, 10, 10, 10] are not all in hand {HAND}"
    assert out == [rejected(0, "tie_offer", reason, bad, True)]
    s, out = run(s, bad)
    assert out == [
        rejected(0, "tie_offer", reason, bad),
        fallback(0, "tie_offer", act.OfferAgain(seat=0, cards=(10, 10, 10, 10)), "cards held"),
        ev.OfferCards(trade=1, seat=0, cards=(10, 10, 10, 10), role="tie"),
        ev.TieOfferMade(trade=1, seat=0, n_cards=4),
    ]


# ----------------------------------------------------------------------------- illegal commands


def test_wrong_seat_or_wrong_kind_raises_illegal_action() -> None:
    s = trade()  # seat 0 must initiate a trade
    with pytest.raises(IllegalAction, match="seat 1 is not asked"):
        step(s, act.InitiateTrade(seat=1, target=0, animal="cow", cards=()))
    with pytest.raises(IllegalAction, match="expected initiate_trade"):
        step(s, act.PlaceBid(seat=0, amount=10))
    with pytest.raises(IllegalAction):
        step(s, bids(act.Pass(seat=0)))
    a = auction()
    with pytest.raises(IllegalAction):  # the auctioneer does not bid
        step(a, bids(act.PlaceBid(seat=0, amount=10), act.Pass(seat=1), act.Pass(seat=2)))
    with pytest.raises(IllegalAction):  # one action from each asked bidder
        step(a, bids(act.Pass(seat=1)))
    with pytest.raises(IllegalAction):
        step(a, act.ChooseTurn(seat=1, choice="auction"))
    with pytest.raises(IllegalAction, match="already started"):
        step(a, act.StartGame(seed=1, seats=(), config=config()))
    turn = state_of(position(config(), animals={0: ("cat",), 1: ("cat",)}, deck=("dog",)))
    with pytest.raises(IllegalAction, match="expected choose_turn"):
        step(turn, act.AcceptTrade(seat=0))
    with pytest.raises(IllegalAction):
        step(turn, act.ChooseTurn(seat=2, choice="auction"))


def test_wrong_number_of_seats_at_start_raises() -> None:
    _, out = start(config())
    assert out[0].config.players == 3
    from engine.cattle.state import initial_state

    with pytest.raises(IllegalAction):
        step(initial_state(config()), act.StartGame(seed=1, seats=(), config=config()))


def test_decide_returns_the_events_of_step() -> None:
    s = auction()
    command = bids(act.PlaceBid(seat=1, amount=15), act.Pass(seat=2))
    assert list(decide(s, command)) == step(s, command)[1]
