"""Every fact of a PACT game (one buyer, one seller, repeated sealed quotes with chat).

Seat 0 buys, seat 1 sells. The private values are drawn once per game: the draw itself is
engine-only, and each side learns its own number through a seat-private event. Messages are
public; quotes stay sealed until both are in, then one public event shows them with the trade.
Tags other than the shared start and end tags carry the `pact_` prefix, so that they never
collide with another game's tags. New fields go last and carry defaults.
"""

from __future__ import annotations

import math
from typing import Literal

import msgspec

from events.base import ENGINE, Event, SeatPrivate
from events.config import ConfigError, SeatSpec

Seat = int

BUYER = 0
"""The seat that buys."""
SELLER = 1
"""The seat that sells."""
ROLES: tuple[str, str] = ("buyer", "seller")
"""Role names by seat."""

DISTRIBUTIONS: tuple[str, ...] = ("uniform", "correlated", "semi_bimodal", "heavy_tailed")
"""The components of the value mixture, in the order of `ValueMix` weights."""

MAX_SPAN = 1_000_000
"""Widest value or quote range: halves of such numbers stay exact in a float."""


class PactConfigError(ConfigError):
    """A PACT configuration the rules cannot play."""


class ValueMix(msgspec.Struct, frozen=True, kw_only=True):
    """How the private values are drawn: a weighted mix of four distributions.

    Positions are fractions of the value range (0 = its low end, 1 = its high end), so the
    same mix serves any range. Weights need not sum to 1; they are used relative to their sum.
    """

    uniform: float = 0.4
    """Weight of: value and cost independent and uniform over the range."""
    correlated: float = 0.2
    """Weight of: value and cost scattered around one shared centre."""
    semi_bimodal: float = 0.2
    """Weight of: each side from one of two overlapping humps (low and high)."""
    heavy_tailed: float = 0.2
    """Weight of: each side near the middle, with rare extreme values."""
    centre_low: float = 0.1
    """Correlated: the shared centre is uniform in [centre_low, centre_high]."""
    centre_high: float = 0.9
    correlated_spread: float = 0.1
    """Correlated: standard deviation of each side around the centre."""
    modes: tuple[float, float] = (0.3, 0.7)
    """Semi-bimodal: the centres of the two humps (each side picks one with even odds)."""
    mode_spread: float = 0.12
    """Semi-bimodal: standard deviation of each hump."""
    tail_scale: float = 0.1
    """Heavy-tailed: scale of the Student t (2 degrees of freedom) around the middle."""

    def weights(self) -> tuple[float, float, float, float]:
        """The four weights in `DISTRIBUTIONS` order."""
        return (self.uniform, self.correlated, self.semi_bimodal, self.heavy_tailed)


def _finite(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


class PactConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Every knob of a PACT game; stored in the first event of each game."""

    players: int = 2
    """Always 2: seat 0 buys, seat 1 sells."""
    rounds: int = 20
    """Rounds per game; each is two messages and one pair of sealed quotes."""
    max_words: int = 100
    """Longest message in words (whitespace-separated); longer ones are cut."""
    max_chars: int = 1000
    """Longest message in characters after the word cut (one 'word' can be very long)."""
    value_low: int = 0
    """Lowest private value (buyer value and seller cost alike)."""
    value_high: int = 100
    """Highest private value."""
    quote_low: int = 0
    """Lowest quote; quotes are whole numbers, out-of-range ones are clamped."""
    quote_high: int = 100
    """Highest quote."""
    first_speaker: Literal["alternate", "buyer", "seller"] = "alternate"
    """Who speaks first in a round: the buyer in odd rounds and the seller in even ones
    ("alternate"), or the same side every round."""
    values: ValueMix = msgspec.field(default_factory=ValueMix)
    """How the private values are drawn."""
    name: str = "custom"
    """Preset name, or "custom"."""

    def validate(self) -> PactConfig:
        """Raise `PactConfigError` unless the rules can play this configuration; return self."""
        if self.players != 2:
            raise PactConfigError(f"PACT has exactly 2 players (buyer, seller), got {self.players}")
        if not 1 <= self.rounds <= 1000:
            raise PactConfigError(f"rounds must be 1..1000, got {self.rounds}")
        if not 1 <= self.max_words <= 1000:
            raise PactConfigError(f"max_words must be 1..1000, got {self.max_words}")
        if not self.max_words <= self.max_chars <= 100_000:
            raise PactConfigError(
                f"max_chars must be {self.max_words}..100000 (at least max_words), "
                f"got {self.max_chars}"
            )
        for low, high, what in (
            (self.value_low, self.value_high, "value"),
            (self.quote_low, self.quote_high, "quote"),
        ):
            if not low < high:
                raise PactConfigError(f"{what}_low must be below {what}_high, got {low}..{high}")
            if high - low > MAX_SPAN or max(abs(low), abs(high)) > MAX_SPAN:
                raise PactConfigError(f"{what} range must lie within -{MAX_SPAN}..{MAX_SPAN}")
        if not (self.quote_low <= self.value_low and self.value_high <= self.quote_high):
            raise PactConfigError(
                "the quote range must contain the value range, so that quoting one's own "
                f"value is always possible (values {self.value_low}..{self.value_high}, "
                f"quotes {self.quote_low}..{self.quote_high})"
            )
        if self.first_speaker not in ("alternate", "buyer", "seller"):
            raise PactConfigError(
                f"first_speaker must be alternate, buyer or seller, got {self.first_speaker!r}"
            )
        m = self.values
        weights = m.weights()
        if not all(_finite(w) and w >= 0 for w in weights) or not sum(weights) > 0:
            raise PactConfigError(
                f"value mix weights must be finite, non-negative and not all 0, got {weights}"
            )
        fractions = (m.centre_low, m.centre_high, *m.modes)
        if not all(_finite(x) and 0 <= x <= 1 for x in fractions) or len(m.modes) != 2:
            raise PactConfigError("value mix centres and modes must be fractions in 0..1")
        if not m.centre_low <= m.centre_high:
            raise PactConfigError("value mix centre_low must not exceed centre_high")
        spreads = (m.correlated_spread, m.mode_spread, m.tail_scale)
        if not all(_finite(x) and 0 < x <= 1 for x in spreads):
            raise PactConfigError("value mix spreads must be fractions in (0, 1]")
        return self

    def first(self, round: int) -> Seat:
        """The seat that speaks first in `round` (1-based)."""
        if self.first_speaker == "buyer":
            return BUYER
        if self.first_speaker == "seller":
            return SELLER
        return BUYER if round % 2 == 1 else SELLER


# --------------------------------------------------------------------------- set-up


class PactGameStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A PACT game began with this configuration, seed and seating."""

    seed: int
    config: PactConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = "pact"


class PactValuesDrawn(Event, frozen=True, kw_only=True, tag="pact_values_drawn"):
    """The private values were drawn from this mixture component; engine-only."""

    distribution: str
    value: int
    """The buyer's value of the unit."""
    cost: int
    """The seller's cost of the unit."""

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class PactValueDealt(SeatPrivate, frozen=True, kw_only=True, tag="pact_value_dealt"):
    """A seat learned its role and private value (the buyer its value, the seller its cost)."""

    ACTOR = "seat"
    seat: Seat
    role: Literal["buyer", "seller"]
    amount: int


# --------------------------------------------------------------------------- rounds


class PactMessageReceived(Event, frozen=True, kw_only=True, tag="pact_message_received"):
    """The exact text a seat submitted, kept (engine-only) when the rules had to change it:
    cut to the length limit or cleaned of control characters. Replays feed it again."""

    ACTOR = "seat"
    round: int
    seat: Seat
    raw: str

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class PactMessageSent(Event, frozen=True, kw_only=True, tag="pact_message_sent"):
    """A seat's public message of a round, as both sides read it."""

    ACTOR = "seat"
    round: int
    seat: Seat
    text: str
    words: int
    """Words in the message as submitted (before any cut)."""
    cut: bool = False
    """True when the message was cut to the word or character limit."""


class PactQuoteRejected(SeatPrivate, frozen=True, kw_only=True, tag="pact_quote_rejected"):
    """A quote that could not stand as given, and the quote used instead; seen by its seat only
    (the quotes are sealed until both are in)."""

    ACTOR = "seat"
    round: int
    seat: Seat
    raw: str
    """The quote exactly as received, written as a number or a JSON value."""
    reason: str
    used: int
    """The quote that counts instead (the documented fallback)."""


class PactQuotesRevealed(Event, frozen=True, kw_only=True, tag="pact_quotes_revealed"):
    """Both sealed quotes of a round, shown together, and the trade they made (if any)."""

    round: int
    bid: int
    ask: int
    traded: bool
    price: float | None = None
    """The midpoint of bid and ask when they crossed (bid >= ask), else None."""


# --------------------------------------------------------------------------- the end


class PactGameEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The game is over; scores are cumulative profits, ranks share ties (1 = best)."""

    reason: Literal["complete"]
    rounds: int
    trades: int
    scores: tuple[float, ...]
    ranks: tuple[int, ...]


PactEvent = (
    PactGameStarted
    | PactValuesDrawn
    | PactValueDealt
    | PactMessageReceived
    | PactMessageSent
    | PactQuoteRejected
    | PactQuotesRevealed
    | PactGameEnded
)
"""Every event of a PACT game."""

PACT_EVENT_TYPES: tuple[type[Event], ...] = PactEvent.__args__
