"""Bounds of the rules (rules 1.1.0, docs/bounds.md): a standing bidder cannot outbid itself
with a bid that is no raise, an auction has a cap on bid rounds, and a game a cap on decision
points; games recorded by rules 1.0.0 still play by those rules."""

from __future__ import annotations

from enginekit import auction_position, bids, config, drive, of_type, run, start, state_of

from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.rules import (
    DECISIONS_PER_TURN,
    ENGINE_VERSION,
    bid_round_cap,
    max_decisions,
    money_in_play,
    pending,
)
from engine.cattle.state import VERSIONS, GameState
from events.cattle import game as ev


def canonical(version: str = "test", **kw) -> GameState:
    """Seat 0 auctions a cat to seats 1 and 2 (priority 1, 2)."""
    cfg = kw.pop("cfg", None) or config()
    return state_of(auction_position(cfg, animal="cat", deck=("dog",), version=version, **kw))


def bid(seat: int, amount: int) -> act.PlaceBid:
    return act.PlaceBid(seat=seat, amount=amount)


def pass_(seat: int) -> act.Pass:
    return act.Pass(seat=seat)


def test_the_current_rules_are_the_newest_version() -> None:
    assert ENGINE_VERSION == VERSIONS[-1] == "1.1.0"
    _, events = start(config())
    assert events[0].engine_version == "1.1.0"


# ------------------------------------------------------------------ the standing bid stands


def test_a_standing_bidders_bid_that_is_no_raise_keeps_its_bid() -> None:
    s = canonical()
    s, _ = run(s, bids(bid(1, 20), pass_(2)))
    assert pending(s).leader == 1
    s, out = run(s, bids(bid(1, 10), pass_(2)))
    assert of_type(out, ev.ActionRejected) == [
        ev.ActionRejected(
            seat=1,
            decision="bid",
            reason="10 does not raise the standing bid 20: it stands",
            raw='{"kind":"bid","seat":1,"amount":10}',
            retry=False,
        )
    ]
    assert of_type(out, ev.FallbackApplied)[0].reason == "standing bid kept"
    assert not of_type(out, ev.BidPlaced)
    # Nobody raised: the auction ends on the standing bid of 20.
    assert of_type(out, ev.AuctionWon) == [ev.AuctionWon(auction=1, winner=1, price=20)]


def test_the_same_bid_again_from_the_leader_also_stands() -> None:
    s = canonical()
    s, _ = run(s, bids(bid(1, 30), pass_(2)))
    s, out = run(s, bids(bid(1, 30), pass_(2)))
    assert of_type(out, ev.AuctionWon) == [ev.AuctionWon(auction=1, winner=1, price=30)]


def test_a_bid_below_the_minimum_from_another_seat_is_still_raised() -> None:
    s = canonical()
    s, _ = run(s, bids(bid(1, 20), pass_(2)))
    s, out = run(s, bids(pass_(1), bid(2, 10)))
    assert of_type(out, ev.BidPlaced) == [ev.BidPlaced(auction=1, round=1, seat=2, amount=30)]


def test_rules_1_0_0_still_let_the_leader_outbid_itself() -> None:
    """A log recorded by rules 1.0.0 replays by them: the old clamp for the leader."""
    s = canonical(version="1.0.0")
    assert s.rules == 0
    s, _ = run(s, bids(bid(1, 20), pass_(2)))
    s, out = run(s, bids(bid(1, 10), pass_(2)))
    assert of_type(out, ev.BidPlaced) == [ev.BidPlaced(auction=1, round=1, seat=1, amount=30)]
    assert not of_type(out, ev.AuctionWon)


def test_a_leader_answering_the_same_low_bid_forever_ends_the_auction_in_two_rounds() -> None:
    """The runaway of issue 22: the only bidder keeps answering 10 while it leads."""
    cfg = config(players=2)
    s = state_of(auction_position(cfg, animal="cat", deck=("dog",)))
    rounds = 0
    while isinstance(pending(s), dec.BidDecision):
        s, _ = run(s, bid(1, 10))
        rounds += 1
    assert rounds == 2
    assert isinstance(pending(s), dec.SaleDecision)


# ------------------------------------------------------------------ the cap on bid rounds


def test_the_cap_on_bid_rounds_follows_the_money_in_play() -> None:
    s = canonical()
    assert money_in_play(s) == 3 * 90
    assert bid_round_cap(s) == 270 // 10 + 2


def test_raising_by_the_minimum_forever_stops_at_the_cap() -> None:
    s = canonical()
    cap = bid_round_cap(s)
    rounds = 0
    out: list = []
    while isinstance(d := pending(s), dec.BidDecision) and d.auction == 1 and rounds < 10 * cap:
        seat = 1 if d.leader != 1 else 2
        other = 2 if seat == 1 else 1
        s, events = run(
            s, bids(*sorted([bid(seat, d.min_bid), pass_(other)], key=lambda a: a.seat))
        )
        out += events
        rounds += 1
    capped = of_type(out, ev.BidRoundsCapped)
    assert capped and capped[0].rounds == cap
    # The first attempt ran exactly `cap` rounds; its price then exceeds all the money in
    # play, so the leader cannot pay and its money is revealed.
    first = out.index(capped[0])
    assert len(of_type(out[:first], ev.BidRoundClosed)) == cap
    assert capped[0].price == 10 * cap > money_in_play(s)
    assert of_type(out[first:], ev.OverbidRevealed)
    assert rounds < 10 * cap  # the auction ended


def test_a_capped_auction_replays_to_the_same_events() -> None:
    """BidRoundsCapped is an ordinary event: folding the log gives the state the rules had."""
    from engine.cattle.state import fold

    events = auction_position(config(), animal="cat", deck=("dog",))
    s = state_of(events)
    while isinstance(d := pending(s), dec.BidDecision) and d.auction == 1:
        seat = 1 if d.leader != 1 else 2
        other = 2 if seat == 1 else 1
        s, out = run(s, bids(*sorted([bid(seat, d.min_bid), pass_(other)], key=lambda a: a.seat)))
        events += out
    assert any(isinstance(e, ev.BidRoundsCapped) for e in events)
    assert fold(events) == s


# ------------------------------------------------------------------ the cap on decisions


def test_the_decision_allowance_is_per_turn_of_the_turn_cap() -> None:
    assert max_decisions(config(max_turns=3)) == 3 * DECISIONS_PER_TURN


def raiser(state: GameState, d: dec.AnyDecision) -> act.Command:
    """Always auction, always raise by the minimum (every asked seat), always sell."""
    match d:
        case dec.TurnDecision():
            return act.ChooseTurn(seat=d.seats[0], choice="auction")
        case dec.BidDecision():
            acts = [act.PlaceBid(seat=s, amount=d.min_bid) for s in d.seats]
            return acts[0] if len(acts) == 1 else act.Simultaneous(actions=tuple(acts))
        case dec.SaleDecision():
            return act.ChooseSale(seat=d.seats[0], decision="sell")
    raise AssertionError(d)


def test_the_turn_cap_is_honoured_at_the_next_decision_not_the_next_turn() -> None:
    """With rich seats an auction's round cap is far above the allowance of one turn: the
    game ends in the middle of the first auction, at the first decision past it."""
    cfg = config(max_turns=1, start_money=(500, 500, 500, 500))
    s, _ = start(cfg)
    assert bid_round_cap(s) > 2 * DECISIONS_PER_TURN
    s, out = drive(s, raiser)
    end = of_type(out, ev.GameEnded)
    assert [e.reason for e in end] == ["max_decisions"]
    assert s.turn == 1
    assert len(of_type(out, ev.BidRoundClosed)) == DECISIONS_PER_TURN - 1  # one was the turn
    assert s.decisions == DECISIONS_PER_TURN + 1


def test_rules_1_0_0_know_no_decision_allowance() -> None:
    cfg = config(max_turns=1, start_money=(500, 500, 500, 500))
    s = state_of(auction_position(cfg, animal="cat", deck=("dog",), version="1.0.0"))
    for _ in range(3 * DECISIONS_PER_TURN):
        d = pending(s)
        assert isinstance(d, dec.BidDecision)
        s, _ = run(s, raiser(s, d))
    assert s.phase == "bidding"


def test_the_timeline_and_the_history_say_why_an_auction_or_game_ended() -> None:
    from projections.cattle.history import turn_lines
    from projections.cattle.timeline import describe

    capped = ev.BidRoundsCapped(auction=3, rounds=29, leader=2, price=280)
    assert describe(capped) == (
        "Auction #3 reached its cap of 29 bid rounds: it ends on the standing bid, 280 by Player 2"
    )
    end = ev.GameEnded(reason="max_decisions", turns=1, scores=(0, 0), ranks=(1, 1), sets=((), ()))
    assert "decision limit reached" in describe(end)
    lines = turn_lines(
        [
            ev.TurnStarted(turn=1, seat=0, deck_left=3),
            ev.CardDrawn(seat=0, animal="cat", deck_left=2),
            ev.AuctionOpened(auction=3, auctioneer=0, animal="cat", priority=(1, 2)),
            capped,
        ],
        1,
    )
    assert "the cat auction reached its cap of 29 bid rounds" in lines[0]


def test_a_rules_1_0_0_log_beyond_todays_allowance_still_replays() -> None:
    """A stored game of rules 1.0.0 with more decisions than `max_turns` x 50 (the runaway
    itself) replays and verifies: the allowance and the driver's game bound are 1.1.0's."""
    from agents.base import Agent
    from runner.driver import MAX_DECISIONS, Game
    from runner.replay import verify

    class Raiser(Agent):
        """Raises by the minimum whenever asked to bid (the runaway seat)."""

        spec = "random"

        def act(self, view: object, decision: dec.AnyDecision) -> act.Command:
            if isinstance(decision, dec.BidDecision):
                if self.seat == 1 and decision.round >= 3 * DECISIONS_PER_TURN:
                    return act.Pass(seat=1)
                return act.PlaceBid(seat=self.seat, amount=decision.min_bid)
            return raiser(None, decision)  # type: ignore[arg-type]

    cfg = config(players=2, max_turns=1, start_money=(500, 500, 500, 500, 500))
    game = Game(cfg, 3, [Raiser(0, 3, cfg), Raiser(1, 3, cfg)], version="1.0.0")
    assert game.limit == MAX_DECISIONS
    record = game.run()
    assert record.events[0].engine_version == "1.0.0"
    assert game.decisions > max_decisions(cfg)
    # The seats are scripted under the name random: their moves are answered from the log.
    assert verify(record.events, rerun=False).ok
