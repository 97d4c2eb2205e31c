"""A person drops in to a running league in a real headless Chromium: joins the queue under a
name, is led to their seat's private page, plays the game to its end with the keyboard, and
appears on the league's table; while the game runs nobody sees it, its player included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from webkit import ROOT, chromium_missing, launch_chromium, serving

from events.store import DuckStore, connect
from runner import league as L

why = chromium_missing()
pytestmark = pytest.mark.skipif(why is not None, reason=why or "")

LEAGUE = """
[league]
name = "drop-in"
seed = 9
round_games = 4
reference = ["bot"]
person_timeout = 60

[[games]]
game = "openspiel"
preset = "kuhn_poker"

[[agents]]
name = "rnd"
spec = "random"

[[agents]]
name = "bot"
spec = "mcts?simulations=20"
"""


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_a_person_joins_from_the_browser_plays_and_is_rated(tmp_path: Path) -> None:
    seats = tmp_path / "seats"
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE)
    db = tmp_path / "league.duckdb"
    with DuckStore(db) as store:
        L.run(store, path, games=2, day=lambda: "2026-12-07", seats=seats)
    env = {**os.environ, "CATTLE_SEATS": str(seats), "NO_COLOR": "1"}
    with serving(db, seats=seats) as url, launch_chromium() as browser:
        pg: Any = browser.new_context().new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(f"{url}/league/join")
        pg.fill("#join-name", "ann")
        pg.click("#join button")
        pg.wait_for_function(
            "() => document.getElementById('join-status').textContent.includes('queue')"
        )
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cli.main",
                "league",
                str(path),
                "--db",
                str(db),
                "--games",
                "5",
                "--quiet",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            pg.wait_for_url("**/seats/desk/*", timeout=60_000)
            moves = 0
            checked = False
            while True:
                pg.wait_for_selector("#answer, #seat-over", timeout=60_000)
                if pg.locator("#seat-over").count():
                    break
                if not checked:
                    # The person's own game, in play, is closed to every address of the viewer.
                    gid = _running(db)
                    assert status_of(f"{url}/api/games/{gid}") == 403
                    assert status_of(f"{url}/games/{gid}?seat=0") == 403
                    checked = True
                asked = pg.get_attribute("#seat", "data-token")
                pg.keyboard.press("ArrowDown")
                pg.keyboard.press("Enter")
                pg.wait_for_function(
                    "t => document.getElementById('seat').dataset.token !== t",
                    arg=asked,
                    timeout=30_000,
                )
                moves += 1
            assert proc.wait(timeout=120) == 0, proc.communicate()
        finally:
            if proc.poll() is None:
                proc.kill()
        assert moves >= 1 and checked and not errors, errors
        with urllib.request.urlopen(f"{url}/api/leagues/drop-in", timeout=10) as r:
            info = json.loads(r.read())
    rows = {r["agent"]: r for t in info["tables"] if t["game"] == "openspiel" for r in t["rows"]}
    assert rows["ann"]["games"] == 1 and rows["ann"]["seat_agent"] == "human:ann"


def _running(db: Path) -> str:
    """The id of the one game running now (read from the store while the league writes)."""
    con = connect(str(db), read_only=True, wait=30)
    try:
        rows = con.execute("SELECT game_id FROM games WHERE status = 'running'").fetchall()
    finally:
        con.close()
    assert len(rows) == 1, rows
    return str(rows[0][0])
