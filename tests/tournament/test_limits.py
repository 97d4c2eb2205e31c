"""Absurd tournament sizes and worker counts are refused at once, and a schedule at the limit
is stored quickly with flat memory. Every case runs the real CLI in a subprocess, measured
by a small wrapper that reports the child's peak memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli.main import UsageError
from cli.tournament import MAX_GAMES, MAX_MODEL_GAMES, check_workers, max_workers
from engine.cattle.presets import load_preset
from events.store import DuckStore
from runner.tournament import every_game_has_a_model

MODEL = "openai:loop@http://127.0.0.1:9/v1"

ROOT = Path(__file__).resolve().parents[2]
ENV = {k: v for k, v in os.environ.items() if k != "CATTLE_DB"}
ENV.update({"COLUMNS": "300", "NO_COLOR": "1", "TERM": "dumb"})

# Runs `cattle ARGS`; with STOP_AT set, kills it (SIGKILL) once a stdout line contains that
# text. Prints a JSON line: exit code, output, seconds, and the child's peak RSS in MB.
MEASURE = r"""
import json, os, resource, subprocess, sys, time
stop_at = os.environ.pop("STOP_AT", "")
start = time.monotonic()
proc = subprocess.Popen([sys.executable, "-m", "cli.main", *sys.argv[1:]],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
seen = []
if stop_at:
    for line in proc.stdout:
        seen.append(line)
        if stop_at in line:
            proc.kill()
            break
out, err = proc.communicate()
seconds = time.monotonic() - start
rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"code": proc.returncode, "stdout": "".join(seen) + out, "stderr": err,
                  "seconds": seconds, "rss_mb": rss_mb}))
"""


def measured(*args: str | Path, stop_at: str = "", timeout: float = 120) -> dict[str, object]:
    """Run the CLI under the wrapper; its exit code, output, seconds and peak RSS (MB)."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *map(str, args)],
        cwd=ROOT,
        env={**ENV, "STOP_AT": stop_at},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def refused(result: dict[str, object], *phrases: str) -> None:
    assert result["code"] == 2, result
    text = str(result["stderr"])
    assert "Traceback" not in text
    for phrase in phrases:
        assert phrase in text, (phrase, text)


def test_a_billion_games_is_refused_at_once_naming_the_limit(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    for games in ("1000000000", str(MAX_GAMES + 1), "0", "-5"):
        result = measured("tournament", "--agents", "tracker", "--games", games, "--db", db)
        refused(result, f"--games must be between 1 and {MAX_GAMES:,}")
        assert float(result["seconds"]) < 20  # type: ignore[arg-type]
        assert float(result["rss_mb"]) < 300  # type: ignore[arg-type]
    assert not db.exists()  # nothing was stored, not even an empty database


def test_workers_far_above_the_cpu_count_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    limit = max_workers()
    cases = [
        ("tracker", "100"),
        ("tracker", str(limit + 1)),
        ("tracker", "0"),
        ("tracker", "-2"),
        ("tracker", "1000000"),
        (f"{MODEL},tracker", str(limit + 1)),  # the tracker's games have no model seat
        (MODEL, str(MAX_MODEL_GAMES + 1)),
    ]
    for agents, workers in cases:
        result = measured(
            "tournament", "--agents", agents, "--games", "2", "--workers", workers, "--db", db
        )
        refused(result, f"--workers must be between 1 and {limit}", "per CPU")
        assert float(result["seconds"]) < 20  # type: ignore[arg-type]
        assert float(result["rss_mb"]) < 300  # type: ignore[arg-type]
    assert not db.exists()
    # The resume path takes the same limit.
    refused(measured("tournament", "--resume", "x", "--workers", "100", "--db", db), "--workers")


def test_games_with_model_seats_may_run_more_at_once_than_the_cpus_allow_processes() -> None:
    config = load_preset("standard")
    assert every_game_has_a_model("mixed", (MODEL,), config)
    assert not every_game_has_a_model("mixed", (MODEL, "tracker"), config)
    assert every_game_has_a_model("round-robin", (MODEL, "tracker", "setrace", "economy"), config)
    pool = (MODEL, "tracker", "setrace", "economy", "random")
    assert not every_game_has_a_model("round-robin", pool, config)
    check_workers(MAX_MODEL_GAMES, every_game_has_a_model=True)
    check_workers(max_workers(), every_game_has_a_model=False)
    for workers, io in ((max_workers() + 1, False), (MAX_MODEL_GAMES + 1, True), (0, True)):
        with pytest.raises(UsageError, match="--workers must be between 1 and"):
            check_workers(workers, every_game_has_a_model=io)


def test_more_workers_than_games_start_only_as_many_processes_as_games(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    result = measured(
        "tournament", "--agents", "tracker", "--preset", "micro-duel", "--games", "2",
        "--workers", str(max_workers()), "--seed", "3", "--quiet", "--db", db,
    )  # fmt: skip
    assert result["code"] == 0, result
    assert "2/2 games finished" in str(result["stdout"])


def test_a_schedule_at_the_limit_is_stored_quickly_with_flat_memory(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    start = time.monotonic()
    result = measured(
        "tournament", "--agents", "tracker,random", "--games", str(MAX_GAMES), "--seed", "5",
        "--name", "big", "--quiet", "--db", db,
        stop_at="Tournament big:",
    )  # fmt: skip
    seconds = time.monotonic() - start
    assert "Tournament big: mixed, 100,000 standard games" in str(result["stdout"]), result
    # Measured: about 3 s and 200 MB on the 2-core development machine; generous bounds here.
    assert seconds < 90
    assert float(result["rss_mb"]) < 600  # type: ignore[arg-type]
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query(
            "SELECT count(*), count(DISTINCT idx), min(idx), max(idx), count(DISTINCT game_id)"
            " FROM tournament_games WHERE tournament = 'big'"
        )
    assert rows == [(MAX_GAMES, MAX_GAMES, 0, MAX_GAMES - 1, MAX_GAMES)]
