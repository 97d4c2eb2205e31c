"""Property: whatever a provider sends (answers, bodies that are none, error statuses: 5xx,
429, 408 and the 4xx that refuse a request outright; usage missing or negative, answers too
long), a tournament of every family ends, each game verifies offline, each decision of a model
seat has an outcome class, and every request is one stored exchange whose tokens and cost are
counted once; finish reasons and reasoning counts that cannot be true are not stored as sent."""

from __future__ import annotations

import itertools
import json
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from events import catalog
from events.agent import OUTCOMES, LLMCall, ModelDecision
from events.gamebench.pit import PitConfig
from events.store import DuckStore
from projections.costs import cost, usage
from runner import tournament
from runner.verify import verify_stored

from .helpers import no_network, seat, set_env

PRICE = (3.0, 15.0)
PRICES = {"openai:loop": PRICE, "anthropic:loop": PRICE}


def _games() -> list[tuple[str, Any]]:
    """One small game of every family: (tournament name, configuration)."""
    pit = PitConfig(max_turns=4, name="short")
    return [
        ("cattle", catalog.get("cattle-trade").preset("micro-duel")),
        ("pact", catalog.get("pact").preset("quick")),
        ("openspiel", catalog.resolve("openspiel:tic_tac_toe")[1]),
        ("textarena", catalog.resolve("textarena:TicTacToe-v0")[1]),
        ("gamebench", pit),
    ]


LEGAL = LegalPolicy()
BODIES = (
    "{not json",
    "<html>proxy error</html>",
    "[]",
    "null",
    "{}",
    '{"choices":"x"}',
    "5",
    "[" * 5_000 + "]" * 5_000,
    '{"choices":[{"message":{"content":"\\ud800"},"finish_reason":"\\udfff"}],'
    ' "content":[{"type":"text","text":"\\ud800"}], "stop_reason":"\\udfff"}',
)
KINDS = (
    "legal",
    "legal",
    "junk",
    "body",
    "status",
    "truncated",
    "refusal",
    "negative usage",  # (and other counts that cannot be true)
    "no usage",
    "odd fields",
    "too long",
    "effort refused",
    "client status",
)


class Provider:
    """Answers request after request from the current example's plan (cycled)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.plan: Iterator[tuple[str, int]] = iter(())

    def __call__(self, req: Incoming) -> Answer:
        with self.lock:
            kind, n = next(self.plan, ("legal", 0))
        match kind:
            case "junk":
                return Answer(text=["I pass.", "", "{}", "Action: 99"][n % 4])
            case "body":
                return Answer(raw=BODIES[n % len(BODIES)], content_type="application/json")
            case "status":
                status = (429, 500, 502, 503, 408)[n % 5]
                error = json.dumps({"error": {"message": "try later", "type": "server"}})
                return Answer(status=status, text=error, headers={"retry-after": "0.001"})
            case "client status":
                # refused outright (a prompt beyond the context, no such model, too large):
                # not retried, the decision's default, no tokens
                status = (400, 404, 413, 422)[n % 4]
                error = json.dumps({"error": {"message": "maximum context length exceeded"}})
                return Answer(status=status, text=error)
            case "truncated":
                return Answer(text=LEGAL(req).text[:10], finish="length")
            case "refusal":
                return Answer(text="I cannot help with that.", finish="refusal")
            case "negative usage":
                usage_ = {"prompt_tokens": -n - 1, "completion_tokens": 10**30}
                if req.protocol == "anthropic":
                    usage_ = {"input_tokens": -n - 1, "output_tokens": 1.5}
                return Answer(text=LEGAL(req).text, usage=usage_)
            case "no usage":
                return Answer(text=LEGAL(req).text, usage={})
            case "odd fields":
                # the other protocol's finish reason; a reasoning count above the output's
                if req.protocol == "anthropic":
                    content = [{"type": "text", "text": LEGAL(req).text}]
                    raw = json.dumps({"content": content, "stop_reason": "stop"})
                    return Answer(raw=raw, content_type="application/json")
                odd: dict[str, Any] = {"prompt_tokens": 50, "completion_tokens": 1}
                odd["completion_tokens_details"] = {"reasoning_tokens": 900 + n}
                return Answer(text=LEGAL(req).text, finish="end_turn", usage=odd)
            case "too long":
                return Answer(text=LEGAL(req).text + " " * 70_000)
            case "effort refused" if "reasoning_effort" in req.body or "thinking" in req.body:
                # (a model without reasoning settings: the seat drops them and asks again)
                param = "reasoning_effort" if req.protocol == "openai" else "thinking"
                error = {"message": f"Unsupported parameter: '{param}'", "type": "invalid"}
                return Answer(status=400, text=json.dumps({"error": error}))
        return LEGAL(req)


@pytest.fixture(scope="module")
def provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LoopbackServer, Provider]]:
    with pytest.MonkeyPatch.context() as mp:
        set_env(mp, tmp_path_factory.mktemp("prop"))
        script = Provider()
        with LoopbackServer(script) as srv:
            yield srv, script


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@example(plan=[("client status", 1), ("legal", 0), ("client status", 2)], providers=["openai"] * 5)
@given(
    plan=st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 99)), min_size=1, max_size=8),
    providers=st.lists(st.sampled_from(["openai", "anthropic"]), min_size=5, max_size=5),
)
def test_a_tournament_of_every_family_survives_any_provider(
    provider: tuple[LoopbackServer, Provider],
    plan: list[tuple[str, int]],
    providers: list[str],
) -> None:
    srv, script = provider
    with script.lock:
        script.plan = itertools.cycle(plan)
        before = len(srv.requests)
    with tempfile.TemporaryDirectory() as tmp, DuckStore(Path(tmp) / "p.duckdb") as store:
        tournament.ensure_schema(store)
        for (name, config), via in zip(_games(), providers, strict=True):
            spec = seat(srv, via, opts="attempts=2&memory=none")
            tournament.create(store, name, "round-robin", (spec, "random"), 1, 3, config)
            _, tasks, _ = tournament.pending_tasks(store, name)
            assert tournament.play_tournament(store, name, config, tasks) == len(tasks)
        requests = len(srv.requests) - before
        _, games = store.query("SELECT game_id, status FROM games ORDER BY game_id")
        assert len(games) >= 5 and all(status == "finished" for _, status in games)
        with no_network():
            for gid, _ in games:
                check = verify_stored(store, gid)
                assert check.outcome == "verified", (gid, check.problem)
        calls: list[LLMCall] = []
        for gid, _ in games:
            events = store.load_events(gid)
            calls += [e for e in events if isinstance(e, LLMCall)]
            _every_decision_has_a_class(events)
        # every request is one stored exchange, counted once in the totals
        assert len(calls) == requests
        assert all(c.input_tokens >= 0 and c.output_tokens >= 0 for c in calls)
        rows = usage(store.con, by="game", prices=PRICES, separate=False)
    assert sum(r["calls"] for r in rows) == len(calls)
    assert sum(r["input_tokens"] for r in rows) == sum(c.input_tokens for c in calls)
    assert sum(r["output_tokens"] for r in rows) == sum(c.output_tokens for c in calls)
    paid = sum(cost(c.input_tokens, c.output_tokens, PRICE) or 0.0 for c in calls)
    assert sum(r["cost_usd"] for r in rows) == pytest.approx(paid)


def _every_decision_has_a_class(events: list[Any]) -> None:
    """Each model seat's decision calls end in a `model_decision` with a known class."""
    open_calls: dict[int, int] = {}
    for e in events:
        if isinstance(e, LLMCall) and e.decision != "scratchpad":
            open_calls[e.seat] = open_calls.get(e.seat, 0) + 1
        elif isinstance(e, ModelDecision):
            assert e.outcome in OUTCOMES
            open_calls[e.seat] = 0
    assert not any(open_calls.values()), open_calls
