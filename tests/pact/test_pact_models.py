"""PACT with model seats, through the real command line and a loopback model server.

A model-seat game is stored with every exchange, then verified with the server stopped (the
recorded answers replay, no network); a PACT tournament with a model seat killed with SIGKILL
resumes without asking the model again for anything it had answered.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import LegalPolicy, LoopbackServer
from tests.tournament.test_kill_resume import games, run, start, timeless, wait_for_requests


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """Fake keys, no config file, fast backoff, a write after every decision."""
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    base = {k: v for k, v in os.environ.items() if k != "CATTLE_DB"}
    base.update(
        {
            "OPENAI_API_KEY": "sk-test-pact",
            "CATTLE_LLM_CONFIG": str(cfg),
            "CATTLE_LLM_BACKOFF": "0.001",
            "CATTLE_WRITE_INTERVAL": "0",
            "COLUMNS": "200",
            "NO_COLOR": "1",
        }
    )
    return base


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A model that answers after 30 ms, so a tournament lasts long enough to be killed."""
    with LoopbackServer(LegalPolicy(), delay=0.03) as s:
        yield s


def test_a_model_seat_game_verifies_offline(tmp_path: Path, env: dict[str, str]) -> None:
    db = tmp_path / "pact.duckdb"
    with LoopbackServer(LegalPolicy()) as srv:
        model = f"openai:loop@{srv.openai_url}"
        got = run(["play", "--game", "pact", "--agents", f"{model},anchor", "--seed", "3",
                   "--json", "--db", str(db)], env)  # fmt: skip
        assert got.returncode == 0, got.stderr
        asked = len(srv.requests)
    summary = json.loads(got.stdout)
    assert summary["game"] == "pact" and summary["scores"][0]["agent"] == "openai:loop"
    ((gid, (status, events)),) = games(db).items()
    assert status == "finished" and gid == summary["game_id"]
    calls = [json.loads(e) for e in events if json.loads(e)["type"] == "llm_call"]
    # Two decisions a round (a message, a quote) for 20 rounds, each one exchange.
    assert len(calls) == asked == 40
    assert {c["decision"] for c in calls} == {"message", "quote"}
    # The buyer's prompts carry its value and never the seller's cost.
    cost = next(
        json.loads(e)["cost"] for e in events if json.loads(e)["type"] == "pact_values_drawn"
    )
    value = next(
        json.loads(e)["value"] for e in events if json.loads(e)["type"] == "pact_values_drawn"
    )
    for c in calls:
        prompt = c["messages"][-1]["content"]
        assert f"Your value: {value}" in prompt
        if cost != value:
            assert f"cost: {cost}" not in prompt and f"cost {cost}" not in prompt

    # The server is gone: verification replays the recorded answers.
    checked = run(["replay", gid, "--verify", "--db", str(db)], env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "verified" in checked.stdout


def tournament_args(srv: LoopbackServer, db: Path) -> list[str]:
    return [
        "tournament", "--game", "pact", "--preset", "quick",
        "--agents", f"openai:loop@{srv.openai_url},anchor", "--games", "4", "--seed", "5",
        "--name", "haggle", "--workers", "2", "--quiet", "--db", str(db),
    ]  # fmt: skip


def test_a_killed_pact_model_tournament_resumes(
    tmp_path: Path, env: dict[str, str], server: LoopbackServer
) -> None:
    ref_db = tmp_path / "ref.duckdb"
    ref = run(tournament_args(server, ref_db), env)
    assert ref.returncode == 0, ref.stderr
    full = len(server.requests)
    reference = games(ref_db)
    assert len(reference) == 4 and all(s == "finished" for s, _ in reference.values())
    # Duplicate format: each deal is played with the model as buyer and as seller.
    seats = [json.loads(evs[0])["seats"] for _, evs in reference.values()]
    assert sorted(s[0]["agent"] for s in seats).count("anchor") == 2

    db = tmp_path / "killed.duckdb"
    before = len(server.requests)
    proc = start(tournament_args(server, db), env)
    wait_for_requests(server, before + full // 3, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    paid = len(server.requests) - before
    kept = games(db)
    assert any(s != "finished" for s, _ in kept.values()), "the kill came too late"

    mid = len(server.requests)
    resumed = run(["tournament", "--resume", "haggle", "--quiet", "--db", str(db)], env)
    assert resumed.returncode == 0, resumed.stderr
    again = len(server.requests) - mid
    assert again < full
    assert full <= paid + again <= full + 2, (full, paid, again)
    final = games(db)
    assert set(final) == set(reference)
    for gid, (status, events) in reference.items():
        assert final[gid][0] == status == "finished"
        assert timeless(final[gid][1]) == timeless(events), gid
    checked = run(["verify", "--tournament", "haggle", "--db", str(db)], env)
    assert checked.returncode == 0, checked.stdout[-3000:]
