"""A MindGames tournament killed with SIGKILL resumes: every scheduled game is finished
exactly once and every stored game verifies (real `cattle` subprocesses)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from events.store import DuckStore

ROOT = Path(__file__).resolve().parents[2]
# The installed script: `python -m cli.main` would miss commands that modules add to the app.
CATTLE = str(Path(sys.executable).parent / "cattle")
GAMES = 192
"""More than one batch of the writer (128 games), so the first stored batch is not the last."""


def cattle(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CATTLE_DB"}
    env.update({"COLUMNS": "200", "NO_COLOR": "1"})
    return subprocess.run(
        [CATTLE, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def test_a_killed_ipd_tournament_resumes_and_verifies(tmp_path: Path) -> None:
    db = tmp_path / "mg.duckdb"
    args = [
        "-v", "tournament", "--game", "mindgames:ipd3", "--agents",
        "ipd-tft,ipd-grim,ipd-defect,ipd-cooperate", "--games", str(GAMES), "--seed", "7",
        "--workers", "2", "--name", "mgkill", "--quiet", "--db", str(db),
    ]  # fmt: skip
    proc = subprocess.Popen(
        [CATTLE, *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stderr is not None
    # The first batch is committed when the writer logs it; kill the whole group then.
    for line in proc.stderr:
        if "tournament.saved" in line:
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL

    listed = cattle("games", "--json", "--tournament", "mgkill", "--limit", "0", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    before = {g["game_id"] for g in json.loads(listed.stdout) if g["status"] == "finished"}
    assert 0 < len(before) < GAMES, "the tournament was interrupted mid-way"

    done = cattle("tournament", "--resume", "mgkill", "--workers", "2", "--quiet", "--db", str(db))
    assert done.returncode == 0, done.stderr
    with DuckStore(db, read_only=True) as store:
        _, planned = store.query(
            "SELECT t.game_id, g.status FROM tournament_games t LEFT JOIN games g USING (game_id)"
            " WHERE t.tournament = 'mgkill'"
        )
        _, finished = store.query(
            "SELECT game_id FROM games WHERE tournament = 'mgkill' AND status = 'finished'"
        )
    assert len(planned) == GAMES and all(status == "finished" for _, status in planned)
    # Each scheduled game finished exactly once, the games stored before the kill kept.
    assert sorted(r[0] for r in finished) == sorted(gid for gid, _ in planned)
    assert before <= {r[0] for r in finished}
    checked = cattle("verify", "--all", "--db", str(db))
    assert checked.returncode == 0, checked.stdout + checked.stderr
