"""Replay and verification: state at any point, and exact re-simulation of a stored game.

`verify` rebuilds a game from its seed and the actions recorded in its own log (plus any
events its agents recorded, such as model exchanges) and checks that the engine produces
the same events, byte for byte. No agent code and no network is involved.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

import msgspec

from agents.base import Agent
from engine import actions as act
from engine import decisions as dec
from engine.driver import Game
from engine.rules import pending
from engine.state import GameState, fold
from events import game as ev
from events.codec import encode
from events.domain import GameConfig
from projections.observation import Observation, SeatView, observe


def state_at(events: Sequence[Any], seq: int | None = None) -> GameState:
    """The full state after event `seq` (default: the last)."""
    upto = list(events if seq is None else events[: seq + 1])
    return fold(upto)


def observation_at(events: Sequence[Any], seat: int, seq: int | None = None) -> Observation:
    """What `seat` knew after event `seq`, with the decision it was asked for, if any."""
    upto = list(events if seq is None else events[: seq + 1])
    return observe(upto, seat, pending(fold(upto)))


class ReplayError(ValueError):
    """A stored log does not contain the action a replay needs."""


def _is_game_event(e: Any) -> bool:
    return isinstance(e, ev.GAME_EVENT_TYPES)


class RecordedAgent(Agent):
    """Answers every decision with the action the stored log shows for this seat."""

    spec = "replay"
    is_async = True

    def __init__(self, seat: int, seed: int, config: GameConfig, log: Sequence[Any]) -> None:
        super().__init__(seat, seed, config)
        self.log = log

    def _take_records(self, pos: int) -> int:
        """Queue this seat's agent events stored at `pos`; return where game events resume."""
        log = self.log
        while pos < len(log) and not _is_game_event(log[pos]):
            if log[pos].actor() == self.seat:
                self.record(log[pos])
            pos += 1
        return pos

    async def after_turn(self, view: SeatView) -> None:
        self._take_records(view.seen)

    def act(self, view: SeatView, decision: dec.AnyDecision) -> act.AnyAction:
        pos = self._take_records(view.seen)
        return recorded_action(self.log, pos, self.seat, decision)


def recorded_action(log: Sequence[Any], pos: int, seat: int, d: dec.AnyDecision) -> act.AnyAction:
    """The action `seat` took for decision `d`, read from the events that start at `pos`."""
    for i in range(pos, len(log)):
        e = log[i]
        if not _is_game_event(e):
            continue
        if isinstance(e, ev.ActionRejected) and e.seat == seat:
            return act.action_from_json(e.raw)
        match d, e:
            case dec.TurnDecision(), ev.TurnChosen():
                return act.ChooseTurn(seat=seat, choice=e.choice)
            case dec.BidDecision(), ev.BidPlaced() if e.seat == seat:
                return act.PlaceBid(seat=seat, amount=e.amount)
            case dec.BidDecision(), ev.BidPassed() if e.seat == seat:
                return act.Pass(seat=seat)
            case dec.BidDecision(), ev.BidRoundClosed():
                break
            case dec.SaleDecision(), ev.AuctioneerDecided():
                return act.ChooseSale(seat=seat, decision=e.decision)
            case dec.TradeDecision(), ev.OfferCards():
                t = log[i - 1]
                return act.InitiateTrade(seat=seat, target=t.target, animal=t.animal, cards=e.cards)
            case dec.ResponseDecision(), ev.TradeAccepted():
                return act.AcceptTrade(seat=seat)
            case dec.ResponseDecision(), ev.OfferCards():
                return act.CounterTrade(seat=seat, cards=e.cards)
            case dec.TieDecision(), ev.OfferCards():
                return act.OfferAgain(seat=seat, cards=e.cards)
    raise ReplayError(f"no recorded {d.kind} action for seat {seat} after event {pos}")


class Verification(msgspec.Struct, kw_only=True):
    """The outcome of re-simulating a stored game."""

    ok: bool
    stored: int
    replayed: int
    mismatch: int | None = None
    """First seq where the streams differ."""
    expected: str | None = None
    got: str | None = None
    error: str | None = None


def resimulate(events: Sequence[Any]) -> list[Any]:
    """Play the stored game again from its seed and recorded actions; return the new log."""
    start = events[0]
    if not isinstance(start, ev.GameStarted):
        raise ReplayError("the log does not start with game_started")
    config = start.config
    agents = [RecordedAgent(i, start.seed, config, events) for i in range(config.players)]
    game = Game(config, start.seed, agents, start.seats)
    # A replay that runs out of recorded actions stops; the comparison reports where.
    with contextlib.suppress(ReplayError):
        asyncio.run(game.run_async())
    return game.log


def verify(events: Sequence[Any]) -> Verification:
    """Re-simulate `events` and compare the result with them byte for byte."""
    try:
        replayed = resimulate(events)
    except Exception as exc:  # a corrupt log must produce a report, not a crash
        return Verification(
            ok=False, stored=len(events), replayed=0, error=f"{type(exc).__name__}: {exc}"
        )
    for i, (a, b) in enumerate(zip(events, replayed, strict=False)):
        ea, eb = encode(a), encode(b)
        if ea != eb:
            return Verification(
                ok=False,
                stored=len(events),
                replayed=len(replayed),
                mismatch=i,
                expected=ea.decode(),
                got=eb.decode(),
            )
    if len(events) != len(replayed):
        n = min(len(events), len(replayed))
        return Verification(ok=False, stored=len(events), replayed=len(replayed), mismatch=n)
    return Verification(ok=True, stored=len(events), replayed=len(replayed))
