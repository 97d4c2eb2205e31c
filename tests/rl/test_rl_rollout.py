"""Rollouts through an OpenAI-compatible client (runner.rl.rollout), against the loopback
stand-in model: one game of each family, stored; each verifies offline and its rewards are its
stored scores."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agents.llm.loopback import LegalPolicy, LoopbackServer
from events.agent import LLMCall
from events.store import DuckStore
from runner.rl.env import resolve
from runner.rl.rollout import rollout
from runner.verify import verify_stored

openai = pytest.importorskip("openai")

GAMES = [
    ("cattle-trade", "micro-duel"),
    ("pact", None),
    ("openspiel:kuhn_poker", None),
    ("textarena", None),
    ("gamebench:pit", None),
]


@pytest.mark.parametrize(("game", "preset"), GAMES)
def test_a_rollout_of_each_family_verifies_and_pays_its_stored_scores(
    game: str, preset: str | None, tmp_path: Path
) -> None:
    _, config = resolve(game, preset)
    others = {s: "random" for s in range(1, config.players)}
    db = tmp_path / "rollouts.duckdb"
    with LoopbackServer(LegalPolicy()) as server:
        client = openai.AsyncOpenAI(
            base_url=server.openai_url, api_key="sk-loopback", max_retries=0
        )
        done = asyncio.run(
            rollout(game, client, "loop", preset=preset, seed=3, others=others, record=db)
        )
    assert done.turns and done.outcomes
    assert {seat for seat, _ in done.outcomes} == {0}
    with DuckStore(db) as store:
        assert done.game_id is not None
        check = verify_stored(store, done.game_id)
        events = store.load_events(done.game_id)
        seats = store.get_game(done.game_id).seats
    assert check.ok, check.problem
    assert done.rewards == {0: float(events[-1].scores[0])}
    calls = [e for e in events if isinstance(e, LLMCall)]
    assert [c.response for c in calls] == [t.answer for t in done.turns]
    assert seats[0].agent == "openai:loop?memory=recent"
