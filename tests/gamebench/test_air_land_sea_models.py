"""Air, Land and Sea with model seats on the loopback server (the real SDKs over HTTP): both
seats ask for a rule once, then play listed actions; the stored match verifies offline. And
a short code-agent tournament through the real command line and verified."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import Answer, Incoming, LoopbackServer
from events.agent import ActionDefaulted, LLMCall
from events.gamebench.air_land_sea import AlsBattleEnded, AlsConfig
from events.store import DuckStore
from runner.session import play_and_store
from runner.verify import check_game
from tests.cli.clikit import cattle
from tests.llm.helpers import no_network, seat, set_env


@pytest.fixture(autouse=True)
def llm_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake keys, no config file, millisecond backoff."""
    set_env(monkeypatch, tmp_path)


def curious(req: Incoming) -> Answer:
    """Asks for the first heading's rules once, then plays a listed action picked by the
    prompt's checksum, never withdrawing until the other player is down to four cards, then
    withdrawing on its turn (reasoning first when the prompt asks for it)."""
    prompt = req.prompt
    if "RULES YOU ASKED ABOUT" not in prompt:
        heading = re.search(r"under these headings;[^\n]*\n([^,\n]+)", prompt)
        return Answer(text=f"Action: Explain({heading.group(1) if heading else 'x'})")
    legal = prompt.split("Legal actions:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    if "Withdraw" in legal and "holds 4 cards" in prompt:
        return Answer(text="Action: Withdraw")
    legal = [a for a in legal if a != "Withdraw"] or legal
    pick = legal[zlib.crc32(prompt.encode()) % len(legal)]
    think = "I count the theatres.\n" if "think out loud" in prompt else ""
    return Answer(text=f"{think}Action: {pick}")


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(curious) as s:
        yield s


def test_model_seats_play_and_the_match_verifies_offline(
    server: LoopbackServer, tmp_path: Path
) -> None:
    config = AlsConfig(target=6, max_battles=1, name="tiny")
    db = tmp_path / "m.duckdb"
    with DuckStore(db) as store:
        gid, record = play_and_store(
            store, config, 3, [seat(server, "openai", opts="mode=cot"), seat(server, "anthropic")]
        )
        _, explained = store.query(
            "SELECT count(*) FROM events WHERE game_id = ? AND type = 'als_rule_explained'",
            [gid],
        )
    server.stop()
    assert explained == [(2,)]
    calls = [e for e in record.events if isinstance(e, LLMCall)]
    assert len(calls) >= 6 and all(c.error is None and c.parse_error is None for c in calls)
    assert not any(isinstance(e, ActionDefaulted) for e in record.events)
    assert record.result is not None and sorted(record.result.scores) == [0.0, 1.0]
    assert [e.reason for e in record.events if isinstance(e, AlsBattleEnded)] == ["withdrew"]
    with no_network(), DuckStore(db) as store:
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem


def test_a_code_agent_tournament_verifies(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    got = cattle("tournament", "--game", "gamebench:air_land_sea", "--preset", "quick",
                 "--agents", "random,commander", "--games", "6", "--seed", "2", "--quiet",
                 "--db", db)  # fmt: skip
    assert got.returncode == 0, got.stderr
    checked = cattle("verify", "--all", "--db", db)
    assert checked.returncode == 0, checked.stdout[-2000:]
    with DuckStore(db) as store:
        _, rows = store.query(
            "SELECT r.agent, sum(r.score), count(*) FROM results r GROUP BY r.agent ORDER BY 1"
        )
    (commander, c_score, c_games), (random_agent, r_score, r_games) = rows
    assert (commander, random_agent, c_games, r_games) == ("commander", "random", 6, 6)
    assert c_score > r_score and c_score + r_score == pytest.approx(6)
