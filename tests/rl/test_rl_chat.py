"""The text mode for language models (`make_env(text="chat")`): the learner's seats are model
seats answered by the caller. An episode answered as the loopback stand-in model answers is the
game a model seat plays against that model; recorded episodes verify offline; unusable answers
get the format retry, then the default, and the outcome class says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from agents.llm.loopback import Incoming, LegalPolicy, LoopbackServer
from events import catalog
from events.agent import LLMCall, ModelDecision
from events.codec import encode_log
from events.store import DuckStore
from runner.rl import make_env
from runner.session import play_game
from runner.verify import verify_stored
from tests.llm.helpers import seat, set_env

pytest.importorskip("pettingzoo")


def standin(messages: list[dict[str, str]], policy: LegalPolicy) -> str:
    """What the loopback stand-in model answers to `messages` (in process)."""
    return policy(Incoming("openai", {"messages": messages}, 0)).text


def drive(env: Any, answer: Any, rewards: dict[str, float] | None = None) -> list[dict[str, Any]]:
    """Play every learner seat with `answer(info)`; the infos seen, in order (the final
    rewards go into `rewards`)."""
    seen = []
    for agent in env.agent_iter(5000):
        _, reward, done, cut, info = env.last()
        seen.append(info)
        if (done or cut) and rewards is not None:
            rewards[agent] = reward
        env.step(None if done or cut else answer(info))
    return seen


def _game_events(log: list[Any]) -> list[Any]:
    """The log without the exchanges, token counts left out (the caller reports none)."""
    return [
        msgspec.structs.replace(e, tokens=0) if isinstance(e, ModelDecision) else e
        for e in log
        if not isinstance(e, LLMCall)
    ]


def _exchanges(log: list[Any]) -> list[tuple[Any, ...]]:
    return [
        (e.seat, e.stage, e.messages, e.response, e.parse_stage)
        for e in log
        if isinstance(e, LLMCall)
    ]


def test_cattle_trade_in_text_mode_is_the_model_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_env(monkeypatch, tmp_path)
    policy = LegalPolicy()
    with LoopbackServer(LegalPolicy()) as server:
        spec = seat(server, "openai", opts="memory=full")
        db = tmp_path / "chat.duckdb"
        env = make_env(
            "cattle-trade", "micro-duel", seed=21, record=db, text="chat",
            others={1: "random"}, label=spec,
        )  # fmt: skip
        env.reset()
        rewards: dict[str, float] = {}
        infos = drive(env, lambda info: standin(info["messages"], policy), rewards)
        env.close()
        played = play_game(env.config, 21, [spec, "random"])
    stages = {i["stage"] for i in infos if i["stage"]}
    assert {"ask", "scratchpad"} <= stages  # memory=full: the notes requests come too
    assert infos[0]["messages"][0]["role"] == "system"
    assert _game_events(env.game_log) == _game_events(played.events)
    assert _exchanges(env.game_log) == _exchanges(played.events)
    (game_id,) = env.recorded
    with DuckStore(db) as store:
        check = verify_stored(store, game_id)
        stored = store.load_events(game_id)
        seats = store.get_game(game_id).seats
    assert check.ok, check.problem
    assert seats == played.seats
    assert rewards == {"player_0": float(stored[-1].scores[0])}


def test_self_play_in_kuhn_poker_records_and_verifies(tmp_path: Path) -> None:
    db = tmp_path / "kuhn.duckdb"
    env = make_env("openspiel:kuhn_poker", seed=4, record=db, text="chat")
    policy = LegalPolicy()
    assert env.possible_agents == ["player_0", "player_1"]
    for _ in range(2):
        env.reset()
        rewards: dict[str, float] = {}
        infos = drive(env, lambda info: standin(info["messages"], policy), rewards)
        assert {i["seat"] for i in infos if i["stage"]} == {0, 1}  # both seats are the caller's
        assert sum(rewards.values()) == 0 and len(rewards) == 2
    env.close()
    assert len(env.recorded) == 2
    with DuckStore(db) as store:
        for game_id in env.recorded:
            check = verify_stored(store, game_id)
            assert check.ok, check.problem
            events = store.load_events(game_id)
            assert [s.agent for s in store.get_game(game_id).seats] == [
                "openai:rl?memory=recent"
            ] * 2
            outcomes = [e.outcome for e in events if isinstance(e, ModelDecision)]
            assert outcomes and set(outcomes) == {"ok"}
    assert encode_log(events)  # the stored log encodes (a model game like any other)


def test_garbage_gets_the_format_retry_then_the_default() -> None:
    env = make_env("cattle-trade", "micro-duel", seed=8, text="chat", others={1: "random"})
    env.reset()
    _, _, _, _, first = env.last()
    assert first["stage"] == "ask" and "outcome" not in first
    env.step("no idea, sorry")
    _, _, _, _, retry = env.last()
    assert retry["stage"] == "format_retry" and retry["seat"] == first["seat"]
    assert [m["role"] for m in retry["messages"]] == ["system", "user", "assistant", "user"]
    assert retry["messages"][2]["content"] == "no idea, sorry"
    env.step("still nothing")
    name = env.agent_selection
    info = env.infos["player_0"]
    assert info["outcome"] == "unparsable"
    prompter = catalog.for_config(env.config).prompter
    assert prompter is not None
    defaulted = [e for e in env.game_log if type(e).__name__ == "ActionDefaulted"]
    assert len(defaulted) == 1 and info["fallback"] == defaulted[0].action
    assert json.loads(info["fallback"])["seat"] == 0
    # A readable answer next: its decision's outcome is ok.
    env.step(standin(env.infos[name]["messages"], LegalPolicy()))
    assert env.infos["player_0"]["outcome"] in ("ok", "repaired")
    env.close()
