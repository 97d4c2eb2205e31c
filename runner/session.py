"""Play games and store them: the glue between agents, the driver and the store."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Sequence
from typing import Any

from agents import Agent, make_agents, parse_spec
from events import catalog
from events.codec import encode
from events.config import SeatSpec
from events.lazy import get_logger
from events.store import GameRow, Store, StoreError
from runner.driver import Game, GameRecord

log = get_logger("cattle.session")


def new_game_id() -> str:
    """A fresh, unique game id (store key; not part of the event stream)."""
    return uuid.uuid4().hex[:16]


def seat_specs(
    specs: Sequence[SeatSpec | str], game: str | catalog.GameDef | None = None
) -> tuple[SeatSpec, ...]:
    """Seat specs from strings or specs (agent names as `game` knows them)."""
    return tuple(s if isinstance(s, SeatSpec) else parse_spec(s, game) for s in specs)


def game_row(
    game_id: str, config: Any, seed: int, seats: Sequence[SeatSpec], tournament: str | None
) -> GameRow:
    """The `games` row of a new game of the game `config` configures."""
    game = catalog.for_config(config)
    return GameRow(
        game_id=game_id,
        seed=seed,
        config=config,
        seats=tuple(seats),
        engine_version=game.rules.version,
        game=game.name,
        tournament=tournament,
    )


def needs_io(config: Any, seed: int, specs: Sequence[SeatSpec | str]) -> bool:
    """True if any seat's agent waits on I/O (model seats): such games are written as they run."""
    game = catalog.for_config(config)
    return any(a.is_async for a in make_agents(seat_specs(specs, game), seed, config))


def play_game(config: Any, seed: int, specs: Sequence[SeatSpec | str]) -> GameRecord:
    """Play one game in memory (nothing stored)."""
    seats = seat_specs(specs, catalog.for_config(config))
    agents = make_agents(seats, seed, config)
    game = Game(config, seed, agents, seats)
    if any(a.is_async for a in agents):
        return asyncio.run(_run_async(game))
    return game.run()


async def play_game_async(config: Any, seed: int, specs: Sequence[SeatSpec | str]) -> GameRecord:
    """Play one game in memory in the running event loop (nothing stored), so that many games
    of one worker share its event loop and the per-provider limits that go with it."""
    seats = seat_specs(specs, catalog.for_config(config))
    agents = make_agents(seats, seed, config)
    return await _run_async(Game(config, seed, agents, seats))


async def _run_async(game: Game) -> GameRecord:
    try:
        return await game.run_async()
    finally:
        for a in game.agents:
            await a.close()


FLUSH_INTERVAL = 0.25
"""Seconds between writes of a game with model seats: events are written after any decision
once this long has passed since the last write, and at the end of every turn."""
FLUSH_ENV = "CATTLE_WRITE_INTERVAL"
"""Environment variable overriding `FLUSH_INTERVAL` (0: write after every decision)."""


def flush_interval() -> float:
    """Seconds between writes of a game with model seats ($CATTLE_WRITE_INTERVAL or default)."""
    text = os.environ.get(FLUSH_ENV, "").strip()
    if not text:
        return FLUSH_INTERVAL
    try:
        value = float(text)
    except ValueError:
        raise StoreError(f"{FLUSH_ENV} must be a number of seconds, got {text!r}") from None
    if not value >= 0:
        raise StoreError(f"{FLUSH_ENV} must be 0 or more, got {text!r}")
    return value


class ContinueError(StoreError):
    """A stored game cannot be continued: replaying its log gave different events."""


class _Sink:
    """Receives a game's final events and appends those the store does not have yet.

    When a game is continued, the driver plays it again from the start; the events it makes
    again are checked, byte for byte, against the stored ones instead of being written.
    """

    def __init__(self, store: Store, game_id: str, stored: Sequence[Any]) -> None:
        self.store = store
        self.game_id = game_id
        self.stored = [encode(e) for e in stored]
        self.seen = 0

    def __call__(self, events: list[Any], turns: list[int]) -> None:
        skip = 0
        for e in events:
            if self.seen + skip >= len(self.stored):
                break
            if encode(e) != self.stored[self.seen + skip]:
                raise ContinueError(
                    f"game {self.game_id} cannot be continued: playing it again from its log"
                    f" gave a different event at seq {self.seen + skip}"
                )
            skip += 1
        self.seen += len(events)
        if skip < len(events):
            self.store.append(self.game_id, events[skip:], turns[skip:])

    @property
    def caught_up(self) -> bool:
        """True once every stored event was played again."""
        return self.seen >= len(self.stored)


async def watch_readers(store: Store, every: float = 0.1) -> None:
    """Until cancelled, let the store's file go whenever another process waits to read it.

    Games with model seats spend most of their time waiting for answers while the writer
    keeps the file; this lets `cattle games`, `show`, `sql` ... in between.
    """
    while True:
        await asyncio.sleep(every)
        store.yield_to_readers()


async def play_stored(
    store: Store,
    config: Any,
    seed: int,
    specs: Sequence[SeatSpec | str],
    *,
    game_id: str,
    tournament: str | None = None,
    resume: bool = False,
    agents: Sequence[Agent] | None = None,
    watch: bool = True,
) -> GameRecord:
    """Play a game with model seats, writing its events while it runs.

    With `resume`, the stored game `game_id` is continued: it is played again from its seed,
    every decision its log holds answered from the log (no model is asked again), and play
    goes on live from where the log ends. If the game fails or is interrupted, every event
    played so far is written and the game is marked "abandoned" (it can be continued later).
    With `watch`, readers waiting for the file are let in while the game runs (pass False when
    a caller playing several games at once runs one `watch_readers` for all).
    """
    watcher = asyncio.create_task(watch_readers(store)) if watch else None
    try:
        return await _play_stored(store, config, seed, specs, game_id, tournament, resume, agents)
    finally:
        if watcher is not None:
            watcher.cancel()


async def _play_stored(
    store: Store,
    config: Any,
    seed: int,
    specs: Sequence[SeatSpec | str],
    game_id: str,
    tournament: str | None,
    resume: bool,
    agents: Sequence[Agent] | None,
) -> GameRecord:
    seats = seat_specs(specs, catalog.for_config(config))
    if agents is None:
        agents = make_agents(seats, seed, config)
    stored: list[Any] = []
    if resume:
        store.reopen_game(game_id)
        stored = store.load_events(game_id)
        for a in agents:
            a.resume(stored)
        log.info("game.continue", game_id=game_id, stored=len(stored))
    else:
        store.begin_game(game_row(game_id, config, seed, seats, tournament))
    sink = _Sink(store, game_id, stored)
    # A continued game goes on by the rules version it was started with.
    version = getattr(stored[0], "engine_version", None) if stored else None
    game = Game(
        config,
        seed,
        agents,
        seats,
        on_batch=sink,
        flush_interval=flush_interval(),
        version=version,
    )
    try:
        try:
            record = await game.run_async()
        finally:
            for a in game.agents:
                await a.close()
    except BaseException as exc:
        # Keep every event played so far (the log stays a valid prefix) and say the game did
        # not finish; the caller sees the error.
        try:
            if not isinstance(exc, ContinueError):
                game.flush()
        finally:
            store.end_game(game_id, "abandoned", failure_reason(exc))
            log.warning("game.abandoned", game_id=game_id, events=len(game.log), error=repr(exc))
        raise
    if not sink.caught_up:
        store.end_game(game_id, "abandoned", None)
        raise ContinueError(
            f"game {game_id} cannot be continued: its stored log is longer than the replayed game"
        )
    result = record.result
    store.end_game(
        game_id, "finished" if result else "abandoned", result.reason if result else None
    )
    return record


FAILED = "error: "
"""How the end reason of a game stopped by an error begins (an interrupted game has none)."""


def failure_reason(exc: BaseException) -> str | None:
    """The end reason stored for a game stopped by `exc`: its error, or None for an
    interruption (Ctrl-C, a cancelled task), which is no failure of the game."""
    if not isinstance(exc, Exception) or isinstance(exc, ContinueError):
        return None
    text = f"{type(exc).__name__}: {exc}".encode("utf-8", "replace").decode("utf-8")
    return FAILED + text[:500]


def play_and_store(
    store: Store,
    config: Any,
    seed: int,
    specs: Sequence[SeatSpec | str],
    *,
    game_id: str | None = None,
    tournament: str | None = None,
) -> tuple[str, GameRecord]:
    """Play one game and store it; return its id and record.

    Games of code agents are written in one transaction at the end. Games with agents that
    wait on I/O (model seats) are written while they run (`play_stored`).
    """
    seats = seat_specs(specs, catalog.for_config(config))
    game_id = game_id or new_game_id()
    log.debug("game.start", game_id=game_id, seed=seed, seats=[s.agent for s in seats])
    agents = make_agents(seats, seed, config)
    if not any(a.is_async for a in agents):
        record = Game(config, seed, agents, seats).run()
        store.save_game(
            game_row(game_id, config, seed, seats, tournament), record.events, record.turns
        )
    else:
        record = asyncio.run(
            play_stored(
                store, config, seed, seats, game_id=game_id, tournament=tournament, agents=agents
            )
        )
    result = record.result
    log.debug(
        "game.end", game_id=game_id, events=len(record.events), scores=result and result.scores
    )
    return game_id, record
