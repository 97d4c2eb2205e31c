"""One game of a tournament as a task: what a worker (a process, a Ray task, the writer's own
event loop) needs to play it, and the playing, returning rows ready for the single writer."""

from __future__ import annotations

from typing import Any

import msgspec

from events.store import PreparedGame, prepare_game
from runner.session import game_row


class GameTask(msgspec.Struct, frozen=True, kw_only=True):
    """What a worker needs to play one game."""

    index: int
    game_id: str
    seed: int
    seats: tuple[str, ...]
    config: Any
    tournament: str
    io: bool = False
    """Some seat waits on I/O (a model): played in the writer process, written as it runs."""
    resume: bool = False
    """Continue the stored unfinished game `game_id` instead of starting it."""


def simulate(task: GameTask) -> tuple[int, PreparedGame]:
    """Play one game (in a worker process) and return it as rows ready for the writer. A
    game that raises comes back abandoned, with the events played before its error and the
    error as its end reason (`session.FAILED`), so that the rest of the tournament goes on."""
    from agents import make_agents
    from events import catalog
    from runner.driver import Game
    from runner.session import failure_reason, play_game, seat_specs

    seats = seat_specs(list(task.seats), catalog.for_config(task.config))
    agents = make_agents(seats, task.seed, task.config)
    row = game_row(task.game_id, task.config, task.seed, seats, task.tournament)
    if any(a.is_async for a in agents):
        played = play_game(task.config, task.seed, seats)
        return task.index, prepare_game(row, played.events, played.turns)
    game = Game(task.config, task.seed, agents, seats)
    try:
        record = game.run()
    except Exception as exc:
        failed = msgspec.structs.replace(row, status="abandoned", end_reason=failure_reason(exc))
        n = len(game.turns)
        return task.index, prepare_game(failed, game.log[:n], game.turns)
    return task.index, prepare_game(row, record.events, record.turns)


async def simulate_async(task: GameTask) -> tuple[int, PreparedGame]:
    """Play one game with model seats to its end in the running event loop (a worker that
    plays many at once) and return it as rows ready for the writer."""
    from runner.session import play_game_async

    record = await play_game_async(task.config, task.seed, list(task.seats))
    row = game_row(task.game_id, task.config, task.seed, record.seats, task.tournament)
    return task.index, prepare_game(row, record.events, record.turns)
