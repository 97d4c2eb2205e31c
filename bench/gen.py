"""Generate (once) and cache a DuckDB file of standard random games for the benchmarks."""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from engine.cattle.presets import load_preset
from engine.cattle.rules import ENGINE_VERSION
from events.store import DuckStore, GameRow
from runner.session import play_game, seat_specs

OUT = Path(__file__).parent / "out"


def _play(seeds: list[int]) -> list[tuple[GameRow, list[Any], list[int]]]:
    config = load_preset("standard")
    seats = seat_specs(["random"] * config.players)
    games = []
    for seed in seeds:
        record = play_game(config, seed, seats)
        row = GameRow(
            game_id=f"bench-{seed:06d}",
            seed=seed,
            config=config,
            seats=seats,
            engine_version=ENGINE_VERSION,
            tournament="bench",
        )
        games.append((row, record.events, record.turns))
    return games


def cached_store(n_games: int, workers: int = 2) -> Path:
    """Path of a DuckDB file holding `n_games` standard random games (generated if missing)."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"standard-{n_games}.duckdb"
    if path.exists():
        with DuckStore(path) as store:
            _, rows = store.query("SELECT count(*) FROM games WHERE status = 'finished'")
        if rows[0][0] == n_games:
            return path
        path.unlink()
    t0 = time.perf_counter()
    chunks = [list(range(i, min(i + 100, n_games))) for i in range(0, n_games, 100)]
    with DuckStore(path) as store, ProcessPoolExecutor(workers) as pool:
        done = 0
        for games in pool.map(_play, chunks):
            store.save_games(games)
            done += len(games)
            if done % 1000 == 0:
                print(f"  generated {done}/{n_games} games ({time.perf_counter() - t0:.0f}s)")
    print(f"generated {n_games} games into {path} in {time.perf_counter() - t0:.1f}s")
    return path


if __name__ == "__main__":
    import sys

    cached_store(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
