"""Requests a provider refuses outright (4xx) and games that fail in a tournament: the
decision plays its default, a key refused again and again stops the tournament with a clear
error (resumable), and a game stopped by an error is kept with it while the others go on."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.llm.agent import AUTH_LIMIT, AuthRefused, LLMAgent
from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from cli.tournament import _summary
from events import catalog
from events.agent import ActionDefaulted, LLMCall, ModelDecision
from events.store import DuckStore
from runner import tournament
from runner.verify import verify_stored

from .helpers import seat, set_env

LEGAL = LegalPolicy()


class Switch:
    """Answers every request with the current mode: legal, or a status refusing it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.status: int | None = None

    def __call__(self, req: Incoming) -> Answer:
        with self.lock:
            status = self.status
        if status is None:
            return LEGAL(req)
        error = {"error": {"message": "no such key", "type": "invalid_request_error"}}
        return Answer(status=status, text=json.dumps(error))


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Switch]]:
    set_env(monkeypatch, tmp_path)
    switch = Switch()
    with LoopbackServer(switch) as srv:
        yield srv, switch


def _tournament(store: DuckStore, srv: Any, name: str, games: int = 2) -> list[Any]:
    config = catalog.resolve("openspiel:tic_tac_toe")[1]
    tournament.ensure_schema(store)
    spec = seat(srv, "openai", opts="attempts=3&memory=none")
    tournament.create(store, name, "round-robin", (spec, "random"), games, 5, config)
    return tournament.pending_tasks(store, name)[1]


@pytest.mark.parametrize("status", [400, 404, 413, 422])
def test_a_refused_request_plays_the_default_and_the_game_goes_on(
    server: tuple[Any, Switch], tmp_path: Path, status: int
) -> None:
    srv, switch = server
    switch.status = status
    with DuckStore(tmp_path / "r.duckdb") as store:
        tasks = _tournament(store, srv, "r")
        assert tournament.play_tournament(store, "r", None, tasks) == len(tasks)
        for t in tasks:
            events = store.load_events(t.game_id)
            calls = [e for e in events if isinstance(e, LLMCall)]
            decisions = [e for e in events if isinstance(e, ModelDecision)]
            # one request per decision (no retry of a refusal), stored with its status
            assert len(calls) == len(decisions) > 0
            assert all(c.status == status and c.attempt == 1 for c in calls)
            assert all(c.error and c.error.startswith("refused: ") for c in calls)
            assert all(c.input_tokens == c.output_tokens == 0 for c in calls)
            assert {d.outcome for d in decisions} == {"error"}
            reasons = {e.reason for e in events if isinstance(e, ActionDefaulted)}
            assert reasons == {f"model refused the request ({status})"}
            assert verify_stored(store, t.game_id).outcome == "verified"


@pytest.mark.parametrize("status", [401, 403])
def test_a_key_refused_again_and_again_stops_the_tournament_resumably(
    server: tuple[Any, Switch], tmp_path: Path, status: int
) -> None:
    srv, switch = server
    switch.status = status
    with DuckStore(tmp_path / "a.duckdb") as store:
        tasks = _tournament(store, srv, "a", games=3)
        with pytest.raises(AuthRefused) as caught:
            tournament.play_tournament(store, "a", None, tasks)
        said = str(caught.value)
        assert "openai" in said and f"{AUTH_LIMIT} times in a row" in said
        assert said.startswith("seat ") and "(openai:loop" in said
        # exactly AUTH_LIMIT requests went out, each stored, over the games begun
        assert len(srv.requests) == AUTH_LIMIT
        _, rows = store.query("SELECT count(*) FROM events WHERE type = 'llm_call'")
        assert rows[0][0] == AUTH_LIMIT
        _, status_rows = store.query("SELECT status FROM games ORDER BY game_id")
        assert "abandoned" in {s for (s,) in status_rows}
        # the key fixed, the tournament resumes from what was stored and ends
        switch.status = None
        _, again, done = tournament.pending_tasks(store, "a")
        assert done + len(again) == 3 and any(t.resume for t in again)
        assert tournament.play_tournament(store, "a", None, again) == len(again)
        _, games = store.query("SELECT game_id, status FROM games ORDER BY game_id")
        assert [s for _, s in games] == ["finished"] * 3
        for gid, _ in games:
            assert verify_stored(store, gid).outcome == "verified"


def test_a_game_that_fails_is_kept_with_its_error_and_the_tournament_goes_on(
    server: tuple[Any, Switch],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    srv, _ = server
    real = LLMAgent._parse
    fail = {"seed": -1}

    def parse(self: LLMAgent, text: str, decision: Any) -> Any:
        if self.seed == fail["seed"]:
            raise RuntimeError("a fault in one game")
        return real(self, text, decision)

    monkeypatch.setattr(LLMAgent, "_parse", parse)
    with DuckStore(tmp_path / "f.duckdb") as store:
        tasks = _tournament(store, srv, "f", games=3)
        fail["seed"] = tasks[1].seed
        assert tournament.play_tournament(store, "f", None, tasks) == 2
        _, games = store.query("SELECT game_id, status, end_reason FROM games ORDER BY game_id", [])
        by_id = {gid: (status, reason) for gid, status, reason in games}
        assert by_id[tasks[1].game_id] == ("abandoned", "error: RuntimeError: a fault in one game")
        assert [by_id[t.game_id][0] for t in (tasks[0], tasks[2])] == ["finished"] * 2
        # the failed game keeps its events and still checks as an unfinished game
        assert store.load_events(tasks[1].game_id)
        assert verify_stored(store, tasks[1].game_id).outcome == "unfinished"
        # the command's summary names it with its error
        _summary(store, "f")
    said = " ".join(capsys.readouterr().out.split())
    assert "2/3 games finished" in said
    assert "1 game stopped by an error" in said and "--resume f" in said
    assert f"{tasks[1].game_id}: RuntimeError: a fault in one game" in said
