"""A digest of the stored bytes of a fixed set of games, to show a speed change stores the same.

    uv run python bench/digest.py [--seeds 8] [--verbose]

Plays every preset in every auction mode with random agents and with each generation of the
code agents (seats rotated with the seed), stores the games in a DuckDB file through the two
writers (`play_and_store`, one game a transaction, for half the seeds; `save_games`, batched,
for the rest), reads back every stored column but the clock's, and prints one SHA-256 over
all of it, with the game and event counts. The same code and seeds give the same digest on any
machine; a change that alters any stored byte changes it. `--verbose` adds one digest per
preset, mode and line-up, to find which games moved.
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path
from typing import Any

LINEUPS: dict[str, tuple[str, ...]] = {
    "random": ("random",) * 5,
    "code": ("tracker", "setrace", "economy", "random", "tracker"),
    "code-v1": ("tracker-v1", "setrace-v1", "economy-v1", "random", "setrace-v1"),
    "code-v2": ("tracker-v2", "setrace-v2", "economy-v2", "random", "economy-v2"),
    "code-v3": ("tracker-v3", "setrace-v3", "economy-v3", "random", "tracker-v3"),
}
PRESETS = ("micro-duel", "standard", "marathon")
MODES = ("canonical", "fast", "legacy")
_EVENTS = (
    "SELECT game_id, seq, type, turn, actor, visible_to::VARCHAR, payload::VARCHAR"
    " FROM events ORDER BY game_id, seq"
)
_GAMES = (
    "SELECT game_id, game, seed, config::VARCHAR, seats::VARCHAR, engine_version, status,"
    " end_reason, tournament FROM games ORDER BY game_id"
)


def games(seeds: int) -> list[tuple[str, Any, int, tuple[str, ...]]]:
    """(game id, config, seed, seat specs) of every game the digest covers."""
    from engine.cattle.presets import load_preset

    out = []
    for preset in PRESETS:
        for mode in MODES:
            config = load_preset(preset, auction_mode=mode)
            for lineup, specs in LINEUPS.items():
                for seed in range(seeds):
                    r = seed % config.players
                    seats = specs[: config.players]
                    seats = seats[r:] + seats[:r]
                    gid = f"{preset}.{mode}.{lineup}.{seed:03d}"
                    out.append((gid, config, 7919 * seed + 11, seats))
    return out


def store_all(db: Path, seeds: int) -> None:
    """Play every game of the digest and store it in `db`."""
    from events.store import DuckStore
    from runner.session import game_row, play_and_store, play_game, seat_specs

    todo = games(seeds)
    with DuckStore(db) as store:
        batch = []
        for gid, config, seed, specs in todo:
            if int(gid.rsplit(".", 1)[1]) % 2 == 0:
                play_and_store(store, config, seed, specs, game_id=gid, tournament="digest")
                continue
            record = play_game(config, seed, specs)
            row = game_row(gid, config, seed, seat_specs(specs), "digest")
            batch.append((row, record.events, record.turns))
        store.save_games(batch)


def digest(db: Path) -> tuple[str, dict[str, str], int, int]:
    """The digest of everything stored in `db` (clock columns left out), one per group of
    games (preset, mode, line-up), and the game and event counts."""
    from events.store import DuckStore

    whole = hashlib.sha256()
    groups: dict[str, Any] = {}
    with DuckStore(db, read_only=True) as store:
        rows = store.con.execute(_GAMES).fetchall()
        for r in rows:
            text = repr(r).encode()
            whole.update(text)
            groups.setdefault(r[0].rsplit(".", 1)[0], hashlib.sha256()).update(text)
        events = 0
        cur = store.con.execute(_EVENTS)
        while chunk := cur.fetchmany(10_000):
            for e in chunk:
                text = repr(e).encode()
                whole.update(text)
                groups[e[0].rsplit(".", 1)[0]].update(text)
            events += len(chunk)
    return (
        whole.hexdigest()[:16],
        {k: h.hexdigest()[:16] for k, h in groups.items()},
        len(rows),
        events,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8, help="seeds per preset, mode, line-up")
    parser.add_argument("--verbose", action="store_true", help="a digest per group as well")
    args = parser.parse_args()
    from cli.main import configure_logging

    configure_logging(verbose=False, log_json=False)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "digest.duckdb"
        store_all(db, args.seeds)
        whole, groups, n_games, n_events = digest(db)
    if args.verbose:
        for key, value in sorted(groups.items()):
            print(f"{value}  {key}")
    print(f"digest {whole}  games {n_games}  events {n_events}")


if __name__ == "__main__":
    main()
