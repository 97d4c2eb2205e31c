"""`cattle tournament` in real subprocesses: kill -9 mid-way, resume, verify every game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cattle.presets import load_preset
from engine.schedule import schedule
from events.config import SeatSpec
from events.store import DuckStore, GameRow
from runner.replay import verify
from runner.session import play_game
from runner.tournament import create, ensure_schema

ROOT = Path(__file__).resolve().parents[2]
# The installed `cattle` script (`python -m cli.main` would not see commands that modules
# add to the app, since it runs main.py as a second module named __main__).
CATTLE = str(Path(sys.executable).parent / "cattle")


def cattle(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CATTLE, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        **kw,  # type: ignore[call-overload]
    )


def _check_complete(db: Path, name: str) -> int:
    with DuckStore(db, read_only=True) as store:
        _, planned = store.query(
            "SELECT t.idx, t.game_id, g.status FROM tournament_games t"
            " LEFT JOIN games g USING (game_id) WHERE t.tournament = ? ORDER BY idx",
            [name],
        )
        assert planned and all(status == "finished" for _, _, status in planned)
        _, rows = store.query(
            "SELECT game_id FROM games WHERE tournament = ? AND status = 'finished'", [name]
        )
        finished = sorted(r[0] for r in rows)
        assert finished == sorted(gid for _, gid, _ in planned)  # each game exactly once
        for gid in finished:
            events = store.load_events(gid)
            assert verify(events).ok, gid
    return len(planned)


def test_sigkill_then_resume_finishes_every_game_once(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    args = [
        "-v", "tournament", "--format", "round-robin", "--agents",
        "tracker,setrace,economy,random", "--preset", "micro-duel", "--games", "400",
        "--seed", "4", "--workers", "2", "--name", "killed", "--quiet", "--db", str(db),
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
    for line in proc.stderr:
        if "tournament.saved" in line:
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query("SELECT count(*) FROM games WHERE tournament = 'killed'")
    assert 0 < rows[0][0] < 400, "the tournament was interrupted mid-way"

    done = cattle("tournament", "--resume", "killed", "--workers", "2", "--quiet", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert _check_complete(db, "killed") == 400
    again = cattle("tournament", "--resume", "killed", "--quiet", "--db", str(db))
    assert again.returncode == 0 and "already complete" in again.stdout
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query("SELECT min(game_id) FROM games WHERE tournament = 'killed'")
    shown = cattle("replay", rows[0][0], "--verify", "--db", str(db))
    assert shown.returncode == 0 and "verified" in shown.stdout


def test_unfinished_game_is_abandoned_and_replayed(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    config = load_preset("micro-duel")
    with DuckStore(db) as store:
        ensure_schema(store)
        assert create(store, "partial", "round-robin", ("tracker", "setrace"), 6, 8, config) == 6
        first = schedule("round-robin", ("tracker", "setrace"), 6, 8, config.players)[0]
        record = play_game(config, first.seed, list(first.seats))
        store.begin_game(
            GameRow(
                game_id="partial.00000",
                seed=first.seed,
                config=config,
                seats=tuple(SeatSpec(agent=a) for a in first.seats),
                engine_version="x",
                tournament="partial",
            )
        )
        store.append("partial.00000", record.events[:30], record.turns[:30])
    done = cattle("tournament", "--resume", "partial", "--quiet", "--db", str(db))
    assert done.returncode == 0, done.stderr
    _check_complete(db, "partial")
    with DuckStore(db, read_only=True) as store:
        old = store.get_game("partial.00000")
        assert old.status == "abandoned" and old.events == 30
        _, rows = store.query(
            "SELECT game_id, attempt FROM tournament_games WHERE tournament = 'partial' AND idx = 0"
        )
        assert rows == [("partial.00000.r1", 1)]
    ratings = cattle("ratings", "--tournament", "partial", "--json", "--db", str(db))
    assert ratings.returncode == 0, ratings.stderr
    table = json.loads(ratings.stdout)
    assert {r["agent"] for r in table} == {"tracker", "setrace"}
    assert all({"agent", "mu", "sigma", "games", "win_rate"} <= set(r) for r in table)
    assert sum(r["games"] for r in table) == 12  # abandoned game not rated


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("small") / "t.duckdb"
    made = cattle(
        "tournament", "--agents", "random", "--preset", "micro-duel", "--games", "2",
        "--name", "dup", "--quiet", "--db", str(db),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return db


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--resume", "nope"],
        ["tournament", "--format", "swiss", "--agents", "tracker"],
        ["tournament", "--agents", "tracker,nobody", "--games", "2"],
        ["tournament", "--format", "duplicate", "--agents", "tracker,setrace,economy,random",
         "--games", "6"],
        ["tournament", "--agents", "random", "--games", "0"],
        ["tournament", "--agents", "random", "--workers", "0"],
        ["tournament", "--agents", "random", "--name", "bad name!"],
        ["tournament", "--resume", "dup", "--games", "3"],
        ["ratings", "--tournament", "nothing"],
    ],
)  # fmt: skip
def test_bad_arguments_exit_2_without_traceback(small_db: Path, args: list[str]) -> None:
    got = cattle(*args, "--db", str(small_db))
    assert got.returncode == 2, (got.stdout, got.stderr)
    assert "Traceback" not in got.stderr and "error" in got.stderr


def test_existing_name_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    args = ["tournament", "--agents", "random", "--preset", "micro-duel", "--games", "2",
            "--name", "same", "--quiet", "--db", str(db)]  # fmt: skip
    assert cattle(*args).returncode == 0
    got = cattle(*args)
    assert got.returncode == 2 and "already exists" in got.stderr
