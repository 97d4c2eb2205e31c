"""Property: any answer text ends in a valid action, a recorded fallback or a recorded rejection."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents import make_agent
from agents.llm.loopback import Answer, Incoming, LoopbackServer
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.presets import load_preset
from engine.cattle.rules import pending, step
from engine.cattle.state import fold
from events.agent import ActionDefaulted, LLMCall
from events.cattle import game as ev
from events.cattle.codec import decode
from events.codec import encode
from projections.cattle.observation import SeatView
from runner.session import play_game

from .helpers import seat, set_env


class Scripted:
    """Answers every request with the current example's text and finish reason."""

    def __init__(self) -> None:
        self.text = ""
        self.finish = "stop"

    def __call__(self, req: Incoming) -> Answer:
        return Answer(text=self.text, finish=self.finish)


@pytest.fixture(scope="module")
def setting(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[LoopbackServer, Scripted, list[tuple[list[Any], Any]]]]:
    """A recorded game's decision points (one per kind) and a scripted loopback server."""
    with pytest.MonkeyPatch.context() as mp:
        set_env(mp, tmp_path_factory.mktemp("prop"))
        record = play_game(load_preset("micro-duel"), 3, ["random", "random"])
        points: dict[str, tuple[list[Any], Any]] = {}
        for i in range(1, len(record.events)):
            d = pending(fold(record.events[:i]))
            if d is not None and d.kind not in points:
                points[d.kind] = (record.events[:i], d)
        script = Scripted()
        with LoopbackServer(script) as srv:
            yield srv, script, list(points.values())


ANSWERS = st.one_of(
    st.text(max_size=300),
    st.dictionaries(
        st.sampled_from(
            [
                "action",
                "amount",
                "decision",
                "target_player",
                "animal",
                "offer_cards",
                "counter_cards",
                "reasoning",
            ]
        ),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-(10**12), 10**12),
            st.floats(allow_nan=True),
            st.text(max_size=20),
            st.lists(st.one_of(st.integers(-5, 600), st.text(max_size=4)), max_size=8),
        ),
    ).map(json.dumps),
    st.builds(
        lambda pre, body, post: f"{pre}```json\n{body}\n```{post}",
        st.text(max_size=40),
        st.sampled_from(['{"action": "bid", "amount": 30', '{"offer_cards": [10, 0]}', "{}"]),
        st.text(max_size=40),
    ),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=ANSWERS, finish=st.sampled_from(["stop", "length"]), point=st.integers(0, 10))
def test_any_answer_ends_in_an_action_or_a_recorded_fallback(
    setting: tuple[LoopbackServer, Scripted, list[tuple[list[Any], Any]]],
    text: str,
    finish: str,
    point: int,
) -> None:
    srv, script, points = setting
    script.text, script.finish = text, finish
    events, decision = points[point % len(points)]
    who = decision.seats[0]
    state = fold(events)
    config = state.config
    agent = make_agent(seat(srv, "openai", opts="attempts=1"), who, 3, config)
    view = SeatView(who).sync(events)

    async def ask() -> act.AnyAction:
        try:
            return await agent.aact(view, decision)
        finally:
            await agent.close()

    action = asyncio.run(ask())
    records = agent.drain()
    assert records and all(decode(encode(e)) == e for e in records)
    assert any(isinstance(e, LLMCall) for e in records)
    if isinstance(decision, dec.BidDecision):
        others = tuple(act.Pass(seat=s) for s in decision.seats if s != who)
        command: Any = act.Simultaneous(actions=(action, *others))  # type: ignore[arg-type]
    else:
        command = action
    # the engine accepts it: as is, corrected with a recorded rejection, or asking again
    _, out = step(state, command)
    parsed = any(
        isinstance(e, LLMCall)
        and e.parse_error is None
        and e.parse_stage not in (None, "truncated", "failed")
        for e in records
    )
    defaulted = any(isinstance(e, ActionDefaulted) for e in records)
    assert parsed or defaulted
    if any(isinstance(e, ev.ActionRejected) for e in out):
        assert any(isinstance(e, ev.ActionRejected | ev.FallbackApplied) for e in out)
