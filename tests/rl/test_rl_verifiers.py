"""The `verifiers` environment (runner.rl.verifiers_env), rolled out against the loopback
stand-in model through verifiers' own machinery (its chat harness in a subprocess runtime, its
interception server). Skipped where verifiers is not installed: it is not in the project's lock
(verifiers 0.4.0 requires openai below 3), and each model turn costs a round through the
harness program, so only the two shortest games run here."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agents.llm.loopback import LegalPolicy, LoopbackServer
from events.store import DuckStore
from runner.verify import verify_stored

vf = pytest.importorskip("verifiers.v1")


@pytest.mark.parametrize(("family", "preset"), [("openspiel", None), ("cattle", "micro-duel")])
def test_a_verifiers_rollout_is_a_stored_game_and_its_reward_the_score(
    family: str, preset: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from runner.rl.verifiers_env import GameEnv, GameEnvConfig, taskset_id

    monkeypatch.setenv("LOOPBACK_KEY", "sk-loopback")
    db = tmp_path / "rollouts.duckdb"
    taskset = {"id": taskset_id(family), "record": str(db), "first_seed": 2}
    if preset:
        taskset["preset"] = preset
    env = GameEnv(GameEnvConfig(taskset=taskset))
    task = next(iter(env.taskset.load()))

    async def one(url: str) -> object:
        client = vf.EvalClientConfig(base_url=url, api_key_var="LOOPBACK_KEY")
        async with env.serving():
            return await env.run_episode(task, vf.ModelContext(model="loop", client=client))

    with LoopbackServer(LegalPolicy()) as server:
        episode = asyncio.run(one(server.openai_url))
    assert episode.ok, episode.errors  # type: ignore[attr-defined]
    (trace,) = episode.traces  # type: ignore[attr-defined]
    assert trace.num_turns > 0
    with DuckStore(db) as store:
        game_id = trace.info["game_id"]
        check = verify_stored(store, game_id)
        events = store.load_events(game_id)
        assert store.get_game(game_id).seed == 2
    assert check.ok, check.problem
    assert trace.rewards["game_score"].score == float(events[-1].scores[0])
