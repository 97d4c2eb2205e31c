"""`cattle tournament --dry-run`: no model called, nothing stored, and an estimate of the
model calls and tokens that a real run on the loopback server then meets within a factor of
two (docs/llm.md, Dry run)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from agents.llm.loopback import LegalPolicy, LoopbackServer
from tests.cli.clikit import cattle

from .helpers import seat

FACTOR = 2.0
"""How far the estimate may be from the real run, either way."""


@pytest.fixture(scope="module")
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(LegalPolicy()) as srv:
        yield srv


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    return {"OPENAI_API_KEY": "sk-test-dry", "CATTLE_LLM_CONFIG": str(cfg)}


def _tournament(server: LoopbackServer, db: Path, env: dict[str, str], *extra: str) -> str:
    a, b = seat(server, "openai", model="loop-a"), seat(server, "openai", model="loop-b")
    r = cattle(
        "tournament", "--preset", "micro-duel", "--format", "round-robin", "--agents",
        f"{a},{b}", "--games", "4", "--quiet", "--db", db, *extra, env=env,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_the_estimate_meets_a_real_run_within_a_factor(
    tmp_path: Path, server: LoopbackServer, env: dict[str, str]
) -> None:
    db = tmp_path / "d.duckdb"
    _tournament(server, db, env, "--seed", "1", "--name", "first")
    before = db.read_bytes()
    asked = len(server.requests)
    got = json.loads(
        _tournament(server, db, env, "--seed", "2", "--name", "second", "--dry-run", "--json")
    )
    assert len(server.requests) == asked  # no model called
    assert db.read_bytes() == before  # nothing stored
    assert got["games"] == 4 and got["model_games"] == 4
    assert {r["basis"] for r in got["seats"]} == {"4 stored games"}
    _tournament(server, db, env, "--seed", "2", "--name", "second")
    con = duckdb.connect(str(db), read_only=True)
    calls, tokens = con.execute(
        "SELECT count(*), sum(input_tokens + output_tokens) FROM llm_calls"
        " WHERE tournament = 'second'"
    ).fetchall()[0]
    con.close()
    for estimated, real in ((got["calls"], calls), (got["tokens"], tokens)):
        assert real / FACTOR <= estimated <= real * FACTOR, (estimated, real)
    assert got["calls_bound"] >= calls


def test_without_stored_games_the_bound_is_stated_and_the_budget_cuts_the_estimate(
    tmp_path: Path, server: LoopbackServer, env: dict[str, str]
) -> None:
    db = tmp_path / "none.duckdb"
    text = _tournament(
        server, db, {**env, "COLUMNS": "80"}, "--seed", "5", "--dry-run", "--max-calls", "30"
    )
    assert not db.exists()
    assert "Basis: no stored game" in text and "Dry run: 4 games of cattle-trade" in text
    assert "at most 30 calls" in text
    # The budget holds for the estimate too, not only for the bound.
    assert "In all: 30 calls" in text and "cut by" in text
    assert all(len(line) <= 80 for line in text.splitlines())
