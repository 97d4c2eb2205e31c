"""Trade challenge rules (DESIGN §3 "Trade challenge"): accept, counter, how many animals
move, ties and the third tie, and what each seat may see."""

from __future__ import annotations

import pytest
from enginekit import config, position, run, state_of

from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.rules import pending
from events.cattle import game as ev
from projections.cattle.observation import observe

START = (50, 10, 10, 10, 10, 0, 0)


def trade_state(cows0: int = 2, cows1: int = 2, **kw):
    """Seat 0 to play; it and seat 1 hold cows, seat 2 a cat; the deck holds a dog."""
    animals = {0: ("cow",) * cows0, 1: ("cow",) * cows1, 2: ("cat",)}
    s = state_of(position(config(), animals=animals, deck=("dog",), **kw))
    s, out = run(s, act.ChooseTurn(seat=0, choice="trade"))
    assert out == [ev.TurnChosen(seat=0, choice="trade", forced=False)]
    return s


def initiate(s, cards=(10, 10), target=1, animal="cow"):
    return run(s, act.InitiateTrade(seat=0, target=target, animal=animal, cards=cards))


def test_initiation_shows_the_number_of_cards_and_hides_their_values() -> None:
    s = trade_state()
    assert pending(s) == dec.TradeDecision(seats=(0,), targets=((1, "cow"),))
    s, out = initiate(s, cards=(10, 0))
    assert out == [
        ev.TradeInitiated(trade=1, initiator=0, target=1, animal="cow", n_cards=2),
        ev.OfferCards(trade=1, seat=0, cards=(10, 0), role="offer"),
    ]
    assert out[0].audience() is None
    assert out[1].audience() == (0,)
    assert pending(s) == dec.ResponseDecision(
        seats=(1,), trade=1, initiator=0, animal="cow", n_cards=2, count=2
    )


def test_accept_takes_the_offer_unseen_and_gives_up_the_animals() -> None:
    s = trade_state()
    s, _ = initiate(s)
    s, out = run(s, act.AcceptTrade(seat=1))
    assert out[:7] == [
        ev.TradeAccepted(trade=1, target=1),
        ev.OffersRevealed(
            trade=1, initiator=0, target=1, initiator_cards=(10, 10), target_cards=()
        ),
        ev.OffersExchanged(trade=1, initiator=0, target=1, initiator_n=2, target_n=0),
        ev.TradeWon(trade=1, winner=0, loser=1, animal="cow", count=2, reason="accepted"),
        ev.AnimalMoved(animal="cow", count=2, giver=1, receiver=0),
        ev.SetCompleted(seat=0, animal="cow"),
        ev.TurnStarted(turn=2, seat=1, deck_left=1),
    ]
    assert s.money[0] == (50, 10, 10, 0, 0)
    assert s.money[1] == (50, 10, 10, 10, 10, 10, 10, 0, 0)
    assert s.count(0, "cow") == 4 and s.count(1, "cow") == 0
    assert s.sets[0] == ("cow",)


def test_counter_reveals_both_offers_to_the_traders_and_the_higher_wins() -> None:
    s = trade_state()
    s, _ = initiate(s)
    s, out = run(s, act.CounterTrade(seat=1, cards=(50,)))
    assert out[:7] == [
        ev.TradeCountered(trade=1, target=1, n_cards=1),
        ev.OfferCards(trade=1, seat=1, cards=(50,), role="counter"),
        ev.OffersRevealed(
            trade=1, initiator=0, target=1, initiator_cards=(10, 10), target_cards=(50,)
        ),
        ev.OffersExchanged(trade=1, initiator=0, target=1, initiator_n=2, target_n=1),
        ev.TradeWon(trade=1, winner=1, loser=0, animal="cow", count=2, reason="higher_offer"),
        ev.AnimalMoved(animal="cow", count=2, giver=0, receiver=1),
        ev.SetCompleted(seat=1, animal="cow"),
    ]
    # each trader received the other's cards
    assert s.money[0] == (50, 50, 10, 10, 0, 0)
    assert s.money[1] == (10, 10, 10, 10, 10, 10, 0, 0)
    # the offers' values reach the two traders only
    events = [*position(config(), animals={0: ("cow",) * 2, 1: ("cow",) * 2}), *out]
    assert out[2].audience() == (0, 1)
    for e in observe(events, 2, recent=100).recent:
        assert not isinstance(e, ev.OffersRevealed | ev.OfferCards)


def test_initiator_wins_with_the_higher_offer() -> None:
    s = trade_state()
    s, _ = initiate(s, cards=(50,))
    s, out = run(s, act.CounterTrade(seat=1, cards=(10, 10, 10)))
    assert out[4] == ev.TradeWon(
        trade=1, winner=0, loser=1, animal="cow", count=2, reason="higher_offer"
    )


@pytest.mark.parametrize(
    ("cows0", "cows1", "count"),
    [(2, 2, 2), (2, 1, 1), (1, 2, 1), (1, 1, 1), (3, 1, 1), (1, 3, 1)],
)
def test_two_animals_move_only_when_both_hold_two_or_more(cows0, cows1, count) -> None:
    s = trade_state(cows0, cows1)
    s, _ = initiate(s)
    assert pending(s).count == count
    s, out = run(s, act.AcceptTrade(seat=1))
    won = next(e for e in out if isinstance(e, ev.TradeWon))
    assert won.count == count
    assert ev.AnimalMoved(animal="cow", count=count, giver=1, receiver=0) in out
    assert s.count(0, "cow") == cows0 + count
    assert s.count(1, "cow") == cows1 - count
    assert (ev.SetCompleted(seat=0, animal="cow") in out) == (cows0 + count == 4)


def tie_state():
    """Seat 1 holds 50 and five 10s; the first offers of both traders tie at 10."""
    s = trade_state(money={0: START, 1: (50, 10, 10, 10, 10, 10, 0)})
    s, _ = initiate(s, cards=(10,))
    s, out = run(s, act.CounterTrade(seat=1, cards=(10,)))
    return s, out


def test_a_tie_returns_the_cards_and_asks_both_for_new_offers() -> None:
    s, out = tie_state()
    assert out == [
        ev.TradeCountered(trade=1, target=1, n_cards=1),
        ev.OfferCards(trade=1, seat=1, cards=(10,), role="counter"),
        ev.OffersRevealed(
            trade=1, initiator=0, target=1, initiator_cards=(10,), target_cards=(10,)
        ),
        ev.TradeTied(trade=1, ties=1),
    ]
    assert s.money[0] == START  # both took their cards back
    assert pending(s) == dec.TieDecision(
        seats=(0,),
        trade=1,
        initiator=0,
        target=1,
        animal="cow",
        ties=1,
        role="initiator",
        previous=10,
    )
    s, out = run(s, act.OfferAgain(seat=0, cards=(50,)))
    assert out == [
        ev.OfferCards(trade=1, seat=0, cards=(50,), role="tie"),
        ev.TieOfferMade(trade=1, seat=0, n_cards=1),
    ]
    d = pending(s)
    assert d.seats == (1,) and d.role == "target"
    s, out = run(s, act.OfferAgain(seat=1, cards=(10,)))
    assert out[:5] == [
        ev.OfferCards(trade=1, seat=1, cards=(10,), role="tie"),
        ev.TieOfferMade(trade=1, seat=1, n_cards=1),
        ev.OffersRevealed(
            trade=1, initiator=0, target=1, initiator_cards=(50,), target_cards=(10,)
        ),
        ev.OffersExchanged(trade=1, initiator=0, target=1, initiator_n=1, target_n=1),
        ev.TradeWon(trade=1, winner=0, loser=1, animal="cow", count=2, reason="higher_offer"),
    ]


def test_third_tie_in_a_row_goes_to_the_initiator_and_the_third_offers_are_exchanged() -> None:
    s, _ = tie_state()
    s, _ = run(s, act.OfferAgain(seat=0, cards=(10, 10)))
    s, out = run(s, act.OfferAgain(seat=1, cards=(10, 10)))
    assert out[-1] == ev.TradeTied(trade=1, ties=2)
    assert pending(s).ties == 2
    s, _ = run(s, act.OfferAgain(seat=0, cards=(50,)))
    s, out = run(s, act.OfferAgain(seat=1, cards=(10, 10, 10, 10, 10)))
    assert out[:7] == [
        ev.OfferCards(trade=1, seat=1, cards=(10, 10, 10, 10, 10), role="tie"),
        ev.TieOfferMade(trade=1, seat=1, n_cards=5),
        ev.OffersRevealed(
            trade=1,
            initiator=0,
            target=1,
            initiator_cards=(50,),
            target_cards=(10, 10, 10, 10, 10),
        ),
        ev.OffersExchanged(trade=1, initiator=0, target=1, initiator_n=1, target_n=5),
        ev.TradeWon(trade=1, winner=0, loser=1, animal="cow", count=2, reason="third_tie"),
        ev.AnimalMoved(animal="cow", count=2, giver=1, receiver=0),
        ev.SetCompleted(seat=0, animal="cow"),
    ]
    assert s.money[0] == (10, 10, 10, 10, 10, 10, 10, 10, 10, 0, 0)
    assert s.money[1] == (50, 50, 0)


def test_empty_and_zero_offers_are_allowed() -> None:
    s = trade_state()
    s, out = initiate(s, cards=())
    assert out[0].n_cards == 0
    s, out = run(s, act.CounterTrade(seat=1, cards=(0, 0)))
    assert out[2] == ev.OffersRevealed(
        trade=1, initiator=0, target=1, initiator_cards=(), target_cards=(0, 0)
    )
    assert out[3] == ev.TradeTied(trade=1, ties=1)
