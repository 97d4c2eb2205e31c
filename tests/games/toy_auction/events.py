"""The toy auction's configuration and events (the events layer of a game family)."""

from __future__ import annotations

import msgspec

from events.base import Event, SeatPrivate
from events.config import SeatSpec

NAME = "toy-auction"
VERSION = "1.0.0"
TOP = 100
"""Largest bid and value."""


class ToyConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Players and items of a toy auction."""

    players: int = 3
    items: int = 4
    name: str = "standard"

    def validate(self) -> ToyConfig:
        """Raise `ValueError` unless the game can be played; return self."""
        if not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2..4, got {self.players}")
        if not 1 <= self.items <= 50:
            raise ValueError(f"items must be 1..50, got {self.items}")
        return self


class ToyStarted(Event, frozen=True, kw_only=True, tag="game_started"):
    """A toy auction began."""

    seed: int
    config: ToyConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = NAME


class ToyValue(SeatPrivate, frozen=True, kw_only=True, tag="toy_value"):
    """A player's private value of the next item."""

    ACTOR = "seat"
    item: int
    seat: int
    value: int


class ToyBidClamped(SeatPrivate, frozen=True, kw_only=True, tag="toy_bid_clamped"):
    """A bid outside 0..100, and the bid used instead."""

    ACTOR = "seat"
    item: int
    seat: int
    raw: int
    used: int


class ToyBids(Event, frozen=True, kw_only=True, tag="toy_bids"):
    """Every bid of an item, revealed together, and who won it."""

    item: int
    bids: tuple[int, ...]
    winner: int


class ToyEnded(Event, frozen=True, kw_only=True, tag="game_ended"):
    """The auction is over."""

    reason: str
    scores: tuple[int, ...]
    ranks: tuple[int, ...]


EVENTS: tuple[type, ...] = (ToyStarted, ToyValue, ToyBidClamped, ToyBids, ToyEnded)
