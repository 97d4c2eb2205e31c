"""Benchmark: rebuilding every derived table from events, and building the HTML report.

Prints (never asserts):
  * the rebuild of every derived table for 10,000 standard random games (~17M events), in
    events per second (wall clock and CPU time);
  * the report's build time for 1,000 games (three random styles, so every figure has data).

The game stores are generated once and cached under bench/out/ (gitignored).
Run: uv run python -m bench.metrics [--games 10000] [--report-games 1000]
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from pathlib import Path

import structlog

from bench.gen import OUT, cached_store
from events.store import DuckStore
from projections.metrics.aggregate import Selection
from projections.metrics.build import rebuild
from projections.metrics.report import build_report
from runner.sample import sample_store


def _sample(n: int) -> Path:
    path = OUT / f"sample-{n}.duckdb"
    if path.exists():
        return path
    t0 = time.perf_counter()
    sample_store(path, n, tournament="bench-sample")
    print(f"generated {n} sample games into {path} in {time.perf_counter() - t0:.1f}s")
    return path


def main() -> None:
    """Run both measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--report-games", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=2, help="Rebuilds to time (best is kept).")
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    load = os.getloadavg()
    print(f"cpus: {os.cpu_count()}, load average: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")

    path = cached_store(args.games)
    best = None
    with DuckStore(path) as store:
        for i in range(args.repeat):
            c0 = time.process_time()
            stats = rebuild(store.con)
            cpu = time.process_time() - c0
            print(
                f"rebuild {i + 1}: {stats.games:,} games, {stats.events:,} events,"
                f" {stats.rows:,} metric rows in {stats.seconds:.1f}s"
                f" (staging {stats.stage_seconds:.1f}s) = {stats.events_per_second:,.0f} events/s;"
                f" CPU {cpu:.1f}s = {stats.events / cpu:,.0f} events per CPU-second"
            )
            if best is None or stats.seconds < best.seconds:
                best = stats
    assert best is not None
    print(f"best rebuild: {best.events_per_second:,.0f} events/s (aim: 1,000,000)")

    spath = _sample(args.report_games)
    with DuckStore(spath) as store:
        t0 = time.perf_counter()
        rebuild(store.con)
        t_rebuild = time.perf_counter() - t0
        page, rstats = build_report(store.con, Selection())
    out = OUT / f"report-{args.report_games}.html"
    out.write_text(page, encoding="utf-8")
    print(
        f"report for {rstats.games:,} games, {rstats.agents} agents: built in {rstats.seconds:.1f}s"
        f" (after a {t_rebuild:.1f}s rebuild), {rstats.bytes / 1e6:.1f} MB -> {out}"
    )


if __name__ == "__main__":
    main()
