"""Turn rules (DESIGN §3 "Turn", "Components"): set-up, turn order, forced choices, valid
targets, donkey payouts, game end and scoring."""

from __future__ import annotations

import pytest
from enginekit import (
    START,
    auction_position,
    config,
    drive,
    of_type,
    passes,
    position,
    run,
    seats,
    start,
    state_of,
)

from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.rules import pending
from engine.cattle.state import fold
from engine.chance import chance
from events.cattle import game as ev
from events.cattle.domain import ANIMAL_VALUES, GameConfig, score_of
from events.config import ConfigError
from projections.cattle.observation import observe
from runner.session import play_game

# ----------------------------------------------------------------------------- set-up


def test_start_shuffles_from_the_seed_and_deals_from_the_top() -> None:
    cfg = config(starting_animals=2)
    s, out = start(cfg, seed=5)
    deck = [a for a in cfg.animals for _ in range(cfg.set_size)]
    chance(5, "deck").shuffle(deck)
    assert out[0] == ev.GameStarted(
        seed=5, config=cfg, seats=seats(3), engine_version=out[0].engine_version
    )
    assert out[1] == ev.DeckShuffled(order=tuple(deck))
    assert out[1].audience() == ()
    hands = ((deck[0], deck[3]), (deck[1], deck[4]), (deck[2], deck[5]))
    assert out[2] == ev.HandsDealt(money=START, animals=hands, deck_left=len(deck) - 6)
    assert out[3] == ev.TurnStarted(turn=1, seat=0, deck_left=len(deck) - 6)
    assert s.money == (START,) * 3
    assert sum(s.wealth(p) for p in range(3)) == 270


def test_same_seed_same_events_and_another_seed_another_deck() -> None:
    cfg = config()
    assert start(cfg, seed=3)[1] == start(cfg, seed=3)[1]
    assert start(cfg, seed=3)[1][1] != start(cfg, seed=4)[1][1]


def test_seats_play_in_order_from_seat_zero() -> None:
    cfg = config(max_turns=9, animals=("cat", "dog", "cow"))
    _, out = drive(start(cfg)[0])
    turns = of_type(out, ev.TurnStarted)
    assert [(t.turn, t.seat) for t in turns] == [(n, (n - 1) % 3) for n in range(2, 10)]


# ----------------------------------------------------------------------------- forced choices


def free_card_to_seat0(animals, deck, players=3):
    """Seat 0 auctions the top card, nobody bids, seat 0 takes it; the next turn follows."""
    cfg = config(players=players, set_size=2, animals=("cat", "dog"))
    s = state_of(auction_position(cfg, animal=deck[0], deck=deck[1:], animals=animals))
    s, _ = run(s, passes(s))
    return run(s, passes(s))


def test_with_an_empty_deck_a_player_must_trade() -> None:
    s, out = free_card_to_seat0({0: ("dog",), 1: ("cat",), 2: ("cat",)}, ("dog",))
    assert out[-4:] == [
        ev.AnimalMoved(animal="dog", count=1, giver=None, receiver=0),
        ev.SetCompleted(seat=0, animal="dog"),
        ev.TurnStarted(turn=2, seat=1, deck_left=0),
        ev.TurnChosen(seat=1, choice="trade", forced=True),
    ]
    assert pending(s) == dec.TradeDecision(seats=(1,), targets=((2, "cat"),))


def test_without_a_target_a_player_must_auction() -> None:
    s, out = free_card_to_seat0({0: ("cat",), 2: ("cat",)}, ("dog", "dog"))
    i = out.index(ev.TurnStarted(turn=2, seat=1, deck_left=1))
    assert out[i + 1 : i + 3] == [
        ev.TurnChosen(seat=1, choice="auction", forced=True),
        ev.CardDrawn(seat=1, animal="dog", deck_left=0),
    ]
    assert isinstance(out[i + 3], ev.AuctionOpened)
    assert out[i + 3].auctioneer == 1 and sorted(out[i + 3].priority) == [0, 2]
    assert pending(s).seats == (0, 2)


def test_with_neither_option_the_turn_is_skipped() -> None:
    s, out = free_card_to_seat0({0: ("cat", "dog"), 2: ("cat",)}, ("dog",))
    assert out[-4:] == [
        ev.TurnStarted(turn=2, seat=1, deck_left=0),
        ev.TurnSkipped(seat=1),
        ev.TurnStarted(turn=3, seat=2, deck_left=0),
        ev.TurnChosen(seat=2, choice="trade", forced=True),
    ]
    assert pending(s) == dec.TradeDecision(seats=(2,), targets=((0, "cat"),))


def test_a_free_choice_is_asked_when_both_are_possible() -> None:
    s = state_of(position(config(), animals={0: ("cat",), 1: ("cat",)}, deck=("dog",)))
    assert pending(s) == dec.TurnDecision(seats=(0,), targets=((1, "cat"),))
    _, out = run(s, act.ChooseTurn(seat=0, choice="auction"))
    assert out[:2] == [
        ev.TurnChosen(seat=0, choice="auction", forced=False),
        ev.CardDrawn(seat=0, animal="dog", deck_left=0),
    ]


# ----------------------------------------------------------------------------- valid targets


def test_valid_targets_share_a_type_and_exclude_complete_sets() -> None:
    cfg = config()
    events = position(
        cfg,
        animals={
            0: ("cat", "dog", "dog", "cow", "cow", "cow", "cow"),
            1: ("cat", "donkey"),
            2: ("dog", "cat", "donkey"),
        },
        sets={0: ("cow",)},
        deck=("dog",),
    )
    s = state_of(events)
    assert s.targets(0) == ((1, "cat"), (2, "cat"), (2, "dog"))
    assert s.targets(1) == ((0, "cat"), (2, "cat"), (2, "donkey"))
    assert s.targets(2) == ((0, "cat"), (0, "dog"), (1, "cat"), (1, "donkey"))
    assert pending(s) == dec.TurnDecision(seats=(0,), targets=s.targets(0))
    for seat in range(3):  # the seats' own views agree
        assert observe(events, seat).targets == s.targets(seat)


def test_nobody_can_trade_when_every_type_sits_in_one_hand() -> None:
    cfg = config(players=2, set_size=2, animals=("cat", "dog"))
    s = state_of(
        position(
            cfg, animals={0: ("cat", "cat"), 1: ("dog", "dog")}, sets={0: ("cat",), 1: ("dog",)}
        )
    )
    assert s.targets(0) == () and s.targets(1) == ()
    assert not s.anyone_can_trade()


# ----------------------------------------------------------------------------- donkeys


@pytest.mark.parametrize(
    ("k", "payouts"),
    [(4, None), (2, (100, 200)), (3, (50, 200, 500)), (5, (50, 100, 200, 500, 500))],
)
def test_donkey_payouts_in_order_before_each_donkey_auction(k, payouts) -> None:
    kw = {} if payouts is None else {"payouts": payouts}
    cfg = config(players=2, set_size=k, animals=("donkey",), **kw)
    expected = (50, 100, 200, 500) if payouts is None else payouts
    s, out = start(cfg)
    s, rest = drive(s)
    out += rest
    paid = of_type(out, ev.DonkeyPayout)
    assert [(p.donkey, p.amount) for p in paid] == list(enumerate(expected, 1))
    for p in paid:  # drawn, paid, then auctioned
        i = out.index(p)
        assert isinstance(out[i - 1], ev.CardDrawn) and out[i - 1].animal == "donkey"
        assert isinstance(out[i + 1], ev.AuctionOpened)
    # nothing was bought (the quiet policy never bids): each seat holds start + payouts
    for seat in range(2):
        assert sorted(s.money[seat]) == sorted((*START, *expected))


def test_donkey_payout_goes_to_every_player_including_the_auctioneer() -> None:
    cfg = config(players=3)
    s = state_of(auction_position(cfg, animal="donkey"))
    assert all(50 in s.money[p] for p in range(3))
    assert sum(s.wealth(p) for p in range(3)) == 3 * (90 + 50)


def test_payout_list_must_cover_every_donkey() -> None:
    with pytest.raises(ConfigError):
        GameConfig(set_size=5, animals=("donkey",)).validate()
    GameConfig(set_size=5, animals=("cat",)).validate()  # no donkey, no payouts needed


# ----------------------------------------------------------------------------- game end


def test_game_ends_when_the_deck_is_empty_and_every_type_is_complete() -> None:
    cfg = config(players=2, set_size=2, animals=("cat", "horse"))
    s = state_of(
        auction_position(
            cfg, animal="horse", animals={0: ("cat", "cat"), 1: ("horse",)}, sets={0: ("cat",)}
        )
    )
    s, _ = run(s, act.PlaceBid(seat=1, amount=10), act.Pass(seat=1))
    s, out = run(s, act.ChooseSale(seat=0, decision="sell"))
    assert out == [
        ev.AuctioneerDecided(auction=1, seat=0, decision="sell"),
        ev.PaymentMade(payer=1, payee=0, amount=10, n_cards=1, reason="sale"),
        ev.PaymentCards(payer=1, payee=0, cards=(10,)),
        ev.AnimalMoved(animal="horse", count=1, giver=None, receiver=1),
        ev.SetCompleted(seat=1, animal="horse"),
        ev.GameEnded(
            reason="complete",
            turns=1,
            scores=(90, 1000),
            ranks=(2, 1),
            sets=(("cat",), ("horse",)),
        ),
    ]
    assert pending(s) is None and s.phase == "ended"
    with pytest.raises(Exception, match="not waiting"):
        run(s, act.ChooseTurn(seat=1, choice="auction"))


def test_random_games_end_complete_with_every_set_in_one_hand() -> None:
    cfg = config(players=3, set_size=3, animals=("cat", "dog", "cow"), max_turns=400)
    for seed in range(3):
        out = play_game(cfg, seed, ["random"] * 3).events
        s = fold(out)
        end = out[-1]
        assert end.reason == "complete" and s.deck_left == 0 and not s.anyone_can_trade()
        assert sorted(a for hand in end.sets for a in hand) == sorted(cfg.animals)


@pytest.mark.parametrize("cap", [1, 2, 5])
def test_game_ends_at_max_turns(cap: int) -> None:
    cfg = config(max_turns=cap)
    s, out = start(cfg)
    s, rest = drive(s)
    out += rest
    assert len(of_type(out, ev.TurnStarted)) == cap
    assert out[-1].reason == "max_turns" and out[-1].turns == cap
    assert of_type(out, ev.GameEnded) == [out[-1]]


def test_scores_and_shared_ranks_at_the_end() -> None:
    cfg = config(set_size=2, payouts=(50, 500), max_turns=1)
    events = auction_position(
        cfg,
        animal="cow",
        deck=("cow",),
        animals={1: ("cat", "cat", "dog", "dog"), 2: ("donkey", "donkey")},
        sets={1: ("cat", "dog"), 2: ("donkey",)},
    )
    s = state_of(events)
    s, _ = run(s, passes(s))
    s, out = run(s, passes(s))
    assert out[-1] == ev.GameEnded(
        reason="max_turns",
        turns=1,
        scores=(0, 500, 500),
        ranks=(3, 1, 1),
        sets=((), ("cat", "dog"), ("donkey",)),
    )


def test_score_is_sum_of_set_values_times_number_of_sets() -> None:
    assert score_of(()) == 0
    assert score_of(("cat",)) == 90
    assert score_of(("cat", "dog")) == (90 + 160) * 2
    assert score_of(("chicken", "goose", "horse")) == (10 + 40 + 1000) * 3
    assert score_of(tuple(ANIMAL_VALUES)) == sum(ANIMAL_VALUES.values()) * 10


def test_fold_of_an_empty_log_needs_a_config() -> None:
    with pytest.raises((ValueError, IndexError)):
        fold([])
    assert fold([], config()).phase == "new"
