"""Benchmark: the PACT metrics, CMS weight choice and report on synthetic games.

Prints (never asserts), for a round robin of six quoting styles (tests/pact_metrics/pact_synth):
  * loading the games and every metric's per-game rows from DuckDB;
  * the analysis: point estimates, bootstrap intervals, the CMS weight over 21 candidates and
    the two Glicko-2 leaderboards;
  * the PACT report page (figures included);
  * how often the chosen weight changes with the bootstrap seed.

Run: uv run python -m bench.pact_metrics [--games 1000] [--resamples 1000] [--seeds 5]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import duckdb

from projections.pact import metrics as P
from projections.pact.report import build_pact_report

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "pact_metrics"))

import pact_synth as S


def main() -> None:
    """Generate the store, then time each step (best of three where cheap)."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args()
    styles = S.STYLES
    per_deal = len(styles) * (len(styles) - 1)
    deals = max(1, round(args.games / per_deal))
    with tempfile.TemporaryDirectory() as d:
        path = S.write(Path(d) / "bench.duckdb", S.round_robin(styles, deals=deals, seed=1))
        con = duckdb.connect(str(path), read_only=True)
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            data = P.load(con)
            times.append(time.perf_counter() - t0)
        print(f"{len(data.games)} games, {len(data.agents)} agents, {deals} deals per pair")
        print(f"load (games and metric rows): {min(times):.3f}s")
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            analysis = P.analyse(data, resamples=args.resamples, seed=0)
            times.append(time.perf_counter() - t0)
        print(
            f"analyse ({args.resamples} resamples, {len(P.ALPHA_GRID)} weights, Glicko-2 x2):"
            f" {min(times):.3f}s; alpha = {analysis.alpha.alpha}"
        )
        t0 = time.perf_counter()
        _page, stats = build_pact_report(con, resamples=args.resamples)
        print(
            f"report page (load + analyse + 7 figures): {time.perf_counter() - t0:.2f}s,"
            f" {stats.bytes / 1e6:.2f} MB"
        )
        runs = [P.analyse(data, resamples=args.resamples, seed=s) for s in range(args.seeds)]
        print(f"alpha over bootstrap seeds 0..{args.seeds - 1}: {[r.alpha.alpha for r in runs]}")
        orders = {tuple(p.agent for p in r.agents) for r in runs}
        print(f"distinct CMS orderings over those seeds: {len(orders)}")
        con.close()


if __name__ == "__main__":
    main()
