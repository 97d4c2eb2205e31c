"""MindGames' four games through the harness against a bare TextArena loop: prints figures.

    uv run python bench/textarena_bench.py [--games N] [--json]

For each competition game, with code agents at every seat:

* bare: a plain TextArena loop (make the environment, reset it with the seed, ask each
  player's observation, step with the agent's answer, close) making the very same choices,
  storing nothing; checked to end with the same rewards as the stored games;
* driver: the same games through the driver alone (events, views, the per-game random
  state swapped around every call into TextArena), nothing stored;
* stored: the same games as `cattle tournament --workers 1` plays them (one writer saving
  batches into a DuckDB file), games per second from the first game to the last commit.

Figures depend on the machine and its load; compare runs made side by side.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from agents import make_agents
from cli.main import configure_logging
from engine.textarena.mindgames import PRESETS
from engine.textarena.rules import make_env
from events import catalog
from events.store import DuckStore
from runner.driver import Game
from runner.session import new_game_id
from runner.tournament import GameTask, ensure_schema, play_tournament

LINEUPS: dict[str, tuple[str, ...]] = {
    "blotto": ("blotto-concentrate", "blotto-uniform"),
    "ipd3": ("ipd-tft", "ipd-grim", "ipd-defect"),
    "codenames": ("codenames-topics", "codenames-random", "codenames-topics", "codenames-random"),
    "mafia": ("mafia-accuser", "mafia-random", "random") * 2,
}


def bare(name: str, games: int) -> tuple[float, list[tuple[float, ...]]]:
    """Games/s of a plain TextArena loop with the same agents, and the rewards."""
    config = PRESETS[name]
    rewards = []
    t0 = time.perf_counter()
    for seed in range(games):
        agents = make_agents(list(LINEUPS[name]), seed, config)
        env = make_env(config.env_id)
        env.reset(num_players=config.players, seed=seed)
        done = False
        while not done:
            pid, obs = env.get_observation()
            action = agents[pid].act(SimpleNamespace(observation=obs), None)
            done, _ = env.step(action=action)
        got, _ = env.close()
        rewards.append(tuple(float(got.get(p, 0.0)) for p in range(config.players)))
    return games / (time.perf_counter() - t0), rewards


def driver(name: str, games: int) -> tuple[float, list[tuple[float, ...]]]:
    """Games/s of the driver alone (nothing stored), and the rewards."""
    config = PRESETS[name]
    game = catalog.get("textarena")
    rewards = []
    t0 = time.perf_counter()
    for seed in range(games):
        agents = make_agents(list(LINEUPS[name]), seed, config)
        rewards.append(tuple(Game(config, seed, agents, game=game).run().result.scores))
    return games / (time.perf_counter() - t0), rewards


def stored(name: str, games: int) -> tuple[float, dict[int, tuple[float, ...]]]:
    """Games/s stored the way a one-worker tournament stores them, and the rewards by seed."""
    config = PRESETS[name]
    with tempfile.TemporaryDirectory() as tmp, DuckStore(Path(tmp) / "b.duckdb") as store:
        ensure_schema(store)
        tasks = [
            GameTask(
                index=i,
                game_id=new_game_id(),
                seed=i,
                seats=LINEUPS[name],
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    configure_logging(False, False)
    make_env("Codenames-v0")  # import TextArena and its environments before timing
    figures: dict[str, Any] = {"games": args.games}
    for name in PRESETS:
        bare_rate, bare_rewards = bare(name, args.games)
        driver_rate, driver_rewards = driver(name, args.games)
        stored_rate, by_seed = stored(name, args.games)
        same = bare_rewards == driver_rewards and all(
            by_seed.get(seed) == r for seed, r in enumerate(driver_rewards)
        )
        figures[name] = {
            "bare_games_per_s": round(bare_rate, 1),
            "driver_games_per_s": round(driver_rate, 1),
            "stored_games_per_s": round(stored_rate, 1),
            "bare_over_stored": round(bare_rate / stored_rate, 2),
            "same_games": same,
        }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"MindGames' four games with code agents, {args.games} games each")
    print(f"{'game':<10} {'bare/s':>9} {'driver/s':>9} {'stored/s':>9} {'bare/stored':>12} same")
    for name in PRESETS:
        f = figures[name]
        print(
            f"{name:<10} {f['bare_games_per_s']:>9.1f} {f['driver_games_per_s']:>9.1f} "
            f"{f['stored_games_per_s']:>9.1f} {f['bare_over_stored']:>12.2f} {f['same_games']}"
        )


if __name__ == "__main__":
    main()
