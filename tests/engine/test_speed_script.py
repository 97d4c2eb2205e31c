"""bench/speed.py, the script behind the speed figures, runs and reports every figure asked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def speed(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "bench/speed.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_speed_script_prints_each_figure_asked_as_json() -> None:
    done = speed("--only", "engine,play,replay,verify", "--games", "3", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    # replay and verify read what the tournament figure stored, so it runs too
    for key in (
        "engine_games_per_s",
        "play_games_per_s",
        "tournament_games_per_s",
        "replay_events_per_s",
        "verify_ms_per_game",
        "verify_one_ms_per_game",
    ):
        assert figures[key] > 0, key
    assert 100 < figures["events_per_game"] < 10_000
    assert "help_s" not in figures and "workers_speedup" not in figures


def test_the_speed_script_refuses_an_unknown_figure() -> None:
    done = speed("--only", "engine,warp")
    assert done.returncode == 2
    assert "unknown figure(s): warp" in done.stderr
