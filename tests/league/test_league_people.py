"""A person drops in: joins the league's queue from the viewer under a name, with a secret
their browser keeps, finds their seat's private link, plays, and appears on the table."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from agents.human import lobby
from agents.human.mailbox import desk_state, post_answer, question
from cli.web.app import create_app
from events.league import load_events
from events.store import DuckStore
from projections import league as P
from runner import league as L

ROOT = Path(__file__).resolve().parents[2]
SECRET = "0123456789abcdef0123456789abcdef"
LEAGUE = """
[league]
name = "drop-in"
seed = 9
round_games = 4
reference = ["bot"]
person_timeout = 20

[[games]]
game = "openspiel"
preset = "kuhn_poker"

[[agents]]
name = "rnd"
spec = "random"

[[agents]]
name = "bot"
spec = "mcts?simulations=20"
"""


def test_a_person_joins_plays_and_appears_on_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats = tmp_path / "seats"
    monkeypatch.setenv("CATTLE_SEATS", str(seats))
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE)
    db = tmp_path / "league.duckdb"
    with DuckStore(db) as store:
        L.run(store, path, games=2, day=lambda: "2026-12-07", seats=seats)
    headers = {"origin": "http://127.0.0.1"}
    with TestClient(create_app(db, seats=seats), base_url="http://127.0.0.1") as client:
        assert "drop-in" in client.get("/league/join").text
        join = {"name": "ann", "league": "drop-in", "game": "openspiel", "secret": SECRET}
        assert client.post("/api/league/join", json=join, headers=headers).status_code == 200
        # Another browser cannot take the name while it waits, nor look for its seat.
        other = {**join, "secret": "f" * 32}
        assert client.post("/api/league/join", json=other, headers=headers).status_code == 409
        assert client.post("/api/league/seat", json=other).status_code == 403
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cli.main",
                "league",
                str(path),
                "--db",
                str(db),
                "--games",
                "5",
                "--quiet",
            ],
            cwd=ROOT,
            env={**os.environ, "CATTLE_SEATS": str(seats)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            answered = 0
            deadline = time.monotonic() + 120
            desk = None
            while proc.poll() is None:
                assert time.monotonic() < deadline, "the league never finished"
                if desk is None:
                    got = client.post("/api/league/seat", json={"name": "ann", "secret": SECRET})
                    assert got.status_code == 200, got.text
                    desk = got.json()["desk"]
                if desk is not None:
                    token = desk_state(seats, desk)["token"]
                    q = question(seats, token) if token else None
                    if q is not None and client.get(f"/seats/desk/{desk}").status_code == 200:
                        answered += post_answer(seats, token, "1")
                time.sleep(0.02)
            _, errors = proc.communicate()
            assert proc.returncode == 0, errors
        finally:
            if proc.poll() is None:
                proc.kill()
    assert answered >= 1
    assert not lobby.waits(seats, "ann")
    with DuckStore(db, read_only=True) as store:
        state = P.fold(load_events(store.con, "drop-in"))
        table = P.table(store, "drop-in", state, samples=20)
        assert L.replay_choices(store, "drop-in") == []
    person = [m for r in state.rounds for m in r.matches if "ann" in m.lineup]
    assert len(person) == 1 and person[0].lineup == ("ann", "bot")
    row = next(r for r in table.tables["openspiel"] if r.agent == "ann")
    assert row.seat_agent == "human:ann" and row.games == 1
