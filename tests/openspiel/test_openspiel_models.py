"""Model seats in OpenSpiel games, on the loopback model server with the real SDKs.

Every one of the ten games is played with a model seat and then verified with the network
closed (the recorded answers replay); a model that answers badly gets one retry, then the
seeded random fallback, and SQL counts the matches with a fallback per seat.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import FaultPolicy, LegalPolicy, LoopbackServer
from engine.openspiel.gtbench import GTBENCH
from events import catalog
from events.agent import ActionDefaulted, LLMCall
from events.openspiel.game import MovePlayed
from events.store import DuckStore
from runner.session import play_and_store
from runner.verify import check_game
from tests.cli.clikit import cattle
from tests.llm.helpers import no_network, seat, set_env

GAME = catalog.get("openspiel")


@pytest.fixture(autouse=True)
def llm_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake keys, no config file, millisecond backoff."""
    set_env(monkeypatch, tmp_path)


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A loopback model that plays legal moves."""
    with LoopbackServer(LegalPolicy()) as s:
        yield s


MODES = ["mode=prompt", "mode=cot", "mode=sc-cot&samples=3"]


def test_a_model_seat_plays_every_game_and_the_games_verify_offline(
    server: LoopbackServer, tmp_path: Path
) -> None:
    db = tmp_path / "models.duckdb"
    ids = {}
    with DuckStore(db) as store:
        for i, preset in enumerate(GTBENCH):
            provider = "openai" if i % 2 == 0 else "anthropic"
            model = seat(server, provider, opts=MODES[i % 3])
            other = "tft" if preset == "prisoners_dilemma" else "random"
            agents = [model, other] if i % 2 == 0 else [other, model]
            gid, record = play_and_store(store, GAME.preset(preset), 40 + i, agents)
            ids[preset] = (gid, record)
    server.stop()
    with no_network(), DuckStore(db) as store:
        for preset, (gid, record) in ids.items():
            check = check_game(store.load_rows(gid))
            assert check.outcome == "verified", (preset, check.problem)
            calls = [e for e in record.events if isinstance(e, LLMCall)]
            assert calls and all(c.error is None and c.parse_error is None for c in calls)
            assert not any(isinstance(e, ActionDefaulted) for e in record.events)
            stages = {c.stage for c in calls}
            assert stages == ({"sample"} if "sc-cot" in MODES[list(GTBENCH).index(preset) % 3]
                              else {"ask"})  # fmt: skip


def test_bad_answers_get_one_retry_then_the_seeded_fallback(tmp_path: Path) -> None:
    script = [("openspiel", "garbage")] * 3
    policy = FaultPolicy(LegalPolicy(), script)
    db = tmp_path / "faults.duckdb"
    with LoopbackServer(policy) as srv, DuckStore(db) as store:
        gid, record = play_and_store(
            store, GAME.preset("tic_tac_toe"), 5, [seat(srv, "openai"), "random"]
        )
        _, rows = store.query(
            "SELECT seat, count(DISTINCT game_id) FROM openspiel_fallbacks GROUP BY seat"
        )
    events = record.events
    calls = [e for e in events if isinstance(e, LLMCall)]
    assert [c.stage for c in calls[:4]] == ["ask", "format_retry", "ask", "format_retry"]
    assert calls[0].parse_error is not None and calls[1].parse_error is not None
    assert calls[3].parse_error is None
    (defaulted,) = [e for e in events if isinstance(e, ActionDefaulted)]
    first_move = next(e for e in events if isinstance(e, MovePlayed))
    assert json.loads(defaulted.action) == first_move.action
    assert rows == [(0, 1)]
    with no_network(), DuckStore(db) as store:
        assert check_game(store.load_rows(gid)).outcome == "verified"


def test_majority_vote_plays_the_most_common_answer(tmp_path: Path) -> None:
    # Two of three samples are unusable: the one usable answer is the majority of one.
    policy = FaultPolicy(LegalPolicy(), [("openspiel", "garbage")] * 2)
    with LoopbackServer(policy) as srv, DuckStore(tmp_path / "v.duckdb") as store:
        spec = seat(srv, "openai", opts="mode=sc-cot&samples=3")
        _, record = play_and_store(store, GAME.preset("nim"), 2, [spec, "random"])
    calls = [e for e in record.events if isinstance(e, LLMCall)]
    assert [c.stage for c in calls[:3]] == ["sample"] * 3
    assert [c.parse_error is None for c in calls[:3]] == [False, False, True]
    assert not any(isinstance(e, ActionDefaulted) for e in record.events)
    first_move = next(e for e in record.events if isinstance(e, MovePlayed))
    assert f"Action: {first_move.text}" in calls[2].response


def test_the_command_line_plays_a_model_seat_and_verifies_it_offline(tmp_path: Path) -> None:
    db = tmp_path / "cli.duckdb"
    env = {"OPENAI_API_KEY": "sk-test-os", "CATTLE_LLM_BACKOFF": "0.001"}
    cfg = tmp_path / "llm.toml"
    cfg.write_text("")
    env["CATTLE_LLM_CONFIG"] = str(cfg)
    with LoopbackServer(LegalPolicy()) as srv:
        model = f"openai:loop@{srv.openai_url}?mode=cot"
        got = cattle("play", "--game", "gtbench:kuhn_poker", "--agents",
                     f"{model},mcts?simulations=20", "--seed", "3", "--json", "--db", db,
                     env=env)  # fmt: skip
        assert got.returncode == 0, got.stderr
    summary = json.loads(got.stdout)
    assert summary["seed"] == 3 and len(summary["scores"]) == 2
    assert sum(s["score"] for s in summary["scores"]) == 0  # Kuhn poker is zero-sum
    checked = cattle("verify", summary["game_id"], "--db", db, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
