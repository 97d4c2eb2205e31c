"""GameBench's games through the harness with code agents: prints figures.

    uv run python bench/gamebench_bench.py [--games N] [--json] [--game NAME]
    uv run python bench/gamebench_bench.py --game gamebench:arctic_scavengers --games 100

For each game and pairing of code agents:

* driver: games per second through the driver alone (rules, views, agents), nothing stored;
* stored: games per second as `cattle tournament --workers 1` plays and stores them (driver,
  encoding, one writer saving batches into a DuckDB file), from the first game to the last
  commit;

and the mean events per game. For Hive also the time to list the legal actions of one
position (`engine.gamebench.hive.legal_actions`), over the positions of random games. Figures depend on the machine and its load; compare runs made
side by side.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from agents import make_agents
from cli.main import configure_logging
from events import catalog
from events.store import DuckStore
from runner.driver import Game
from runner.session import new_game_id
from runner.tournament import GameTask, ensure_schema, play_tournament

CASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("gamebench:pit", ("random", "random")),
    ("gamebench:pit", ("cornerer", "random")),
    ("gamebench:pit", ("cornerer", "cornerer")),
    ("gamebench:santorini", ("random", "random")),
    ("gamebench:santorini", ("climber", "random")),
    ("gamebench:santorini", ("climber", "climber")),
    ("gamebench:hive", ("random", "random")),
    ("gamebench:hive", ("stinger", "random")),
    ("gamebench:hive", ("stinger", "stinger")),
    ("gamebench:two_rooms_and_a_boom", ("random",) * 6),
    ("gamebench:two_rooms_and_a_boom", ("sleuth",) * 3 + ("random",) * 3),
    ("gamebench:two_rooms_and_a_boom", ("sleuth",) * 6),
    ("gamebench:arctic_scavengers", ("random", "random")),
    ("gamebench:arctic_scavengers", ("warlord", "random")),
    ("gamebench:arctic_scavengers", ("warlord", "warlord")),
    ("gamebench:air_land_sea", ("random", "random")),
    ("gamebench:air_land_sea", ("commander", "random")),
    ("gamebench:air_land_sea", ("commander", "commander")),
    ("gamebench:are_you_the_traitor", ("random",) * 5),
    ("gamebench:are_you_the_traitor", ("sleuth",) * 2 + ("random",) * 3),
    ("gamebench:are_you_the_traitor", ("random",) * 2 + ("sleuth",) * 3),
    ("gamebench:are_you_the_traitor", ("sleuth",) * 5),
)
"""(game, seats) pairs measured."""


def driver(name: str, seats: tuple[str, ...], games: int) -> tuple[float, float]:
    """Games/s of the driver alone, nothing stored, and mean events per game."""
    game = catalog.get(name)
    config = game.preset(game.default_preset)
    events = 0
    t0 = time.perf_counter()
    for seed in range(games):
        agents = make_agents(list(seats), seed, config)
        events += len(Game(config, seed, agents, game=game).run().events)
    return games / (time.perf_counter() - t0), events / games


def stored(name: str, seats: tuple[str, ...], games: int) -> float:
    """Games/s stored the way a one-worker tournament stores them."""
    game = catalog.get(name)
    config = game.preset(game.default_preset)
    with tempfile.TemporaryDirectory() as tmp, DuckStore(Path(tmp) / "b.duckdb") as store:
        ensure_schema(store)
        tasks = [
            GameTask(
                index=i,
                game_id=new_game_id(),
                seed=i,
                seats=seats,
                config=config,
                tournament="bench",
            )
            for i in range(games)
        ]
        t0 = time.perf_counter()
        done = play_tournament(store, "bench", config, tasks, workers=1)
        rate = done / (time.perf_counter() - t0)
    return rate


def seats_label(seats: tuple[str, ...]) -> str:
    """The seats of a row: `a,b` for two, `3 sleuth + 3 random` for more."""
    if len(seats) <= 2:
        return ",".join(seats)
    runs = [(a, len(list(g))) for a, g in itertools.groupby(seats)]
    return " + ".join(f"{n} {a}" for a, n in runs)


def hive_legal_us(games: int) -> tuple[float, float]:
    """Mean microseconds to list Hive's legal actions per position, and mean actions per
    position, over every position of `games` random games."""
    from engine.gamebench.hive import RULES, legal_actions

    game = catalog.get("gamebench:hive")
    config = game.preset(game.default_preset)
    positions: list[Any] = []
    for seed in range(games):
        st, _ = RULES.start(config, seed, [])
        rng = random.Random(seed)
        while (d := RULES.pending(st)) is not None:
            positions.append(copy.deepcopy(st))
            st, _ = RULES.step(st, d, [rng.choice(d.legal)])
    t0 = time.perf_counter()
    actions = sum(len(legal_actions(p)) for p in positions)
    elapsed = time.perf_counter() - t0
    return elapsed / len(positions) * 1e6, actions / len(positions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    parser.add_argument("--game", help="Measure only this game (e.g. gamebench:hive).")
    args = parser.parse_args()
    configure_logging(False, False)
    rows: list[dict[str, Any]] = []
    for name, seats in CASES:
        if args.game and name != args.game:
            continue
        rate, events = driver(name, seats, args.games)
        rows.append(
            {
                "game": name,
                "seats": seats_label(seats),
                "driver_games_per_s": round(rate, 1),
                "stored_games_per_s": round(stored(name, seats, args.games), 1),
                "events_per_game": round(events, 1),
            }
        )
    hive = args.game in (None, "gamebench:hive")
    legal_us, per_position = hive_legal_us(max(1, args.games // 10)) if hive else (0.0, 0.0)
    if args.json:
        print(
            json.dumps(
                {
                    "games": args.games,
                    "rows": rows,
                    "hive_legal_us": round(legal_us, 1),
                    "hive_actions_per_position": round(per_position, 1),
                }
            )
        )
        return
    print(f"{args.games} games per row, one worker")
    print(f"{'game':<20} {'seats':<22} {'driver/s':>9} {'stored/s':>9} {'events':>7}")
    for r in rows:
        print(
            f"{r['game'].removeprefix('gamebench:'):<20} {r['seats']:<22} {r['driver_games_per_s']:>9.1f}"
            f" {r['stored_games_per_s']:>9.1f} {r['events_per_game']:>7.1f}"
        )
    if hive:
        print(
            f"Hive legal actions: {legal_us:.1f} us per position"
            f" ({per_position:.1f} actions per position)"
        )


if __name__ == "__main__":
    main()
