"""Engine and store benchmark: prints figures, asserts nothing.

    uv run python bench/engine_bench.py [--games N]

Reports, for the standard preset with four random agents: games per second (engine only,
and with every event written to DuckDB), events per game, the time per agent decision, write
throughput, fold (replay) throughput reading back from the DuckDB file, and bytes per event.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from rich.console import Console
from rich.table import Table

from agents import make_agents
from engine.cattle.presets import load_preset
from engine.cattle.rules import ENGINE_VERSION
from engine.cattle.state import evolve, initial_state
from events.cattle.codec import decode
from events.config import SeatSpec
from events.store import DuckStore, GameRow
from runner.driver import Game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--batch", type=int, default=50, help="games per write transaction")
    args = parser.parse_args()
    console = Console()
    config = load_preset("standard")
    seats = tuple(SeatSpec(agent="random") for _ in range(4))
    n = args.games

    # 1. engine only (with the agents' decisions), and the time spent inside agents
    decisions = 0
    agent_time = 0.0
    records = []
    t0 = time.perf_counter()
    for seed in range(n):
        agents = make_agents(["random"] * 4, seed, config)
        records.append(Game(config, seed, agents, seats).run())
    engine_s = time.perf_counter() - t0
    events_per_game = [len(r.events) for r in records]
    total_events = sum(events_per_game)

    # decision timing on a separate pass (timing every call slows the main loop)
    for seed in range(min(n, 50)):
        agents = make_agents(["random"] * 4, seed, config)
        for a in agents:
            inner = a.act

            def timed(view, d, _inner=inner):  # type: ignore[no-untyped-def]
                nonlocal decisions, agent_time
                s = time.perf_counter()
                out = _inner(view, d)
                agent_time += time.perf_counter() - s
                decisions += 1
                return out

            a.act = timed  # type: ignore[method-assign]
        Game(config, seed, agents, seats).run()
    per_game_decisions = decisions / min(n, 50)

    # 2. engine + DuckDB writes (batched: one transaction per `batch` games)
    tmp = Path(tempfile.mkdtemp()) / "bench.duckdb"
    store = DuckStore(tmp)
    t0 = time.perf_counter()
    batch = []
    write_s = 0.0
    for seed in range(n):
        agents = make_agents(["random"] * 4, seed, config)
        rec = Game(config, seed, agents, seats).run()
        row = GameRow(
            game_id=uuid.uuid4().hex[:16],
            seed=seed,
            config=config,
            seats=seats,
            engine_version=ENGINE_VERSION,
        )
        batch.append((row, rec.events, rec.turns))
        if len(batch) == args.batch:
            w = time.perf_counter()
            store.save_games(batch)
            write_s += time.perf_counter() - w
            batch = []
    if batch:
        w = time.perf_counter()
        store.save_games(batch)
        write_s += time.perf_counter() - w
    stored_s = time.perf_counter() - t0
    store.con.execute("CHECKPOINT")
    store.close()
    size = os.path.getsize(tmp)

    # 3. fold from the file: read payloads, decode, evolve
    store = DuckStore(tmp, read_only=True)
    t0 = time.perf_counter()
    rows = store.con.execute("SELECT game_id, payload FROM events ORDER BY game_id, seq").fetchall()
    read_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    state = None
    current = None
    folded = 0
    for gid, payload in rows:
        e = decode(payload)
        if gid != current:
            current = gid
            state = initial_state(e.config)
        state = evolve(state, e)  # type: ignore[arg-type]
        folded += 1
    fold_s = time.perf_counter() - t1
    store.close()

    table = Table(title=f"Engine benchmark: standard preset, 4 random agents, {n} games")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("games/s, engine only", f"{n / engine_s:,.1f}")
    table.add_row("ms per game, engine only", f"{engine_s / n * 1000:.2f}")
    table.add_row("games/s, engine + DuckDB writes", f"{n / stored_s:,.1f}")
    table.add_row("ms per game, simulated and stored", f"{stored_s / n * 1000:.2f}")
    table.add_row(
        "events per game (mean / median)",
        f"{total_events / n:,.0f} / {statistics.median(events_per_game):,.0f}",
    )
    table.add_row("agent decisions per game", f"{per_game_decisions:,.0f}")
    table.add_row("µs per agent decision (inside the agent)", f"{agent_time / decisions * 1e6:.1f}")
    table.add_row(
        "µs per decision, whole engine loop", f"{engine_s / n / per_game_decisions * 1e6:.1f}"
    )
    table.add_row("write throughput (events/s)", f"{total_events / write_s:,.0f}")
    table.add_row("read from DuckDB (events/s)", f"{folded / read_s:,.0f}")
    table.add_row("decode + fold (events/s)", f"{folded / fold_s:,.0f}")
    table.add_row("read + decode + fold (events/s)", f"{folded / (read_s + fold_s):,.0f}")
    table.add_row("bytes per event on disk", f"{size / total_events:.1f}")
    console.print(table)


if __name__ == "__main__":
    main()
