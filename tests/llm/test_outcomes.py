"""Every model decision records its outcome class (docs/llm.md, "Outcome of a decision"):
the loopback server produces each class through the real SDKs (a refusal, the token limit,
a hang past the seat's timeout, HTTP 500, unusable and illegal answers), the store's views
show them (a move the rules rejected as illegal), replays reproduce them, and a game stored
before the outcome was recorded still verifies."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.llm.loopback import FaultPolicy, LegalPolicy, LoopbackServer
from agents.llm.outcome import classify
from engine.cattle.presets import load_preset
from events import catalog
from events.agent import OUTCOMES, ActionDefaulted, LLMCall, ModelDecision
from events.store import DuckStore
from runner.replay import verify
from runner.session import play_and_store

from .helpers import no_network, seat, set_env

FAULTS = [
    ("any/ask", "refusal"),
    ("any/format_retry", "garbage"),
    ("any/ask", "garbage"),
    ("any/format_retry", "garbage"),
    ("any/ask", "truncated"),
    ("any/truncation_retry", "truncated"),
    ("any/format_retry", "garbage"),
    ("any/ask", "hang"),
    ("any/ask", "server_error"),
    ("any/ask", "prose"),
    ("initiate_trade/ask", "cards_not_in_hand"),
]
"""Per seat, in order: refused, unparsable, truncated, timeout, error, repaired, and a trade
offer of cards the seat does not hold (the rules reject it: illegal)."""
# The timeout is far above what an ordinary loopback answer takes on a loaded machine, and the
# hang longer still, so only the scripted hang times out.
OPTS = "attempts=1&timeout=2&memory=none"


@pytest.fixture(scope="module")
def duel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, Any, list[Any]]]:
    """A micro-duel whose seats (OpenAI, Anthropic) each meet every fault once, stored."""
    tmp = tmp_path_factory.mktemp("outcomes")
    policies = [FaultPolicy(LegalPolicy(trade_bias=1.0), list(FAULTS), hang_for=3.0)]
    policies.append(FaultPolicy(LegalPolicy(trade_bias=1.0), list(FAULTS), hang_for=3.0))
    with pytest.MonkeyPatch.context() as mp:
        set_env(mp, tmp)
        db = tmp / "o.duckdb"
        with (
            LoopbackServer(policies[0]) as a,
            LoopbackServer(policies[1]) as b,
            DuckStore(db) as store,
        ):
            specs = [seat(a, "openai", opts=OPTS), seat(b, "anthropic", opts=OPTS)]
            game_id, record = play_and_store(store, load_preset("micro-duel"), 3, specs)
    assert record.result is not None
    yield db, game_id, record, policies


def _outcomes(events: list[Any], seat_: int) -> Counter[str]:
    return Counter(e.outcome for e in events if isinstance(e, ModelDecision) and e.seat == seat_)


def test_each_class_is_recorded_for_both_providers(duel: Any) -> None:
    _, _, record, policies = duel
    for s, policy in enumerate(policies):
        assert len(policy.applied) >= len(FAULTS) - 1, policy.script  # the trade may not come
        got = _outcomes(record.events, s)
        for cls in ("ok", "repaired", "unparsable", "truncated", "refused", "timeout", "error"):
            assert got[cls] >= 1, (s, cls, got)
        assert set(got) <= set(OUTCOMES)


def test_a_decision_records_its_calls_tokens_and_fallback(duel: Any) -> None:
    _, _, record, _ = duel
    events = record.events
    decisions = [e for e in events if isinstance(e, ModelDecision)]
    for s in (0, 1):
        calls = [e for e in events if isinstance(e, LLMCall) and e.seat == s]
        mine = [d for d in decisions if d.seat == s]
        # Every call of the seat belongs to one decision (note updates aside, if any).
        notes = [c for c in calls if c.decision == "scratchpad"]
        assert sum(d.calls for d in mine) == len(calls) - len(notes)
        tokens = sum(c.input_tokens + c.output_tokens for c in calls if c not in notes)
        assert sum(d.tokens for d in mine) == tokens
    defaults = [e for e in events if isinstance(e, ActionDefaulted)]
    unused = [d for d in decisions if d.outcome not in ("ok", "repaired")]
    assert [d.fallback for d in unused] == [e.action for e in defaults]
    assert all(d.fallback is None for d in decisions if d.outcome in ("ok", "repaired"))
    refused = next(d for d in decisions if d.outcome == "refused")
    assert refused.calls == 2 and refused.fallback is not None  # the answer and a retry


def test_the_views_show_outcomes_and_the_rules_rejections_as_illegal(duel: Any) -> None:
    db, game_id, record, policies = duel
    with DuckStore(db, read_only=True) as store:
        rows = store.con.execute(
            "SELECT seat, outcome, recorded, fallback FROM llm_decisions WHERE game_id = ?"
            " ORDER BY seq",
            [game_id],
        ).fetchall()
        per_seat = store.con.execute(
            "SELECT seat, game, decisions, ok, repaired, unparsable, illegal, truncated,"
            " refused, timeout, error, budget, unrecorded FROM llm_outcomes ORDER BY seat"
        ).fetchall()
    decisions = [e for e in record.events if isinstance(e, ModelDecision)]
    assert len(rows) == len(decisions)
    rejected = [r for r in rows if r[1] == "illegal"]
    traded = [p for p in policies if ("initiate_trade", "cards_not_in_hand") in _faults(p)]
    assert len(rejected) == len(traded) and traded, "no trade offer was made"
    # The rules asked again (cards not held): nothing was played instead of this answer.
    assert all(r[2] in ("ok", "repaired") and r[3] is None for r in rejected)
    for row in per_seat:
        assert row[1] == "cattle-trade" and row[2] == sum(row[3:12]) and row[12] == 0


def _faults(policy: FaultPolicy) -> list[tuple[str, str]]:
    return [(kind, fault) for _, kind, fault in policy.applied]


def test_the_game_verifies_and_the_replay_gives_the_same_outcomes(duel: Any) -> None:
    _, _, record, _ = duel
    with no_network():
        check = verify(record.events)
    assert check.ok, (check.mismatch, check.expected, check.got, check.error)


def test_a_game_stored_before_outcomes_were_recorded_still_verifies(duel: Any) -> None:
    """An old log has no `model_decision` events: its model seats replay without them."""
    _, _, record, _ = duel
    old = [e for e in record.events if not isinstance(e, ModelDecision)]
    with no_network():
        assert verify(old).ok
        # One removed from a game that has them is found.
        i = next(i for i, e in enumerate(record.events) if isinstance(e, ModelDecision))
        assert not verify(record.events[:i] + record.events[i + 1 :]).ok


def test_an_illegal_openspiel_move_is_illegal_and_a_sentence_unparsable(tmp_path: Path) -> None:
    script = [("openspiel/ask", "illegal_move"), ("openspiel/format_retry", "illegal_move")]
    script += [("openspiel/ask", "garbage"), ("openspiel/format_retry", "garbage")]
    policy = FaultPolicy(LegalPolicy(), script * 2)
    game = catalog.get("openspiel")
    with LoopbackServer(policy) as srv, DuckStore(tmp_path / "t.duckdb") as store:
        config = game.preset("tic_tac_toe")
        _, record = play_and_store(store, config, 1, [seat(srv, "openai")] * 2)
    got = Counter(e.outcome for e in record.events if isinstance(e, ModelDecision))
    assert got["illegal"] == 2 and got["unparsable"] == 2, got


def test_classify_by_hand() -> None:
    def call(**kw: Any) -> LLMCall:
        base: dict[str, Any] = dict(seat=0, decision="bid", stage="ask", attempt=1)
        return LLMCall(provider="openai", model="m", **{**base, **kw})

    default = ActionDefaulted(seat=0, decision="bid", action="{}", reason="unreadable")
    budget = ActionDefaulted(seat=0, decision="bid", action="{}", reason="budget spent: 3")
    assert classify([call(parse_stage="json")], None) == "ok"
    assert classify([call(parse_stage="key_value")], None) == "repaired"
    bad = call(parse_stage="failed", parse_error="x")
    assert classify([bad, call(stage="format_retry", parse_stage="json")], None) == "repaired"
    assert classify([bad, bad], default) == "unparsable"
    assert classify([bad], default, lambda text, error: True) == "illegal"
    assert classify([call(finish_reason="length", parse_stage="truncated")], default) == (
        "truncated"
    )
    assert classify([call(finish_reason="content_filter", parse_stage="failed")], default) == (
        "refused"
    )
    assert classify([call(error="timeout")], default) == "timeout"
    assert classify([call(error="timeout"), call(error="server_error (500)")], default) == "error"
    assert classify([], budget) == "budget"
