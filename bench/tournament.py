"""Benchmark: tournament throughput with one and two workers, and the cost of ratings.

Prints games/s of a standard mixed tournament of code agents (every seat a code agent) run
with `--workers 1` and `--workers 2` (each into a fresh DuckDB file, writer included), the
speed-up between them, and the time to recompute TrueSkill ratings over 10,000 synthetic
games. Usage: `uv run python bench/tournament.py [--games 1000] [--rated 10000]`.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from cli.main import configure_logging
from engine.cattle.presets import load_preset
from events.store import DuckStore
from projections.ratings import SeatResult, load_results, rate
from runner.tournament import create, ensure_schema, pending_tasks, play_tournament

AGENTS = ("tracker", "setrace", "economy")


def run(games: int, workers: int, folder: Path) -> tuple[float, Path]:
    """Seconds to play and store a tournament of `games` games."""
    db = folder / f"bench-{workers}.duckdb"
    config = load_preset("standard")
    with DuckStore(db) as store:
        ensure_schema(store)
        create(store, "bench", "mixed", AGENTS, games, 7, config)
        _, tasks, _ = pending_tasks(store, "bench")
        start = time.perf_counter()
        stored = play_tournament(store, "bench", config, tasks, workers=workers, show=False)
        elapsed = time.perf_counter() - start
    assert stored == games
    return elapsed, db


def synthetic(games: int, seed: int = 1) -> list[SeatResult]:
    """Score rows of `games` four-seat games between five agents."""
    rng = random.Random(f"bench-ratings:{seed}")
    names = ("tracker", "setrace", "economy", "random", "other")
    rows = []
    for g in range(games):
        seats = rng.sample(names, 4)
        scores = [rng.choice((0, 0, 500, 1000, 2000, 4000, 8000)) for _ in seats]
        ranks = [1 + sum(o > x for o in scores) for x in scores]
        for s, (agent, score, rank) in enumerate(zip(seats, scores, ranks, strict=True)):
            rows.append(SeatResult(f"g{g:06d}", s, agent, score, rank, rng.randint(0, 4)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rated", type=int, default=10_000)
    args = parser.parse_args()
    configure_logging(verbose=False, log_json=False)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        one, db = run(args.games, 1, folder)
        print(f"workers=1: {args.games} games in {one:.1f} s = {args.games / one:.1f} games/s")
        two, _ = run(args.games, 2, folder)
        print(f"workers=2: {args.games} games in {two:.1f} s = {args.games / two:.1f} games/s")
        print(f"speed-up: {one / two:.2f}x")
        with DuckStore(db, read_only=True) as store:
            start = time.perf_counter()
            results = load_results(store, "bench")
            loaded = time.perf_counter() - start
        start = time.perf_counter()
        rate(results, shuffles=0)
        print(
            f"ratings of the {args.games} stored games: load {loaded:.2f} s,"
            f" TrueSkill {time.perf_counter() - start:.2f} s"
        )
    rows = synthetic(args.rated)
    start = time.perf_counter()
    rate(rows, shuffles=0)
    base = time.perf_counter() - start
    start = time.perf_counter()
    rate(rows, shuffles=3)
    full = time.perf_counter() - start
    print(
        f"ratings of {args.rated} synthetic games: {base:.2f} s in the fixed order,"
        f" {full:.2f} s with 3 reshuffles"
    )


if __name__ == "__main__":
    main()
