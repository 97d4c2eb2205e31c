"""PACT benchmark: prints figures, asserts nothing.

    uv run python bench/pact_bench.py [--games N] [--batch B]

Plays N standard PACT games (20 rounds) between code agents, every pairing of truthful,
anchor, mirror and random in turn, with a minimal driver loop (start, then ask the seats of
each pending decision with their synced views, then step). Reports games per second for the
loop alone, with the store rows prepared (events encoded), and with every game written to a
DuckDB file by one writer in batches of B games; then events per game and the fold speed.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from agents.pact.bots import CODE_AGENTS
from agents.pact.game import PRESETS
from engine.pact.rules import ENGINE_VERSION, RULES
from events.config import SeatSpec
from events.pact.game import PactConfig
from events.store import DuckStore, GameRow, prepare_game
from projections.pact.view import PactView

NAMES = sorted(CODE_AGENTS)
PAIRS = [(b, s) for b in NAMES for s in NAMES]


def play(config: PactConfig, seed: int, names: tuple[str, str]) -> tuple[list[Any], list[int]]:
    """One game between two code agents: its log and each event's turn."""
    seats = tuple(SeatSpec(agent=n) for n in names)
    agents = [CODE_AGENTS[n](seat, seed, config) for seat, n in enumerate(names)]
    state, events = RULES.start(config, seed, seats)
    log = list(events)
    audiences = [e.audience() for e in events]
    turns = [0] * len(events)
    views = [PactView(0), PactView(1)]
    turn = 0
    turn_of = RULES.turn_of
    while (d := RULES.pending(state)) is not None:
        actions = [agents[s].act(views[s].sync(log, audiences), d) for s in d.seats]
        state, events = RULES.step(state, d, actions)
        for e in events:
            log.append(e)
            audiences.append(e.audience())
            turn = turn_of(e, turn)
            turns.append(turn)
    return log, turns


def main() -> None:
    """Play, prepare, write and fold the games; print the rates."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=100, help="games per write transaction")
    args = parser.parse_args()
    config = PRESETS["standard"]
    n = args.games

    t0 = time.perf_counter()
    games = [play(config, seed, PAIRS[seed % len(PAIRS)]) for seed in range(n)]
    loop_s = time.perf_counter() - t0
    events = sum(len(log) for log, _ in games)

    t0 = time.perf_counter()
    prepared = []
    for seed, (log, turns) in enumerate(games):
        first = log[0]
        row = GameRow(
            game_id=f"p{seed:08d}",
            game="pact",
            seed=seed,
            config=first.config,
            seats=first.seats,
            engine_version=ENGINE_VERSION,
        )
        prepared.append(prepare_game(row, log, turns))
    prepare_s = time.perf_counter() - t0

    with tempfile.TemporaryDirectory() as tmp:
        store = DuckStore(Path(tmp) / "bench.duckdb")
        t0 = time.perf_counter()
        for i in range(0, n, args.batch):
            store.save_prepared(prepared[i : i + args.batch])
        write_s = time.perf_counter() - t0
        store.close()

    t0 = time.perf_counter()
    for log, _ in games:
        RULES.fold(log)
    fold_s = time.perf_counter() - t0

    total = loop_s + prepare_s + write_s
    print(f"games: {n} standard PACT games, {events / n:.1f} events per game")
    print(f"loop (rules, views, code agents): {n / loop_s:8.0f} games/s")
    print(f"+ rows prepared (events encoded): {n / (loop_s + prepare_s):8.0f} games/s")
    print(f"+ written to DuckDB, one writer:  {n / total:8.0f} games/s")
    print(f"  (write alone {n / write_s:.0f} games/s, {events / write_s:.0f} events/s)")
    print(f"fold of a whole log:              {n / fold_s:8.0f} games/s")


if __name__ == "__main__":
    main()
