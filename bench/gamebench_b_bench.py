"""GameBench Codenames and Sea Battle benchmark: prints figures, asserts nothing.

    uv run python bench/gamebench_b_bench.py [--games N]

For each game and lineup of code agents, plays N games through the generic driver (views,
agents, rules) and reports games per second in memory and stored: every game written to one
DuckDB file with `play_and_store`, the way `cattle play` stores a game. Also the mean events
and turns per game, and the first team's mean score.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from events import catalog
from events.store import DuckStore
from runner.session import play_and_store, play_game

CASES = [
    ("gamebench:codenames", "standard", ("random",) * 4),
    ("gamebench:codenames", "standard", ("associate",) * 2 + ("random",) * 2),
    ("gamebench:codenames", "standard", ("associate",) * 4),
    ("gamebench:sea_battle", "standard", ("random",) * 6),
    ("gamebench:sea_battle", "standard", ("broadside",) * 3 + ("random",) * 3),
    ("gamebench:sea_battle", "standard", ("broadside",) * 6),
]


def main() -> None:
    """Play and store the games of every case; print one row per case."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    n = args.games
    print(f"{n} games per case")
    print(f"{'game':<11} {'lineup':<20} {'mem g/s':>8} {'stored g/s':>10} {'events':>7} "
          f"{'turns':>6} {'team 0':>7}")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for k, (name, preset, lineup) in enumerate(CASES):
            game = catalog.get(name)
            config = game.preset(preset)
            start = time.perf_counter()
            records = [play_game(config, seed, list(lineup)) for seed in range(n)]
            mem = n / (time.perf_counter() - start)
            with DuckStore(Path(tmp) / f"{k}.duckdb") as store:
                play_and_store(store, config, n, list(lineup))  # the file and views, untimed
                start = time.perf_counter()
                for seed in range(n):
                    play_and_store(store, config, seed, list(lineup))
                stored = n / (time.perf_counter() - start)
            events = sum(len(r.events) for r in records) / n
            turns = sum(getattr(r.events[-1], "turns", 0) or _clues(r.events) for r in records)
            team0 = sum(r.result.scores[0] for r in records if r.result) / n
            short = name.split(":")[1]
            shown = lineup[0] if len(set(lineup)) == 1 else f"{lineup[0]} v {lineup[-1]}"
            print(f"{short:<11} {shown:<20} {mem:>8.1f} {stored:>10.1f} {events:>7.1f} "
                  f"{turns / n:>6.1f} {team0:>7.3f}")  # fmt: skip


def _clues(events: list[object]) -> int:
    """Clues given in a Codenames game."""
    return sum(1 for e in events if type(e).__name__ == "CnClueGiven")


if __name__ == "__main__":
    main()
