"""A provider that reports far fewer tokens than its text holds cannot stretch a budget: a
count below the text's floor (agents.llm.transport.FLOOR_CHARS_PER_TOKEN) is raised to it
and marked estimated (docs/llm.md, Token counts). The loopback stand-in's own counts never
fall below the floor, so the games it records keep their bytes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from agents.llm.loopback import Answer, LegalPolicy, LoopbackServer, _tokens
from agents.llm.spec import with_budgets
from agents.llm.transport import floor_tokens
from engine.cattle.presets import load_preset
from events.agent import ActionDefaulted, LLMCall
from events.store import DuckStore
from runner.session import play_and_store

from .helpers import seat

UNDER = {"prompt_tokens": 1, "completion_tokens": 1}
"""A provider that says every call cost one token each way."""


def test_a_token_budget_holds_against_counts_below_the_floor(tmp_path: Path) -> None:
    policy = LegalPolicy()
    with (
        LoopbackServer(lambda req: Answer(text=policy(req).text, usage=UNDER)) as srv,
        DuckStore(tmp_path / "f.duckdb") as store,
    ):
        spec = with_budgets(seat(srv, "openai"), tokens=1500)
        _, record = play_and_store(store, load_preset("micro-duel"), 22, [spec, "random"])
    calls = [e for e in record.events if isinstance(e, LLMCall) and e.seat == 0]
    assert calls and all(c.usage_estimated is True for c in calls)
    for c in calls:
        assert c.input_tokens == floor_tokens("".join(m.content for m in c.messages)) > 1
        assert c.output_tokens == max(1, floor_tokens(c.response))
    spent = [c.input_tokens + c.output_tokens for c in calls]
    # Calls stop once the counted tokens reach the budget (the last call is the one that did).
    assert sum(spent[:-1]) < 1500 <= sum(spent)
    budget = [e for e in record.events if isinstance(e, ActionDefaulted) and e.seat == 0]
    assert budget and budget[0].reason.startswith("budget spent")


def test_the_floor_counts_runs_once_and_is_below_any_script() -> None:
    assert floor_tokens(" " * 5000) == 0 and floor_tokens("-" * 600 + "ab" * 6) == 1
    assert floor_tokens("中文的游戏规则" * 120) == 70  # 840 characters, far more tokens
    assert floor_tokens("x" * 11) == 0 and floor_tokens("abcdefghijkl") == 1


@given(st.lists(st.text(max_size=400), min_size=1, max_size=6), st.text(max_size=400))
def test_the_loopback_stand_ins_counts_never_fall_below_the_floor(
    messages: list[str], answer: str
) -> None:
    assert sum(_tokens(m) for m in messages) >= floor_tokens("".join(messages))
    assert _tokens(answer) >= floor_tokens(answer)
