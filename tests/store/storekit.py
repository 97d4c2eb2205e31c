"""Shared fixtures of the store tests: a few small played games, and a file lock holder."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from engine.cattle.presets import load_preset
from engine.cattle.rules import ENGINE_VERSION
from events.store import GameRow
from runner.driver import GameRecord
from runner.session import play_game

HOLD = (
    "import duckdb, sys, time\n"
    "con = duckdb.connect(sys.argv[1])\n"
    "con.execute('CREATE TABLE IF NOT EXISTS held (x INTEGER)')\n"
    "print('ready', flush=True)\n"
    "time.sleep(120)\n"
)


@contextmanager
def held_open(path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process that keeps `path` open for writing until the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        yield proc
    finally:
        proc.kill()
        proc.wait()


@cache
def record(preset: str = "micro-duel", seed: int = 1, mode: str = "canonical") -> GameRecord:
    """A random game, played once per test session."""
    config = load_preset(preset, auction_mode=mode)
    return play_game(config, seed, ["random"] * config.players)


def row_of(game_id: str, rec: GameRecord, tournament: str | None = None) -> GameRow:
    return GameRow(
        game_id=game_id,
        seed=rec.seed,
        config=rec.config,
        seats=rec.seats,
        engine_version=ENGINE_VERSION,
        tournament=tournament,
    )
