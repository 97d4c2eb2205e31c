"""`cattle reparse`: today's parser over stored model answers. Games are recorded with a
parser that differs from today's (stricter, or looser), and rereading them finds every
decision that would now go otherwise, without calling a model or changing the store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agents.llm.loopback import Answer, Incoming, LoopbackServer
from agents.openspiel.standin import prompt_legal_actions
from events import catalog
from events.agent import ActionDefaulted, ModelDecision
from events.store import DuckStore
from projections.openspiel.view import OpenSpielPrompter
from runner.reparse import reparse
from runner.session import play_and_store
from tests.cli.clikit import cattle

from .helpers import no_network, seat

TODAY = OpenSpielPrompter.parse


def _sentence(req: Incoming) -> Answer:
    """A legal move named in a sentence (today's parser reads it leniently)."""
    legal = prompt_legal_actions(req.prompt)
    return Answer(text=f"I think {legal[-1]} is best here." if legal else "no idea")


def _strict(self: Any, text: str, decision: Any, seat_: int) -> tuple[Any, str, str | None]:
    """An older parser without the lenient stage."""
    action, stage, error = TODAY(self, text, decision, seat_)
    if stage == "lenient":
        return None, "failed", "no action line"
    return action, stage, error


def _loose(self: Any, text: str, decision: Any, seat_: int) -> tuple[Any, str, str | None]:
    """A parser that took anything for the first legal move."""
    action, stage, error = TODAY(self, text, decision, seat_)
    if action is None:
        legal, _ = decision.options(seat_)
        return legal[0], "json", None
    return action, stage, error


def _play(db: Path, answer: Any, parse: Any, seed: int) -> tuple[str, list[Any]]:
    config = catalog.get("openspiel").preset("tic_tac_toe")
    with pytest.MonkeyPatch.context() as mp, LoopbackServer(answer) as srv:
        mp.setattr(OpenSpielPrompter, "parse", parse)
        with DuckStore(db) as store:
            game_id, record = play_and_store(store, config, seed, [seat(srv, "openai")] * 2)
    return game_id, list(record.events)


def test_fallbacks_that_become_moves_and_moves_that_become_fallbacks(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    strict_id, strict = _play(db, _sentence, _strict, 1)
    loose_id, loose = _play(db, lambda req: Answer(text="I would rather not say."), _loose, 2)
    assert all(e.outcome == "unparsable" for e in strict if isinstance(e, ModelDecision))
    assert not any(isinstance(e, ActionDefaulted) for e in loose)
    with no_network():
        (t,) = reparse([(strict_id, strict), (loose_id, loose)])
    decided = [e for e in strict + loose if isinstance(e, ModelDecision)]
    strict_n = sum(1 for e in strict if isinstance(e, ModelDecision))
    assert t.game == "openspiel" and t.agent == "openai:loop"
    assert t.decisions == len(decided)
    assert t.fallback_to_move == strict_n
    assert t.move_to_fallback == len(decided) - strict_n
    assert t.examples and t.examples[0]["then"][0] == "failed"
    assert t.examples[0]["now"][0] == "lenient"


def test_the_command_reports_and_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    _play(db, _sentence, _strict, 3)
    before = db.read_bytes()
    got = cattle("reparse", "--json", "--db", db, env={"OPENAI_API_KEY": "unused"})
    assert got.returncode == 0, got.stderr
    assert db.read_bytes() == before
    (row,) = json.loads(got.stdout)["agents"]
    assert row["fallback_to_move"] == row["decisions"] > 0
    shown = cattle("reparse", "--db", db, env={"COLUMNS": "80"})
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    assert "now a move" in text and "then failed (no action line); now lenient" in text
    assert all(len(line) <= 80 for line in shown.stdout.splitlines())


@pytest.mark.parametrize("seed", [4, 11])
def test_every_stored_answer_is_read_again(tmp_path: Path, seed: int) -> None:
    """Both seats of a micro-duel are models; their bids are asked at once, so one seat's
    answers sit in the log after the other's. Every answer `llm_calls` holds (scratchpad
    rewrites aside) is read again, one decision per answered decision."""
    from agents.llm.loopback import LegalPolicy

    db = tmp_path / "duel.duckdb"
    config = catalog.get("cattle-trade").preset("micro-duel")
    with LoopbackServer(LegalPolicy(seed)) as srv, DuckStore(db) as store:
        game_id, record = play_and_store(store, config, seed, [seat(srv, "openai")] * 2)
        (stored,) = store.con.execute(
            "SELECT count(*) FROM llm_calls WHERE game_id = ? AND stage <> 'scratchpad'",
            [game_id],
        ).fetchone()
    decisions = sum(1 for e in record.events if isinstance(e, ModelDecision))
    with no_network():
        (t,) = reparse([(game_id, list(record.events))])
    assert stored > 0 and t.calls == stored
    assert t.decisions == decisions
