"""A sealed-bid auction defined only here, to show that a game plugs into the core unchanged.

2 to 4 players, a few items sold one after the other. Before each sale every player learns
its own value of the item (no one else sees it); then all bid at once, in secret. The highest
bid wins (the lowest seat among equal bids) and pays its bid. Score: the sum of value - price
over the items won. A bid outside 0..100 is clamped, and the clamp is recorded.

Everything a game brings is here (events, rules, view, timeline lines, a SQL view, code
agents) and it is registered under the name "toy-auction". The CLI finds it through
$CATTLE_GAMES=tests.games.toy_auction; tests in-process import this module.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from agents.base import Agent
from events.base import Event, SeatPrivate
from events.catalog import GameDef, register
from events.domain import SeatSpec

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


# ---------------------------------------------------------------------------- events


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


# ---------------------------------------------------------------------------- rules


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


# ---------------------------------------------------------------------------- projections


class ToyView:
    """What one seat knows: its own values and every revealed sale."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.seen = 0
        self.history: list[Any] = []
        self.ended = False
        self.value: int | None = None
        self.sales: list[ToyBids] = []

    def sync(self, log: Sequence[Any], audiences: Sequence[Any] | None = None) -> ToyView:
        """Fold the visible events not seen yet."""
        for i in range(self.seen, len(log)):
            e = log[i]
            aud = audiences[i] if audiences is not None else e.audience()
            if aud is None or self.seat in aud:
                if isinstance(e, ToyValue):
                    self.value = e.value
                elif isinstance(e, ToyBids):
                    self.sales.append(e)
                elif isinstance(e, ToyEnded):
                    self.ended = True
                self.history.append(e)
        self.seen = len(log)
        return self

    def snapshot(self, pending: Any = None) -> dict[str, Any]:
        """The view as plain data."""
        return {"seat": self.seat, "value": self.value, "sales": len(self.sales)}


def describe(e: Any, viewer: int | None) -> str | None:
    """One line per event."""
    match e:
        case ToyStarted():
            return f"Toy auction of {e.config.items} items for {e.config.players} players"
        case ToyValue():
            return f"Player {e.seat} values item {e.item} at {e.value}"
        case ToyBids():
            return f"Item {e.item}: bids {list(e.bids)}, won by Player {e.winner}"
        case ToyEnded():
            return f"Auction over: scores {list(e.scores)}"
    return None


SQL = Path(__file__).with_name("toy_views.sql")


# ---------------------------------------------------------------------------- agents


PAUSE = float(os.environ.get("TOY_PAUSE", "0"))
"""Seconds an honest agent waits before each bid (a test that stops a running tournament
slows it down with this; the bids are the same)."""


class Honest(Agent):
    """Bids half its value."""

    spec = "honest"

    def act(self, view: Any, decision: Any) -> Bid:
        if PAUSE:
            time.sleep(PAUSE)
        return Bid(seat=self.seat, amount=(view.value or 0) // 2)


class Wild(Agent):
    """Bids anything, out-of-range amounts included."""

    spec = "wild"

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.rng = random.Random(f"{seed}:wild:{seat}")

    def act(self, view: Any, decision: Any) -> Bid:
        return Bid(seat=self.seat, amount=self.rng.randint(-20, 130))


GAME = register(
    GameDef(
        name=NAME,
        title="Toy auction",
        summary="sealed-bid first-price auctions of a few items",
        event_types=EVENTS,
        config_type=ToyConfig,
        rules=ToyRules(),
        presets=lambda: {"standard": ToyConfig(), "duel": ToyConfig(players=2, items=3)},
        default_preset="standard",
        new_view=ToyView,
        describe=describe,
        sql=(SQL,),
        code_agents={
            "honest": lambda seat, seed, config: Honest(seat, seed, config),
            "wild": lambda seat, seed, config: Wild(seat, seed, config),
        },
    )
)
