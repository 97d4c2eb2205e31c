"""Benchmark: rebuilding every derived table from events, and building the HTML report.

Prints (never asserts):
  * the rebuild of every derived table for 10,000 standard random games (~17M events), in
    events per second (wall clock and CPU time);
  * the report's build time for 1,000 games (three random styles, so every figure has data);
  * `cattle report` as a user runs it (a subprocess, wall clock) on ~200 mixed games: two
    model agents on the loopback server (some answers truncated) and a random agent, each
    against the code-agent compositions C1-C7, so every figure of the paper has data. The
    first run rebuilds the derived tables, the later ones find them fresh.

The game stores are generated once and cached under bench/out/ (gitignored).
Run: uv run python -m bench.metrics [--games 10000] [--report-games 1000] [--mixed-games 200]
     [--parts rebuild,report,mixed] [--json]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import structlog

from bench.gen import OUT, cached_store
from events.store import DuckStore
from projections.cattle.metrics.build import rebuild
from projections.cattle.metrics.report import build_report
from projections.metrics.aggregate import Selection
from runner.cattle.sample import sample_store


def _sample(n: int) -> Path:
    path = OUT / f"sample-{n}.duckdb"
    if path.exists():
        return path
    t0 = time.perf_counter()
    sample_store(path, n, tournament="bench-sample")
    print(f"generated {n} sample games into {path} in {time.perf_counter() - t0:.1f}s")
    return path


def _cattle(env: dict[str, str], *args: str) -> float:
    """Run the CLI as a user would; return its wall-clock seconds."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", "from cli.main import run; run()", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode:
        raise SystemExit(f"cattle {args[0]} failed: {proc.stderr.strip()[-400:]}")
    return time.perf_counter() - t0


def _model_env(tmp: Path) -> dict[str, str]:
    config = tmp / "llm.toml"
    config.write_text("")
    env = {
        **os.environ,
        "OPENAI_API_KEY": "sk-bench",
        "ANTHROPIC_API_KEY": "sk-ant-bench",
        "CATTLE_LLM_BACKOFF": "0.001",
        "CATTLE_LLM_CONFIG": str(config),
    }
    for var in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        env.pop(var, None)
    return env


def mixed_store(n: int) -> Path:
    """~n mixed games (two loopback model agents and random against C1-C7), cached."""
    from agents.llm.loopback import FaultPolicy, LegalPolicy, LoopbackServer

    path = OUT / f"mixed-{n}.duckdb"
    if path.exists():
        return path
    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        env = _model_env(Path(tmp))
        faults = [("any", "truncated")] * 40 + [("bid", "prose")] * 20
        with LoopbackServer(FaultPolicy(LegalPolicy(), faults)) as srv:
            agents = f"openai:m1@{srv.openai_url},anthropic:m2@{srv.url},random"
            _cattle(
                env,
                "tournament",
                "--format",
                "mixed",
                "--agents",
                agents,
                "--games",
                str(n),
                "--seed",
                "1",
                "--workers",
                "4",
                "--quiet",
                "--name",
                "bench-mixed",
                "--db",
                str(path),
            )
    print(f"generated {n} mixed games into {path} in {time.perf_counter() - t0:.1f}s")
    return path


def bench_mixed_report(n: int, repeat: int) -> dict[str, Any]:
    """Time `cattle report` on the mixed store: a cold run (rebuild), then warm runs."""
    path = mixed_store(n)
    out = OUT / f"report-mixed-{n}.html"
    with tempfile.TemporaryDirectory() as tmp:
        env = _model_env(Path(tmp))
        with DuckStore(path) as store:
            store.con.execute("DROP TABLE IF EXISTS main.derived_meta")
        cold = _cattle(env, "report", "--db", str(path), "--out", str(out))
        warm = [_cattle(env, "report", "--db", str(path), "--out", str(out)) for _ in range(repeat)]
    res = {
        "games": n,
        "cold_seconds": round(cold, 2),
        "warm_seconds": [round(w, 2) for w in warm],
        "warm_best_seconds": round(min(warm), 2),
        "html_bytes": out.stat().st_size,
    }
    print(
        f"cattle report on {n} mixed games: cold (with rebuild) {cold:.1f}s,"
        f" warm {', '.join(f'{w:.1f}s' for w in warm)}, {res['html_bytes'] / 1e6:.1f} MB -> {out}"
    )
    return res


def main() -> None:
    """Run the measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--report-games", type=int, default=1_000)
    parser.add_argument("--mixed-games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=2, help="Timed runs of each (best kept).")
    parser.add_argument(
        "--parts", default="rebuild,report,mixed", help="Which measurements, comma-separated."
    )
    parser.add_argument("--json", action="store_true", help="Also print the figures as JSON.")
    args = parser.parse_args()
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    unknown = parts - {"rebuild", "report", "mixed"}
    if unknown:
        parser.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    load = os.getloadavg()
    print(f"cpus: {os.cpu_count()}, load average: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    result: dict[str, Any] = {"load_average": [round(x, 2) for x in load]}
    if "rebuild" in parts:
        result["rebuild"] = bench_rebuild(args.games, args.repeat)
    if "report" in parts:
        result["report"] = bench_report(args.report_games)
    if "mixed" in parts:
        result["mixed_report"] = bench_mixed_report(args.mixed_games, args.repeat)
    if args.json:
        print(json.dumps(result, indent=2))


def bench_rebuild(games: int, repeat: int) -> dict[str, Any]:
    """Rebuild every derived table of the cached random store; the best of `repeat` runs."""
    path = cached_store(games)
    best = None
    with DuckStore(path) as store:
        for i in range(repeat):
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
    return {
        "games": best.games,
        "events": best.events,
        "seconds": round(best.seconds, 2),
        "events_per_second": round(best.events_per_second),
    }


def bench_report(games: int) -> dict[str, Any]:
    """Build the report (in process) for the cached sample store."""
    spath = _sample(games)
    with DuckStore(spath) as store:
        t0 = time.perf_counter()
        rebuild(store.con)
        t_rebuild = time.perf_counter() - t0
        page, rstats = build_report(store.con, Selection())
    out = OUT / f"report-{games}.html"
    out.write_text(page, encoding="utf-8")
    print(
        f"report for {rstats.games:,} games, {rstats.agents} agents: built in {rstats.seconds:.1f}s"
        f" (after a {t_rebuild:.1f}s rebuild), {rstats.bytes / 1e6:.1f} MB -> {out}"
    )
    return {
        "games": rstats.games,
        "seconds": round(rstats.seconds, 2),
        "rebuild_seconds": round(t_rebuild, 2),
        "bytes": rstats.bytes,
    }


if __name__ == "__main__":
    main()
