"""The game driver: runs one game of any registered game from a seed and a list of agents.

It asks the rules what decision is pending and from whom, asks those agents (the seats of a
simultaneous decision concurrently), and feeds their actions to the rules. Every event, and
every event an agent records (model exchanges, notes), lands in the log in order. The driver
knows nothing of any game: it reaches the rules, the seats' views and the result through the
game's definition (`events.catalog`).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from events import catalog
from events.base import PUBLIC, Event
from events.catalog import END_TAG, GameDef
from events.config import SeatSpec

if TYPE_CHECKING:
    from agents.base import Agent


class GameRecord(msgspec.Struct, kw_only=True):
    """A played game: its log and, per event, the turn it happened in."""

    seed: int
    config: Any
    seats: tuple[SeatSpec, ...]
    events: list[Any]
    turns: list[int]

    @property
    def result(self) -> Any:
        """The final event (tagged `game_ended`: reason, scores, ranks), if the game ended."""
        last = self.events[-1] if self.events else None
        if last is not None and last.__struct_config__.tag == END_TAG:
            return last
        return None


class LogPosition(NamedTuple):
    """Handed to agents that do not read a view: how many events came before the decision."""

    seen: int


MAX_DECISIONS = 100_000
"""The driver's own guard, for every game: no game asks more decisions than this, or than the
bound its rules state (`max_decisions(config)`), whichever is smaller; see docs/bounds.md."""


class RunawayGame(RuntimeError):
    """A game asked for more decisions than its bound allows: a bug in its rules."""


def decision_limit(game: GameDef, config: Any) -> int:
    """How many decisions the driver lets one game of `config` ask before it stops it."""
    bound = getattr(game.rules, "max_decisions", None)
    if bound is None:
        return MAX_DECISIONS
    return min(int(bound(config)), MAX_DECISIONS)


Batch = Callable[[list[Any], list[int]], None]
"""Receives events as they become final (one turn at a time), with their turns."""


def rules_for(game: GameDef, engine_version: str | None) -> Any:
    """The rules of `game` that record games stamped `engine_version` (None: the current
    rules; a version the rules do not offer also gives the current ones)."""
    rules = game.rules
    if engine_version is None or engine_version == rules.version:
        return rules
    pick = getattr(rules, "for_version", None)
    older = pick(engine_version) if pick is not None else None
    return older if older is not None else rules


@functools.lru_cache(maxsize=64)
def _public_types(event_types: tuple[type, ...]) -> frozenset[type]:
    """The event types that keep the base's audience (every seat), found once per game."""
    return frozenset(t for t in event_types if getattr(t, "audience", None) is Event.audience)


class Game:
    """One game in progress: state, log and the seats' views."""

    def __init__(
        self,
        config: Any,
        seed: int,
        agents: Sequence[Agent],
        seats: Sequence[SeatSpec] | None = None,
        *,
        on_batch: Batch | None = None,
        flush_interval: float | None = None,
        game: GameDef | None = None,
        version: str | None = None,
    ) -> None:
        self.game = game if game is not None else catalog.for_config(config)
        self.version = version
        """The rules version to play by when not the current one (a replay of an older log)."""
        self.rules = rules_for(self.game, version)
        config.validate()
        if len(agents) != config.players:
            raise ValueError(f"{config.players} agents expected, got {len(agents)}")
        self.config = config
        self.seed = seed
        self.agents = list(agents)
        self.seats = (
            tuple(seats) if seats is not None else tuple(SeatSpec(agent=a.spec) for a in agents)
        )
        self.state: Any = None
        self.log: list[Any] = []
        self.turns: list[int] = []
        self.audiences: list[Any] = []
        self.views = [self.game.new_view(i) for i in range(config.players)]
        # A view class that names the event types it folds (`FOLDS`) is handed their
        # positions, found here once for every seat, and passes over the other events.
        self._folds: frozenset[type] | None = getattr(type(self.views[0]), "FOLDS", None)
        self.marks: list[int] = []
        # Per event, the driver asks the rules for its turn only if the rules say its type
        # may start one (`TURN_TYPES`, when they say), and asks the event for its audience
        # only if its type does not keep the base's (every seat).
        self._turn_types: frozenset[type] | None = getattr(self.rules, "TURN_TYPES", None)
        self._public = _public_types(self.game.event_types)
        self._sync_args: tuple[Any, ...] = (
            (self.log, self.audiences)
            if self._folds is None
            else (self.log, self.audiences, self.marks)
        )
        self.on_batch = on_batch
        self.flush_interval = flush_interval
        """With `on_batch`: also hand events over after any decision once this many seconds
        passed since the last hand-over (not only at the end of a turn)."""
        self._flushed = 0
        self._flushed_at = time.monotonic()
        self._turn = 0
        # The bound a game's rules state is for their current version; a log of an older
        # version replays under the driver's own guard only.
        older = version is not None and version != self.rules.version
        self.limit = MAX_DECISIONS if older else decision_limit(self.game, config)
        """The most decisions this game may ask (`decision_limit`)."""
        self.decisions = 0
        """Decisions asked so far (a simultaneous round counts once)."""

    # ---- plumbing --------------------------------------------------------------------------

    def _append(self, events: Sequence[Any]) -> None:
        turn = self._turn
        turns = self.turns
        audiences = self.audiences
        turn_of = self.rules.turn_of
        turn_types, public = self._turn_types, self._public
        folds = self._folds
        marks = self.marks
        pos = len(self.log)
        for e in events:
            cls = e.__class__
            if turn_types is None or cls in turn_types:
                turn = turn_of(e, turn)
            turns.append(turn)
            audiences.append(PUBLIC if cls in public else e.audience())
            if folds is not None and cls in folds:
                marks.append(pos)
            pos += 1
        self._turn = turn
        self.log.extend(events)

    def _apply(self, decision: Any, actions: Sequence[Any]) -> None:
        self.state, events = self.rules.step(self.state, decision, actions)
        self._append(events)

    def _record(self, agent: Agent) -> None:
        extra = agent.drain()
        if extra:
            self._add(extra)

    def _add(self, extra: list[Any]) -> None:
        """Fold and log the events an agent recorded."""
        state = self.state
        evolve = self.rules.evolve
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

    def view(self, seat: int) -> Any:
        """The seat's view, brought up to date."""
        return self.views[seat].sync(*self._sync_args)

    def _view_for(self, seat: int, agent: Agent) -> Any:
        """What `agent` is handed: its seat's view, or only the log position for an agent
        that reads nothing else (its view is never folded, and never handed out)."""
        if agent.reads_view:
            return self.views[seat].sync(*self._sync_args)
        return LogPosition(len(self.log))

    def record(self) -> GameRecord:
        """The game so far as a record."""
        return GameRecord(
            seed=self.seed, config=self.config, seats=self.seats, events=self.log, turns=self.turns
        )

    def _start(self) -> None:
        version = self.version
        if version is None or version == self.rules.version:
            self.state, events = self.rules.start(self.config, self.seed, self.seats)
        elif version in getattr(self.rules, "versions", ()):
            start: Any = self.rules.start
            self.state, events = start(self.config, self.seed, self.seats, version=version)
        else:
            raise ValueError(
                f"{self.game.name} rules {self.rules.version} cannot play version {version}"
            )
        self._append(events)

    def _count(self) -> None:
        """Count one decision; stop a game that asks more than its limit."""
        self.decisions += 1
        if self.decisions > self.limit:
            raise RunawayGame(
                f"{self.game.name} asked more than {self.limit} decisions (seed {self.seed})"
            )

    # ---- loops -----------------------------------------------------------------------------

    def run(self) -> GameRecord:
        """Play to the end with synchronous agents."""
        self._start()
        agents = self.agents
        pending = self.rules.pending
        count = self._count
        while (d := pending(self.state)) is not None:
            count()
            seats = d.seats
            if len(seats) > 1:
                bids: list[Any] = []
                for seat in seats:
                    agent = agents[seat]
                    bids.append(agent.act(self._view_for(seat, agent), d))
                for seat in seats:
                    if extra := agents[seat].drain():
                        self._add(extra)
                self._apply(d, bids)
            else:
                seat = seats[0]
                agent = agents[seat]
                action = agent.act(self._view_for(seat, agent), d)
                if extra := agent.drain():
                    self._add(extra)
                self._apply(d, (action,))
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
        rules = self.rules
        active: int | None = None
        while (d := rules.pending(self.state)) is not None:
            self._count()
            now = rules.active(self.state)
            if now != active:
                if active is not None and active >= 0:
                    await agents[active].after_turn(self._view_for(active, agents[active]))
                    self._record(agents[active])
                    self.flush()
                active = now
            seats = d.seats
            if len(seats) > 1:
                views = [self._view_for(seat, agents[seat]) for seat in seats]
                bids: list[Any] = await asyncio.gather(
                    *(agents[seat].aact(view, d) for seat, view in zip(seats, views, strict=True))
                )
                for seat in seats:
                    self._record(agents[seat])
                self._apply(d, bids)
            else:
                seat = seats[0]
                agent = agents[seat]
                action = await agent.aact(self._view_for(seat, agent), d)
                self._record(agent)
                self._apply(d, (action,))
            self._maybe_flush()
        if active is not None and active >= 0:
            await agents[active].after_turn(self._view_for(active, agents[active]))
            self._record(agents[active])
        self.flush()
        return self.record()


def play(
    config: Any,
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
