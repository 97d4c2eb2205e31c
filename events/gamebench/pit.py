"""Every fact of a GameBench Pit game.

The deck holds nine cards of each commodity (Wheat 100, Barley 85, Corn 75, Soybeans 55
points) plus one Bull and one Bear, dealt face down. Hands are private: a seat sees its own
deal and the cards it receives. With open trading (the default, GameBench's code) each seat
is dealt two hands and shown the first (the second is engine-only), an offer names its
commodity and count for everyone, and what the taker gives back is seen by the two traders.
With blind trading (the `blind` preset, rules 1.0.0) an offer shows only how many cards,
and nobody but the two traders learns which commodities moved. Tags other than the shared
start and end tags carry the `pit_` prefix.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from events.base import ENGINE, Event, SeatPrivate
from events.config import ConfigError, SeatSpec
from events.gamebench.common import RuleExplainedBase

NAME = "gamebench:pit"
VERSION = "1.1.0"
"""1.1.0: open trading and 6-card corners by default (`PitConfig.trading`, `corner`); 1.0.0
always traded blind to 9 and is kept to replay its games."""
VERSIONS: tuple[str, ...] = ("1.0.0", VERSION)

COMMODITIES: tuple[tuple[str, int], ...] = (
    ("Wheat", 100),
    ("Barley", 85),
    ("Corn", 75),
    ("Soybeans", 55),
)
"""The commodities and the points a corner of each is worth (GameBench's values)."""
BULL = "Bull"
BEAR = "Bear"
KINDS: tuple[str, ...] = (*(c for c, _ in COMMODITIES), BULL, BEAR)
"""Every kind of card, in the order of hand vectors."""
PER_COMMODITY = 9
"""Cards of each commodity; holding all of them is a corner."""
BEAR_PENALTY = 20
"""Points a corner loses when its holder also holds the Bear."""
MAX_OFFER = 4
"""Most cards one offer may hold."""


class PitConfig(msgspec.Struct, frozen=True, kw_only=True):
    """A Pit game: players, the points that win, and the turn limit."""

    players: int = 2
    target: int = 500
    """Points that end the game (GameBench's winning score)."""
    max_turns: int = 1000
    """Turns after which the game ends anyway, scored by points (GameBench has no limit;
    its random games last about 136 turns)."""
    name: str = "standard"
    trading: Literal["open", "blind"] | UnsetType = UNSET
    """`open` (unset: the default): GameBench's code (two hands a seat, open offers that name
    the commodity, any cards given back); `blind`: face-down offers of one kind taken with as
    many cards of one kind (rules 1.0.0 always traded so). Unset, it is left out of the stored config while unset (the default), so that games stored before
    the field existed keep their bytes."""
    corner: int | UnsetType = UNSET
    """Cards of one commodity that make a corner (one fewer with the Bull; unset: 6, as
    GameBench's code counts); rules 1.0.0 always counted all 9. Unset, it is left out of the stored config while unset (the default), so that games stored before
    the field existed keep their bytes."""

    def validate(self) -> PitConfig:
        """Raise `ConfigError` unless the rules can play this; return self."""
        trading, corner = settings(self)
        if trading not in ("open", "blind"):
            raise ConfigError(f"trading must be 'open' or 'blind', got {self.trading!r}")
        if not 2 <= corner <= PER_COMMODITY:
            raise ConfigError(f"corner must be 2..{PER_COMMODITY}, got {self.corner}")
        if not 2 <= self.players <= len(COMMODITIES):
            raise ConfigError(f"Pit takes 2..{len(COMMODITIES)} players, got {self.players}")
        if not 1 <= self.target <= 100_000:
            raise ConfigError(f"target must be 1..100000, got {self.target}")
        if not 1 <= self.max_turns <= 10_000:
            raise ConfigError(f"max_turns must be 1..10000, got {self.max_turns}")
        return self


class PitStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A Pit game began."""

    seed: int
    config: PitConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME


def rules_of(start: PitStarted) -> tuple[str, int]:
    """(trading, corner) a game was played by: rules 1.0.0 always traded blind to 9."""
    if start.engine_version == "1.0.0":
        return "blind", PER_COMMODITY
    return settings(start.config)


def settings(config: PitConfig) -> tuple[str, int]:
    """(trading, corner) a configuration asks for, unset fields at their defaults."""
    trading = "open" if isinstance(config.trading, UnsetType) else config.trading
    return trading, 6 if isinstance(config.corner, UnsetType) else config.corner


class PitShuffled(Event, frozen=True, kw_only=True, tag="pit_shuffled"):
    """The deck order of a round (engine-only: the deal is drawn from the seed)."""

    round: int
    deck: tuple[int, ...]
    """Kinds (indices into KINDS), top card first."""

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class PitDealt(SeatPrivate, frozen=True, kw_only=True, tag="pit_dealt"):
    """A seat's hand for a round: how many cards of each kind (KINDS order)."""

    ACTOR = "seat"
    round: int
    seat: int
    hand: tuple[int, ...]


class PitOffered(Event, frozen=True, kw_only=True, tag="pit_offered"):
    """A seat offered some cards of one kind, face down: everyone sees how many."""

    ACTOR = "seat"
    turn: int
    seat: int
    count: int


class PitOfferKind(SeatPrivate, frozen=True, kw_only=True, tag="pit_offer_kind"):
    """Which kind the offering seat put up (its own knowledge only)."""

    ACTOR = "seat"
    turn: int
    seat: int
    kind: str


class PitPassed(Event, frozen=True, kw_only=True, tag="pit_passed"):
    """A seat let an offer go by."""

    ACTOR = "seat"
    turn: int
    seat: int


class PitTraded(Event, frozen=True, kw_only=True, tag="pit_traded"):
    """A seat took an offer: both sides gave `count` cards, each of one kind."""

    turn: int
    offerer: int
    responder: int
    count: int


class PitSwapped(Event, frozen=True, kw_only=True, tag="pit_swapped"):
    """What the two traders swapped: seen by the two of them only."""

    ACTOR = "responder"
    turn: int
    offerer: int
    responder: int
    count: int
    offered: str
    """The kind the offerer gave."""
    given: str
    """The kind the responder gave."""

    def audience(self) -> tuple[int, ...] | None:
        return (self.offerer, self.responder)


class PitRejected(SeatPrivate, frozen=True, kw_only=True, tag="pit_rejected"):
    """An answer that was no legal action here (a random legal one was played instead), or a
    refused `Explain` request. Seen by the answering seat only (the answer may name its
    cards)."""

    ACTOR = "seat"
    turn: int
    seat: int
    raw: str
    reason: str
    explain: bool = False
    """True for a refused `Explain` request (it uses up one of the seat's requests)."""


class PitRuleExplained(RuleExplainedBase, frozen=True, kw_only=True, tag="pit_rule_explained"):
    """A seat asked for the rules under a heading."""


class PitCornered(Event, frozen=True, kw_only=True, tag="pit_cornered"):
    """A seat cornered a commodity and scored; a new round is dealt unless the game is over."""

    ACTOR = "seat"
    round: int
    seat: int
    commodity: str
    held: int
    """Cards of the commodity in the hand (8 with the Bull, or 9)."""
    bull: bool
    bear: bool
    gained: int
    points: tuple[int, ...]
    """Every seat's points after the corner."""
    hand: int | UnsetType = UNSET
    """Which of the seat's hands cornered: 1, the second hand open trading deals; unset, the
    first (never stored as 0, so that corners stored before the field existed keep their
    bytes)."""


class PitHiddenDealt(Event, frozen=True, kw_only=True, tag="pit_hidden_dealt"):
    """A seat's second hand under open trading (engine-only: GameBench deals every player a
    second hand that it never shows, which mirrors the player's trades and can corner)."""

    round: int
    seat: int
    hand: tuple[int, ...]

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class PitProposed(Event, frozen=True, kw_only=True, tag="pit_proposed"):
    """An open offer: `count` cards of `kind`, standing until taken or replaced by the same
    seat's next offer (public)."""

    ACTOR = "seat"
    turn: int
    seat: int
    kind: str
    count: int


class PitProposalVoid(SeatPrivate, frozen=True, kw_only=True, tag="pit_proposal_void"):
    """An open offer the seat's hand could not back: nothing changed (its own knowledge)."""

    ACTOR = "seat"
    turn: int
    seat: int
    kind: str
    count: int


class PitTaken(Event, frozen=True, kw_only=True, tag="pit_taken"):
    """A seat took another's standing offer (`kind`, `count` as offered; public)."""

    ACTOR = "responder"
    turn: int
    offerer: int
    responder: int
    kind: str
    count: int


class PitPaid(Event, frozen=True, kw_only=True, tag="pit_paid"):
    """What the taker gave for the offer: seen by the two traders only."""

    ACTOR = "responder"
    turn: int
    offerer: int
    responder: int
    kind: str
    count: int

    def audience(self) -> tuple[int, ...] | None:
        return (self.offerer, self.responder)


class PitEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game is over; scores are the match scores (each seat's share of all points)."""

    reason: Literal["target", "turn_limit"]
    turns: int
    points: tuple[int, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]


PIT_EVENT_TYPES: tuple[type[Event], ...] = (
    PitStarted,
    PitShuffled,
    PitDealt,
    PitOffered,
    PitOfferKind,
    PitPassed,
    PitTraded,
    PitSwapped,
    PitRejected,
    PitRuleExplained,
    PitCornered,
    PitEnded,
    PitHiddenDealt,
    PitProposed,
    PitProposalVoid,
    PitTaken,
    PitPaid,
)
"""Every event of a Pit game."""
