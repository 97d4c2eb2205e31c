"""Are You the Traitor? with model seats on the loopback server (the real SDKs over HTTP): the
model seats ask for a rule once, then ask, answer and take part in the stop poll; the stored
game verifies offline. Then a short code-agent tournament through the real command line, in
the `teams` format (two evil seats against three good ones), verified, with one rating
record per game."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import Answer, Incoming, LoopbackServer
from events.agent import ActionDefaulted, LLMCall
from events.gamebench.traitor import TraitorConfig
from events.store import DuckStore
from projections.ratings import load_matches
from runner.session import play_and_store
from runner.verify import check_game
from tests.cli.clikit import cattle
from tests.llm.helpers import no_network, seat, set_env


@pytest.fixture(autouse=True)
def llm_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake keys, no config file, millisecond backoff."""
    set_env(monkeypatch, tmp_path)


def talker(req: Incoming) -> Answer:
    """Asks for the first heading's rules once; then asks the first player offered, answers
    in a few words, and in the stop poll picks a listed action by the prompt's checksum
    (reasoning first when the prompt asks for it)."""
    prompt = req.prompt
    if "RULES YOU ASKED ABOUT" not in prompt:
        heading = re.search(r"under these headings;[^\n]*\n([^,\n]+)", prompt)
        return Answer(text=f"Action: Explain({heading.group(1) if heading else 'x'})")
    think = "I weigh what was said.\n" if "think out loud" in prompt else ""
    if "YOUR QUESTION" in prompt:
        who = re.search(r"Action: Ask (Player [A-E]):", prompt)
        action = f"Ask {who.group(1) if who else 'Player A'}: which wizard do you trust?"
    elif "YOUR ANSWER" in prompt:
        action = "Say: I trust the quieter one."
    else:
        legal = prompt.split("Legal actions:\n", 1)[1].split("\nReply", 1)[0]
        legal = legal.split("\nFirst think", 1)[0]
        options = legal.splitlines()
        action = options[zlib.crc32(prompt.encode()) % len(options)]
    return Answer(text=f"{think}Action: {action}")


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(talker) as s:
        yield s


def test_model_seats_play_and_the_game_verifies_offline(
    server: LoopbackServer, tmp_path: Path
) -> None:
    config = TraitorConfig(target=4, max_rounds=2, max_exchanges=2, name="tiny")
    db = tmp_path / "m.duckdb"
    seats = [
        seat(server, "openai", opts="mode=cot"),
        "sleuth",
        seat(server, "anthropic"),
        "random",
        "sleuth",
    ]
    with DuckStore(db) as store:
        gid, record = play_and_store(store, config, 3, seats)
        _, explained = store.query(
            "SELECT count(*) FROM events WHERE game_id = ? AND type = 'gb_ayt_rule_explained'",
            [gid],
        )
        _, talk = store.query(
            "SELECT count(*) FROM gb_ayt_talk WHERE game_id = ? AND text LIKE '%quieter one%'",
            [gid],
        )
    server.stop()
    assert explained == [(2,)]
    assert talk[0][0] >= 1  # a model's answer reached the public talk
    calls = [e for e in record.events if isinstance(e, LLMCall)]
    assert calls and all(c.error is None and c.parse_error is None for c in calls)
    assert not any(isinstance(e, ActionDefaulted) for e in record.events)
    assert record.result is not None and set(record.result.scores) <= {0.0, 0.5, 1.0}
    with no_network(), DuckStore(db) as store:
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem


def test_a_teams_tournament_verifies_and_rates(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    got = cattle("tournament", "--game", "gamebench:are_you_the_traitor", "--preset", "quick",
                 "--agents", "random,sleuth", "--games", "6", "--seed", "2", "--quiet",
                 "--db", db)  # fmt: skip
    assert got.returncode == 0, got.stderr
    with DuckStore(db) as store:
        _, rows = store.query(
            "SELECT list(r.agent ORDER BY r.seat), list(r.score ORDER BY r.seat)"
            " FROM results r GROUP BY r.game_id"
        )
        records = load_matches(store)
    assert len(rows) == 6
    for seated, scores in rows:
        # Seats 0-1 (evil) hold one agent, seats 2-4 (good) the other; each carries its
        # team's score.
        assert len(set(seated[:2])) == len(set(seated[2:])) == 1 and seated[0] != seated[2]
        assert len(set(scores[:2])) == len(set(scores[2:])) == 1
        assert scores[0] + scores[2] == pytest.approx(1)
    # One pairwise record per game: a team game is one match between two agents (the
    # records the ratings are fitted on).
    assert len(records) == 6 and all(set(r) == {"game", "random", "sleuth"} for r in records)
    checked = cattle("verify", "--all", "--db", db)
    assert checked.returncode == 0, checked.stdout[-2000:]
