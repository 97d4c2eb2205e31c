"""The toy auction, defined only in tests/, through the real command line.

`CATTLE_GAMES` names its module; nothing outside tests/ knows it. It plays, is stored,
listed, shown, replayed and verified, queried with SQL (its own view included), and runs a
tournament that is interrupted and resumed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.cli.clikit import ENV, ROOT, cattle

TOY = {"CATTLE_GAMES": "games.toy_auction", "PYTHONPATH": str(ROOT / "tests")}


def toy(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return cattle(*args, env=TOY)


def test_play_show_replay_sql(tmp_path: Path) -> None:
    db = tmp_path / "toy.duckdb"
    got = toy("play", "--game", "toy-auction", "--agents", "honest,wild,honest", "--seed", "4",
              "--json", "--db", db)  # fmt: skip
    assert got.returncode == 0, got.stderr
    summary = json.loads(got.stdout)
    assert summary["game"] == "toy-auction" and summary["seed"] == 4
    assert [s["agent"] for s in summary["scores"]] == ["honest", "wild", "honest"]
    assert {s["rank"] for s in summary["scores"]} <= {1, 2, 3}
    gid = summary["game_id"]

    listed = json.loads(toy("games", "--json", "--db", db).stdout)
    assert [(g["game_id"], g["game"]) for g in listed] == [(gid, "toy-auction")]
    assert listed[0]["scores"] == [s["score"] for s in summary["scores"]]

    shown = toy("show", gid, "--db", db)
    assert shown.returncode == 0 and "Toy auction of 4 items" in shown.stdout
    # Seat 1 sees its own values, not seat 0's.
    seat1 = toy("show", gid, "--seat", "1", "--db", db).stdout
    assert "Player 1 values item 0" in seat1 and "Player 0 values item 0" not in seat1

    verified = toy("replay", gid, "--verify", "--db", db)
    assert verified.returncode == 0, verified.stdout + verified.stderr

    rows = json.loads(
        toy(
            "sql",
            "SELECT item, winner, price FROM toy_sales ORDER BY item",
            "--format",
            "json",
            "--db",
            db,
        ).stdout
    )
    assert [r["item"] for r in rows] == [0, 1, 2, 3]
    assert all(0 <= r["price"] <= 100 for r in rows)


def test_unknown_game_is_one_clear_line(tmp_path: Path) -> None:
    got = cattle("play", "--game", "toy-auction", "--db", tmp_path / "x.duckdb")
    assert got.returncode == 2
    assert "unknown game 'toy-auction'" in got.stderr and "Traceback" not in got.stderr


def test_tournament_interrupted_and_resumed(tmp_path: Path) -> None:
    db = tmp_path / "toy.duckdb"
    # Enough games, each slowed down a little, that the tournament is still running when it
    # is stopped, however fast the machine (the resumed run plays at full speed).
    env = {**ENV, "COLUMNS": "300", **TOY, "TOY_PAUSE": "0.002"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli.main",
            "tournament",
            "--game",
            "toy-auction",
            "--agents",
            "honest,wild",
            "--preset",
            "duel",
            "--games",
            "3000",
            "--seed",
            "2",
            "--name",
            "cup",
            "--quiet",
            "--db",
            str(db),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    stored = 0
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.3)
        got = toy("sql", "SELECT count(*) AS n FROM games", "--format", "json", "--db", db)
        if got.returncode == 0:
            stored = json.loads(got.stdout)[0]["n"]
            if stored >= 50:
                break
    assert proc.poll() is None, "the tournament ended before it could be interrupted"
    os.kill(proc.pid, signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM

    before = json.loads(
        toy(
            "sql",
            "SELECT count(*) AS n FROM games WHERE status = 'finished'",
            "--format",
            "json",
            "--db",
            db,
        ).stdout
    )[0]["n"]
    assert 0 < before < 3000
    resumed = toy("tournament", "--resume", "cup", "--quiet", "--db", db)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{before} game{'' if before == 1 else 's'} kept" in resumed.stdout

    checked = toy("verify", "--tournament", "cup", "--json", "--db", db)
    assert checked.returncode == 0, checked.stdout[-2000:]
    report = json.loads(checked.stdout)
    assert report["verified"] == 3000

    ratings = json.loads(toy("ratings", "--tournament", "cup", "--json", "--db", db).stdout)
    assert sorted(r["agent"] for r in ratings) == ["honest", "wild"]
