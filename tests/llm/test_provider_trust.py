"""A hostile or broken provider, through the real SDKs over loopback HTTP: bodies that are no
answer, usage that is missing or negative, answers of megabytes; and budgets and options that
must hold whatever order they are given in."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents import UnknownAgent, parse_spec
from agents.human.agent import parse_human_spec
from agents.llm.budget import TournamentBudget
from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer, openai_body
from agents.llm.spec import SpecError, parse_model_spec, resolve, with_budgets
from agents.llm.transport import MAX_ANSWER_CHARS, cut_length
from engine.cattle.presets import load_preset
from events.agent import ActionDefaulted, LLMCall, ModelDecision
from events.codec import encode
from events.store import DuckStore
from runner import tournament
from runner.session import play_and_store
from runner.verify import verify_stored
from tests.cli.clikit import cattle

from .helpers import no_network, seat

DUEL = "micro-duel"
SEED = 22


class Spoiler:
    """Answers the first `n` decision requests with `spoil(request)`, the rest legally."""

    def __init__(self, spoil: Callable[[Incoming], Answer], n: int) -> None:
        self.spoil = spoil
        self.left = n
        self.base = LegalPolicy(trade_bias=1.0)

    def __call__(self, req: Incoming) -> Answer:
        if self.left > 0 and req.kind != "scratchpad":
            self.left -= 1
            return self.spoil(req)
        return self.base(req)


def _stored(store: DuckStore, specs: list[str], seed: int = SEED) -> tuple[str, list[Any]]:
    game_id, record = play_and_store(store, load_preset(DUEL), seed, specs)
    assert record.result is not None and record.result.reason == "complete"
    with no_network():
        check = verify_stored(store, game_id)
    assert check.outcome == "verified", check.problem
    return game_id, list(record.events)


def _calls(events: list[Any], seat_: int = 0) -> list[LLMCall]:
    return [e for e in events if isinstance(e, LLMCall) and e.seat == seat_]


# ---------------------------------------------------------------------------- bodies


def _raw(body: str, kind: str = "application/json") -> Callable[[Incoming], Answer]:
    return lambda req: Answer(raw=body, content_type=kind)


OPENAI_BODIES = {
    "not json": _raw("{not json"),
    "html": _raw("<html>proxy error</html>", "text/html"),
    "choices text": _raw('{"choices":"x"}'),
    "message number": _raw('{"choices":[{"message":5}]}'),
    "list": _raw("[]"),
    "null": _raw("null"),
    "content list": _raw(
        '{"choices":[{"message":{"role":"assistant","content":[1,2]},"finish_reason":"stop"}]}'
    ),
}
ANTHROPIC_BODIES = {
    "openai shape": lambda req: Answer(
        raw=json.dumps(openai_body(req, LegalPolicy()(req))), content_type="application/json"
    ),
    "empty object": _raw("{}"),
    "html": _raw("<html>proxy error</html>", "text/html"),
    "number": _raw("5", "text/plain"),
}
CASES = [("openai", k, v) for k, v in OPENAI_BODIES.items()] + [
    ("anthropic", k, v) for k, v in ANTHROPIC_BODIES.items()
]


@pytest.mark.parametrize(
    ("provider", "spoil"), [(p, f) for p, _, f in CASES], ids=[f"{p}-{k}" for p, k, _ in CASES]
)
def test_a_body_that_is_no_answer_is_an_error_and_the_game_goes_on(
    tmp_path: Path, provider: str, spoil: Callable[[Incoming], Answer]
) -> None:
    with LoopbackServer(Spoiler(spoil, 2)) as srv, DuckStore(tmp_path / "b.duckdb") as store:
        _, events = _stored(store, [seat(srv, provider, opts="attempts=2"), "random"])
    failed, *rest = [c for c in _calls(events)]
    assert failed.status == 200 and (failed.error or "").startswith("bad_response")
    assert (rest[0].error or "").startswith("bad_response") and rest[0].attempt == 2
    first = next(e for e in events if isinstance(e, ModelDecision) and e.seat == 0)
    assert first.outcome == "error" and first.fallback is not None
    default = next(e for e in events if isinstance(e, ActionDefaulted) and e.seat == 0)
    assert default.action == first.fallback and "unavailable" in default.reason
    # later answers are read as usual
    assert any(c.error is None and c.parse_error is None for c in rest)


def test_a_tournament_goes_on_through_bodies_that_are_no_answer(tmp_path: Path) -> None:
    bodies = list(OPENAI_BODIES.values())
    turn = iter(range(10**6))

    def spoil(req: Incoming) -> Answer:
        return bodies[next(turn) % len(bodies)](req)

    with LoopbackServer(spoil) as srv, DuckStore(tmp_path / "t.duckdb") as store:
        tournament.ensure_schema(store)
        config = load_preset(DUEL)
        spec = seat(srv, "openai", opts="attempts=1")
        tournament.create(store, "cup", "round-robin", (spec, "random"), 2, 5, config)
        _, tasks, _ = tournament.pending_tasks(store, "cup")
        assert tournament.play_tournament(store, "cup", config, tasks) == len(tasks)
        _, rows = store.query("SELECT game_id, status FROM games ORDER BY game_id")
        assert rows and all(status == "finished" for _, status in rows)
        _, classes = store.query("SELECT DISTINCT outcome FROM llm_decisions")
        assert classes == [("error",)]
        with no_network():
            for gid, _ in rows:
                assert verify_stored(store, gid).outcome == "verified"


# ---------------------------------------------------------------------------- sizes


def test_an_answer_of_megabytes_is_stored_cut_and_not_echoed(tmp_path: Path) -> None:
    huge = '{"action": "pass"}' + " " * 3_000_000 + "x"
    spoiler = Spoiler(lambda req: Answer(text=huge), 1)
    with LoopbackServer(spoiler) as srv, DuckStore(tmp_path / "m.duckdb") as store:
        _, events = _stored(store, [seat(srv, "openai"), "random"])
        retry = next(r for r in srv.requests if r.stage == "format_retry")
    big, again = _calls(events)[:2]
    assert cut_length(big.response) == len(huge)
    assert len(big.response) < MAX_ANSWER_CHARS + 100
    assert big.parse_stage == "failed" and "too long" in (big.parse_error or "")
    assert len(encode(big)) < MAX_ANSWER_CHARS + 20_000  # the event, prompt included
    # the retry shows the start of the answer, not all of it
    assert again.stage == "format_retry" and again.parse_error is None
    assert max(len(str(m["content"])) for m in retry.messages) < 20_000
    assert f"{len(huge) - 2_000:,} more characters" in again.messages[2].content
    first = next(e for e in events if isinstance(e, ModelDecision) and e.seat == 0)
    assert first.outcome == "repaired"


# ---------------------------------------------------------------------------- usage


USAGES = {
    "openai negative": ("openai", {"prompt_tokens": -1000, "completion_tokens": -1000}),
    "openai missing": ("openai", {}),
    "anthropic negative": ("anthropic", {"input_tokens": -5000, "output_tokens": -1}),
    "anthropic missing": ("anthropic", {}),
}


@pytest.mark.parametrize("case", list(USAGES))
def test_a_token_budget_holds_without_usable_usage(tmp_path: Path, case: str) -> None:
    provider, usage = USAGES[case]
    policy = LegalPolicy()
    with (
        LoopbackServer(lambda req: Answer(text=policy(req).text, usage=usage)) as srv,
        DuckStore(tmp_path / "u.duckdb") as store,
    ):
        spec = with_budgets(seat(srv, provider), tokens=500)
        _, events = _stored(store, [spec, "random"])
        _, sums = store.query(
            "SELECT min(input_tokens), min(output_tokens), bool_and(usage_estimated) FROM llm_calls"
        )
    calls = _calls(events)
    # the first prompt alone is over 500 tokens (4 characters a token): one call, then defaults
    assert len(calls) == 1
    assert calls[0].usage_estimated is True and calls[0].input_tokens > 500
    assert sums == [(calls[0].input_tokens, calls[0].output_tokens, True)]
    assert calls[0].output_tokens == len(calls[0].response) // 4
    budget = [e for e in events if isinstance(e, ActionDefaulted) and e.seat == 0]
    assert budget and budget[0].reason.startswith("budget spent")


def test_a_tournament_token_budget_holds_without_usage_and_costs_say_so(
    tmp_path: Path,
) -> None:
    policy = LegalPolicy()
    negative = {"prompt_tokens": -1000, "completion_tokens": -1000}
    db = tmp_path / "t.duckdb"
    with (
        LoopbackServer(lambda req: Answer(text=policy(req).text, usage=negative)) as srv,
        DuckStore(db) as store,
    ):
        tournament.ensure_schema(store)
        config = load_preset(DUEL)
        specs = (seat(srv, "openai", "m0"), seat(srv, "openai", "m1"))
        tournament.create(store, "cup", "round-robin", specs, 3, 5, config)
        _, tasks, _ = tournament.pending_tasks(store, "cup")
        budget = TournamentBudget("cup", tokens=500)
        tournament.play_tournament(store, "cup", config, tasks, concurrency=1, budget=budget)
        _, rows = store.query("SELECT count(*), min(input_tokens) FROM llm_calls")
    ((calls, least),) = rows
    assert 1 <= calls <= 2 and least > 0  # at most the calls in flight when it was reached
    shown = cattle("costs", "--db", db)
    assert shown.returncode == 0, shown.stderr
    assert f"Estimated: the tokens of {calls} of {calls} calls" in shown.stdout
    rows_json = json.loads(cattle("costs", "--json", "--db", db).stdout)
    assert sum(r["estimated_calls"] for r in rows_json) == calls
    assert all(r["input_tokens"] >= 0 and r["output_tokens"] >= 0 for r in rows_json)
    assert sum(r["input_tokens"] for r in rows_json) >= 500


# ---------------------------------------------------------------------------- budgets, options


@pytest.mark.parametrize(("own", "flag", "made"), [(1, 5, 1), (5, 2, 2)])
def test_the_tighter_call_budget_wins_either_way(
    tmp_path: Path, own: int, flag: int, made: int
) -> None:
    db = tmp_path / "c.duckdb"
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    env = {
        "OPENAI_API_KEY": "sk-test",
        "CATTLE_LLM_BACKOFF": "0.001",
        "CATTLE_LLM_CONFIG": str(cfg),
    }
    with LoopbackServer(LegalPolicy()) as srv:
        spec = seat(srv, "openai", opts=f"max_calls={own}")
        done = cattle(
            "play", "--preset", DUEL, "--seed", str(SEED), "--agents", f"{spec},random",
            "--max-calls", str(flag), "--json", "--db", db, env=env,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query("SELECT count(*) FROM llm_calls")
        _, reasons = store.query(
            "SELECT DISTINCT payload->>'reason' FROM events WHERE type = 'action_defaulted'"
        )
    assert rows == [(made,)]
    assert reasons == [(f"budget spent: {made} model calls (max_calls={made})",)]


def test_budgets_added_for_every_seat_keep_a_seat_own_tighter_ones() -> None:
    base = "openai:m@http://127.0.0.1:9/v1"
    spec = with_budgets(f"{base}?max_calls=1&max_game_tokens=900", calls=5, tokens=100)
    got = resolve(parse_model_spec(spec))
    assert (got.max_calls, got.max_game_tokens) == (1, 100)
    spec = with_budgets(f"{base}?max_game_cost=0.5&price=1/2", cost=2.0, price=(3.0, 4.0))
    got = resolve(parse_model_spec(spec))
    assert (got.max_game_cost, got.price) == (0.5, (1.0, 2.0))
    spec = with_budgets(f"{base}?max_game_cost=0.5&price=1/2", cost=0.25, price=(3.0, 4.0))
    assert resolve(parse_model_spec(spec)).max_game_cost == 0.25


@pytest.mark.parametrize(
    "text",
    [
        "openai:m?max_calls=1&max_calls=100",
        "openai:m?max_calls=100&max_calls=1",
        "openai:m?tokens=10&max_tokens=4000",
        "anthropic:m?memory=none&memory=full",
        "human?via=web&via=terminal",
        "human?timeout=10&timeout=99",
    ],
)
def test_an_option_given_twice_is_refused(text: str) -> None:
    with pytest.raises((UnknownAgent, SpecError), match="given twice"):
        parse_spec(text)
    own = parse_human_spec if text.startswith("human") else parse_model_spec
    with pytest.raises((SpecError, ValueError), match="given twice"):
        own(text)


def test_text_and_counts_no_store_can_hold_are_made_safe(tmp_path: Path) -> None:
    """A lone surrogate (which JSON can spell, UTF-8 cannot) and a count beyond any integer
    column: the answer is stored with "?" and the counts are estimated."""
    body = (
        '{"choices":[{"message":{"content":"\\ud800 pass"},"finish_reason":"\\udfff"}],'
        ' "usage":{"prompt_tokens":1000000000000000000000000000000,"completion_tokens":3}}'
    )
    spoiler = Spoiler(_raw(body), 1)
    with LoopbackServer(spoiler) as srv, DuckStore(tmp_path / "s.duckdb") as store:
        _, events = _stored(store, [seat(srv, "openai"), "random"])
        _, sums = store.query("SELECT sum(input_tokens) FROM llm_calls")
    odd = _calls(events)[0]
    assert odd.response == "? pass" and odd.finish_reason == "?"
    assert odd.usage_estimated is True and 0 < odd.input_tokens < 10**6
    assert odd.output_tokens == 3
    assert sums[0][0] < 10**7


@pytest.mark.parametrize(("own", "total", "most"), [(1, 50, 1), (50, 3, None)])
def test_a_tournament_budget_and_a_seat_budget_both_hold(
    tmp_path: Path, own: int, total: int, most: int | None
) -> None:
    with LoopbackServer(LegalPolicy()) as srv, DuckStore(tmp_path / "t.duckdb") as store:
        tournament.ensure_schema(store)
        config = load_preset(DUEL)
        spec = seat(srv, "openai", opts=f"max_calls={own}&memory=none")
        tournament.create(store, "cup", "round-robin", (spec, "random"), 2, 5, config)
        _, tasks, _ = tournament.pending_tasks(store, "cup")
        budget = TournamentBudget("cup", calls=total)
        tournament.play_tournament(store, "cup", config, tasks, concurrency=1, budget=budget)
        _, per_game = store.query("SELECT count(*) FROM llm_calls GROUP BY game_id")
    assert len(tasks) >= 2
    if most is not None:  # the seat's own budget, in every game
        assert per_game == [(most,)] * len(tasks)
    else:  # the tournament's, over all its games
        assert sum(n for (n,) in per_game) == total


def _openai_raw(text: str, finish: str, usage: dict[str, Any]) -> str:
    message = {"role": "assistant", "content": text}
    choice = {"index": 0, "message": message, "finish_reason": finish}
    return json.dumps({"choices": [choice], "usage": usage})


def _anthropic_raw(text: str, stop: str) -> str:
    return json.dumps({"content": [{"type": "text", "text": text}], "stop_reason": stop})


ODD_FIELDS: dict[str, tuple[str, Callable[[str], str]]] = {
    "openai finish of the other protocol": (
        "openai",
        lambda t: _openai_raw(t, "end_turn", {"prompt_tokens": 90, "completion_tokens": 9}),
    ),
    "openai reasoning beyond the output": (
        "openai",
        lambda t: _openai_raw(
            t,
            "stop",
            {
                "prompt_tokens": 90,
                "completion_tokens": 5,
                "completion_tokens_details": {"reasoning_tokens": 5000},
            },
        ),
    ),
    "openai reasoning without an output count": (
        "openai",
        lambda t: _openai_raw(
            t, "stop", {"prompt_tokens": 90, "completion_tokens_details": {"reasoning_tokens": 700}}
        ),
    ),
    "anthropic finish of the other protocol": ("anthropic", lambda t: _anthropic_raw(t, "stop")),
}


@pytest.mark.parametrize("case", list(ODD_FIELDS))
def test_fields_a_provider_cannot_mean_are_not_stored_as_sent(tmp_path: Path, case: str) -> None:
    """A body whose finish reason only the other protocol gives, or whose reasoning count is
    more than its whole output, is read (its answer plays) and its game still verifies: the
    finish reason is dropped, and the output counts at least the reasoning."""
    provider, body = ODD_FIELDS[case]
    policy = LegalPolicy()
    spoiler = Spoiler(lambda req: Answer(raw=body(policy(req).text)), 1)
    with LoopbackServer(spoiler) as srv, DuckStore(tmp_path / "f.duckdb") as store:
        _, events = _stored(store, [seat(srv, provider), "random"])
    odd = _calls(events)[0]
    assert odd.error is None and odd.parse_error is None
    assert odd.finish_reason in (None, "stop")
    assert odd.reasoning_tokens <= odd.output_tokens
    if odd.reasoning_tokens:
        assert odd.output_tokens >= 700 and odd.usage_estimated is True
