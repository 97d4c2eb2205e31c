"""The game driver: runs one game from a seed and a list of agents.

It asks the state what decision is pending and from whom, asks those agents (the bidders of
a simultaneous round concurrently), and feeds their actions to the rules. Every event, and
every event an agent records (model exchanges, notes), lands in the log in order.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from engine import actions as act
from engine.rules import pending, step
from engine.state import GameState, evolve, initial_state
from events import game as ev
from events.domain import GameConfig, SeatSpec
from projections.observation import SeatView

if TYPE_CHECKING:
    from agents.base import Agent


class GameRecord(msgspec.Struct, kw_only=True):
    """A played game: its log and, per event, the turn it happened in."""

    seed: int
    config: GameConfig
    seats: tuple[SeatSpec, ...]
    events: list[Any]
    turns: list[int]

    @property
    def result(self) -> ev.GameEnded | None:
        """The final event, if the game ended."""
        last = self.events[-1] if self.events else None
        return last if isinstance(last, ev.GameEnded) else None


Batch = Callable[[list[Any], list[int]], None]
"""Receives events as they become final (one turn at a time), with their turns."""


class Game:
    """One game in progress: state, log and the seats' views."""

    def __init__(
        self,
        config: GameConfig,
        seed: int,
        agents: Sequence[Agent],
        seats: Sequence[SeatSpec] | None = None,
        *,
        on_batch: Batch | None = None,
        flush_interval: float | None = None,
    ) -> None:
        config.validate()
        if len(agents) != config.players:
            raise ValueError(f"{config.players} agents expected, got {len(agents)}")
        self.config = config
        self.seed = seed
        self.agents = list(agents)
        self.seats = (
            tuple(seats) if seats is not None else tuple(SeatSpec(agent=a.spec) for a in agents)
        )
        self.state: GameState = initial_state(config)
        self.log: list[Any] = []
        self.turns: list[int] = []
        self.audiences: list[Any] = []
        self.views = [SeatView(i) for i in range(config.players)]
        self.on_batch = on_batch
        self.flush_interval = flush_interval
        """With `on_batch`: also hand events over after any decision once this many seconds
        passed since the last hand-over (not only at the end of a turn)."""
        self._flushed = 0
        self._flushed_at = time.monotonic()
        self._turn = 0

    # ---- plumbing --------------------------------------------------------------------------

    def _append(self, events: Sequence[Any]) -> None:
        turn = self._turn
        turns = self.turns
        audiences = self.audiences
        for e in events:
            if type(e) is ev.TurnStarted:
                turn = e.turn
            turns.append(turn)
            audiences.append(e.audience())
        self._turn = turn
        self.log.extend(events)

    def _apply(self, command: act.Command, decision: Any = None) -> None:
        self.state, events = step(self.state, command, decision)
        self._append(events)

    def _record(self, agent: Agent) -> None:
        extra = agent.drain()
        if extra:
            state = self.state
            for e in extra:
                state = evolve(state, e)
            self.state = state
            self._append(extra)

    def flush(self) -> None:
        """Hand the events not yet handed over to `on_batch`."""
        if self.on_batch is not None and self._flushed < len(self.log):
            self.on_batch(self.log[self._flushed :], self.turns[self._flushed :])
            self._flushed = len(self.log)
            self._flushed_at = time.monotonic()

    def _maybe_flush(self) -> None:
        # Timing only decides when finished events are written, never what they are.
        if (
            self.flush_interval is not None
            and time.monotonic() - self._flushed_at >= self.flush_interval
        ):
            self.flush()

    def view(self, seat: int) -> SeatView:
        """The seat's view, brought up to date."""
        return self.views[seat].sync(self.log, self.audiences)

    def record(self) -> GameRecord:
        """The game so far as a record."""
        return GameRecord(
            seed=self.seed, config=self.config, seats=self.seats, events=self.log, turns=self.turns
        )

    def _start(self) -> None:
        self._apply(act.StartGame(seed=self.seed, seats=self.seats, config=self.config))

    # ---- loops -----------------------------------------------------------------------------

    def run(self) -> GameRecord:
        """Play to the end with synchronous agents."""
        self._start()
        agents = self.agents
        while (d := pending(self.state)) is not None:
            seats = d.seats
            if len(seats) > 1:
                bids: list[Any] = []
                for seat in seats:
                    bids.append(agents[seat].act(self.view(seat), d))
                for seat in seats:
                    self._record(agents[seat])
                self._apply(act.Simultaneous(actions=tuple(bids)), d)
            else:
                seat = seats[0]
                agent = agents[seat]
                action = agent.act(self.view(seat), d)
                self._record(agent)
                self._apply(action, d)
            if (
                self.on_batch is not None
                and self.turns[-1] != self.turns[self._flushed - 1 if self._flushed else 0]
            ):
                self.flush()
        self.flush()
        return self.record()

    async def run_async(self) -> GameRecord:
        """Play to the end, awaiting agents; a simultaneous round asks its seats concurrently."""
        self._start()
        agents = self.agents
        active = -1
        while (d := pending(self.state)) is not None:
            if self.state.active != active:
                if active >= 0:
                    await agents[active].after_turn(self.view(active))
                    self._record(agents[active])
                    self.flush()
                active = self.state.active
            seats = d.seats
            if len(seats) > 1:
                views = [self.view(seat) for seat in seats]
                bids: list[Any] = await asyncio.gather(
                    *(agents[seat].aact(view, d) for seat, view in zip(seats, views, strict=True))
                )
                for seat in seats:
                    self._record(agents[seat])
                self._apply(act.Simultaneous(actions=tuple(bids)))
            else:
                seat = seats[0]
                agent = agents[seat]
                action = await agent.aact(self.view(seat), d)
                self._record(agent)
                self._apply(action)
            self._maybe_flush()
        if active >= 0:
            await agents[active].after_turn(self.view(active))
            self._record(agents[active])
        self.flush()
        return self.record()


def play(
    config: GameConfig,
    seed: int,
    agents: Sequence[Agent],
    seats: Sequence[SeatSpec] | None = None,
    *,
    on_batch: Batch | None = None,
) -> GameRecord:
    """Play one game to the end; uses the synchronous loop when every agent allows it."""
    game = Game(config, seed, agents, seats, on_batch=on_batch)
    if any(a.is_async for a in agents):
        return asyncio.run(game.run_async())
    return game.run()
