"""The toy auction's rules as a decider (the engine layer of a game family)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from events.config import SeatSpec
from games.toy_auction.events import (
    TOP,
    VERSION,
    ToyBidClamped,
    ToyBids,
    ToyConfig,
    ToyEnded,
    ToyStarted,
    ToyValue,
)


class Bid(msgspec.Struct, frozen=True, kw_only=True):
    """A sealed bid."""

    seat: int
    amount: int


class BidFor(msgspec.Struct, frozen=True, kw_only=True):
    """Every player bids for item `item` at once."""

    seats: tuple[int, ...]
    item: int

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "bid"


class ToyState(msgspec.Struct, frozen=True, kw_only=True):
    """Where the auction stands."""

    config: ToyConfig
    seed: int
    item: int = 0
    values: tuple[tuple[int, ...], ...] = ()
    """Per item sold or on sale: every player's value."""
    scores: tuple[int, ...] = ()
    over: bool = False


def _values(seed: int, item: int, players: int) -> tuple[int, ...]:
    rng = random.Random(f"{seed}:toy:{item}")
    return tuple(rng.randint(0, TOP) for _ in range(players))


def _ranks(scores: Sequence[int]) -> tuple[int, ...]:
    return tuple(1 + sum(o > s for o in scores) for s in scores)


class ToyRules:
    """The toy auction as a decider."""

    version = VERSION

    def start(self, config: ToyConfig, seed: int, seats: Sequence[SeatSpec]) -> Any:
        """Announce the game and deal the first item's values."""
        state = ToyState(config=config, seed=seed, scores=(0,) * config.players)
        events: list[Any] = [
            ToyStarted(seed=seed, config=config, seats=tuple(seats), engine_version=VERSION)
        ]
        return self._deal(state, events)

    def _deal(self, state: ToyState, events: list[Any]) -> tuple[ToyState, list[Any]]:
        values = _values(state.seed, state.item, state.config.players)
        events.extend(ToyValue(item=state.item, seat=s, value=v) for s, v in enumerate(values))
        return msgspec.structs.replace(state, values=(*state.values, values)), events

    def pending(self, state: ToyState) -> BidFor | None:
        """Everyone bids until the items are sold."""
        if state.over:
            return None
        return BidFor(seats=tuple(range(state.config.players)), item=state.item)

    def step(self, state: ToyState, decision: BidFor, actions: Sequence[Bid]) -> Any:
        """Reveal the bids, sell the item, deal the next one or end."""
        events: list[Any] = []
        bids = []
        for seat, a in zip(decision.seats, actions, strict=True):
            used = min(max(a.amount, 0), TOP)
            if used != a.amount:
                events.append(ToyBidClamped(item=state.item, seat=seat, raw=a.amount, used=used))
            bids.append(used)
        winner = max(range(len(bids)), key=lambda s: (bids[s], -s))
        events.append(ToyBids(item=state.item, bids=tuple(bids), winner=winner))
        gain = state.values[state.item][winner] - bids[winner]
        scores = tuple(sc + (gain if s == winner else 0) for s, sc in enumerate(state.scores))
        state = msgspec.structs.replace(state, item=state.item + 1, scores=scores)
        if state.item >= state.config.items:
            events.append(ToyEnded(reason="complete", scores=scores, ranks=_ranks(scores)))
            return msgspec.structs.replace(state, over=True), events
        return self._deal(state, events)

    def evolve(self, state: Any, event: Any) -> Any:
        """Agent events change nothing here."""
        return state

    def fold(self, events: Sequence[Any]) -> ToyState:
        """Replay a log through the rules (the log's own bids)."""
        start = events[0]
        state, _ = self.start(start.config, start.seed, start.seats)
        for e in events:
            if isinstance(e, ToyBids):
                d = self.pending(state)
                assert d is not None
                state, _ = self.step(
                    state, d, [Bid(seat=s, amount=b) for s, b in enumerate(e.bids)]
                )
        return state

    def turn_of(self, event: Any, turn: int) -> int:
        """The item on sale is the turn."""
        return event.item if isinstance(event, ToyValue) else turn

    def active(self, state: Any) -> int | None:
        """No seat has a turn of its own."""
        return None

    def recorded_action(self, log: Sequence[Any], pos: int, seat: int, decision: BidFor) -> Bid:
        """The seat's bid, read from the log (the raw bid if it was clamped)."""
        clamped = None
        for e in log[pos:]:
            if isinstance(e, ToyBidClamped) and e.seat == seat:
                clamped = e.raw
            if isinstance(e, ToyBids) and e.item == decision.item:
                return Bid(seat=seat, amount=e.bids[seat] if clamped is None else clamped)
        raise LookupError(f"no bid of seat {seat} for item {decision.item}")
