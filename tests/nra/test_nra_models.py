"""Completion rate from a real model seat: the loopback server, through the real OpenAI SDK,
answers some decisions (and their retry) with prose that holds no move, so the seat plays its
default there. The completion rate counts exactly the matches without such a default."""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import pytest

from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from events.store import DuckStore
from projections.metrics.aggregate import Selection
from projections.two_seat import nra as N
from tests.cli.clikit import ROOT, cattle
from tests.nra import nra_oracle as O


class Flaky:
    """Legal moves, except that prompts whose CRC-32 falls in one residue class get an answer
    with no move in it, on the first ask and on the retry (both carry the same prompt)."""

    def __init__(self, every: int) -> None:
        self.base = LegalPolicy(seed=3)
        self.every = every
        self.spoiled = 0

    def __call__(self, req: Incoming) -> Answer:
        if req.kind != "scratchpad" and zlib.crc32(req.prompt.encode()) % self.every == 0:
            self.spoiled += 1
            return Answer(text="I would rather keep my move to myself.")
        return self.base(req)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """Fake keys, no config file, fast backoff."""
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    return {
        "OPENAI_API_KEY": "sk-test-nra",
        "CATTLE_LLM_CONFIG": str(cfg),
        "CATTLE_LLM_BACKOFF": "0.001",
        "PYTHONPATH": str(ROOT / "tests") + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }


def test_completion_rate_counts_matches_with_a_default(tmp_path: Path, env: dict[str, str]) -> None:
    db = tmp_path / "flaky.duckdb"
    policy = Flaky(every=7)
    with LoopbackServer(policy) as srv:
        model = f"openai:loop@{srv.openai_url}"
        got = cattle("tournament", "--game", "pact", "--preset", "quick", "--format",
                     "round-robin", "--agents", f"{model},anchor", "--games", "8", "--seed", "2",
                     "--workers", "4", "--name", "flaky", "--quiet", "--db", db, env=env)  # fmt: skip
        assert got.returncode == 0, got.stderr
    assert policy.spoiled > 0
    matches = O.read(db, "pact")
    want = O.completion(matches)
    with DuckStore(db, read_only=True) as store:
        a = N.nra_analysis(store.con, Selection(game="pact"), resamples=100)
        _, rows = store.query(
            "SELECT count(DISTINCT game_id) FROM events WHERE type = 'action_defaulted'"
        )
    by = {x.agent: x for x in a.per_agent}
    model_rate = by["openai:loop"].completion.value
    assert model_rate == pytest.approx(want[("pact", "openai:loop")])
    assert model_rate is not None and 0 < model_rate < 1  # some matches had a default, not all
    assert model_rate == pytest.approx(1 - rows[0][0] / 8)
    assert by["anchor"].completion.value == 1.0
