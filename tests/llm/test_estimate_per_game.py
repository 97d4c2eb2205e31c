"""The dry run estimates each game from its own bound and its own stored games: within a
factor of two of the real use on the loopback server, never from another game's games, its
budgets applied, and `cattle play --dry-run` calls and stores nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import LegalPolicy, LoopbackServer
from bench.dry_run import CASES, Case, config_of, measure, specs_of
from events.store import DuckStore
from runner.estimate import estimate_games
from runner.session import play_and_store
from tests.cli.clikit import cattle

from .helpers import set_env

FACTOR = 2.0
"""How far the estimate may be from the real use, either way."""

FAST = {c.family: c for c in CASES}


@pytest.fixture(scope="module")
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(LegalPolicy()) as srv:
        yield srv


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    set_env(monkeypatch, tmp_path)
    cfg = tmp_path / "llm.toml"
    return {"OPENAI_API_KEY": "sk-test-dry", "CATTLE_LLM_CONFIG": str(cfg)}


@pytest.mark.parametrize("family", ["OpenSpiel", "TextArena", "GameBench"])
def test_the_estimate_from_a_stored_game_meets_the_real_use(
    family: str, tmp_path: Path, server: LoopbackServer, env: dict[str, str]
) -> None:
    row = measure(FAST[family], server, tmp_path / "d.duckdb")
    assert row.bound["stored_games"] == 0
    assert {r["basis"] for r in row.bound["seats"]} == {"bound"}
    assert row.stored["stored_games"] == 1
    assert {r["basis"] for r in row.stored["seats"]} == {"1 stored game"}
    for estimated, real in ((row.stored["calls"], row.calls), (row.stored["tokens"], row.tokens)):
        assert real > 0
        assert real / FACTOR <= estimated <= real * FACTOR, (family, estimated, real)


OTHERS = [
    # Another game of the same family, another preset of the same game, and the same game
    # and preset played by code agents only.
    (
        Case("OpenSpiel", "openspiel:tic_tac_toe", None, ("M", "M")),
        Case("OpenSpiel", "openspiel:kuhn_poker", None, ("M", "M")),
    ),
    (
        Case("TextArena", "textarena", "blotto", ("M", "M")),
        Case("TextArena", "textarena", "ipd3", ("M", "M", "M")),
    ),
    (
        Case("Cattle Trade", "cattle-trade", "micro-duel", ("M", "M")),
        Case("Cattle Trade", "cattle-trade", "standard", ("M", "M", "M", "M")),
    ),
    (
        Case("GameBench", "gamebench:pit", "quick", ("random", "random")),
        Case("GameBench", "gamebench:pit", "quick", ("M", "random")),
    ),
]


@pytest.mark.parametrize(("played", "other"), OTHERS, ids=lambda c: f"{c.game}-{c.preset}")
def test_the_estimate_never_reads_another_games_stored_games(
    played: Case, other: Case, tmp_path: Path, server: LoopbackServer, env: dict[str, str]
) -> None:
    config = config_of(other)
    specs = [tuple(specs_of(other, server))]
    with DuckStore(tmp_path / "d.duckdb") as store:
        play_and_store(store, config_of(played), 1, specs_of(played, server))
        got = estimate_games(store.con, config, specs, {})
    assert got == estimate_games(None, config, specs, {})
    assert got["stored_games"] == 0 and {r["basis"] for r in got["seats"]} == {"bound"}


def test_play_dry_run_estimates_from_the_games_bound_and_its_budget(
    tmp_path: Path, server: LoopbackServer, env: dict[str, str]
) -> None:
    a, b = specs_of(Case("x", "openspiel:tic_tac_toe", None, ("M", "M")), server)
    db = tmp_path / "d.duckdb"
    args = ("play", "--game", "openspiel:tic_tac_toe", "--agents", f"{a},{b}", "--db", db)
    asked = len(server.requests)
    r = cattle(*args, "--dry-run", "--json", env=env)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert not db.exists() and len(server.requests) == asked  # nothing stored or called
    # Tic-tac-toe has at most 9 moves, so at most 9 decisions shared by the two seats.
    assert got["decision_bound"] == 9 and got["calls"] == pytest.approx(9)
    assert [r["basis"] for r in got["seats"]] == ["bound", "bound"]
    capped = json.loads(cattle(*args, "--dry-run", "--json", "--max-calls", "2", env=env).stdout)
    assert [r["calls"] for r in capped["seats"]] == [2, 2]
    assert [r["cut"] for r in capped["seats"]] == [["max_calls"], ["max_calls"]]
    text = cattle(*args, "--dry-run", env={**env, "COLUMNS": "80"}).stdout
    assert "Basis: no stored game of this game and configuration" in text
    assert all(len(line) <= 80 for line in text.splitlines())
