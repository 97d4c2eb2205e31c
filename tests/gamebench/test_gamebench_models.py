"""GameBench games with model seats on the loopback server (the real SDKs over HTTP), and a
short code-agent tournament through the command line, verified offline and rated with
Bradley-Terry over the games' match scores."""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import Answer, Incoming, LoopbackServer
from events import catalog
from events.agent import ActionDefaulted, LLMCall
from events.gamebench.pit import PitConfig
from events.store import DuckStore
from projections.ratings import load_matches
from runner import tournament
from runner.session import play_and_store
from runner.verify import check_game
from tests.cli.clikit import cattle
from tests.llm.helpers import no_network, seat, set_env


@pytest.fixture(autouse=True)
def llm_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake keys, no config file, millisecond backoff."""
    set_env(monkeypatch, tmp_path)


def curious(req: Incoming) -> Answer:
    """Asks for the first heading's rules once, then plays a legal action chosen from the
    prompt's numbers (with some reasoning first when the prompt asks for it)."""
    prompt = req.prompt
    if "RULES YOU ASKED ABOUT" not in prompt:
        heading = re.search(r"under these headings;[^\n]*\n([^,\n]+)", prompt)
        return Answer(text=f"Action: Explain({heading.group(1) if heading else 'x'})")
    legal = prompt.split("Legal actions:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    pick = legal[zlib.crc32(prompt.encode()) % len(legal)]
    think = "I weigh the options.\n" if "think out loud" in prompt else ""
    return Answer(text=f"{think}Action: {pick}")


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A loopback model that explains a rule once, then plays legal actions."""
    with LoopbackServer(curious) as s:
        yield s


@pytest.mark.parametrize(
    ("name", "opts"), [("gamebench:pit", "mode=cot"), ("gamebench:santorini", "")]
)
def test_a_model_seat_plays_and_the_game_verifies_offline(
    server: LoopbackServer, tmp_path: Path, name: str, opts: str
) -> None:
    game = catalog.get(name)
    config = (
        PitConfig(max_turns=6, name="short") if name == "gamebench:pit" else game.preset("standard")
    )
    db = tmp_path / "m.duckdb"
    with DuckStore(db) as store:
        gid, record = play_and_store(
            store, config, 3, [seat(server, "openai", opts=opts), seat(server, "anthropic")]
        )
        _, explained = store.query(
            "SELECT count(*) FROM events WHERE game_id = ? AND type LIKE '%_rule_explained'",
            [gid],
        )
    server.stop()
    assert explained == [(2,)]  # each seat asked once, and its later prompts show the rules
    calls = [e for e in record.events if isinstance(e, LLMCall)]
    assert calls and all(c.error is None and c.parse_error is None for c in calls)
    assert not any(isinstance(e, ActionDefaulted) for e in record.events)
    assert record.result is not None and sum(record.result.scores) == pytest.approx(1.0)
    with no_network(), DuckStore(db) as store:
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem


def test_a_code_agent_tournament_verifies_and_is_rated(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    with DuckStore(db) as store:
        tournament.ensure_schema(store)
        for name, agents in (
            ("gamebench:pit", ("cornerer", "random")),
            ("gamebench:santorini", ("climber", "random")),
        ):
            config = catalog.get(name).preset("standard")
            label = name.split(":")[1]
            tournament.create(store, label, "duplicate", agents, 6, 2, config)
            _, tasks, _ = tournament.pending_tasks(store, label)
            assert tournament.play_tournament(store, label, config, tasks) == 6
        _, ids = store.query("SELECT game_id FROM games ORDER BY game_id")
        for (gid,) in ids:
            check = check_game(store.load_rows(gid))
            assert check.outcome == "verified", (gid, check.problem)
        records = load_matches(store, game="gamebench:pit")
        _, shares = store.query(
            "SELECT r.score FROM results r WHERE r.game = 'gamebench:pit'"
            " AND r.agent = 'cornerer' ORDER BY r.game_id"
        )
    # Pit's records are its match scores (shares of points), not wins and losses.
    assert len(ids) == 12
    assert [r["cornerer"] for r in records] == pytest.approx([s[0] for s in shares])
    rated = cattle("ratings", "--method", "bt", "--bootstrap", "50", "--json", "--db", db)
    assert rated.returncode == 0, rated.stderr
    table = {r["agent"]: r for r in json.loads(rated.stdout)}
    assert set(table) == {"cornerer", "climber", "random"}
    assert table["climber"]["mean"] > table["random"]["mean"]
    assert table["random"]["pairs"] == 12
