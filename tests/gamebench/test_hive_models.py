"""Hive with model seats on the loopback server (the real SDKs over HTTP): both seats ask
for a rule once, then play listed actions; the stored game verifies offline."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import Answer, Incoming, LoopbackServer
from events.agent import ActionDefaulted, LLMCall
from events.gamebench.hive import HiveConfig
from events.store import DuckStore
from runner.session import play_and_store
from runner.verify import check_game
from tests.llm.helpers import no_network, seat, set_env


@pytest.fixture(autouse=True)
def llm_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake keys, no config file, millisecond backoff."""
    set_env(monkeypatch, tmp_path)


def curious(req: Incoming) -> Answer:
    """Asks for the first heading's rules once, then plays a listed action picked by the
    prompt's checksum (reasoning first when the prompt asks for it)."""
    prompt = req.prompt
    if "RULES YOU ASKED ABOUT" not in prompt:
        heading = re.search(r"under these headings;[^\n]*\n([^,\n]+)", prompt)
        return Answer(text=f"Action: Explain({heading.group(1) if heading else 'x'})")
    legal = prompt.split("Legal actions:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    pick = legal[zlib.crc32(prompt.encode()) % len(legal)]
    think = "I look at the queens.\n" if "think out loud" in prompt else ""
    return Answer(text=f"{think}Action: {pick}")


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(curious) as s:
        yield s


def test_model_seats_play_hive_and_the_game_verifies_offline(
    server: LoopbackServer, tmp_path: Path
) -> None:
    config = HiveConfig(max_plies=16, name="tiny", steps="one")
    db = tmp_path / "m.duckdb"
    with DuckStore(db) as store:
        gid, record = play_and_store(
            store, config, 3, [seat(server, "openai", opts="mode=cot"), seat(server, "anthropic")]
        )
        _, explained = store.query(
            "SELECT count(*) FROM events WHERE game_id = ? AND type = 'hive_rule_explained'",
            [gid],
        )
    server.stop()
    assert explained == [(2,)]
    calls = [e for e in record.events if isinstance(e, LLMCall)]
    assert calls and all(c.error is None and c.parse_error is None for c in calls)
    assert not any(isinstance(e, ActionDefaulted) for e in record.events)
    assert record.result is not None and sum(record.result.scores) == pytest.approx(1.0)
    with no_network(), DuckStore(db) as store:
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem
