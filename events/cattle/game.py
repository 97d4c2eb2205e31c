"""Every fact of a Cattle Trade game, as an immutable, tagged msgspec Struct.

Events are the only source of truth. Each event class says who may see it through
`audience()`: `PUBLIC` (every seat), `ENGINE` (no seat: engine-only facts such as the deck
order) or a tuple of seats. A seat's observation folds exactly the events it may see.
New fields go last and carry defaults, so stored logs keep decoding.
"""

from __future__ import annotations

from typing import Literal

from events.base import ENGINE as ENGINE
from events.base import PUBLIC as PUBLIC
from events.base import Event as Event
from events.base import SeatPrivate as SeatPrivate
from events.cattle.domain import GameConfig
from events.config import SeatSpec

Seat = int
Cards = tuple[int, ...]


# --------------------------------------------------------------------------- game set-up


class GameStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A game began with this configuration, seed and seating."""

    seed: int
    config: GameConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = "cattle-trade"


class DeckShuffled(Event, frozen=True, kw_only=True, tag="deck_shuffled"):
    """The animal deck was shuffled into this order (top card first); engine-only."""

    order: tuple[str, ...]

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class HandsDealt(Event, frozen=True, kw_only=True, tag="hands_dealt"):
    """Every seat received the starting money cards and its starting animals (face up)."""

    money: Cards
    animals: tuple[tuple[str, ...], ...]
    deck_left: int


# --------------------------------------------------------------------------- turns


class TurnStarted(Event, frozen=True, kw_only=True, tag="turn_started"):
    """A seat's turn began."""

    ACTOR = "seat"
    turn: int
    seat: Seat
    deck_left: int


class TurnChosen(Event, frozen=True, kw_only=True, tag="turn_chosen"):
    """The active seat chose to auction or to trade; forced when only one was possible."""

    ACTOR = "seat"
    seat: Seat
    choice: Literal["auction", "trade"]
    forced: bool = False


class TurnSkipped(Event, frozen=True, kw_only=True, tag="turn_skipped"):
    """The deck is empty and the active seat has no one to trade with."""

    ACTOR = "seat"
    seat: Seat


# --------------------------------------------------------------------------- auctions


class CardDrawn(Event, frozen=True, kw_only=True, tag="card_drawn"):
    """The active seat turned up the top card of the deck."""

    ACTOR = "seat"
    seat: Seat
    animal: str
    deck_left: int


class DonkeyPayout(Event, frozen=True, kw_only=True, tag="donkey_payout"):
    """A donkey was drawn: every seat received one money card of this amount from the bank."""

    donkey: int
    amount: int


class AuctionOpened(Event, frozen=True, kw_only=True, tag="auction_opened"):
    """An auction began; ties between equal bids in one round follow `priority`."""

    ACTOR = "auctioneer"
    auction: int
    auctioneer: Seat
    animal: str
    priority: tuple[Seat, ...]


class BidRoundOpened(Event, frozen=True, kw_only=True, tag="bid_round_opened"):
    """A call round opened: these bidders are asked to bid above `price` or pass."""

    auction: int
    round: int
    price: int
    leader: Seat | None
    bidders: tuple[Seat, ...]
    confirmation: bool = False


class BidPlaced(Event, frozen=True, kw_only=True, tag="bid_placed"):
    """A bidder bid this amount in a round."""

    ACTOR = "seat"
    auction: int
    round: int
    seat: Seat
    amount: int


class BidPassed(Event, frozen=True, kw_only=True, tag="bid_passed"):
    """A bidder passed in a round."""

    ACTOR = "seat"
    auction: int
    round: int
    seat: Seat


class BidRoundClosed(Event, frozen=True, kw_only=True, tag="bid_round_closed"):
    """A call round closed; `leader` holds the standing bid `price` (None if no bid yet)."""

    auction: int
    round: int
    leader: Seat | None
    price: int


class BidRoundsCapped(Event, frozen=True, kw_only=True, tag="bid_rounds_capped"):
    """The auction used up its bid rounds (`rounds`, the cap): it ends on the standing bid."""

    auction: int
    rounds: int
    leader: Seat
    price: int


class OverbidRevealed(Event, frozen=True, kw_only=True, tag="overbid_revealed"):
    """The winning bidder could not pay its bid: its money cards are shown to everyone."""

    ACTOR = "seat"
    auction: int
    seat: Seat
    bid: int
    money: Cards


class AuctionRestarted(Event, frozen=True, kw_only=True, tag="auction_restarted"):
    """The auction starts again from 0; each capped seat may not bid above its cap."""

    auction: int
    attempt: int
    caps: tuple[tuple[Seat, int], ...]


class BidderRemoved(Event, frozen=True, kw_only=True, tag="bidder_removed"):
    """A seat failed to pay a second time and takes no further part in this auction."""

    ACTOR = "seat"
    auction: int
    seat: Seat
    reason: str


class AuctionWon(Event, frozen=True, kw_only=True, tag="auction_won"):
    """The auction ended with a standing bid by `winner` at `price`."""

    ACTOR = "winner"
    auction: int
    winner: Seat
    price: int


class AuctionNoBid(Event, frozen=True, kw_only=True, tag="auction_no_bid"):
    """The auction ended without a bid: the auctioneer takes the card for free."""

    ACTOR = "auctioneer"
    auction: int
    auctioneer: Seat


class AuctioneerDecided(Event, frozen=True, kw_only=True, tag="auctioneer_decided"):
    """The auctioneer sold the card or used its buy-right; `offered` is False when it could
    not pay, so the sale was forced."""

    ACTOR = "seat"
    auction: int
    seat: Seat
    decision: Literal["sell", "buy_right"]
    offered: bool = True


class PaymentMade(Event, frozen=True, kw_only=True, tag="payment_made"):
    """Public part of an auction payment: who paid whom, the price and how many cards."""

    ACTOR = "payer"
    payer: Seat
    payee: Seat
    amount: int
    n_cards: int
    reason: Literal["sale", "buy_right"]


class PaymentCards(Event, frozen=True, kw_only=True, tag="payment_cards"):
    """Private part of a payment: the exact money cards, seen by payer and payee only."""

    ACTOR = "payer"
    payer: Seat
    payee: Seat
    cards: Cards

    def audience(self) -> tuple[int, ...] | None:
        return (self.payer, self.payee)


class AnimalMoved(Event, frozen=True, kw_only=True, tag="animal_moved"):
    """`count` cards of `animal` went to `receiver`, from `giver` (None: from the deck)."""

    ACTOR = "receiver"
    animal: str
    count: int
    giver: Seat | None
    receiver: Seat


class SetCompleted(Event, frozen=True, kw_only=True, tag="set_completed"):
    """A seat now holds every card of an animal type."""

    ACTOR = "seat"
    seat: Seat
    animal: str


# --------------------------------------------------------------------------- trades


class TradeInitiated(Event, frozen=True, kw_only=True, tag="trade_initiated"):
    """Public part of a trade challenge: who challenges whom, for which animal, with how
    many face-down cards."""

    ACTOR = "initiator"
    trade: int
    initiator: Seat
    target: Seat
    animal: str
    n_cards: int


class OfferCards(SeatPrivate, frozen=True, kw_only=True, tag="offer_cards"):
    """Private part of an offer: the card values, seen only by the seat that placed it."""

    ACTOR = "seat"
    trade: int
    seat: Seat
    cards: Cards
    role: Literal["offer", "counter", "tie"]


class TradeAccepted(Event, frozen=True, kw_only=True, tag="trade_accepted"):
    """The target accepted the face-down offer without seeing it."""

    ACTOR = "target"
    trade: int
    target: Seat


class TradeCountered(Event, frozen=True, kw_only=True, tag="trade_countered"):
    """The target countered with its own face-down offer of `n_cards` cards."""

    ACTOR = "target"
    trade: int
    target: Seat
    n_cards: int


class TieOfferMade(Event, frozen=True, kw_only=True, tag="tie_offer_made"):
    """After a tie, a trader placed a new face-down offer of `n_cards` cards."""

    ACTOR = "seat"
    trade: int
    seat: Seat
    n_cards: int


class OffersRevealed(Event, frozen=True, kw_only=True, tag="offers_revealed"):
    """Both offers shown to the two traders (on accept the target sees the offer it took)."""

    trade: int
    initiator: Seat
    target: Seat
    initiator_cards: Cards
    target_cards: Cards

    def audience(self) -> tuple[int, ...] | None:
        return (self.initiator, self.target)


class TradeTied(Event, frozen=True, kw_only=True, tag="trade_tied"):
    """The two offers were worth the same; both take their cards back and offer again."""

    trade: int
    ties: int


class OffersExchanged(Event, frozen=True, kw_only=True, tag="offers_exchanged"):
    """Each trader received the other's offer (card counts are public, values are not)."""

    trade: int
    initiator: Seat
    target: Seat
    initiator_n: int
    target_n: int


class TradeWon(Event, frozen=True, kw_only=True, tag="trade_won"):
    """The trade challenge was decided; `count` animals move from loser to winner."""

    ACTOR = "winner"
    trade: int
    winner: Seat
    loser: Seat
    animal: str
    count: int
    reason: Literal["accepted", "higher_offer", "third_tie"]


# --------------------------------------------------------------------------- bad input


class ActionRejected(SeatPrivate, frozen=True, kw_only=True, tag="action_rejected"):
    """An action that could not apply as given; `raw` is the input exactly as received."""

    ACTOR = "seat"
    seat: Seat
    decision: str
    reason: str
    raw: str
    retry: bool = False
    """True when the seat is asked again; False when a fallback follows."""


class FallbackApplied(SeatPrivate, frozen=True, kw_only=True, tag="fallback_applied"):
    """The documented fallback replaced a rejected action with `action` (JSON)."""

    ACTOR = "seat"
    seat: Seat
    decision: str
    action: str
    reason: str


# --------------------------------------------------------------------------- the end


class GameEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game is over; scores, ranks (ties share a rank) and complete sets per seat."""

    reason: Literal["complete", "max_turns", "max_decisions"]
    turns: int
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    sets: tuple[tuple[str, ...], ...]


GameEvent = (
    GameStarted
    | DeckShuffled
    | HandsDealt
    | TurnStarted
    | TurnChosen
    | TurnSkipped
    | CardDrawn
    | DonkeyPayout
    | AuctionOpened
    | BidRoundOpened
    | BidPlaced
    | BidPassed
    | BidRoundClosed
    | OverbidRevealed
    | AuctionRestarted
    | BidderRemoved
    | AuctionWon
    | AuctionNoBid
    | AuctioneerDecided
    | PaymentMade
    | PaymentCards
    | AnimalMoved
    | SetCompleted
    | TradeInitiated
    | OfferCards
    | TradeAccepted
    | TradeCountered
    | TieOfferMade
    | OffersRevealed
    | TradeTied
    | OffersExchanged
    | TradeWon
    | ActionRejected
    | FallbackApplied
    | GameEnded
    | BidRoundsCapped
)
"""Every event of a Cattle Trade game."""

GAME_EVENT_TYPES: tuple[type[Event], ...] = GameEvent.__args__
