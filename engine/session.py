"""Play games and store them: the glue between agents, the driver and the store."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import structlog

from agents import make_agents, parse_spec
from engine.driver import Game, GameRecord
from engine.rules import ENGINE_VERSION
from events.domain import GameConfig, SeatSpec
from events.store import GameRow, Store

log = structlog.get_logger("cattle.session")


def new_game_id() -> str:
    """A fresh, unique game id (store key; not part of the event stream)."""
    return uuid.uuid4().hex[:16]


def seat_specs(specs: Sequence[SeatSpec | str]) -> tuple[SeatSpec, ...]:
    """Seat specs from strings or specs."""
    return tuple(s if isinstance(s, SeatSpec) else parse_spec(s) for s in specs)


def play_game(config: GameConfig, seed: int, specs: Sequence[SeatSpec | str]) -> GameRecord:
    """Play one game in memory (nothing stored)."""
    seats = seat_specs(specs)
    agents = make_agents(seats, seed, config)
    game = Game(config, seed, agents, seats)
    if any(a.is_async for a in agents):
        import asyncio

        return asyncio.run(_run_async(game))
    return game.run()


async def _run_async(game: Game) -> GameRecord:
    try:
        return await game.run_async()
    finally:
        for a in game.agents:
            await a.close()


def play_and_store(
    store: Store,
    config: GameConfig,
    seed: int,
    specs: Sequence[SeatSpec | str],
    *,
    game_id: str | None = None,
    tournament: str | None = None,
) -> tuple[str, GameRecord]:
    """Play one game and store it; return its id and record.

    Games of code agents are written in one transaction at the end. Games with agents that
    wait on I/O (LLMs) are written turn by turn; if such a game fails (an agent raises, the
    process is interrupted), every event played so far is written and the game is marked
    "abandoned" before the error propagates.
    """
    seats = seat_specs(specs)
    game_id = game_id or new_game_id()
    agents = make_agents(seats, seed, config)
    row = GameRow(
        game_id=game_id,
        seed=seed,
        config=config,
        seats=seats,
        engine_version=ENGINE_VERSION,
        tournament=tournament,
    )
    log.debug("game.start", game_id=game_id, seed=seed, seats=[s.agent for s in seats])
    if not any(a.is_async for a in agents):
        record = Game(config, seed, agents, seats).run()
        store.save_game(row, record.events, record.turns)
    else:
        import asyncio

        store.begin_game(row)
        game = Game(
            config,
            seed,
            agents,
            seats,
            on_batch=lambda evs, turns: store.append(game_id, evs, turns),
        )
        try:
            record = asyncio.run(_run_async(game))
        except BaseException as exc:
            # Keep every event played so far (the log is a valid prefix) and say the game
            # did not finish; the caller sees the error.
            game.flush()
            store.end_game(game_id, "abandoned", None)
            log.warning("game.abandoned", game_id=game_id, events=len(game.log), error=repr(exc))
            raise
        result = record.result
        store.end_game(
            game_id, "finished" if result else "abandoned", result.reason if result else None
        )
    result = record.result
    log.debug(
        "game.end", game_id=game_id, events=len(record.events), scores=result and result.scores
    )
    return game_id, record
