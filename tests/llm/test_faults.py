"""Fault injection through the loopback server: every game completes, every fault is an event."""

from __future__ import annotations

from typing import Any

import pytest

from agents.llm.loopback import FaultPolicy, LegalPolicy, LoopbackServer
from engine.cattle.presets import load_preset
from events.agent import ActionDefaulted, LLMCall
from events.cattle import game as ev
from runner.replay import verify
from runner.session import play_game

from .helpers import no_network, seat

SEED = 1


def _play(script: list[tuple[str, str]], opts: str = "", **kw: Any) -> tuple[list[Any], Any]:
    policy = FaultPolicy(LegalPolicy(trade_bias=1.0), script, **kw)
    with LoopbackServer(policy) as srv:
        specs = [seat(srv, "openai", opts=opts), seat(srv, "anthropic", opts=opts)]
        record = play_game(load_preset("micro-duel"), SEED, specs)
    assert record.result is not None and record.result.reason == "complete"
    assert not policy.script, f"faults never injected: {policy.script}"
    with no_network():
        check = verify(record.events)
    assert check.ok, (check.mismatch, check.expected, check.got, check.error)
    return record.events, policy


def _calls(events: list[Any]) -> list[LLMCall]:
    return [e for e in events if isinstance(e, LLMCall)]


def _after(events: list[Any], first: LLMCall) -> LLMCall:
    """The next model call of the same seat."""
    i = events.index(first)
    return next(e for e in events[i + 1 :] if isinstance(e, LLMCall) and e.seat == first.seat)


@pytest.mark.parametrize(("fault", "stage"), [("prose", "last_object"), ("fence", "last_object")])
def test_json_inside_text_is_found(fault: str, stage: str) -> None:
    events, _ = _play([("bid", fault)])
    hit = [c for c in _calls(events) if c.parse_stage == stage]
    assert len(hit) == 1 and hit[0].parse_error is None


def test_broken_json_falls_back_to_key_value() -> None:
    events, _ = _play([("sale", "broken")])
    (hit,) = [c for c in _calls(events) if c.parse_stage == "key_value"]
    assert hit.decision == "sale" and hit.parse_error is None


def test_missing_keys_get_one_format_retry() -> None:
    events, _ = _play([("turn", "missing_keys")])
    (bad,) = [c for c in _calls(events) if c.parse_error]
    assert "missing" in bad.parse_error
    retry = _after(events, bad)
    assert retry.stage == "format_retry" and retry.parse_error is None
    assert "could not be used" in retry.messages[-1].content
    assert retry.messages[-2].role == "assistant"


def test_wrong_types_are_coerced() -> None:
    events, _ = _play([("initiate_trade", "wrong_types")])
    (coerced,) = [c for c in _calls(events) if '"Player ' in c.response]
    assert coerced.parse_error is None
    i = events.index(coerced)
    started = next(e for e in events[i:] if isinstance(e, ev.TradeInitiated))
    assert f'"target_player": "Player {started.target}"' in coerced.response
    assert not any(isinstance(e, ev.ActionRejected) for e in events)


def test_truncated_answer_gets_a_short_json_only_retry() -> None:
    events, _ = _play([("bid", "truncated")])
    (cut,) = [c for c in _calls(events) if c.parse_stage == "truncated"]
    assert cut.finish_reason in ("length", "max_tokens")
    retry = _after(events, cut)
    assert retry.stage == "truncation_retry"
    assert retry.max_tokens == 512 and retry.reasoning_effort is None
    assert retry.parse_error is None


@pytest.mark.parametrize("kind", ["initiate_trade", "respond_trade"])
def test_cards_not_in_hand_retry_with_the_error_shown(kind: str) -> None:
    events, _ = _play([(kind, "cards_not_in_hand")])
    i, rej = next(
        (i, e) for i, e in enumerate(events) if isinstance(e, ev.ActionRejected) and e.retry
    )
    assert rej.decision == kind and "not all in hand" in rej.reason
    retry = next(e for e in events[i:] if isinstance(e, LLMCall) and e.seat == rej.seat)
    assert retry.stage == "card_retry"
    assert "REJECTED" in retry.messages[-1].content and rej.reason in retry.messages[-1].content


def test_cards_not_in_hand_twice_ends_in_the_engine_fallback() -> None:
    events, _ = _play([("initiate_trade", "cards_not_in_hand")] * 2)
    rejections = [e for e in events if isinstance(e, ev.ActionRejected)]
    assert [r.retry for r in rejections[:2]] == [True, False]
    assert any(isinstance(e, ev.FallbackApplied) for e in events)


def test_invalid_target_falls_back_to_the_first_valid_pair() -> None:
    events, _ = _play([("initiate_trade", "invalid_target")])
    rej = next(e for e in events if isinstance(e, ev.ActionRejected))
    assert "not a valid target" in rej.reason
    fb = next(e for e in events if isinstance(e, ev.FallbackApplied))
    assert fb.decision == "initiate_trade"


@pytest.mark.parametrize(
    ("fault", "error", "status"),
    [("rate_limit", "rate_limited (429)", 429), ("server_error", "server_error (500)", 500)],
)
def test_http_errors_are_retried(fault: str, error: str, status: int) -> None:
    events, _ = _play([("any", fault)])
    (failed,) = [c for c in _calls(events) if c.error]
    assert failed.error == error and failed.status == status and failed.attempt == 1
    if fault == "rate_limit":
        assert failed.retry_after == pytest.approx(0.01)
    nxt = _after(events, failed)
    assert nxt.attempt == 2 and nxt.error is None and nxt.stage == failed.stage


def test_hung_connection_times_out_and_is_retried() -> None:
    events, _ = _play([("any", "hang")], opts="timeout=0.3", hang_for=1.0)
    (failed,) = [c for c in _calls(events) if c.error]
    assert failed.error == "timeout"
    assert _after(events, failed).attempt == 2


def test_unreadable_answer_twice_plays_the_default() -> None:
    events, _ = _play([("sale", "garbage"), ("sale", "garbage")])
    bad = [c for c in _calls(events) if c.parse_stage == "failed"]
    assert [c.stage for c in bad] == ["ask", "format_retry"]
    (default,) = [e for e in events if isinstance(e, ActionDefaulted)]
    assert default.decision == "sale" and '"sell"' in default.action


def test_exhausted_attempts_play_the_default() -> None:
    events, _ = _play([("bid", "server_error")] * 2, opts="attempts=2")
    failed = [c for c in _calls(events) if c.error]
    assert [c.attempt for c in failed] == [1, 2]
    (default,) = [e for e in events if isinstance(e, ActionDefaulted)]
    assert "unavailable" in default.reason and '"pass"' in default.action
