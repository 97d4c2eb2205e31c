"""GameBench suite and report benchmark: prints figures, asserts nothing.

    uv run python bench/gamebench_suite_bench.py [--matches N] [--workers W]

Plays a suite of `random` against `heuristic` over every GameBench game of the catalogue
(N matches per game, stored as `cattle tournament --game gamebench` stores them), then times
the analysis behind `cattle report --game gamebench`: the bootstrapped Bradley-Terry fits
(overall and per game) at 1,000 and 10,000 samples (GameBench drew 10,000), and the whole
HTML page with its three figures at 1,000.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from events import catalog
from events.store import DuckStore
from projections.gamebench import report as R
from projections.metrics.aggregate import Selection
from runner.tournament import (
    create_suite,
    ensure_schema,
    pending_tasks,
    play_tournament,
    suite_games,
)


def main() -> None:
    """Play one suite, then time its analysis; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    games = suite_games("gamebench")
    with tempfile.TemporaryDirectory() as tmp, DuckStore(Path(tmp) / "s.duckdb") as store:
        ensure_schema(store)
        create_suite(store, "bench", "gamebench", ("random", "heuristic"), args.matches, 1, games)
        _, tasks, _ = pending_tasks(store, "bench")
        t0 = time.perf_counter()
        played = play_tournament(store, "bench", None, tasks, workers=args.workers)
        seconds = time.perf_counter() - t0
        print(f"suite: {len(games)} games x {args.matches} matches = {played} stored in"
              f" {seconds:.1f}s ({played / seconds:.1f} games/s, {args.workers} worker(s))")  # fmt: skip
        names = tuple(g.name for g in catalog.family("gamebench"))
        sel = Selection(game=None, among=names)
        records = R.load_records(store.con, sel)
        for samples in (1000, 10_000):
            t0 = time.perf_counter()
            R.analyse(records, samples)
            print(f"analysis, {samples:>6,} samples: {time.perf_counter() - t0:6.2f}s"
                  f" ({1 + len(games)} bootstrapped fits over {len(records)} matches)")  # fmt: skip
        t0 = time.perf_counter()
        page, _ = R.build_report(store.con, sel, "bench", 1000)
        print(
            f"HTML page, 1,000 samples: {time.perf_counter() - t0:.2f}s, {len(page) / 1e3:.0f} kB"
        )


if __name__ == "__main__":
    main()
