"""Games through the generic core: prints figures, asserts nothing.

    uv run python bench/games_bench.py [--game pact] [--games N] [--preset P]
        [--agents a,b,...]

For one registered game, plays N games of code agents (the agents cycled over the seats,
game i with seed i) three ways and prints games per second for each:

* driver: the generic driver alone (`runner.driver.Game.run`), nothing stored;
* stored: what `cattle tournament --workers 1` does (play, encode into store rows, one
  writer saving batches into a DuckDB file), timed from the first game to the last commit;
* verify: `runner.verify.check_game` on every stored game (columns, games row, re-simulation).

Also events per game and bytes per stored event.
"""

from __future__ import annotations

import argparse
import itertools
import os
import tempfile
import time
from pathlib import Path

from agents import make_agents
from cli.main import configure_logging
from events import catalog
from events.store import DuckStore
from runner.driver import Game
from runner.tournament import create, ensure_schema, pending_tasks, play_tournament
from runner.verify import check_game

DEFAULT_AGENTS = {
    "cattle-trade": "tracker,setrace,economy,random",
    "pact": "truthful,anchor,mirror,random",
}


def lineups(agents: list[str], players: int, games: int) -> list[list[str]]:
    """The seatings of `games` games: the agents cycled over the seats."""
    cycle = itertools.cycle(agents)
    return [[next(cycle) for _ in range(players)] for _ in range(games)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="pact")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--preset", default=None)
    parser.add_argument("--agents", default=None)
    args = parser.parse_args()
    configure_logging(False, False)
    game = catalog.get(args.game)
    config = game.preset(args.preset or game.default_preset)
    agents = (args.agents or DEFAULT_AGENTS.get(game.name, "random")).split(",")
    seats = lineups(agents, config.players, args.games)

    t0 = time.perf_counter()
    events = 0
    for i, specs in enumerate(seats):
        record = Game(config, i, make_agents(specs, i, config), game=game).run()
        events += len(record.events)
    driver = args.games / (time.perf_counter() - t0)

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        with DuckStore(db) as store:
            ensure_schema(store)
            pool = tuple(dict.fromkeys(agents))
            fmt = "round-robin" if len(pool) >= config.players else "duplicate"
            create(store, "bench", fmt, pool, args.games, 1, config)
            _, tasks, _ = pending_tasks(store, "bench")
            t0 = time.perf_counter()
            play_tournament(store, "bench", config, tasks, workers=1)
            stored = len(tasks) / (time.perf_counter() - t0)
            _, rows = store.query("SELECT count(*) FROM events")
            n_events = rows[0][0]
            ids = [g.game_id for g in store.list_games("bench")]
            t0 = time.perf_counter()
            bad = sum(check_game(store.load_rows(g)).outcome != "verified" for g in ids)
            verified = len(ids) / (time.perf_counter() - t0)
        size = os.path.getsize(db)

    print(f"game {game.name}, preset {config.name}, agents {','.join(agents)}, {args.games} games")
    print(f"  events per game          {events / args.games:10.1f}")
    print(f"  driver only              {driver:10.1f} games/s")
    print(f"  stored (one writer)      {stored:10.1f} games/s  ({fmt} tournament, workers 1)")
    print(f"  verified                 {verified:10.1f} games/s  ({bad} not verified)")
    print(f"  bytes per stored event   {size / max(1, n_events):10.1f}")


if __name__ == "__main__":
    main()
