"""The loopback server's stand-in model (`LegalPolicy`) plays every GameBench game: over the
real openai SDK each of its answers is read as a legal action (outcome ok, no fallback, no
refusal by the rules), the game ends and verifies offline."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.gamebench.standin import MESSAGES, choice
from agents.llm.loopback import LegalPolicy, LoopbackServer
from events import catalog
from events.agent import ActionDefaulted, ModelDecision
from events.gamebench.common import RequestRefusedBase
from events.store import DuckStore
from runner.session import play_and_store
from runner.verify import check_game
from tests.llm.helpers import no_network, seat, set_env

GAMES = {
    # game: (preset, the model seats)
    "air_land_sea": ("quick", (0,)),
    "arctic_scavengers": ("standard", (0,)),
    "are_you_the_traitor": ("quick", (0, 1, 2, 3, 4)),  # a question, an answer and a stop poll
    "codenames": ("standard", (0, 1)),  # the red spymaster gives clues, its operative guesses
    "hive": ("short", (0,)),
    "pit": ("quick", (0,)),
    "santorini": ("standard", (0,)),
    "sea_battle": ("quick", (0, 3)),
    "two_rooms_and_a_boom": ("short", (0, 1, 2)),
}


@pytest.fixture(scope="module")
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(LegalPolicy(seed=5)) as s:
        yield s


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_stand_in_answers_every_gamebench_decision_legally(
    server: LoopbackServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str
) -> None:
    set_env(monkeypatch, tmp_path)
    preset, models = GAMES[name]
    game = catalog.get(f"gamebench:{name}")
    config = game.preset(preset)
    n = config.players
    schema = "mode=cot&output=json_schema"  # the second model seat answers in JSON
    seats = [
        seat(server, "openai", opts="mode=cot" if s == models[0] else schema)
        if s in models
        else "random"
        for s in range(n)
    ]
    db = tmp_path / "g.duckdb"
    with DuckStore(db) as store:
        gid, record = play_and_store(store, config, 2, seats)
    outcomes = Counter(e.outcome for e in record.events if isinstance(e, ModelDecision))
    assert outcomes and set(outcomes) == {"ok"}, outcomes
    assert {e.seat for e in record.events if isinstance(e, ModelDecision)} <= set(models)
    assert not any(isinstance(e, ActionDefaulted | RequestRefusedBase) for e in record.events)
    assert record.result is not None
    with no_network(), DuckStore(db) as store:
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem


def test_the_stand_in_reads_a_listing_up_to_the_instruction_and_fills_in_a_message() -> None:
    instruction = "Reply with exactly one line, nothing else:\nAction: <your action>"
    talk = f"GAME: T\nx\n\nLegal actions:\nSay: <your message>\nKeep quiet\n\n{instruction}"
    poll = f"GAME: T\nSTOP POLL: x\nLegal actions:\nPass\nStop Player B\n{instruction}"
    said = {choice(talk, random.Random(s)) for s in range(40)}
    assert "Keep quiet" in said and said - {"Keep quiet"} <= {f"Say: {m}" for m in MESSAGES}
    assert len(said) > 2  # a message is said, not the label's placeholder
    assert {choice(poll, random.Random(s)) for s in range(40)} == {"Pass", "Stop Player B"}
