"""Benchmark of tournaments beyond one process: executors, the single writer, model games.

1. Code-agent tournament games/s (a standard mixed tournament, writer included, each into a
   fresh DuckDB file) with the local executor at 1 and 2 workers and with Ray on a local
   cluster of 2 CPUs (started before the clock runs, its workers warmed up by a few games).
2. The writer's capacity: games played beforehand, then stored through the store's public
   API alone (`save_prepared`, 16 games a transaction, as the tournament writer does): games/s,
   events/s and MB/s it absorbs, for code-agent games and for games with model seats; and the
   decision-by-decision path of model games written while they run (`append`), per second.
3. Model games at scale: standard games with four model seats against the loopback server
   answering after --delay seconds, one game alone, then --model-games at once (one worker,
   `--concurrency` equal to that), writer included.

It ends with the capacity model: how many CPUs of code-agent games, and how many model games
in flight, one writer can take.

    uv run python bench/scale_bench.py [--games 400] [--model-games 16] [--delay 0.2] [--json]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENAI_API_KEY", "bench")
os.environ.setdefault("ANTHROPIC_API_KEY", "bench")
os.environ.setdefault("CATTLE_OPENAI_CONCURRENCY", "64")
os.environ.setdefault("CATTLE_ANTHROPIC_CONCURRENCY", "64")

import structlog

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

from engine.cattle.presets import load_preset  # noqa: E402
from events.store import DuckStore, PreparedGame, prepare_game  # noqa: E402
from runner.executors import Executor, LocalExecutor, RayExecutor  # noqa: E402
from runner.session import game_row, play_game  # noqa: E402
from runner.tournament import (  # noqa: E402
    create,
    ensure_schema,
    pending_tasks,
    play_tournament,
    simulate,
)

AGENTS = ("tracker", "setrace", "economy")
MB = 1024 * 1024


def tournament(
    folder: Path,
    label: str,
    games: int,
    executor: Executor,
    agents: Sequence[str] = AGENTS,
    fmt: str = "mixed",
    concurrency: int | None = None,
) -> float:
    """Seconds to play and store a standard tournament of `games` games."""
    config = load_preset("standard")
    with DuckStore(folder / f"{label}.duckdb") as store:
        ensure_schema(store)
        create(store, label, fmt, tuple(agents), games, 7, config)
        _, tasks, _ = pending_tasks(store, label)
        t0 = time.perf_counter()
        stored = play_tournament(
            store, label, config, tasks, executor=executor, concurrency=concurrency
        )
        elapsed = time.perf_counter() - t0
    assert stored == games, (stored, games)
    return elapsed


def executors(folder: Path, games: int) -> dict[str, float]:
    """Games/s of the local executor (1 and 2 workers) and of Ray with 2 CPUs."""
    rates = {}
    for workers in (1, 2):
        secs = tournament(folder, f"local{workers}", games, LocalExecutor(workers))
        rates[f"local_{workers}"] = games / secs
        print(f"  local, {workers} worker(s): {games / secs:7.1f} games/s ({secs:.1f} s)")
    t0 = time.perf_counter()
    with RayExecutor(cpus=2) as ray_ex:
        started = time.perf_counter() - t0
        tournament(folder, "warm", 16, ray_ex)  # worker processes start on first use
        secs = tournament(folder, "ray", games, ray_ex)
    rates["ray_2cpu"] = games / secs
    print(
        f"  ray, 2 CPUs:            {games / secs:7.1f} games/s ({secs:.1f} s;"
        f" cluster start {started:.1f} s not counted)"
    )
    print(f"  ray / local 1 worker:   {rates['ray_2cpu'] / rates['local_1']:7.2f}x")
    print(f"  local 2 / local 1:      {rates['local_2'] / rates['local_1']:7.2f}x")
    return rates


def _events(p: PreparedGame) -> int:
    return p.lines.count("\n")


def writer(folder: Path, prepared: list[PreparedGame], label: str) -> dict[str, float]:
    """What one writer absorbs of these games, stored 16 a transaction."""
    n_events = sum(_events(p) for p in prepared)
    size = sum(len(p.lines) for p in prepared) / MB
    with DuckStore(folder / f"writer-{label}.duckdb") as store:
        t0, c0 = time.perf_counter(), time.process_time()
        for i in range(0, len(prepared), 16):
            store.save_prepared(prepared[i : i + 16])
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    figures = {
        "games_per_s": len(prepared) / secs,
        "events_per_s": n_events / secs,
        "mb_per_s": size / secs,
        "events_per_game": n_events / len(prepared),
        "mb_per_game": size / len(prepared),
        "cpu_s_per_game": cpu / len(prepared),
    }
    print(
        f"  {label}: {len(prepared)} games, {n_events} events ({size:.1f} MB) in {secs:.2f} s ="
        f" {figures['games_per_s']:,.1f} games/s, {figures['events_per_s']:,.0f} events/s,"
        f" {figures['mb_per_s']:.1f} MB/s; CPU time {cpu:.2f} s ="
        f" {len(prepared) / cpu:,.1f} games/s, {n_events / cpu:,.0f} events/s of CPU"
    )
    return figures


def code_games(games: int) -> list[PreparedGame]:
    """Finished code-agent games of a standard mixed tournament, as the writer gets them."""
    with tempfile.TemporaryDirectory() as tmp, DuckStore(Path(tmp) / "plan.duckdb") as store:
        ensure_schema(store)
        create(store, "w", "mixed", AGENTS, games, 11, load_preset("standard"))
        _, tasks, _ = pending_tasks(store, "w")
    return [simulate(t)[1] for t in tasks]


def model_games(port: int, games: int) -> list[PreparedGame]:
    """Finished standard games with four model seats (an instant server), as rows."""
    config = load_preset("standard")
    seats = tuple(f"openai:m{i}@http://127.0.0.1:{port}/v1" for i in range(4))
    out = []
    for i in range(games):
        record = play_game(config, 100 + i, list(seats))
        row = game_row(f"m.{i:05d}", config, 100 + i, record.seats, "m")
        out.append(prepare_game(row, record.events, record.turns))
    return out


def copies(games: list[PreparedGame], times: int) -> list[PreparedGame]:
    """`times` copies of each game under new ids (the writer refuses an id twice)."""
    out = []
    for n in range(times):
        for g in games:
            old, new = g.row[0], f"{g.row[0]}.c{n}"
            lines = g.lines.replace(f"\n{old}\x1f", f"\n{new}\x1f")
            lines = new + lines[len(old) :]
            out.append(PreparedGame(row=(new, *g.row[1:]), lines=lines))
    return out


def appends(folder: Path, calls: int = 2000) -> float:
    """Decision-by-decision writes per second (a model game written while it runs)."""
    config = load_preset("standard")
    record = play_game(config, 3, ["tracker", "setrace", "economy", "random"])
    with DuckStore(folder / "appends.duckdb") as store:
        n = 0
        t0, c0 = time.perf_counter(), time.process_time()
        g = 0
        while n < calls:
            gid = f"a.{g}"
            store.begin_game(game_row(gid, config, 3, record.seats, None))
            for i in range(len(record.events)):
                store.append(gid, record.events[i : i + 1], record.turns[i : i + 1])
                n += 1
                if n >= calls:
                    break
            g += 1
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    rate = n / secs
    print(
        f"  decision-by-decision appends: {rate:,.0f} writes/s ({n} one-event writes;"
        f" {n / cpu:,.0f} writes/s of CPU time)"
    )
    return rate


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server(delay: float) -> tuple[subprocess.Popen[bytes], int]:
    """The loopback model server in its own process."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "agents.llm.loopback", "--port", str(port), "--delay", str(delay)],
        stdout=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.readline()  # serving
    return proc, port


def concurrent_models(folder: Path, port: int, games: int) -> dict[str, float]:
    """One model game alone, then `games` at once in one worker (writer included)."""
    seats = [f"openai:m{i}@http://127.0.0.1:{port}/v1" for i in range(4)]
    # round-robin of four model names: every game seats four model players
    one = tournament(folder, "model1", 1, LocalExecutor(1), seats, "round-robin", 1)
    many = tournament(folder, "modeln", games, LocalExecutor(1), seats, "round-robin", games)
    speedup = (games / many) / (1 / one)
    print(f"  1 game alone:       {one:6.1f} s = {1 / one:.3f} games/s")
    print(f"  {games} games at once: {many:6.1f} s = {games / many:.3f} games/s")
    print(f"  throughput vs one game: {speedup:.1f}x (aim: 12x for 16 games)")
    return {"one_game_s": one, "many_games_s": many, "games": games, "speedup": speedup}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=400, help="games per executor run")
    ap.add_argument("--writer-games", type=int, default=800)
    ap.add_argument("--model-games", type=int, default=16)
    ap.add_argument("--delay", type=float, default=0.2)
    ap.add_argument("--skip", nargs="*", default=(), help="parts to skip: executors writer models")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON at the end")
    args = ap.parse_args()
    figures: dict[str, Any] = {"cpus": os.cpu_count(), "load": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if "executors" not in args.skip:
            print(f"code-agent tournament, standard mixed, {args.games} games:")
            figures["executors"] = executors(folder, args.games)
        if "writer" not in args.skip:
            print("one writer (store.save_prepared, 16 games a transaction):")
            t0, c0 = time.perf_counter(), time.process_time()
            code = code_games(args.writer_games)
            wall = (time.perf_counter() - t0) / len(code)
            per_game = (time.process_time() - c0) / len(code)
            figures["code_game_cpu_s"] = per_game
            print(
                f"  (playing them took {per_game * 1000:.1f} ms of CPU a game,"
                f" {wall * 1000:.1f} ms of wall-clock time)"
            )
            figures["writer_code"] = writer(folder, code, "code-agent games")
            fast, port = server(0.0)
            try:
                models = model_games(port, 8)
            finally:
                fast.terminate()
                fast.wait()
            figures["writer_model"] = writer(folder, copies(models, 8), "model games")
            figures["appends_per_s"] = appends(folder)
        if "models" not in args.skip:
            print(f"model games against the loopback server at {args.delay * 1000:.0f} ms:")
            slow, port = server(args.delay)
            try:
                figures["models"] = concurrent_models(folder, port, args.model_games)
            finally:
                slow.terminate()
                slow.wait()
    capacity(figures)
    if args.json:
        print(json.dumps(figures, indent=2))


def capacity(f: dict[str, Any]) -> None:
    """The capacity model: where one writer becomes the limit."""
    if "writer_code" not in f:
        return
    # CPU time, not wall-clock time: on a loaded machine both sides get a share of a core,
    # and the ratio of their CPU costs is what holds on a cluster of idle cores.
    w = 1 / f["writer_code"]["cpu_s_per_game"]
    cpu = f["code_game_cpu_s"]
    cores = w * cpu
    print("capacity model (from CPU time):")
    print(
        f"  code-agent games: a core plays {1 / cpu:.1f} games/s, the writer stores {w:,.0f}:"
        f" the writer is the limit from about {cores:.1f} cores of players"
    )
    f["writer_limit_cores"] = cores
    wm = 1 / f["writer_model"]["cpu_s_per_game"]
    if "models" in f:
        game_s = f["models"]["many_games_s"]
        in_flight = wm * game_s
        print(
            f"  model games: one lasts ~{game_s:.0f} s at this latency, the writer stores"
            f" {wm:,.1f}/s: the limit is about {in_flight:,.0f} games in flight"
            f" ({in_flight / 16:,.0f} workers at --concurrency 16)"
        )
        f["writer_limit_model_games_in_flight"] = in_flight


if __name__ == "__main__":
    main()
