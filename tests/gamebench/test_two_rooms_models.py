"""Two Rooms and a Boom with model seats on the loopback server (the real SDKs over HTTP):
the models ask for a rule once, then talk, show their colour, lead, and one answers in
structured output; the stored game verifies offline and a code-agent tournament runs
through the real command line."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import Answer, Incoming, LoopbackServer
from events import catalog
from events.agent import ActionDefaulted, LLMCall
from events.gamebench import two_rooms as te
from events.store import DuckStore
from runner.session import play_and_store
from runner.verify import check_game
from tests.cli.clikit import cattle
from tests.llm.helpers import no_network, seat, set_env


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Fake keys and no config file; the database path."""
    set_env(monkeypatch, tmp_path)
    yield tmp_path / "models.duckdb"


def talker(req: Incoming) -> Answer:
    """Reads the rules on hostages first; then says who it is in the first round, shows its
    colour to someone later, and as a leader sends the first listed player."""
    p = req.prompt
    structured = "response_format" in req.body or "tools" in req.body

    def answer(action: str) -> Answer:
        if structured:
            return Answer(text=json.dumps({"reasoning": "so", "action": action}))
        return Answer(text=f"I weigh my options.\nAction: {action}")

    if "* Hostages:" not in p:
        return answer("Explain(Hostages)")
    legal = p.split("Legal actions:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    if "YOUR TURN TO TALK" in p:
        me = re.search(r"You are player (\w)", p)
        if "Round 1 of" in p:
            return answer(f"Say: {me.group(1) if me else '?'} here, ask me anything")
        shows = [a for a in legal if a.startswith("Show colour")]
        return answer(shows[0] if shows else "Keep quiet")
    return answer(legal[0])


def test_model_seats_play_two_rooms_and_the_game_verifies_offline(env: Path) -> None:
    game = catalog.get("gamebench:two_rooms_and_a_boom")
    with LoopbackServer(talker) as srv, DuckStore(env) as store:
        seats = [
            seat(srv, "openai", opts="mode=cot"),
            "sleuth",
            "random",
            seat(srv, "anthropic"),
            seat(srv, "openai", opts="mode=cot&output=json_schema"),
            "sleuth",
        ]
        gid, record = play_and_store(store, game.preset("open_short"), 4, seats)
    events = record.events
    calls = [e for e in events if isinstance(e, LLMCall)]
    assert calls and all(c.error is None and c.parse_error is None for c in calls)
    assert {c.seat for c in calls} == {0, 3, 4}
    assert not any(isinstance(e, ActionDefaulted) for e in events)
    explained = sorted(e.seat for e in events if isinstance(e, te.TrRuleExplained))
    assert explained == [0, 3, 4]
    said = [e for e in events if isinstance(e, te.TrSaid) and e.seat in (0, 3, 4)]
    assert said and all(e.text.endswith("here, ask me anything") for e in said)
    assert any(isinstance(e, te.TrShown) and e.seat in (0, 3, 4) for e in events)
    assert {c.parse_stage for c in calls if c.seat == 4} == {"json"}
    # A model's prompt holds its own card and never another seat's role.
    first = next(c for c in calls if c.seat == 0).messages[-1].content
    assert "think out loud" in first and "Your card:" in first
    assert record.result is not None and sorted(record.result.scores) == [0, 0, 0, 1, 1, 1]
    with no_network(), DuckStore(env) as store:
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem


def test_a_code_agent_tournament_verifies_and_rates(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    got = cattle("tournament", "--game", "gamebench:two_rooms_and_a_boom", "--preset", "open_short",
                 "--agents", "random,sleuth", "--games", "4", "--seed", "2", "--name", "tr",
                 "--quiet", "--db", db)  # fmt: skip
    assert got.returncode == 0, got.stderr
    with DuckStore(db) as store:
        _, rows = store.query(
            "SELECT list(r.agent ORDER BY r.seat), list(r.score ORDER BY r.seat)"
            " FROM games g JOIN results r USING (game_id) GROUP BY g.game_id"
        )
        _, talk = store.query("SELECT count(*), count(DISTINCT game_id) FROM gb_two_rooms_talk")
        _, hostages = store.query("SELECT count(*) FROM gb_two_rooms_hostages")
    assert len(rows) == 4
    for seated, scores in rows:
        # Each agent fills one team; each member carries the team's score.
        assert len(set(seated[:3])) == len(set(seated[3:])) == 1 != len(set(seated))
        assert len(set(scores[:3])) == len(set(scores[3:])) == 1
        assert scores[0] + scores[3] == 1
    assert talk == [(4 * 2 * 6, 4)] and hostages == [(4 * 2 * 2,)]
    checked = cattle("verify", "--all", "--db", db)
    assert checked.returncode == 0, checked.stdout[-2000:]
    rated = cattle("ratings", "--method", "bt", "--bootstrap", "50", "--json", "--db", db)
    assert rated.returncode == 0, rated.stderr
    table = {r["agent"]: r for r in json.loads(rated.stdout)}
    assert table["random"]["pairs"] == table["sleuth"]["pairs"] == 4
