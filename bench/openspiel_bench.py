"""OpenSpiel games through the harness against a bare pyspiel loop: prints figures.

    uv run python bench/openspiel_bench.py [--games N] [--moves M] [--json]

* stored: random-vs-random tic-tac-toe as `cattle tournament --workers 1` plays it (driver,
  views, encoding, one writer saving batches into a DuckDB file), games per second from the
  first game to the last commit;
* stored, 500 a transaction: the same, written 500 games to a transaction;
* driver: the same games through the driver alone, nothing stored;
* bare: a plain pyspiel loop playing the very same games (the same seeded choices, checked to
  end with the same returns) and storing nothing;
* MCTS: seconds per move of the `mcts` agent (1000 simulations, random rollouts) on the
  opening position of tic-tac-toe, connect four and breakthrough, median of M moves.

Figures depend on the machine and its load; compare runs made side by side.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from agents import make_agents
from agents.openspiel.bots import MCTSAgent
from cli.main import configure_logging
from engine.openspiel.rules import pyspiel
from events import catalog
from events.store import DuckStore
from projections.openspiel.view import OpenSpielView
from runner.driver import Game
from runner.session import new_game_id
from runner.tournament import GameTask, ensure_schema, play_tournament, simulate


def bare(games: int) -> tuple[float, list[tuple[float, ...]]]:
    """Games/s of a plain pyspiel loop making the `random` agent's choices, and the returns."""
    ps = pyspiel()
    t0 = time.perf_counter()
    game = ps.load_game("tic_tac_toe")
    returns = []
    for seed in range(games):
        rngs = [random.Random(f"{seed}:random:{seat}") for seat in range(2)]
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            state.apply_action(rngs[player].choice(state.legal_actions()))
        returns.append(tuple(float(r) for r in state.returns()))
    return games / (time.perf_counter() - t0), returns


def driver(games: int) -> tuple[float, list[tuple[float, ...]]]:
    """Games/s of the driver alone (nothing stored), and the returns."""
    game = catalog.get("openspiel")
    config = game.preset("tic_tac_toe")
    t0 = time.perf_counter()
    returns = []
    for seed in range(games):
        agents = make_agents(["random", "random"], seed, config)
        returns.append(tuple(Game(config, seed, agents, game=game).run().result.scores))
    return games / (time.perf_counter() - t0), returns


def stored(games: int) -> tuple[float, dict[int, tuple[float, ...]]]:
    """Games/s stored the way a one-worker tournament stores them, and the returns by seed."""
    config = catalog.get("openspiel").preset("tic_tac_toe")
    with tempfile.TemporaryDirectory() as tmp, DuckStore(Path(tmp) / "b.duckdb") as store:
        ensure_schema(store)
        # Games 0..N-1 with the seeds the other two loops use, written as a tournament's are.
        tasks = [
            GameTask(
                index=i,
                game_id=new_game_id(),
                seed=i,
                seats=("random", "random"),
                config=config,
                tournament="bench",
            )
            for i in range(games)
        ]
        t0 = time.perf_counter()
        play_tournament(store, "bench", config, tasks, workers=1)
        rate = len(tasks) / (time.perf_counter() - t0)
        _, rows = store.query(
            "SELECT g.seed, list(r.score ORDER BY r.seat) FROM games g"
            " JOIN results r USING (game_id) GROUP BY g.seed"
        )
    return rate, {int(seed): tuple(scores) for seed, scores in rows}


def stored_bulk(games: int, chunk: int = 500) -> float:
    """Games/s played and written `chunk` games to a transaction (the tournament writer's
    batches are 16 games or one second; this shows what the store does with larger ones)."""
    config = catalog.get("openspiel").preset("tic_tac_toe")
    with tempfile.TemporaryDirectory() as tmp, DuckStore(Path(tmp) / "b.duckdb") as store:
        ensure_schema(store)
        t0 = time.perf_counter()
        batch = []
        for i in range(games):
            task = GameTask(
                index=i,
                game_id=new_game_id(),
                seed=i,
                seats=("random", "random"),
                config=config,
                tournament="bench",
            )
            batch.append(simulate(task)[1])
            if len(batch) >= chunk:
                store.save_prepared(batch)
                batch = []
        if batch:
            store.save_prepared(batch)
        return games / (time.perf_counter() - t0)


def mcts_move(preset: str, moves: int) -> float:
    """Median seconds of one `mcts` move (1000 simulations) from the opening position."""
    game = catalog.get("openspiel")
    config = game.preset(preset)
    rules = game.rules
    times = []
    for seed in range(moves):
        state, events = rules.start(config, seed, [])
        decision = rules.pending(state)
        view = OpenSpielView(decision.seats[0]).sync(events)
        agent = MCTSAgent(decision.seats[0], seed, config)
        t0 = time.perf_counter()
        agent.act(view, decision)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    configure_logging(False, False)

    bare_rate, bare_returns = bare(args.games)
    driver_rate, driver_returns = driver(args.games)
    stored_rate, by_seed = stored(args.games)
    bulk_rate = stored_bulk(args.games)
    same = bare_returns == driver_returns and all(
        by_seed.get(seed) == r for seed, r in enumerate(driver_returns) if seed in by_seed
    )
    figures: dict[str, Any] = {
        "games": args.games,
        "bare_pyspiel_games_per_s": round(bare_rate, 1),
        "driver_games_per_s": round(driver_rate, 1),
        "stored_games_per_s": round(stored_rate, 1),
        "stored_share_of_bare": round(stored_rate / bare_rate, 3),
        "stored_bulk_games_per_s": round(bulk_rate, 1),
        "stored_bulk_share_of_bare": round(bulk_rate / bare_rate, 3),
        "same_games": same,
        "mcts_1000_move_s": {
            p: round(mcts_move(p, args.moves), 4)
            for p in ("tic_tac_toe", "connect_four", "breakthrough")
        },
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"random vs random tic-tac-toe, {args.games} games (same seeds, same choices: {same})")
    print(f"  bare pyspiel loop, nothing stored  {bare_rate:10.1f} games/s")
    print(f"  driver only, nothing stored        {driver_rate:10.1f} games/s")
    print(f"  stored (one writer)                {stored_rate:10.1f} games/s")
    print(f"  stored / bare                      {stored_rate / bare_rate:10.3f}")
    print(f"  stored, 500 games a transaction    {bulk_rate:10.1f} games/s")
    print(f"  stored (500) / bare                {bulk_rate / bare_rate:10.3f}")
    print(f"MCTS move at 1000 simulations, opening position, median of {args.moves}")
    for preset, secs in figures["mcts_1000_move_s"].items():
        print(f"  {preset:<32} {secs * 1000:10.1f} ms")


if __name__ == "__main__":
    main()
