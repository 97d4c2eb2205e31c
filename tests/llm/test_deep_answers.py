"""A model that answers with JSON nested without end (through the real SDKs, from a loopback
server): every answer is an unparsable one, the seat plays its default, and the game ends and
verifies, and the viewer shows it."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from agents.llm.loopback import Answer, Incoming, LoopbackServer
from cli.web.app import create_app
from events import catalog
from events.store import DuckStore
from runner.session import play_and_store
from runner.verify import verify_stored

from .helpers import seat

NESTED = '{"action":' * 5_000 + '"x"' + "}" * 5_000


def _nested(req: Incoming) -> Answer:
    return Answer(text=NESTED)


@pytest.mark.parametrize(
    ("game", "preset"), [("openspiel", "tic_tac_toe"), ("gamebench:santorini", "standard")]
)
@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_deeply_nested_model_answer_costs_that_answer_only(
    tmp_path: Path, game: str, preset: str, provider: str
) -> None:
    config = catalog.get(game).preset(preset)
    with LoopbackServer(_nested) as srv, DuckStore(tmp_path / "g.duckdb") as store:
        game_id, record = play_and_store(store, config, 5, [seat(srv, provider), "random"])
        assert record.result is not None
        calls = [e for e in record.events if e.__struct_config__.tag == "llm_call"]
        assert calls and all(c.parse_stage == "failed" for c in calls)
        assert all("nested more than" in (c.parse_error or "") for c in calls)
        defaulted = [e for e in record.events if e.__struct_config__.tag == "action_defaulted"]
        assert defaulted
        assert verify_stored(store, game_id).ok
    # The viewer's decision panel reads the stored answers too.
    with TestClient(create_app(tmp_path / "g.duckdb"), base_url="http://127.0.0.1") as client:
        got = client.get(f"/api/games/{game_id}")
    assert got.status_code == 200, got.text[:300]
    panels = [e["llm"] for e in got.json()["events"] if "llm" in e]
    assert panels and all(p["reasoning"] is None for p in panels)
