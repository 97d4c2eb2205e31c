"""Structured output, reasoning effort and quiet fallbacks, over real HTTP with the real SDKs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from agents import parse_spec
from agents.llm.loopback import Answer, FaultPolicy, Incoming, LegalPolicy, LoopbackServer
from agents.llm.spec import resolve
from engine.cattle.presets import load_preset
from events import catalog
from events.agent import ActionDefaulted, LLMCall
from events.config import SeatSpec
from events.store import DuckStore
from runner.replay import verify
from runner.session import play_and_store, play_game
from tests.cli.clikit import cattle

from .helpers import no_network, seat

ANSWER_KEYS = {
    "turn": {"reasoning", "action"},
    "bid": {"reasoning", "action", "amount"},
    "sale": {"reasoning", "decision"},
    "initiate_trade": {"reasoning", "target_player", "animal", "offer_cards"},
    "respond_trade": {"reasoning", "action", "counter_cards"},
    "tie_offer": {"reasoning", "offer_cards"},
}


def _checked(record: Any) -> list[Any]:
    with no_network():
        check = verify(record.events)
    assert check.ok, (check.mismatch, check.expected, check.got, check.error)
    return list(record.events)


def _schema(r: Incoming) -> dict[str, Any] | None:
    """The answer schema a request carries (OpenAI response_format, Anthropic tool)."""
    if r.protocol == "openai":
        fmt = r.body.get("response_format")
        if fmt is None:
            return None
        assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
        return dict(fmt["json_schema"]["schema"])
    tools = r.body.get("tools")
    if not tools:
        return None
    (tool,) = tools
    return dict(tool["input_schema"])


@pytest.mark.parametrize("effort", ["none", "low"])
def test_json_schema_seats_send_the_schema_and_read_the_answer(effort: str) -> None:
    """Every decision request carries its answer's schema; every answer is read as JSON."""
    with LoopbackServer(LegalPolicy(trade_bias=1.0)) as srv:
        opts = f"output=json_schema&reasoning={effort}"
        specs = [seat(srv, "openai", opts=opts), seat(srv, "anthropic", opts=opts)]
        record = play_game(load_preset("micro-duel"), 1, specs)
        requests = list(srv.requests)
    events = _checked(record)
    assert [s.options["output"] for s in record.seats] == ["json_schema"] * 2
    assert all("output=json_schema" in s.agent for s in record.seats)
    kinds = set()
    for r in requests:
        schema = _schema(r)
        if r.kind == "scratchpad":
            assert schema is None  # notes are free text
            continue
        assert schema is not None, r.kind
        kinds.add(r.kind)
        assert set(schema["properties"]) == ANSWER_KEYS[r.kind]
        assert set(schema["required"]) == ANSWER_KEYS[r.kind]
        assert schema["additionalProperties"] is False
        if r.protocol == "anthropic":
            # a forced tool is refused with extended thinking, which effort low turns on
            want = {"type": "auto"} if effort == "low" else {"type": "tool", "name": "answer"}
            assert r.body["tool_choice"] == want
    assert {"turn", "bid", "initiate_trade", "respond_trade"} <= kinds
    calls = [e for e in events if isinstance(e, LLMCall) and e.decision != "scratchpad"]
    assert calls and all(c.parse_stage == "json" and c.parse_error is None for c in calls)
    # Anthropic answers came back as tool calls; what is recorded is their input as JSON
    answers = [json.loads(c.response) for c in calls if c.provider == "anthropic"]
    assert answers and all(isinstance(a, dict) and "reasoning" in a for a in answers)


def test_trade_schema_lists_the_targets_and_the_cards_in_hand() -> None:
    with LoopbackServer(LegalPolicy(trade_bias=1.0)) as srv:
        specs = [seat(srv, "openai", opts="output=json_schema")] * 2
        play_game(load_preset("micro-duel"), 1, specs)
        requests = list(srv.requests)
    trades = [r for r in requests if r.kind == "initiate_trade" and r.stage == "ask"]
    assert trades
    for r in trades:
        props = _schema(r)["properties"]  # type: ignore[index]
        head = r.prompt.split("KUHHANDEL - choose a target", 1)[1]
        listed = {int(p) for p in re.findall(r"- Player (\d+): ", head)}
        assert set(props["target_player"]["enum"]) == listed
        cards = re.search(r"Your available card values: \[([^\]]*)\]", r.prompt)
        held = {int(x) for x in cards.group(1).split(", ") if x}  # type: ignore[union-attr]
        assert set(props["offer_cards"]["items"].get("enum", [])) == held


def test_text_output_sends_no_schema(server: LoopbackServer) -> None:
    specs = [seat(server, "openai"), seat(server, "anthropic")]
    play_game(load_preset("micro-duel"), 1, specs)
    assert all(_schema(r) is None for r in server.requests)


def test_json_schema_for_pact_seats() -> None:
    with LoopbackServer(LegalPolicy()) as srv:
        specs = [seat(srv, "openai", opts="output=json_schema")] * 2
        record = play_game(catalog.get("pact").preset("quick"), 3, specs)
        requests = list(srv.requests)
    _checked(record)
    keys = {r.kind: set(_schema(r)["properties"]) for r in requests}  # type: ignore[index]
    assert keys == {"message": {"reasoning", "message"}, "quote": {"reasoning", "quote"}}


# ---------------------------------------------------------------------------- reasoning effort


def test_reasoning_effort_is_low_unless_none() -> None:
    plain = parse_spec("openai:m@http://127.0.0.1:9/v1")
    assert plain.agent == "openai:m" and plain.options["reasoning_effort"] == "low"
    assert resolve(plain).reasoning_effort == "low"
    off = parse_spec("openai:m@http://127.0.0.1:9/v1?reasoning=none")
    assert off.agent == "openai:m?reasoning_effort=none"
    assert off.options["reasoning_effort"] == "none" and resolve(off).reasoning_effort is None
    # a seat stored before the default existed sent no effort, and replays without one
    legacy = SeatSpec(agent="openai:m", options={"model": "m", "max_tokens": 4096})
    assert resolve(legacy).reasoning_effort is None


class _NoReasoning:
    """A server for a model without reasoning settings: any request naming them is refused."""

    def __init__(self) -> None:
        self.base = LegalPolicy()

    def __call__(self, req: Incoming) -> Answer:
        if "reasoning_effort" in req.body or "thinking" in req.body:
            param = "reasoning_effort" if req.protocol == "openai" else "thinking"
            error = {"message": f"Unsupported parameter: '{param}'", "type": "invalid_request"}
            return Answer(status=400, text=json.dumps({"error": error}))
        return self.base(req)


def test_a_model_refusing_reasoning_effort_plays_on_without_it() -> None:
    with LoopbackServer(_NoReasoning()) as srv:
        specs = [seat(srv, "openai"), seat(srv, "anthropic")]
        record = play_game(load_preset("micro-duel"), 1, specs)
        requests = list(srv.requests)
    events = _checked(record)
    calls = [e for e in events if isinstance(e, LLMCall)]
    # one refused request per seat, then none: the seat remembers
    refused = [r for r in requests if "reasoning_effort" in r.body or "thinking" in r.body]
    assert len(refused) == 2
    # every request is an exchange, the refused ones too: status, error, no tokens
    assert len(requests) == len(calls)
    stored = [c for c in calls if c.error is not None]
    assert sorted(c.seat for c in stored) == [0, 1]
    for c in stored:
        assert c.status == 400 and c.attempt == 0 and c.reasoning_effort == "low"
        assert c.error.startswith("unsupported setting") and "reasoning" in c.error
        assert c.input_tokens == c.output_tokens == 0
    rest = [c for c in calls if c.error is None]
    assert rest and all(c.reasoning_effort is None for c in rest)


# ---------------------------------------------------------------------------- quiet fallbacks


def test_fallbacks_log_once_live_and_never_in_replay(tmp_path: Path) -> None:
    """A model that never answers usefully: one warning for its first default and a summary
    at the end (the rest are info lines); re-simulating the stored game says nothing."""
    script = [("any", "garbage")] * 400
    db = tmp_path / "g.duckdb"
    server = LoopbackServer(FaultPolicy(LegalPolicy(), script))
    with server as srv, DuckStore(db) as store, capture_logs() as logs:
        gid, record = play_and_store(
            store, load_preset("micro-duel"), 1, [seat(srv, "openai"), "random"]
        )
    defaults = [e for e in record.events if isinstance(e, ActionDefaulted)]
    assert len(defaults) > 3
    warnings = [entry for entry in logs if entry["log_level"] == "warning"]
    assert [w["event"] for w in warnings] == ["llm.default", "llm.summary"]
    summary = warnings[1]
    assert summary["defaults"] == len(defaults) and summary["model"].startswith("openai:loop")
    # the classes as the answers read, named as llm_decisions names them (not the outcome
    # classes, which the game's verdicts may change)
    assert "outcomes" not in summary and summary["recorded"] == {"unparsable": len(defaults)}
    assert "I would rather not say" in defaults[0].reason
    with capture_logs() as again:
        _checked(record)
    assert [e for e in again if e["event"].startswith("llm.")] == []
    # and through the command line, as a user runs it
    done = cattle("replay", gid, "--verify", "--db", db)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


class _JsonModeOnly:
    """A server that knows JSON mode with a schema but not OpenAI's `json_schema` form:
    a validation error, with 422 (FastAPI's) or 500 (what llama-cpp-python's server sends)."""

    def __init__(self, status: int) -> None:
        self.base = LegalPolicy(trade_bias=1.0)
        self.status = status

    def __call__(self, req: Incoming) -> Answer:
        fmt = req.body.get("response_format")
        if fmt is not None and fmt.get("type") != "json_object":
            detail = {
                "type": "literal_error",
                "loc": ["body", "response_format", "type"],
                "msg": "Input should be 'text' or 'json_object'",
                "input": "json_schema",
            }
            body = {"detail": [detail]} if self.status == 422 else {"error": {"message": detail}}
            return Answer(status=self.status, text=json.dumps(body))
        return self.base(req)


@pytest.mark.parametrize("status", [422, 500])
def test_a_server_with_json_mode_only_gets_the_schema_there(status: int) -> None:
    with LoopbackServer(_JsonModeOnly(status)) as srv:
        specs = [seat(srv, "openai", opts="output=json_schema"), "random"]
        record = play_game(load_preset("micro-duel"), 1, specs)
        requests = list(srv.requests)
    events = _checked(record)
    forms = [r.body["response_format"]["type"] for r in requests if "response_format" in r.body]
    assert forms[0] == "json_schema" and set(forms[1:]) == {"json_object"}
    later = [r for r in requests[1:] if r.kind != "scratchpad"]
    assert later and all(set(r.body["response_format"]["schema"]["properties"]) ==
                         ANSWER_KEYS[r.kind] for r in later)  # fmt: skip
    calls = [e for e in events if isinstance(e, LLMCall) and e.decision != "scratchpad"]
    # the refused request is stored too (status, error, no cost), before its answered twin
    assert len(calls) == len([r for r in requests if r.kind != "scratchpad"])
    refused, *answered = calls
    assert refused.status == status and refused.attempt == 0 and refused.parse_stage is None
    assert "json_schema" in (refused.error or "") and refused.input_tokens == 0
    assert refused.output_tokens == 0 and refused.response == ""
    assert answered[0].attempt == 1 and answered[0].stage == refused.stage
    assert all(c.parse_stage == "json" and c.error is None for c in answered)
