"""Game state and the fold: `evolve(state, event) -> state`, pure and total over the events.

`evolve` trusts its input: the rules live in `engine.cattle.rules.decide`. The state is a frozen
msgspec Struct; every change is a `replace`, so any earlier state stays valid.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from engine.cattle.money import add, normalize, remove
from events import agent as ae
from events.cattle import game as ev
from events.cattle.domain import GameConfig, score_of
from events.config import SeatSpec

Phase = Literal[
    "new",  # nothing happened yet
    "turn_start",  # between turns: the engine starts the next turn or ends the game
    "choose",  # the active seat chooses auction or trade
    "draw",  # the engine draws the top card
    "payout",  # a donkey was drawn: the engine pays every seat
    "open_auction",  # the engine opens the auction
    "open_round",  # the engine opens the next bid round
    "bidding",  # a bid round is open
    "round_closed",  # a bid round closed: the engine opens the next or ends the auction
    "sale",  # the auctioneer decides sell or buy-right
    "settle",  # the engine settles the auction
    "initiate",  # the active seat names a trade target and offer
    "respond",  # the trade target accepts or counters
    "tie",  # a trader places a new offer after a tie
    "resolve",  # the engine resolves the trade
    "ended",
]


class AuctionState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The auction in progress."""

    number: int
    animal: str
    auctioneer: int
    priority: tuple[int, ...]
    bidders: tuple[int, ...]
    """Seats still taking part (the auctioneer never bids)."""
    round: int = -1
    attempt: int = 0
    attempt_start: int = 0
    """First round of the current attempt (the confirmation rule counts from it)."""
    confirmation: bool = False
    price: int = 0
    leader: int | None = None
    round_had_bid: bool = False
    caps: tuple[tuple[int, int], ...] = ()
    asking: tuple[int, ...] = ()
    """Seats asked in the open round."""
    passes: tuple[int, ...] = ()
    """Legacy mode: seats that passed since the last raise."""
    cursor: int = -1
    """Legacy mode: index in `order` of the seat asked last."""
    order: tuple[int, ...] = ()
    """Legacy mode: bidding order, from the auctioneer's left."""
    decision: str | None = None


class TradeState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The trade challenge in progress."""

    number: int
    initiator: int
    target: int
    animal: str
    offer: tuple[int, ...] = ()
    counter: tuple[int, ...] = ()
    ties: int = 0
    tied_value: int = 0
    """Value both offers had at the last tie."""
    tie_role: Literal["initiator", "target"] = "initiator"


class GameState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Everything the rules need, folded from the events (including engine-only facts)."""

    config: GameConfig
    seed: int = 0
    seats: tuple[SeatSpec, ...] = ()
    deck: tuple[str, ...] = ()
    deck_pos: int = 0
    money: tuple[tuple[int, ...], ...] = ()
    animals: tuple[tuple[int, ...], ...] = ()
    """Per seat, the count of each animal type, indexed like `config.animals`."""
    sets: tuple[tuple[str, ...], ...] = ()
    turn: int = 0
    active: int = -1
    phase: Phase = "new"
    drawn: str | None = None
    donkeys: int = 0
    auctions: int = 0
    trades: int = 0
    auction: AuctionState | None = None
    trade: TradeState | None = None
    attempts: int = 0
    """Rejected tries (with a retry) on the pending decision."""
    end_reason: str | None = None
    rules: int = 0
    """Generation of the rules the game is played by, from its `game_started` (see
    `engine.cattle.rules.RULES_BY_VERSION`): a log is replayed by the rules it was recorded with."""
    decisions: int = 0
    """Decision points opened so far (bid rounds, turn choices, sales, trade steps, retries)."""

    # ---- derived views -------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.config.players

    @property
    def deck_left(self) -> int:
        """Cards still in the deck."""
        return len(self.deck) - self.deck_pos

    def index(self, animal: str) -> int:
        """Position of an animal type in this game's animal list."""
        return self.config.animals.index(animal)

    def count(self, seat: int, animal: str) -> int:
        """How many cards of `animal` a seat holds."""
        return self.animals[seat][self.config.animals.index(animal)]

    def wealth(self, seat: int) -> int:
        """Total value of a seat's money cards."""
        return sum(self.money[seat])

    def targets(self, seat: int) -> tuple[tuple[int, str], ...]:
        """Valid trade targets of a seat: (opponent, animal) pairs, by seat then animal order.

        A pair is valid when both hold at least one card of the type; since a type has only
        k cards, neither can then hold the complete set.
        """
        animals = self.animals
        mine = animals[seat]
        held = [i for i in range(len(mine)) if mine[i]]
        if not held:
            return ()
        names = self.config.animals
        out = []
        for other in range(len(animals)):
            if other != seat:
                theirs = animals[other]
                for i in held:
                    if theirs[i]:
                        out.append((other, names[i]))
        return tuple(out)

    def has_target(self, seat: int) -> bool:
        """True if the seat has a valid trade target (`targets(seat)` is not empty), found
        without listing them."""
        animals = self.animals
        mine = animals[seat]
        for other in range(len(animals)):
            if other != seat:
                theirs = animals[other]
                for i in range(len(mine)):
                    if mine[i] and theirs[i]:
                        return True
        return False

    def anyone_can_trade(self) -> bool:
        """True if some seat has a valid trade target."""
        holders = [0] * len(self.config.animals)
        for hand in self.animals:
            for i, n in enumerate(hand):
                if n:
                    holders[i] += 1
        return any(h >= 2 for h in holders)

    def scores(self) -> tuple[int, ...]:
        """Current score of every seat."""
        return tuple(score_of(s) for s in self.sets)


VERSIONS: tuple[str, ...] = ("1.0.0", "1.1.0")
"""Every rules version this engine plays, oldest first; a version's generation is its index.

1.0.0: the first rules. 1.1.0: a standing bidder's bid that does not raise keeps its standing
bid, an auction has a cap on bid rounds, and a game a cap on decisions (docs/bounds.md)."""


def rules_generation(version: str) -> int:
    """The generation of a rules version (its index in `VERSIONS`); a name this engine does
    not know (hand-made test positions) folds as the current rules."""
    return VERSIONS.index(version) if version in VERSIONS else len(VERSIONS) - 1


def initial_state(config: GameConfig) -> GameState:
    """The state before the first event of a game with this configuration."""
    return GameState(config=config.validate())


def _set_seat(rows: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return (*rows[:seat], value, *rows[seat + 1 :])


def _move_animals(
    state: GameState, animal: str, count: int, giver: int | None, receiver: int
) -> GameState:
    i = state.config.animals.index(animal)
    animals = state.animals
    if giver is not None:
        row = animals[giver]
        animals = _set_seat(animals, giver, (*row[:i], row[i] - count, *row[i + 1 :]))
    row = animals[receiver]
    animals = _set_seat(animals, receiver, (*row[:i], row[i] + count, *row[i + 1 :]))
    return replace(state, animals=animals)


def evolve(s: GameState, e: Any) -> GameState:
    """Apply one event to the state. Pure; assumes the event was produced by the rules."""
    # Agent-side events (model exchanges recorded between a rejection and the retry) must
    # not reset the retry count: only a game event ends the attempt.
    cls = e.__class__
    if s.attempts and cls is not ev.ActionRejected and cls in _GAME_TYPES:
        s = replace(s, attempts=0)
    handler = _EVOLVE.get(cls)
    if handler is not None:
        return handler(s, e)
    if isinstance(e, ev.Event):
        # Agent-side event types (model exchanges, notes, ...) are facts outside the rules.
        return s
    raise TypeError(f"not an event: {e!r}")


# One function per event type, found by the event's exact type (event classes are leaves of
# the union: no event type derives from another).


def _same(s: GameState, e: Any) -> GameState:
    return s


def _bid_passed(s: GameState, e: ev.BidPassed) -> GameState:
    # Only legacy mode tracks who passed since the last raise.
    if s.config.auction_mode != "legacy":
        return s
    a = s.auction
    assert a is not None
    return replace(s, auction=replace(a, passes=(*a.passes, e.seat)))


def _bid_placed(s: GameState, e: ev.BidPlaced) -> GameState:
    if s.config.auction_mode != "legacy":
        return s
    a = s.auction
    assert a is not None
    return replace(s, auction=replace(a, passes=()))


def _round_opened(s: GameState, e: ev.BidRoundOpened) -> GameState:
    a = s.auction
    assert a is not None
    cursor = a.order.index(e.bidders[0]) if len(e.bidders) == 1 else a.cursor
    a = replace(a, round=e.round, confirmation=e.confirmation, asking=e.bidders, cursor=cursor)
    return replace(s, auction=a, phase="bidding", decisions=s.decisions + 1)


def _round_closed(s: GameState, e: ev.BidRoundClosed) -> GameState:
    a = s.auction
    assert a is not None
    # A valid bid always raises the price, so a changed price means the round had one.
    had_bid = e.price != a.price
    a = replace(a, price=e.price, leader=e.leader, asking=(), round_had_bid=had_bid)
    return replace(s, auction=a, phase="round_closed")


def _game_started(s: GameState, e: ev.GameStarted) -> GameState:
    n = e.config.players
    return replace(
        s,
        rules=rules_generation(e.engine_version),
        config=e.config,
        seed=e.seed,
        seats=e.seats,
        money=((),) * n,
        animals=((0,) * len(e.config.animals),) * n,
        sets=((),) * n,
    )


def _deck_shuffled(s: GameState, e: ev.DeckShuffled) -> GameState:
    return replace(s, deck=e.order, deck_pos=0)


def _hands_dealt(s: GameState, e: ev.HandsDealt) -> GameState:
    names = s.config.animals
    animals = tuple(tuple(hand.count(a) for a in names) for hand in e.animals)
    return replace(
        s,
        money=(normalize(e.money),) * s.players,
        animals=animals,
        deck_pos=len(s.deck) - e.deck_left,
        phase="turn_start",
    )


def _turn_started(s: GameState, e: ev.TurnStarted) -> GameState:
    return replace(s, turn=e.turn, active=e.seat, phase="choose", decisions=s.decisions + 1)


def _turn_chosen(s: GameState, e: ev.TurnChosen) -> GameState:
    if e.choice == "auction":
        return replace(s, phase="draw")
    return replace(s, phase="initiate", decisions=s.decisions + 1)


def _turn_skipped(s: GameState, e: ev.TurnSkipped) -> GameState:
    return replace(s, phase="turn_start")


def _card_drawn(s: GameState, e: ev.CardDrawn) -> GameState:
    phase: Phase = "payout" if e.animal == "donkey" else "open_auction"
    return replace(s, deck_pos=s.deck_pos + 1, drawn=e.animal, phase=phase)


def _donkey_payout(s: GameState, e: ev.DonkeyPayout) -> GameState:
    money = tuple(add(hand, (e.amount,)) for hand in s.money)
    return replace(s, money=money, donkeys=e.donkey, phase="open_auction")


def _auction_opened(s: GameState, e: ev.AuctionOpened) -> GameState:
    players = s.players
    auction = AuctionState(
        number=e.auction,
        animal=e.animal,
        auctioneer=e.auctioneer,
        priority=e.priority,
        bidders=tuple(p for p in range(players) if p != e.auctioneer),
        order=tuple((e.auctioneer + i) % players for i in range(1, players)),
    )
    return replace(s, auction=auction, auctions=e.auction, phase="open_round")


def _auction_restarted(s: GameState, e: ev.AuctionRestarted) -> GameState:
    a = s.auction
    assert a is not None
    a = replace(
        a,
        attempt=e.attempt,
        attempt_start=a.round + 1,
        caps=e.caps,
        price=0,
        leader=None,
        passes=(),
        cursor=-1,
    )
    return replace(s, auction=a, phase="open_round")


def _bidder_removed(s: GameState, e: ev.BidderRemoved) -> GameState:
    a = s.auction
    assert a is not None
    a = replace(
        a,
        bidders=tuple(b for b in a.bidders if b != e.seat),
        passes=tuple(b for b in a.passes if b != e.seat),
    )
    return replace(s, auction=a)


def _auction_won(s: GameState, e: ev.AuctionWon) -> GameState:
    return replace(s, phase="sale", decisions=s.decisions + 1)


def _auction_no_bid(s: GameState, e: ev.AuctionNoBid) -> GameState:
    return replace(s, phase="settle")


def _auctioneer_decided(s: GameState, e: ev.AuctioneerDecided) -> GameState:
    a = s.auction
    assert a is not None
    return replace(s, auction=replace(a, decision=e.decision), phase="settle")


def _payment_cards(s: GameState, e: ev.PaymentCards) -> GameState:
    money = _set_seat(s.money, e.payer, remove(s.money[e.payer], e.cards))
    money = _set_seat(money, e.payee, add(money[e.payee], e.cards))
    return replace(s, money=money)


def _animal_moved(s: GameState, e: ev.AnimalMoved) -> GameState:
    # Moving animals is the last step of an auction or a trade: the turn is over.
    s = _move_animals(s, e.animal, e.count, e.giver, e.receiver)
    return replace(s, auction=None, trade=None, drawn=None, phase="turn_start")


def _set_completed(s: GameState, e: ev.SetCompleted) -> GameState:
    return replace(s, sets=_set_seat(s.sets, e.seat, (*s.sets[e.seat], e.animal)))


def _trade_initiated(s: GameState, e: ev.TradeInitiated) -> GameState:
    trade = TradeState(number=e.trade, initiator=e.initiator, target=e.target, animal=e.animal)
    return replace(s, trade=trade, trades=e.trade, phase="respond", decisions=s.decisions + 1)


def _offer_cards(s: GameState, e: ev.OfferCards) -> GameState:
    t = s.trade
    assert t is not None
    if e.seat == t.initiator:
        t = replace(t, offer=e.cards)
    else:
        t = replace(t, counter=e.cards)
    return replace(s, trade=t)


def _to_resolve(s: GameState, e: ev.TradeAccepted | ev.TradeCountered) -> GameState:
    return replace(s, phase="resolve")


def _offers_revealed(s: GameState, e: ev.OffersRevealed) -> GameState:
    t = s.trade
    assert t is not None
    return replace(s, trade=replace(t, tied_value=sum(e.initiator_cards)), phase="resolve")


def _tie_offer_made(s: GameState, e: ev.TieOfferMade) -> GameState:
    t = s.trade
    assert t is not None
    if e.seat == t.initiator:
        return replace(s, trade=replace(t, tie_role="target"))
    return replace(s, phase="resolve")


def _trade_tied(s: GameState, e: ev.TradeTied) -> GameState:
    t = s.trade
    assert t is not None
    t = replace(t, ties=e.ties, offer=(), counter=(), tie_role="initiator")
    # Two decisions follow: the initiator's new offer, then the target's.
    return replace(s, trade=t, phase="tie", decisions=s.decisions + 2)


def _offers_exchanged(s: GameState, e: ev.OffersExchanged) -> GameState:
    t = s.trade
    assert t is not None
    i, g = e.initiator, e.target
    money = _set_seat(s.money, i, add(remove(s.money[i], t.offer), t.counter))
    money = _set_seat(money, g, add(remove(money[g], t.counter), t.offer))
    return replace(s, money=money)


def _action_rejected(s: GameState, e: ev.ActionRejected) -> GameState:
    if e.retry:
        return replace(s, attempts=s.attempts + 1, decisions=s.decisions + 1)
    return s


def _game_ended(s: GameState, e: ev.GameEnded) -> GameState:
    return replace(s, phase="ended", end_reason=e.reason)


_EVOLVE: dict[type, Callable[[GameState, Any], GameState]] = {
    ev.BidPassed: _bid_passed,
    ev.BidPlaced: _bid_placed,
    ev.BidRoundOpened: _round_opened,
    ev.BidRoundClosed: _round_closed,
    ev.GameStarted: _game_started,
    ev.DeckShuffled: _deck_shuffled,
    ev.HandsDealt: _hands_dealt,
    ev.TurnStarted: _turn_started,
    ev.TurnChosen: _turn_chosen,
    ev.TurnSkipped: _turn_skipped,
    ev.CardDrawn: _card_drawn,
    ev.DonkeyPayout: _donkey_payout,
    ev.AuctionOpened: _auction_opened,
    ev.OverbidRevealed: _same,
    ev.AuctionRestarted: _auction_restarted,
    ev.BidderRemoved: _bidder_removed,
    ev.AuctionWon: _auction_won,
    ev.AuctionNoBid: _auction_no_bid,
    ev.AuctioneerDecided: _auctioneer_decided,
    ev.PaymentMade: _same,
    ev.PaymentCards: _payment_cards,
    ev.AnimalMoved: _animal_moved,
    ev.SetCompleted: _set_completed,
    ev.TradeInitiated: _trade_initiated,
    ev.OfferCards: _offer_cards,
    ev.TradeAccepted: _to_resolve,
    ev.TradeCountered: _to_resolve,
    ev.OffersRevealed: _offers_revealed,
    ev.TieOfferMade: _tie_offer_made,
    ev.TradeTied: _trade_tied,
    ev.OffersExchanged: _offers_exchanged,
    ev.TradeWon: _same,
    ev.ActionRejected: _action_rejected,
    ev.FallbackApplied: _same,
    ev.GameEnded: _game_ended,
    ev.BidRoundsCapped: _same,
}
_GAME_TYPES: frozenset[type] = frozenset(ev.GAME_EVENT_TYPES)
GAME_STEPS = _EVOLVE
"""`evolve`'s function for each game event type (what the rules' own fold calls directly)."""


# Events after which the state is the one before (when no retry is being counted): bids and
# passes outside legacy mode (60% of a game's events are bid-round events), payments'
# announcements, fallbacks, and every agent-side event. `fold` and the rules' own fold skip the
# call for them; `evolve` stays the definition, and tests check the two agree.
_UNCHANGED: frozenset[type] = frozenset(
    {
        ev.PaymentMade,
        ev.TradeWon,
        ev.FallbackApplied,
        *(t for t in ae.AgentEvent.__args__),
    }
)
_UNCHANGED_BY_MODE: dict[str, frozenset[type]] = {
    "canonical": _UNCHANGED | {ev.BidPassed, ev.BidPlaced},
    "fast": _UNCHANGED | {ev.BidPassed, ev.BidPlaced},
    "legacy": _UNCHANGED,
}


def unchanged_by(config: GameConfig) -> frozenset[type]:
    """Event types that leave a state of this configuration as it is (while no retry is
    counted: then every game event resets the count)."""
    return _UNCHANGED_BY_MODE.get(config.auction_mode, frozenset())


def fold(events: Any, config: GameConfig | None = None) -> GameState:
    """The state after all `events` (the first must be `GameStarted` unless `config` is given)."""
    events = list(events)
    if config is None:
        first = events[0]
        if not isinstance(first, ev.GameStarted):
            raise ValueError("a game's first event must be game_started")
        config = first.config
    state = initial_state(config)
    # The mode is the one the log's game_started sets (the same as `config`'s in any real log).
    head = events[0] if events else None
    skip = unchanged_by(head.config if isinstance(head, ev.GameStarted) else config)
    for e in events:
        if state.attempts or e.__class__ not in skip:
            state = evolve(state, e)
    return state


def fold_plain(events: Any, config: GameConfig | None = None) -> GameState:
    """`fold` by the definition: `evolve` applied to every event in turn (tests compare)."""
    events = list(events)
    if config is None:
        config = events[0].config
    return reduce(evolve, events, initial_state(config))
