"""Replay and verification: state at any point, and exact re-simulation of a stored game.

`verify` rebuilds a game from its seed and the actions recorded in its own log (plus any
events its agents recorded) and checks that the engine produces the same events, byte for
byte. Code-agent seats are answered from the log. Seat kinds that registered a *replayer*
(model seats) run their real agent code again, prompts and answer parsing included, fed
with the model answers the log recorded: no network is involved either way.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
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
from events.domain import GameConfig, SeatSpec
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


Replayer = Callable[[SeatSpec, int, int, GameConfig, Sequence[Any]], Agent]
"""Builds a seat's agent for a replay from (spec, seat, seed, config, stored log)."""

_REPLAYERS: dict[str, Replayer] = {}


def register_replayer(kind: str, replayer: Replayer) -> None:
    """Replay seats of agent kind `kind` (spec prefix) with `replayer` instead of the log."""
    _REPLAYERS[kind] = replayer


def replay_agents(events: Sequence[Any], *, rerun: bool = True) -> list[Agent]:
    """One agent per seat for re-simulating `events` (`rerun`: use registered replayers)."""
    start = events[0]
    config = start.config
    agents: list[Agent] = []
    for i, spec in enumerate(start.seats):
        replayer = _REPLAYERS.get(spec.agent.split(":", 1)[0]) if rerun else None
        if replayer is not None:
            agents.append(replayer(spec, i, start.seed, config, events))
        else:
            agents.append(RecordedAgent(i, start.seed, config, events))
    return agents


_GAME_TYPES = frozenset(ev.GAME_EVENT_TYPES)


def _is_game_event(e: Any) -> bool:
    # Event classes are leaves of the union, so a set lookup does what isinstance would,
    # faster: replays ask this for every event they pass.
    return type(e) in _GAME_TYPES


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


def resimulate(events: Sequence[Any], *, rerun: bool = True) -> list[Any]:
    """Play the stored game again from its seed and recorded actions; return the new log.

    With `rerun`, seats whose kind registered a replayer run their own code again.
    """
    if not events or not isinstance(events[0], ev.GameStarted):
        raise ReplayError("the log does not start with game_started")
    start = events[0]
    config = start.config
    agents = replay_agents(events, rerun=rerun)
    game = Game(config, start.seed, agents, start.seats)
    # A replay that runs out of recorded actions stops; the comparison reports where.
    with contextlib.suppress(ReplayError, LookupError):
        if all(type(a) is RecordedAgent for a in agents) and all(map(_is_game_event, events)):
            # Only recorded actions and no agent events: the synchronous loop (the one code
            # agents play with) gives the same log without the event loop's overhead.
            game.run()
        else:
            asyncio.run(_run(game))
    return game.log


async def _run(game: Game) -> None:
    try:
        await game.run_async()
    finally:
        for a in game.agents:
            await a.close()


def verify(events: Sequence[Any], *, rerun: bool = True, prefix: bool = False) -> Verification:
    """Re-simulate `events` and compare the result with them byte for byte.

    With `prefix`, `events` are the part of a game that was written before its writer
    stopped: the re-simulation may go on past them, and may stop short of them only by
    agent events (model exchanges recorded for a decision whose step never applied).
    """
    try:
        replayed = resimulate(events, rerun=rerun)
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
    if prefix and (
        len(replayed) >= len(events) or not any(_is_game_event(e) for e in events[len(replayed) :])
    ):
        return Verification(ok=True, stored=len(events), replayed=len(replayed))
    if len(events) != len(replayed):
        n = min(len(events), len(replayed))
        return Verification(ok=False, stored=len(events), replayed=len(replayed), mismatch=n)
    return Verification(ok=True, stored=len(events), replayed=len(replayed))
