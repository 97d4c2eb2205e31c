"""Sample stores for tests, benchmarks and trying the report: random play with varied styles.

`register_styles()` adds two variants of the random agent ("random-bold": bids and overbids
more, rarely accepts; "random-shy": bids less, accepts more) so that a sample store has several
distinguishable agents. The games are ordinary games played by the engine.
"""

from __future__ import annotations

from pathlib import Path

from agents import known_agents, register
from agents.cattle.random_agent import RandomAgent
from engine.cattle.presets import load_preset
from events.store import DuckStore
from runner.session import play_and_store


class BoldRandom(RandomAgent):
    """Random play that bids and overbids more often and rarely accepts a trade offer."""

    spec = "random-bold"
    BID_CHANCE = 0.7
    OVERBID_CHANCE = 0.08
    ACCEPT_CHANCE = 0.15


class ShyRandom(RandomAgent):
    """Random play that bids less and accepts trade offers more often."""

    spec = "random-shy"
    BID_CHANCE = 0.25
    OVERBID_CHANCE = 0.0
    ACCEPT_CHANCE = 0.7


def register_styles() -> None:
    """Make "random-bold" and "random-shy" available as agent specs (idempotent)."""
    if "random-bold" not in known_agents():
        register("random-bold", lambda spec, seat, seed, config: BoldRandom(seat, seed, config))
        register("random-shy", lambda spec, seat, seed, config: ShyRandom(seat, seed, config))


LINEUP = ("random", "random-bold", "random-shy", "random")


def sample_store(
    path: str | Path,
    games: int,
    *,
    preset: str = "standard",
    tournament: str | None = "sample",
    first_seed: int = 0,
) -> Path:
    """Play `games` games (seats rotate through a fixed line-up) into the DuckDB file `path`."""
    register_styles()
    config = load_preset(preset)
    with DuckStore(path) as store:
        for i in range(games):
            seed = first_seed + i
            lineup = [LINEUP[(seed + s) % len(LINEUP)] for s in range(config.players)]
            play_and_store(
                store,
                config,
                seed,
                lineup,
                game_id=f"{tournament or 'game'}-{seed:05d}",
                tournament=tournament,
            )
    return Path(path)
