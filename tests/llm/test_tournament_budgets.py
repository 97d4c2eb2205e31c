"""Cost budgets per game and budgets of a whole tournament (docs/bounds.md): a loopback
server answering the same invalid bid forever cannot spend past them, every game still ends
(within its bound), records why its seats played defaults, and verifies offline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from agents.llm.loopback import Answer, LoopbackServer
from engine.cattle.presets import load_preset
from events import catalog
from events.agent import ActionDefaulted, LLMCall, ModelDecision
from events.store import DuckStore
from runner.driver import decision_limit
from tests.cli.clikit import cattle

from .helpers import seat

RUNAWAY = '{"action":"bid","amount":10}'
PRICE = {"input": 100.0, "output": 400.0}
"""A made-up price per million tokens, high enough that a few calls cost a visible amount."""


@pytest.fixture(scope="module")
def runaway() -> Iterator[LoopbackServer]:
    """A model that answers the same bid to every question, forever."""
    with LoopbackServer(lambda req: Answer(text=RUNAWAY)) as srv:
        yield srv


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"openai:loop": PRICE}))
    return {
        "OPENAI_API_KEY": "sk-test-budget",
        "CATTLE_LLM_BACKOFF": "0.001",
        "CATTLE_LLM_CONFIG": str(cfg),
        "CATTLE_PRICES": str(prices),
    }


def _calls(db: Path, where: str = "") -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT game_id, seat, input_tokens, output_tokens FROM llm_calls " + where
        ).fetchall()
    finally:
        con.close()


def test_a_cost_budget_stops_a_seat_at_the_first_call_that_reaches_it(
    tmp_path: Path, runaway: LoopbackServer, env: dict[str, str]
) -> None:
    db = tmp_path / "cost.duckdb"
    spec = seat(runaway, "openai")
    r = cattle(
        "play", "--preset", "micro-duel", "--seed", "22", "--agents", f"{spec},{spec}",
        "--max-cost", "0.5", "--json", "--db", db, env=env,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    for s in (0, 1):
        costs = [
            (i * PRICE["input"] + o * PRICE["output"]) / 1e6
            for _, seat_, i, o in _calls(db)
            if seat_ == s
        ]
        assert sum(costs[:-1]) < 0.5 <= sum(costs)  # stops at the call that reaches it
    with DuckStore(db, read_only=True) as store:
        reasons = store.con.execute(
            "SELECT DISTINCT payload->>'reason' FROM events WHERE type = 'action_defaulted'"
        ).fetchall()
        outcomes = dict(
            store.con.execute("SELECT outcome, count(*) FROM llm_decisions GROUP BY 1").fetchall()
        )
    assert any("max_game_cost=0.5" in r[0] for r in reasons), reasons
    assert outcomes.get("budget", 0) > 0
    checked = cattle("verify", "--all", "--db", db, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_max_cost_refuses_a_model_without_a_price(
    tmp_path: Path, runaway: LoopbackServer, env: dict[str, str]
) -> None:
    spec = seat(runaway, "openai", model="unpriced")
    r = cattle(
        "play", "--preset", "micro-duel", "--agents", f"{spec},{spec}", "--max-cost", "1",
        "--db", tmp_path / "x.duckdb", env=env,
    )  # fmt: skip
    assert r.returncode == 2
    assert "openai:unpriced has no price in the price table" in " ".join(r.stderr.split())
    assert not (tmp_path / "x.duckdb").exists()


@pytest.mark.parametrize(("flag", "limit"), [("--max-calls", 40), ("--max-cost", 3.0)])
def test_a_tournament_budget_holds_over_all_its_games(
    tmp_path: Path, runaway: LoopbackServer, env: dict[str, str], flag: str, limit: float
) -> None:
    """Six runaway micro-duels, two at a time, under one budget: the calls stop once it is
    reached (calls exactly; tokens and cost by at most the calls then in flight), every game
    ends complete within its bound, and verifies offline."""
    db = tmp_path / "t.duckdb"
    a, b = seat(runaway, "openai", model="loop-a"), seat(runaway, "openai", model="loop-b")
    prices = tmp_path / "p.json"
    prices.write_text(json.dumps({"openai:loop": PRICE}))
    r = cattle(
        "tournament", "--preset", "micro-duel", "--format", "round-robin", "--agents",
        f"{a},{b}", "--games", "6", "--seed", "3", "--workers", "2", "--name", "capped",
        "--quiet", flag, str(limit), "--prices", prices, "--db", db, env=env,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    calls = _calls(db, "WHERE tournament = 'capped'")
    tokens = [i + o for _, _, i, o in calls]
    cost = [(i * PRICE["input"] + o * PRICE["output"]) / 1e6 for _, _, i, o in calls]
    if flag == "--max-calls":
        assert len(calls) == limit
    else:
        used = tokens if flag == "--max-tokens" else cost
        biggest = max(used)
        # Reached, and passed by no more than the calls in flight when it was: two games at
        # once, each with both seats waiting on an answer in a sealed bid round.
        assert limit <= sum(used) < limit + 4 * biggest
    with DuckStore(db, read_only=True) as store:
        ended = store.con.execute("SELECT end_reason, count(*) FROM games GROUP BY 1").fetchall()
        cut = store.con.execute(
            "SELECT count(DISTINCT game_id) FROM events WHERE type = 'action_defaulted'"
            " AND starts_with(payload->>'reason', 'budget spent: tournament capped')"
        ).fetchall()[0][0]
        most = store.con.execute(
            "SELECT max(n) FROM (SELECT game_id, count(*) AS n FROM events"
            " WHERE type = 'model_decision' GROUP BY ALL)"
        ).fetchall()[0][0]
    assert ended == [("complete", 6)]
    assert cut >= 1
    config = load_preset("micro-duel")
    assert (
        most <= decision_limit(catalog.get("cattle-trade"), config) * 2
    )  # every decision of both seats, within the bound
    checked = cattle("verify", "--all", "--db", db, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_replay_stops_where_the_log_says_the_tournament_budget_did(
    tmp_path: Path, runaway: LoopbackServer, env: dict[str, str]
) -> None:
    """The stop is read from the log: a log missing a recorded call no longer verifies."""
    from runner.replay import verify

    db = tmp_path / "r.duckdb"
    a, b = seat(runaway, "openai", model="loop-a"), seat(runaway, "openai", model="loop-b")
    r = cattle(
        "tournament", "--preset", "micro-duel", "--format", "round-robin", "--agents",
        f"{a},{b}", "--games", "2", "--seed", "3", "--name", "cut", "--quiet",
        "--max-calls", "7", "--db", db, env=env,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    with DuckStore(db, read_only=True) as store:
        ids = [g[0] for g in store.con.execute("SELECT game_id FROM games").fetchall()]
        logs = [store.load_events(g) for g in ids]
    assert sum(isinstance(e, LLMCall) for log in logs for e in log) == 7
    for log in logs:
        assert verify(log).ok
        assert any(isinstance(e, ModelDecision) and e.outcome == "budget" for e in log)
    cut = next(log for log in logs if any(isinstance(e, LLMCall) for e in log))
    defaults = [e for e in cut if isinstance(e, ActionDefaulted)]
    assert any(e.reason.startswith("budget spent: tournament cut") for e in defaults)
    # Drop the last recorded call: the replay then asks for one the log does not hold.
    last = max(i for i, e in enumerate(cut) if isinstance(e, LLMCall))
    assert not verify(cut[:last] + cut[last + 1 :]).ok
