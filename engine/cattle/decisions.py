"""What the engine is waiting for: the pending decision and whom it asks."""

from __future__ import annotations

from typing import Literal

import msgspec

Target = tuple[int, str]
"""A valid trade target: (opponent seat, animal type)."""


class Decision(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", gc=False):
    """Base of every pending decision; `seats` are the seats asked."""

    seats: tuple[int, ...]

    @property
    def kind(self) -> str:
        """The decision's tag, e.g. "bid"."""
        return str(type(self).__struct_config__.tag)


class TurnDecision(Decision, frozen=True, kw_only=True, tag="turn"):
    """The active seat chooses to auction or to trade (both are possible)."""

    targets: tuple[Target, ...]


class BidDecision(Decision, frozen=True, kw_only=True, tag="bid"):
    """Bidders bid above `price` or pass; in canonical and fast mode they answer at once."""

    auction: int
    animal: str
    auctioneer: int
    mode: str
    round: int
    price: int
    leader: int | None
    caps: tuple[tuple[int, int], ...] = ()
    confirmation: bool = False

    @property
    def min_bid(self) -> int:
        """The smallest bid that beats the standing price."""
        return self.price + 10

    def cap(self, seat: int) -> int | None:
        """Highest bid a seat may make after its money was revealed, if capped."""
        for s, c in self.caps:
            if s == seat:
                return c
        return None


class SaleDecision(Decision, frozen=True, kw_only=True, tag="sale"):
    """The auctioneer sells to `winner` at `price` or uses its buy-right."""

    auction: int
    animal: str
    winner: int
    price: int


class TradeDecision(Decision, frozen=True, kw_only=True, tag="initiate_trade"):
    """The active seat names a target, an animal and its face-down offer."""

    targets: tuple[Target, ...]


class ResponseDecision(Decision, frozen=True, kw_only=True, tag="respond_trade"):
    """The target accepts the face-down offer or counters."""

    trade: int
    initiator: int
    animal: str
    n_cards: int
    count: int


class TieDecision(Decision, frozen=True, kw_only=True, tag="tie_offer"):
    """After a tie a trader places a new face-down offer."""

    trade: int
    initiator: int
    target: int
    animal: str
    ties: int
    role: Literal["initiator", "target"]
    previous: int
    """The value both tied offers had."""


AnyDecision = (
    TurnDecision | BidDecision | SaleDecision | TradeDecision | ResponseDecision | TieDecision
)
