"""Per-game budgets of model seats: once a seat has made `max_calls` calls (or used
`max_game_tokens` tokens) it plays its recorded default for the rest of the game, the game
says why, the game still verifies offline, and `cattle costs` counts the game as cut."""

from __future__ import annotations

import json
from pathlib import Path

from agents.llm.loopback import Answer, LoopbackServer
from agents.llm.spec import parse_model_spec, resolve, with_budgets
from engine.cattle.presets import load_preset
from events.agent import ActionDefaulted, LLMCall
from events.store import DuckStore
from runner.session import play_and_store
from runner.verify import verify_stored
from tests.cli.clikit import cattle

from .helpers import no_network, seat

RUNAWAY = '{"action":"bid","amount":10}'


def _runaway() -> LoopbackServer:
    return LoopbackServer(lambda req: Answer(text=RUNAWAY))


def test_budgets_are_options_outside_the_agent_name() -> None:
    spec = with_budgets("openai:m@http://127.0.0.1:9/v1", calls=12, tokens=5000)
    assert spec == "openai:m@http://127.0.0.1:9/v1?max_calls=12&max_game_tokens=5000"
    parsed = parse_model_spec(spec)
    assert parsed.agent == "openai:m"  # rated as the same agent
    options = resolve(parsed)
    assert (options.max_calls, options.max_game_tokens) == (12, 5000)
    assert with_budgets("random", calls=3) == "random"
    assert with_budgets("openai:m?mode=cot", calls=3) == "openai:m?mode=cot&max_calls=3"


def test_a_runaway_seat_cannot_spend_past_its_call_budget(tmp_path: Path) -> None:
    with _runaway() as srv, DuckStore(tmp_path / "b.duckdb") as store:
        specs = [with_budgets(seat(srv, "openai"), calls=5), seat(srv, "openai")]
        game_id, record = play_and_store(store, load_preset("micro-duel"), 22, specs)
        srv.stop()
        with no_network():
            assert verify_stored(store, game_id).outcome == "verified"
    calls = [e for e in record.events if isinstance(e, LLMCall) and e.seat == 0]
    assert len(calls) == 5
    budget = [
        e
        for e in record.events
        if isinstance(e, ActionDefaulted) and e.seat == 0 and e.reason.startswith("budget spent")
    ]
    assert budget and budget[0].reason == "budget spent: 5 model calls (max_calls=5)"
    # The other seat has no budget and keeps asking its model.
    assert sum(1 for e in record.events if isinstance(e, LLMCall) and e.seat == 1) > 5


def test_a_token_budget_stops_the_seat_too(tmp_path: Path) -> None:
    with _runaway() as srv, DuckStore(tmp_path / "t.duckdb") as store:
        specs = [with_budgets(seat(srv, "openai"), tokens=1500)] * 2
        game_id, record = play_and_store(store, load_preset("micro-duel"), 3, specs)
        assert verify_stored(store, game_id).outcome == "verified"
    for s in (0, 1):
        calls = [e for e in record.events if isinstance(e, LLMCall) and e.seat == s]
        used = [(c.input_tokens or 0) + (c.output_tokens or 0) for c in calls]
        # Calls stop at the first one that reaches the budget.
        assert sum(used[:-1]) < 1500 <= sum(used)
    reasons = {e.reason for e in record.events if isinstance(e, ActionDefaulted)}
    assert any(r.startswith("budget spent:") and "max_game_tokens=1500" in r for r in reasons)


def test_play_takes_budgets_and_costs_counts_the_games_cut(tmp_path: Path) -> None:
    db = tmp_path / "cli.duckdb"
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    env = {
        "OPENAI_API_KEY": "sk-test-budget",
        "CATTLE_LLM_BACKOFF": "0.001",
        "CATTLE_LLM_CONFIG": str(cfg),
    }
    with _runaway() as srv:
        spec = seat(srv, "openai")
        for extra in (["--max-calls", "4"], []):
            r = cattle(
                "play", "--preset", "micro-duel", "--seed", "22", "--agents",
                f"{spec},{spec}", "--json", "--db", db, *extra, env=env,
            )  # fmt: skip
            assert r.returncode == 0, r.stderr
    r = cattle("costs", "--by", "game", "--json", "--db", db, env=env)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert sorted(row["budget_cut_games"] for row in rows) == [0, 1]
    cut = next(row for row in rows if row["budget_cut_games"])
    assert cut["calls"] == 8  # four per seat
    checked = cattle("verify", "--all", "--db", db, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
