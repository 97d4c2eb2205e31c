"""GameBench's games with model seats on the loopback server (real SDKs over HTTP).

The model first asks for a rule with `Explain(heading)`, then answers with chain of thought
and an `Action:` line. Each game is stored with every exchange and verified with the server
stopped: the recorded answers replay, nothing is asked again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.llm.loopback import Answer, Incoming, LoopbackServer
from events.agent import ActionDefaulted, LLMCall
from events.gamebench import codenames as ce
from events.gamebench import sea_battle as se
from events.store import DuckStore
from runner.session import play_and_store
from runner.verify import check_game
from tests.llm.helpers import no_network, seat, set_env


def policy(req: Incoming) -> Answer:
    """Explain one heading first, then think out loud and answer."""
    p = req.prompt
    if "YOUR CLUE" in p:
        if "* Scoring:" not in p:
            return Answer(text="Action: Explain(Scoring)")
        return Answer(text="The clue should be safe.\nAction: zebra 1")
    if "YOUR GUESS" in p:
        if "* Turn Structure:" not in p:
            return Answer(text="Action: Explain(turn structure)")
        word = re.search(r"e\.g\. Action: (\w+)\)", p)
        return Answer(text=f"I guess this one.\nAction: {word.group(1) if word else 'pass'}")
    if "YOUR PLAN" in p:
        structured = "response_format" in req.body or "tools" in req.body
        if "* Plan:" not in p:
            if structured:
                return Answer(text='{"reasoning": "rules first", "action": "Explain(Plan)"}')
            return Answer(text="Action: Explain(Plan)")
        if structured:
            return Answer(text='{"reasoning": "sail on", "action": "FbFnLnRb"}')
        return Answer(text="Sail on and fire both ways.\nAction: FbFnLnRb")
    if "Choose how your ship moves" in p:
        structured = "response_format" in req.body or "tools" in req.body
        if "* Damage:" not in p:
            if structured:
                return Answer(text='{"reasoning": "rules first", "action": "Explain(Damage)"}')
            return Answer(text="Action: Explain(Damage)")
        if structured:
            return Answer(text='{"reasoning": "turn", "action": "move right then shoot left"}')
        return Answer(text="Turn and fire.\nAction: Move right, then shoot left")
    return Answer(text="Action: pass")


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Fake keys and no config file; the database path."""
    set_env(monkeypatch, tmp_path)
    yield tmp_path / "models.duckdb"


def nonsense(req: Incoming) -> Answer:
    """A model that never gives a usable answer."""
    return Answer(text="I would rather talk about the weather.\nAction: ???")


def _play(
    db: Path, name: str, preset: str, seats: Any, answer: Any = policy
) -> tuple[str, list[Any], int]:
    from events import catalog

    game = catalog.get(name)
    with LoopbackServer(answer) as srv, DuckStore(db) as store:
        gid, record = play_and_store(store, game.preset(preset), 4, seats(srv))
        asked = len(srv.requests)
    return gid, record.events, asked


def _verified(db: Path, gid: str) -> None:
    with no_network(), DuckStore(db) as store:
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem


def test_codenames_model_seats_explain_reason_and_verify_offline(env: Path) -> None:
    gid, events, asked = _play(
        env,
        "gamebench:codenames",
        "standard",
        lambda srv: [
            seat(srv, "openai", opts="mode=cot"),
            seat(srv, "anthropic"),
            "associate",
            "random",
        ],
    )
    calls = [e for e in events if isinstance(e, LLMCall)]
    assert len(calls) == asked and {c.seat for c in calls} == {0, 1}
    explained = [(e.seat, e.heading) for e in events if isinstance(e, ce.CnRuleExplained)]
    assert explained == [(0, "Scoring"), (1, "Turn Structure")]
    assert any(isinstance(e, ce.CnClueGiven) and e.word == "zebra" for e in events)
    first = calls[0].messages[-1].content
    assert "think out loud" in first and "hidden, " in first  # cot; the spymaster's key
    operative = next(c for c in calls if c.seat == 1).messages[-1].content
    assert "hidden, red" not in operative and "hidden, blue" not in operative
    _verified(env, gid)


def test_sea_battle_model_seat_plays_and_verifies_offline(env: Path) -> None:
    gid, events, asked = _play(
        env,
        "gamebench:sea_battle",
        "prototype_quick",
        lambda srv: [
            seat(srv, "openai", opts="mode=cot"),
            "broadside",
            "random",
            seat(srv, "openai", opts="mode=cot&output=json_schema"),
            "broadside",
            "random",
        ],
    )
    calls = [e for e in events if isinstance(e, LLMCall)]
    assert len(calls) == asked >= 4 and {c.seat for c in calls} == {0, 3}
    explained = [(e.seat, e.heading) for e in events if isinstance(e, se.SbRuleExplained)]
    assert sorted(explained) == [(0, "Plan"), (3, "Plan")]
    for s in (0, 3):
        plans = [e.plan for e in events if isinstance(e, se.SbPlanSealed) and e.seat == s]
        assert plans and set(plans) == {"FbFnLnRb"}
    assert {c.parse_stage for c in calls if c.seat == 3} == {"json"}
    _verified(env, gid)


def test_sea_battle_data_era_model_seat_plays_and_verifies_offline(env: Path) -> None:
    """Under the default (gamebench) rules a model seat names one of the eight plans."""
    gid, events, asked = _play(
        env,
        "gamebench:sea_battle",
        "quick",
        lambda srv: [
            seat(srv, "openai"),
            "broadside",
            "random",
            seat(srv, "openai", opts="output=json_schema"),
            "broadside",
            "random",
        ],
    )
    calls = [e for e in events if isinstance(e, LLMCall)]
    assert len(calls) == asked >= 4 and {c.seat for c in calls} == {0, 3}
    explained = [(e.seat, e.heading) for e in events if isinstance(e, se.SbRuleExplained)]
    assert sorted(explained) == [(0, "Damage"), (3, "Damage")]
    for s in (0, 3):
        plans = [e.plan for e in events if isinstance(e, se.SbPlanSealed) and e.seat == s]
        assert plans and set(plans) == {"Rl"}
    assert {c.parse_stage for c in calls if c.seat == 3} == {"json"}
    _verified(env, gid)


def test_unusable_answers_get_one_retry_then_the_documented_defaults(env: Path) -> None:
    gid, events, asked = _play(
        env,
        "gamebench:codenames",
        "standard",
        lambda srv: [seat(srv, "openai"), seat(srv, "openai"), "associate", "associate"],
        nonsense,
    )
    defaulted = [e for e in events if isinstance(e, ActionDefaulted)]
    calls = [e for e in events if isinstance(e, LLMCall)]
    assert defaulted and len(calls) == asked == 2 * len(defaulted)  # an ask and a retry each
    assert {d.decision for d in defaulted} == {"clue", "guess"}
    # The empty clue is refused (seen by the spymaster alone) and stands in for one guess.
    refused = [e for e in events if isinstance(e, ce.CnRequestRefused)]
    assert refused and all(e.seat == 0 and e.audience() == (0,) for e in refused)
    assert all(e.refused for e in events if isinstance(e, ce.CnClueGiven) and e.seat == 0)
    _verified(env, gid)
