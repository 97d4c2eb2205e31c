"""The viewer holds the store only while nobody else wants it: a writer gets it at once."""

from __future__ import annotations

import re
import shutil
import time
import urllib.request
from pathlib import Path

from test_web_cli import cattle
from webkit import Games, serving


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read().decode()


def test_a_game_is_written_while_the_viewer_serves(games: Games, tmp_path: Path) -> None:
    db = tmp_path / "live.duckdb"
    shutil.copy(games.db, db)
    with serving(db) as url:
        before = set(re.findall(r'data-id="([^"]+)"', fetch(url + "/?sort=id")))
        t0 = time.monotonic()
        done = cattle("play", "--seed", "5", "--preset", "micro-duel", "--db", db)
        waited = time.monotonic() - t0
        assert done.returncode == 0, done.stderr
        after = set(re.findall(r'data-id="([^"]+)"', fetch(url + "/?game=cattle-trade")))
    new = after - before
    assert len(new) == 1, (before, after)
    assert waited < 60
