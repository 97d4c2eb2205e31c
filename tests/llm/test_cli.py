"""The CLI with model seats: play, rerun one seat, verify without network, costs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import duckdb

from agents.llm.loopback import LegalPolicy, LoopbackServer

from .helpers import ANTHROPIC_KEY, OPENAI_KEY, seat


def cattle(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_play_rerun_verify_costs(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.duckdb")
    with LoopbackServer(LegalPolicy()) as srv:
        agents = f"{seat(srv, 'openai', 'gpt-4o-mini')},{seat(srv, 'anthropic', 'claude-x')}"
        played = cattle(
            "play",
            "--preset",
            "micro-duel",
            "--seed",
            "5",
            "--agents",
            agents,
            "--json",
            "--db",
            db,
        )
        assert played.returncode == 0, played.stderr
        game = json.loads(played.stdout)
        rerun = cattle(
            "rerun", game["game_id"], "--seat", "1", "--agent", "random", "--json", "--db", db
        )
        assert rerun.returncode == 0, rerun.stderr
        again = json.loads(rerun.stdout)
    assert again["seed"] == 5 and again["agents"] == ["openai:gpt-4o-mini", "random"]
    # the server is gone and the default URLs point at a closed port: no network to use
    dead = f"http://127.0.0.1:{closed_port()}"
    env = {"OPENAI_BASE_URL": dead + "/v1", "ANTHROPIC_BASE_URL": dead}
    for gid in (game["game_id"], again["game_id"]):
        check = cattle("replay", gid, "--verify", "--json", "--db", db, env=env)
        assert check.returncode == 0, check.stdout + check.stderr
        assert json.loads(check.stdout)["ok"] is True
    # A stored prompt unlike the one this build writes (another build's prompts, or an edit) is
    # named as such rather than as an unexplained difference.
    con = duckdb.connect(db)
    seq = con.execute(
        "SELECT min(seq) FROM events WHERE game_id = ? AND type = 'llm_call'"
        " AND payload::VARCHAR LIKE '%OTHER PLAYERS%'",
        [game["game_id"]],
    ).fetchone()[0]
    con.execute(
        "UPDATE events SET payload = replace(payload::VARCHAR, 'OTHER PLAYERS', 'OTHER SEATS')"
        " WHERE game_id = ? AND seq = ?",
        [game["game_id"], seq],
    )
    con.close()
    altered = cattle("replay", game["game_id"], "--verify", "--db", db, env=env)
    assert altered.returncode == 1, altered.stdout + altered.stderr
    assert f"seq {seq}" in altered.stderr and "another prompt" in altered.stderr, altered.stderr
    costs = cattle("costs", "--by", "agent", "--json", "--db", db)
    assert costs.returncode == 0, costs.stderr
    rows = {r["agent"]: r for r in json.loads(costs.stdout)}
    assert set(rows) == {"openai:gpt-4o-mini", "anthropic:claude-x"}
    mini = rows["openai:gpt-4o-mini"]
    assert mini["games"] == 2 and mini["calls"] > 0 and mini["cost_usd"] > 0
    assert rows["anthropic:claude-x"]["cost_usd"] is None  # not in the price table
    for out in (played, rerun, costs):
        assert OPENAI_KEY not in out.stdout + out.stderr
        assert ANTHROPIC_KEY not in out.stdout + out.stderr


def test_missing_key_is_a_clear_error(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli.main",
            "play",
            "--preset",
            "micro-duel",
            "--agents",
            "openai:gpt-4o-mini,random",
            "--db",
            str(tmp_path / "x.duckdb"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert res.returncode == 2
    assert "OPENAI_API_KEY" in res.stderr and "Traceback" not in res.stderr
